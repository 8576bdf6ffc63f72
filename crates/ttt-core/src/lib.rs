//! The rules of m,n,k games: tic-tac-toe and its bigger relatives, up to gomoku.
//!
//! Two players, [`Mark::X`] and [`Mark::O`], take turns putting their mark on a free
//! [`Square`] of a `width` x `height` board; the first to make a line of `k` or more in a
//! row, column or diagonal wins (or of exactly `k`, under [`WinRule::Exact`]), and a full
//! board with no line is a draw. [`Rules`] holds the parameters (3x3, k = 3 by default),
//! [`Position`] plays and takes back moves, and [`SquareNaming`] turns what people type
//! into squares.
//!
//! This crate does no I/O and uses no randomness: it is the part every player, solver and
//! interface of `ttt` stands on.
//!
//! ```
//! use ttt_core::{Mark, Outcome, Position, Rules, SquareNaming};
//!
//! let rules = Rules::default();
//! let mut position = Position::new(rules, Mark::X);
//! for typed in ["5", "1", "9", "3", "2", "8", "7"] {
//!     let square = SquareNaming::Numbers.parse(typed, rules)?;
//!     position.play(square)?;
//! }
//! assert_eq!(position.to_string(), "oxo/.x./xox");
//! assert_eq!(position.outcome(), None);
//! position.play(SquareNaming::Numbers.parse("4", rules)?)?;
//! position.play(SquareNaming::Numbers.parse("6", rules)?)?;
//! assert_eq!(position.outcome(), Some(Outcome::Draw));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bitset;
mod board;
mod line;
mod mark;
mod naming;
mod outcome;
mod position;
mod rules;
mod shown;
mod square;
mod win_rule;

pub use board::Board;
pub use line::{DIRECTIONS, Line, windows};
pub use mark::{Mark, ParseMarkError};
pub use naming::{ParseNamingError, SquareError, SquareNaming, column_letter};
pub use outcome::{Outcome, OutcomeError};
pub use position::{PlayError, Position, PositionError};
pub use rules::{BoardSize, Rules, RulesError};
pub use shown::{Shown, ShownLine};
pub use square::Square;
pub use win_rule::{ParseWinRuleError, WinRule};
