//! Looking back over a game for the moves that changed its value.

use ttt_core::{Mark, Position, Square};

use crate::{GameResult, Solver, SolverError};

/// A move that turned the game's value under perfect play for the worse, for its mover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mistake {
    /// The move's number in the game, from 1.
    pub number: usize,
    /// Who made it.
    pub mark: Mark,
    /// Where it was played.
    pub square: Square,
    /// What the mover could reach before the move.
    pub before: GameResult,
    /// What the mover could reach after it.
    pub after: GameResult,
    /// The moves that would have kept `before`.
    pub better: Vec<Square>,
}

/// The moves of a game, played from `start`, that changed the result (win, draw or loss)
/// the mover could force. A slower win or a quicker loss is not counted: only a change of
/// result is.
///
/// ```
/// use ttt_core::{Position, Square};
/// use ttt_solver::{GameResult, Solver, review};
///
/// // X opens in the centre; O answers on a side (2), which loses; X then lets the win go
/// // by playing under the centre (8), where O's 2 already blocks the column.
/// let moves = [5, 2, 8].map(|n| Square::new(n - 1));
/// let mistakes = review(&mut Solver::new(), &Position::default(), &moves)?;
/// assert_eq!(mistakes.len(), 2);
/// assert_eq!((mistakes[0].number, mistakes[0].after), (2, GameResult::Loss));
/// assert_eq!((mistakes[1].number, mistakes[1].before), (3, GameResult::Win));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`SolverError`] when the board is too large to solve; an illegal move ends the review
/// there (the moves after it are not looked at).
pub fn review(
    solver: &mut Solver,
    start: &Position,
    moves: &[Square],
) -> Result<Vec<Mistake>, SolverError> {
    let mut position = start.clone();
    let mut mistakes = Vec::new();
    for (index, &square) in moves.iter().enumerate() {
        if !position.is_legal(square) {
            break;
        }
        let values = solver.move_values(&position)?;
        let before = values.first().map(|best| best.value.result);
        let after = values
            .iter()
            .find(|m| m.square == square)
            .map(|m| m.value.result);
        if let (Some(before), Some(after)) = (before, after)
            && before != after
        {
            mistakes.push(Mistake {
                number: index + 1,
                mark: position.to_move(),
                square,
                before,
                after,
                better: values
                    .iter()
                    .filter(|m| m.value.result == before)
                    .map(|m| m.square)
                    .collect(),
            });
        }
        position.play_unchecked(square);
    }
    Ok(mistakes)
}
