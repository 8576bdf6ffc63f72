//! Exhaustive checks of the 3x3 game through `Position`, and properties of bigger boards.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

use proptest::prelude::*;
use ttt_core::{Mark, Outcome, PlayError, Position, PositionError, Rules, Square, WinRule};

/// Walks every game from `position`, counting (X wins, O wins, draws, nodes).
fn walk(position: &mut Position, totals: &mut [u64; 4]) {
    totals[3] += 1;
    match position.outcome() {
        Some(Outcome::Win(Mark::X)) => return totals[0] += 1,
        Some(Outcome::Win(Mark::O)) => return totals[1] += 1,
        Some(Outcome::Draw) => return totals[2] += 1,
        None => {}
    }
    for square in position.legal_moves() {
        let before = position.clone();
        position.play(square).unwrap();
        // Every reachable position survives a trip through its notation.
        let reread = Position::parse(&position.to_string(), position.rules(), Mark::X).unwrap();
        assert_eq!(reread.outcome(), position.outcome());
        assert_eq!(reread.to_move(), position.to_move());
        walk(position, totals);
        assert_eq!(position.undo(), Some(square));
        assert_eq!(position.board(), before.board());
        assert_eq!(position.to_move(), before.to_move());
    }
}

/// Every position reachable from `position`, by value: move orders do not count.
fn reachable(position: &Position, seen: &mut std::collections::HashSet<Position>) {
    if !seen.insert(position.clone()) || position.is_over() {
        return;
    }
    for square in position.legal_moves() {
        reachable(&position.after(square).unwrap(), seen);
    }
}

#[test]
fn positions_are_equal_by_board_and_side_to_move_not_by_history() {
    let mut seen = std::collections::HashSet::new();
    reachable(&Position::default(), &mut seen);
    // The published count of legal tic-tac-toe positions, the empty board among them.
    assert_eq!(seen.len(), 5_478);
    let a = Position::from_moves(
        Rules::default(),
        Mark::X,
        &[Square::new(0), Square::new(4), Square::new(8)],
    )
    .unwrap();
    let b = Position::from_moves(
        Rules::default(),
        Mark::X,
        &[Square::new(8), Square::new(4), Square::new(0)],
    )
    .unwrap();
    assert_eq!(a, b);
    assert_ne!(a.history(), b.history());
    // The same board with the other side to move is another position.
    let o_first = Position::parse("x../.o./...", Rules::default(), Mark::O).unwrap();
    let x_first = Position::parse("x../.o./...", Rules::default(), Mark::X).unwrap();
    assert_ne!(o_first, x_first);
}

#[test]
fn every_game_of_tic_tac_toe_is_played_and_undone() {
    let mut totals = [0; 4];
    walk(&mut Position::default(), &mut totals);
    // The published figures: 255,168 games, of which X wins 131,184, O 77,904, 46,080 drawn.
    assert_eq!(totals, [131_184, 77_904, 46_080, 549_946]);
}

#[test]
fn bad_notation_is_named_precisely() {
    let cases: [(&str, PositionError); 7] = [
        (
            "x.o/.x.",
            PositionError::RowCount {
                expected: 3,
                found: 2,
            },
        ),
        (
            "x.o/.x/..o",
            PositionError::RowLength {
                row: 2,
                expected: 3,
                found: 2,
            },
        ),
        (
            "x.o/.y./..o",
            PositionError::Character {
                character: 'y',
                row: 2,
                column: 2,
            },
        ),
        (
            "xxx/.../...",
            PositionError::Counts {
                x: 3,
                o: 0,
                first: Mark::X,
            },
        ),
        ("xxx/ooo/x..", PositionError::BothWon),
        (
            "xxx/oo./..o",
            PositionError::PlayAfterWin { winner: Mark::X },
        ),
        (
            "ooo/xx./x.x",
            PositionError::PlayAfterWin { winner: Mark::O },
        ),
    ];
    for (text, error) in cases {
        assert_eq!(text.parse::<Position>(), Err(error), "{text}");
    }
    // O first: equal counts mean O is to move.
    let position = Position::parse("x.o/.../...", Rules::default(), Mark::O).unwrap();
    assert_eq!(position.to_move(), Mark::O);
    assert!(matches!(
        Position::parse("xx./o../...", Rules::default(), Mark::O),
        Err(PositionError::Counts { first: Mark::O, .. })
    ));
}

#[test]
fn moves_after_the_end_or_on_taken_squares_are_refused() {
    let mut position: Position = "xx./oo./...".parse().unwrap();
    assert_eq!(
        position.play(Square::new(0)),
        Err(PlayError::Occupied {
            square: Square::new(0),
            mark: Mark::X
        })
    );
    assert_eq!(
        position.play(Square::new(9)),
        Err(PlayError::OffBoard(Square::new(9)))
    );
    position.play(Square::new(2)).unwrap();
    assert_eq!(position.play(Square::new(5)), Err(PlayError::GameOver));
    assert_eq!(position.to_string(), "xxx/oo./...");
}

/// Any board, under either win rule.
fn any_rules() -> impl Strategy<Value = Rules> {
    (3_usize..=19, 3_usize..=19, 3_usize..=6, any::<bool>()).prop_filter_map(
        "k fits",
        |(w, h, k, exact)| {
            let win = if exact {
                WinRule::Exact
            } else {
                WinRule::Freestyle
            };
            Some(Rules::new(w, h, k).ok()?.with_win_rule(win))
        },
    )
}

proptest! {
    #[test]
    fn random_games_stay_legal_and_undo_restores(rules in any_rules(), o_first in any::<bool>(), picks in prop::collection::vec(any::<prop::sample::Index>(), 0..80)) {
        let first = if o_first { Mark::O } else { Mark::X };
        let mut position = Position::new(rules, first);
        let mut boards = vec![*position.board()];
        for pick in picks {
            let moves = position.legal_moves();
            if moves.is_empty() {
                prop_assert!(position.is_over());
                break;
            }
            let square = moves[pick.index(moves.len())];
            prop_assert!(position.is_legal(square));
            position.play(square).unwrap();
            boards.push(*position.board());
            let reread = Position::parse(&position.board().to_string(), rules, first).unwrap();
            prop_assert_eq!(reread.outcome(), position.outcome());
            prop_assert_eq!(reread.to_move(), position.to_move());
            // The notation round-trips on every board, whoever moved first.
            let notation = position.to_string();
            let round_trip: Position = notation.parse().unwrap();
            prop_assert_eq!(&round_trip, &position, "{}", notation);
            prop_assert_eq!(round_trip.to_string(), notation);
        }
        boards.pop();
        while let Some(board) = boards.pop() {
            prop_assert!(position.undo().is_some());
            prop_assert_eq!(position.board(), &board);
        }
        prop_assert_eq!(position.undo(), None);
    }
}
