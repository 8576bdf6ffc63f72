//! The solver against the reference minimax (`ttt-reference`), on every position.

#![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

mod common;

use ttt_core::{Mark, Position, Rules, Square};
use ttt_reference::reachable;
use ttt_solver::{GameResult, Solver, review};

#[test]
fn every_position_and_every_move_is_valued_as_minimax_values_it() {
    let positions = reachable(&Position::default());
    assert_eq!(positions.len(), 5_478);
    common::assert_valued_as_minimax_values(&positions);
}

#[test]
fn on_four_by_four_where_the_prover_answers_first_every_move_is_valued_as_minimax_values_it() {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    let mut rng = StdRng::seed_from_u64(13);
    let mut positions = Vec::new();
    for k in [3, 4] {
        let rules = Rules::new(4, 4, k).unwrap();
        while positions.len() < 30 * (k - 2) {
            let stones = rng.random_range(5..=9);
            positions.extend(ttt_reference::random_position(rules, stones, &mut rng));
        }
    }
    // Draws (which the prover settles alone) and wins and losses (which need distances).
    let mut solver = Solver::new();
    let results: Vec<GameResult> = positions
        .iter()
        .map(|position| solver.value(position).unwrap().result)
        .collect();
    for kind in [GameResult::Win, GameResult::Draw, GameResult::Loss] {
        assert!(results.contains(&kind), "no {kind:?} among {results:?}");
    }
    common::assert_valued_as_minimax_values(&positions);
}

fn squares(numbers: &[usize]) -> Vec<Square> {
    numbers.iter().map(|n| Square::new(n - 1)).collect()
}

/// (move number, result before, result after, the squares that kept the result before).
type ExpectedMistake = (usize, GameResult, GameResult, &'static [usize]);

#[test]
fn review_names_exactly_the_moves_that_changed_the_value() {
    let mut solver = Solver::new();
    let start = Position::default();
    // (moves as 1-9, expected mistakes as (move number, before, after, better squares)).
    let games: [(&[usize], &[ExpectedMistake]); 4] = [
        // Perfect play to a draw: corner, centre, opposite corner, side...
        (&[1, 5, 9, 2, 8, 7, 3, 6, 4], &[]),
        // O answers the centre on a side (a loss), X gives the win back with 8, where O's 2
        // already blocks the column; the rest holds the draw.
        (
            &[5, 2, 8],
            &[
                (2, GameResult::Draw, GameResult::Loss, &[1, 3, 7, 9]),
                (3, GameResult::Win, GameResult::Draw, &[1, 3, 4, 6, 7, 9]),
            ],
        ),
        // X opens in a corner, O replies on the adjacent side (a loss), and X then wins.
        (
            &[1, 2, 5, 9, 7],
            &[(2, GameResult::Draw, GameResult::Loss, &[5])],
        ),
        // The opposite-corner trap: after X 1, O 5, X 9, O must take a side; the corner 3
        // lets X fork with 7. After that O is lost whatever it does, so nothing more counts.
        (
            &[1, 5, 9, 3, 7, 2, 4],
            &[(4, GameResult::Draw, GameResult::Loss, &[2, 4, 6, 8])],
        ),
    ];
    for (moves, expected) in games {
        let mistakes = review(&mut solver, &start, &squares(moves)).unwrap();
        let found: Vec<_> = mistakes
            .iter()
            .map(|m| (m.number, m.before, m.after, m.better.clone()))
            .collect();
        let wanted: Vec<_> = expected
            .iter()
            .map(|&(number, before, after, better)| (number, before, after, squares(better)))
            .collect();
        assert_eq!(found, wanted, "game {moves:?}");
        for mistake in &mistakes {
            let expected_mark = if mistake.number % 2 == 1 {
                Mark::X
            } else {
                Mark::O
            };
            assert_eq!(mistake.mark, expected_mark);
        }
    }
    assert!(Rules::default().is_tic_tac_toe());
}
