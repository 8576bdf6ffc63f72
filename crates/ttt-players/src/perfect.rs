//! The opponent that cannot be beaten.

use std::sync::atomic::{AtomicBool, AtomicU64};

use rand::Rng;
use ttt_core::{Position, Square};
use ttt_solver::{GameResult, ProofLimits, ProofTable, Solver, prove_with};

use crate::{Player, PlayerError, pick};

/// The prover's table for the value of each move: boards the exact solver reaches are
/// small, and their proofs with pairings smaller still.
const PROOF_TABLE_BYTES: usize = 16 << 20;
/// Boards of more squares than this ask the prover first: on smaller ones the exact
/// solver's whole table takes a moment and then answers every move at once.
const PROVER_FROM_SQUARES: usize = 12;

/// Plays perfectly: never loses from any position it can hold, wins as fast as it can,
/// and when lost, loses as slowly as it can. Among equally good moves it picks at random.
///
/// On boards of more than 12 squares (4x4) the value of each move comes first from the
/// prover (win, draw or loss, which pairing strategies settle quickly); only when the best
/// is a win or a loss does the exact solver work out distances, to win soonest or lose
/// latest. A drawn position needs no distances: every move that keeps the draw is as good
/// as any other. On smaller boards the exact solver answers alone.
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

    /// The moves that keep a draw, when the best result the side to move can force is a
    /// draw; `None` when it is a win or a loss (or the prover cannot say).
    fn drawing_moves(position: &Position) -> Option<Vec<Square>> {
        let (stop, nodes) = (AtomicBool::new(false), AtomicU64::new(0));
        let limits = ProofLimits {
            table_bytes: PROOF_TABLE_BYTES,
            stop: &stop,
            nodes: &nodes,
            max_nodes: None,
        };
        // One table for every move's proof: positions they share are proved once.
        let mut table = ProofTable::default();
        let mut draws = Vec::new();
        for square in position.legal_moves() {
            let after = position.after(square).ok()?;
            // The result for the side to move after the move: the opponent.
            let result = if after.is_over() {
                match after.outcome()?.winner() {
                    Some(_) => GameResult::Loss,
                    None => GameResult::Draw,
                }
            } else {
                prove_with(&after, limits, &mut table).ok()?.result
            };
            match result {
                // The opponent loses: this move wins, and distances matter.
                GameResult::Loss => return None,
                GameResult::Draw => draws.push(square),
                GameResult::Win => {}
            }
        }
        (!draws.is_empty()).then_some(draws)
    }
}

impl Player for Perfect {
    fn choose(&mut self, position: &Position, rng: &mut dyn Rng) -> Result<Square, PlayerError> {
        if position.is_over() {
            return Err(PlayerError::NoMove);
        }
        // Only on boards the exact solver takes (it refuses the others, below).
        let squares = position.rules().square_count();
        let prover_first =
            (PROVER_FROM_SQUARES + 1..=ttt_solver::MAX_SOLVED_SQUARES).contains(&squares);
        if prover_first && let Some(draws) = Perfect::drawing_moves(position) {
            return pick(&draws, rng);
        }
        let best = self.solver.best_moves(position)?;
        pick(&best, rng)
    }
}
