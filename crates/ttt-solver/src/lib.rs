//! Perfect play on small m,n,k boards: exact values and the numbers of the game tree.
//!
//! [`Solver`] values any position of a board of up to 16 squares (tic-tac-toe in well
//! under a millisecond) and rates every legal move; [`walk_tree`] walks the whole game
//! tree node by node, and [`count`] gets the same numbers and more (reachable positions,
//! positions up to symmetry, the value of the empty board) by counting over positions.
//! All of them follow the rules' [`WinRule`](ttt_core::WinRule): under exactly k, an
//! overline wins nothing.
//!
//! ```
//! use ttt_core::Rules;
//!
//! let stats = ttt_solver::count(Rules::default())?;
//! assert_eq!(stats.tree.games.total(), 255_168);
//! assert_eq!(stats.positions, 5_478);
//! assert_eq!(stats.value.to_string(), "draw");
//! # Ok::<(), ttt_solver::SolverError>(())
//! ```

mod count;
pub mod fours;
mod geometry;
mod hash;
mod pn;
pub mod proof_numbers;
mod prover;
mod review;
mod solver;
mod table;
mod value;

pub use count::{OutcomeCounts, Statistics, TreeCounts, count, walk_tree};
pub use geometry::{Bits, Geometry, MAX_SQUARES, MoveOrder};
pub use prover::{
    Claim, Progress, Proof, ProofError, ProofLimits, ProofSearch, UnknownSearch, prove, prove_with,
    write_proof,
};
pub use review::{Mistake, review};
pub use solver::{MAX_SOLVED_SQUARES, MoveValue, Solver};
pub use table::ProofTable;
pub use value::{GameResult, Value};

use ttt_core::Rules;

/// Why the solver cannot answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolverError {
    /// The board is too large for exact solving.
    #[error(
        "perfect play is out of reach on {rules}: the exact solver takes boards of up to {MAX_SOLVED_SQUARES} squares"
    )]
    TooLarge {
        /// The rules asked about.
        rules: Rules,
    },
}
