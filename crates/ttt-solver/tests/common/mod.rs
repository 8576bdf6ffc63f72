//! What the solver's tests against the reference minimax share.

use ttt_core::Position;
use ttt_reference::{Minimax, Score};
use ttt_solver::{GameResult, Solver, Value};

/// The reference minimax's verdict as the solver's value.
pub fn as_value((score, plies): (Score, u32)) -> Value {
    let result = match score {
        Score::Win => GameResult::Win,
        Score::Draw => GameResult::Draw,
        Score::Loss => GameResult::Loss,
    };
    Value::new(result, plies)
}

/// Checks that the solver values every one of `positions`, and every move in each, as the
/// reference minimax does.
pub fn assert_valued_as_minimax_values(positions: &[Position]) {
    let mut minimax = Minimax::new();
    let mut solver = Solver::new();
    for position in positions {
        assert_eq!(
            solver.value(position).ok(),
            Some(as_value(minimax.value(position))),
            "{position}"
        );
        for rated in solver.move_values(position).unwrap_or_default() {
            assert_eq!(
                rated.value,
                as_value(minimax.move_value(position, rated.square)),
                "{position} then {:?}",
                rated.square
            );
        }
    }
}
