//! Computer players: something that looks at a position and chooses a square.
//!
//! Every player is pure: the position and a random-number generator go in, a square comes
//! out, so a seeded generator makes every game repeatable.
//!
//! ```
//! use rand::{SeedableRng, rngs::StdRng};
//! use ttt_core::Position;
//! use ttt_players::{Limits, Player, Strength};
//!
//! let mut rng = StdRng::seed_from_u64(7);
//! let mut perfect = Strength::Perfect.player(Limits::default());
//! let position: Position = "xx./oo./...".parse()?;
//! // X completes the top row rather than anything slower.
//! assert_eq!(perfect.choose(&position, &mut rng)?.index(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod centre_opening;
mod limits;
mod mcts;
mod perfect;
mod random;
mod rules;
mod search;
mod strength;

pub use centre_opening::CentreOpening;
pub use limits::Limits;
pub use mcts::Mcts;
pub use perfect::Perfect;
pub use random::Random;
pub use rules::{RuleStep, RulesPlayer};
pub use search::{
    FEATURE_NAMES, FEATURES, Judgement, MoveValues, PatternWeights, SHAPES, Search, Thought,
    move_shapes, pattern_features, vcf, wins_by_threats,
};
pub use strength::{ParseStrengthError, Strength};

use rand::Rng;
use ttt_core::{Position, Square};
use ttt_solver::SolverError;

/// Something that chooses a square for the side to move.
pub trait Player {
    /// The square to play in `position`, using `rng` for any random choice.
    ///
    /// # Errors
    /// [`PlayerError::NoMove`] when the game is over; [`PlayerError::Solver`] when the
    /// player cannot work on this board.
    fn choose(&mut self, position: &Position, rng: &mut dyn Rng) -> Result<Square, PlayerError>;

    /// What it thought for the move it chose last, if it says (a [`Search`] does): its
    /// depth, nodes, time and judgement.
    fn thought(&self) -> Option<Thought> {
        None
    }
}

/// A boxed player plays as the player inside, so wrappers such as [`CentreOpening`] take
/// any player a [`Strength`] makes.
impl<P: Player + ?Sized> Player for Box<P> {
    fn choose(&mut self, position: &Position, rng: &mut dyn Rng) -> Result<Square, PlayerError> {
        (**self).choose(position, rng)
    }

    fn thought(&self) -> Option<Thought> {
        (**self).thought()
    }
}

/// Why a player could not choose a square.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerError {
    /// The game is over: there is nothing to choose.
    #[error("the game is over: there is no move to choose")]
    NoMove,
    /// The exact solver cannot handle this board.
    #[error(transparent)]
    Solver(#[from] SolverError),
    /// A player outside this library (an engine in another process) could not give a
    /// move: what went wrong, in words.
    #[error("{0}")]
    Engine(String),
}

/// One of `squares`, chosen uniformly, or [`PlayerError::NoMove`] when there are none.
pub(crate) fn pick(squares: &[Square], rng: &mut dyn Rng) -> Result<Square, PlayerError> {
    use rand::seq::IndexedRandom;
    squares.choose(rng).copied().ok_or(PlayerError::NoMove)
}
