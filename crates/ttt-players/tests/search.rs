//! The search player's promises on big boards: it takes a win when it has one, and it
//! answers a line one short of winning, under either win rule.

#![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

use std::time::Duration;

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;
use ttt_core::{Mark, Position, Rules, Square, WinRule};
use ttt_players::{Limits, Player, Search};

/// Squares where `mark` would complete a line of k now, found by trying each one.
fn completing(position: &Position, mark: Mark) -> Vec<Square> {
    position
        .legal_moves()
        .into_iter()
        .filter(|&square| {
            let mut board = *position.board();
            board.set(square, Some(mark));
            !board.lines_through(square).is_empty()
        })
        .collect()
}

/// A random game on 15x15 with k=5 (exactly five when `exact`) played for `plies` moves
/// (stopping early if it ends).
fn random_game(picks: &[prop::sample::Index], exact: bool) -> Position {
    let win = if exact {
        WinRule::Exact
    } else {
        WinRule::Freestyle
    };
    let rules = Rules::new(15, 15, 5).unwrap().with_win_rule(win);
    let mut position = Position::new(rules, Mark::X);
    for pick in picks {
        let moves = position.legal_moves();
        let next = position.after(moves[pick.index(moves.len())]).unwrap();
        if next.is_over() {
            break;
        }
        position = next;
    }
    position
}

fn search() -> Search {
    Search::new(Limits {
        think: Duration::from_millis(50),
        ..Limits::default()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn takes_a_win_whenever_it_has_one(picks in prop::collection::vec(any::<prop::sample::Index>(), 20..120), exact in any::<bool>()) {
        let position = random_game(&picks, exact);
        let wins = completing(&position, position.to_move());
        prop_assume!(!wins.is_empty());
        let chosen = search().choose(&position, &mut StdRng::seed_from_u64(1)).unwrap();
        prop_assert!(wins.contains(&chosen), "{position}: chose {chosen:?}, wins at {wins:?}");
    }

    #[test]
    fn blocks_a_line_one_short_when_it_cannot_win(picks in prop::collection::vec(any::<prop::sample::Index>(), 20..120), exact in any::<bool>()) {
        let position = random_game(&picks, exact);
        let mover = position.to_move();
        let threats = completing(&position, !mover);
        prop_assume!(completing(&position, mover).is_empty() && !threats.is_empty());
        let chosen = search().choose(&position, &mut StdRng::seed_from_u64(2)).unwrap();
        prop_assert!(threats.contains(&chosen), "{position}: chose {chosen:?}, must block {threats:?}");
    }
}

#[test]
fn blocks_an_open_four_in_gomoku() {
    let rules = Rules::new(15, 15, 5).unwrap();
    // O has g8-h8-i8-j8 open at both ends; X to move with nothing to win.
    let mut rows = vec![".".repeat(15); 15];
    rows[7] = "......oooo.....".to_owned();
    rows[0] = "x.x.x..........".to_owned();
    rows[14] = "..............x".to_owned();
    let position = Position::parse(&rows.join("/"), rules, Mark::X).unwrap();
    assert_eq!(position.to_move(), Mark::X);
    let chosen = search()
        .choose(&position, &mut StdRng::seed_from_u64(3))
        .unwrap();
    assert!(
        [7 * 15 + 5, 7 * 15 + 10].contains(&chosen.index()),
        "chose {chosen:?}"
    );
}

#[test]
fn wins_four_by_three_from_the_first_move_as_the_solver_says() {
    // 4x3, k=3 is a first-player win, and the search sees deep enough there to win it as
    // X against itself.
    let rules = Rules::new(4, 3, 3).unwrap();
    let mut position = Position::new(rules, Mark::X);
    let mut rng = StdRng::seed_from_u64(4);
    let mut player = Search::new(Limits {
        think: Duration::from_millis(100),
        ..Limits::default()
    });
    while !position.is_over() {
        let square = player.choose(&position, &mut rng).unwrap();
        position.play(square).unwrap();
    }
    assert_eq!(
        position.outcome(),
        Some(ttt_core::Outcome::Win(Mark::X)),
        "{position}"
    );
}

#[test]
fn two_threads_play_small_boards_as_the_solver_says() {
    // 4x3 with k=3 is a first-player win, 3x3 a draw: two searches on two threads each
    // play them so against each other, as one thread does.
    let cases = [
        (
            Rules::new(4, 3, 3).unwrap(),
            Some(ttt_core::Outcome::Win(Mark::X)),
        ),
        (Rules::new(3, 3, 3).unwrap(), Some(ttt_core::Outcome::Draw)),
    ];
    for (rules, outcome) in cases {
        let mut position = Position::new(rules, Mark::X);
        let mut rng = StdRng::seed_from_u64(5);
        let mut player = Search::new(Limits {
            think: Duration::from_millis(100),
            threads: 2,
            ..Limits::default()
        });
        while !position.is_over() {
            let square = player.choose(&position, &mut rng).unwrap();
            position.play(square).unwrap();
        }
        assert_eq!(position.outcome(), outcome, "{rules}: {position}");
    }
}

#[test]
fn a_search_on_two_threads_plays_a_whole_gomoku_game_within_its_memory() {
    // Two threads against one, 15x15 freestyle, to the end: every move legal, the tables
    // within the bound, and the helper's positions counted with the main thread's.
    let rules = Rules::new(15, 15, 5).unwrap();
    let memory = 4 << 20;
    let limits = Limits {
        think: Duration::from_millis(20),
        memory,
        threads: 2,
    };
    let mut two = Search::new(limits);
    let mut one = Search::new(Limits {
        threads: 1,
        ..limits
    });
    let mut position = Position::new(rules, Mark::X);
    let mut rng = StdRng::seed_from_u64(6);
    let mut searched = 0;
    while !position.is_over() {
        let player = if position.to_move() == Mark::X {
            &mut two
        } else {
            &mut one
        };
        let square = player.choose(&position, &mut rng).unwrap();
        position.play(square).unwrap();
        if position.to_move() == Mark::O {
            searched += u32::from(two.thought().is_some_and(|thought| thought.depth > 0));
        }
        assert!(two.table_bytes() <= memory);
    }
    assert!(searched > 0, "{position}: the alpha-beta ran on some moves");
}
