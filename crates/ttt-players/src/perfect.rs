//! The opponent that cannot be beaten.

use rand::Rng;
use ttt_core::{Position, Square};
use ttt_solver::Solver;

use crate::{Player, PlayerError, pick};

/// Plays perfectly: never loses from any position it can hold, wins as fast as it can,
/// and when lost, loses as slowly as it can. Among equally good moves it picks at random.
///
/// It asks the exact [`Solver`] for its best moves: on 4x4 that asks the prover first
/// (win, draw or loss, which pairing strategies settle quickly), and works out distances
/// only when the best is a win or a loss. A drawn position needs no distances: every move
/// that keeps the draw is as good as any other.
#[derive(Debug, Default)]
pub struct Perfect {
    solver: Solver,
}

impl Perfect {
    /// A perfect player with an empty table.
    #[must_use]
    pub fn new() -> Perfect {
        Perfect::default()
    }
}

impl Player for Perfect {
    fn choose(&mut self, position: &Position, rng: &mut dyn Rng) -> Result<Square, PlayerError> {
        if position.is_over() {
            return Err(PlayerError::NoMove);
        }
        let best = self.solver.best_moves(position)?;
        pick(&best, rng)
    }
}
