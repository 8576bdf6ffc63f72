//! Exactly five: every player that looks for wins and blocks takes only a line of exactly
//! five as a win, and answers only threats of one; the threat search claims no win that
//! needs an overline. Each case also holds under freestyle, the other way, so that the
//! rule is what makes the difference.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::StdRng;
use ttt_core::{Mark, Position, Rules, Square, WinRule};
use ttt_players::{Limits, Mcts, Player, RuleStep, RulesPlayer, Search};

/// The 15x15 position of `rows` (the rest empty) with five in a row under `win`, X first.
fn gomoku(rows: &[(usize, &str)], win: WinRule) -> Position {
    let rules = Rules::new(15, 15, 5).unwrap().with_win_rule(win);
    let mut text = vec![".".repeat(15); 15];
    for &(row, cells) in rows {
        text[row] = cells.to_owned();
    }
    Position::parse(&text.join("/"), rules, Mark::X).unwrap()
}

fn at(column: usize, row: usize) -> Square {
    Square::new(row * 15 + column)
}

/// The players that look for wins and blocks, each with a short think.
fn players() -> Vec<(&'static str, Box<dyn Player>)> {
    let limits = Limits {
        think: Duration::from_millis(50),
        ..Limits::default()
    };
    vec![
        ("rules", Box::new(RulesPlayer)),
        ("search", Box::new(Search::new(limits))),
        ("mcts", Box::new(Mcts::new(limits))),
    ]
}

/// X to move. Row 2: O, four X, a gap, X: the gap makes six. Column k: an O, then four X
/// down from k6 to k9, and k10 free: k10 makes five. Row 14: O's spare marks.
const SIX_OR_FIVE: [(usize, &str); 7] = [
    (2, "oxxxx.x........"),
    (4, "..........o...."),
    (5, "..........x...."),
    (6, "..........x...."),
    (7, "..........x...."),
    (8, "..........x...."),
    (14, "o.o.o.o.o.o.o.."),
];

#[test]
fn the_square_that_makes_exactly_five_is_the_win_and_the_one_that_makes_six_is_not() {
    let (six, five) = (at(5, 2), at(10, 9));
    for (win, wins) in [
        (WinRule::Exact, vec![five]),
        (WinRule::Freestyle, vec![six, five]),
    ] {
        let position = gomoku(&SIX_OR_FIVE, win);
        assert_eq!(position.to_move(), Mark::X);
        let (step, squares) = RulesPlayer::candidates(&position).unwrap();
        assert_eq!(
            (step, sorted(squares)),
            (RuleStep::Win, sorted(wins.clone()))
        );
        for (name, mut player) in players() {
            let chosen = player
                .choose(&position, &mut StdRng::seed_from_u64(1))
                .unwrap();
            assert!(wins.contains(&chosen), "{name} under {win}: {chosen:?}");
            let after = position.after(chosen).unwrap();
            assert_eq!(after.outcome().and_then(|o| o.winner()), Some(Mark::X));
        }
    }
    // Under exact, the six is played and the game goes on.
    let mut position = gomoku(&SIX_OR_FIVE, WinRule::Exact);
    position.play(six).unwrap();
    assert_eq!(position.outcome(), None);
}

/// The same with the marks swapped: O threatens the six and the five, X to move (the spare
/// marks are X's).
fn swapped(rows: &[(usize, &str)]) -> Vec<(usize, String)> {
    rows.iter()
        .map(|&(row, cells)| {
            let cells = cells
                .chars()
                .map(|c| match c {
                    'x' => 'o',
                    'o' => 'x',
                    other => other,
                })
                .collect();
            (row, cells)
        })
        .collect()
}

#[test]
fn only_a_threat_of_exactly_five_is_blocked() {
    let rows = swapped(&SIX_OR_FIVE);
    let rows: Vec<(usize, &str)> = rows
        .iter()
        .map(|(row, text)| (*row, text.as_str()))
        .collect();
    // Under exact the five's square is the one block; under freestyle there are two.
    let position = gomoku(&rows, WinRule::Exact);
    assert_eq!(position.to_move(), Mark::X);
    let (step, squares) = RulesPlayer::candidates(&position).unwrap();
    assert_eq!((step, squares), (RuleStep::Block, vec![at(10, 9)]));
    for (name, mut player) in players() {
        let chosen = player
            .choose(&position, &mut StdRng::seed_from_u64(2))
            .unwrap();
        assert_eq!(chosen, at(10, 9), "{name}");
    }
    let freestyle = gomoku(&rows, WinRule::Freestyle);
    let (step, squares) = RulesPlayer::candidates(&freestyle).unwrap();
    assert_eq!(
        (step, sorted(squares)),
        (RuleStep::Block, vec![at(5, 2), at(10, 9)])
    );
    // With the five blocked already, the six alone is no threat to answer under exact.
    let mut blocked = rows.clone();
    blocked[6] = (14, "x.x.x.x.x.x....");
    blocked.push((9, "..........x...."));
    let position = gomoku(&blocked, WinRule::Exact);
    assert_eq!(
        RulesPlayer::candidates(&position).unwrap().0,
        RuleStep::Nearby
    );
    let position = gomoku(&blocked, WinRule::Freestyle);
    assert_eq!(
        RulesPlayer::candidates(&position).unwrap(),
        (RuleStep::Block, vec![at(5, 2)])
    );
}

#[test]
fn a_four_that_could_only_become_six_wins_nothing_by_threats() {
    // Row 8: O, a gap, three X, two gaps, X. Under freestyle, l8 (column 8) makes four
    // with a square to win on at each end, j8 and o8 (the latter through six): a win by
    // fours. Under exact o8 would make six: one square to win on, which O takes.
    let rows = [(7, "...o.xxx..x...."), (0, "o.o.o..........")];
    let freestyle = gomoku(&rows, WinRule::Freestyle);
    let exact = gomoku(&rows, WinRule::Exact);
    assert_eq!(ttt_players::vcf(&freestyle, 100_000), Some(at(8, 7)));
    assert_eq!(ttt_players::vcf(&exact, 100_000), None);
    // After l8, O to move: under freestyle every reply loses, under exact the block holds.
    assert!(ttt_players::wins_by_threats(
        &freestyle.after(at(8, 7)).unwrap(),
        Mark::X,
        100_000
    ));
    assert!(!ttt_players::wins_by_threats(
        &exact.after(at(8, 7)).unwrap(),
        Mark::X,
        100_000
    ));
}

fn sorted(mut squares: Vec<Square>) -> Vec<Square> {
    squares.sort_unstable();
    squares
}
