//! The two marks, X and O.

use std::fmt;
use std::ops::Not;
use std::str::FromStr;

/// What is drawn in a square: a cross or a nought.
///
/// ```
/// use ttt_core::Mark;
///
/// assert_eq!(!Mark::X, Mark::O);
/// assert_eq!("o".parse::<Mark>(), Ok(Mark::O));
/// assert_eq!(Mark::X.to_string(), "X");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mark {
    /// The cross, X.
    X,
    /// The nought, O.
    O,
}

impl Mark {
    /// Both marks, X first.
    pub const ALL: [Mark; 2] = [Mark::X, Mark::O];

    /// The other mark.
    #[must_use]
    pub const fn opponent(self) -> Mark {
        match self {
            Mark::X => Mark::O,
            Mark::O => Mark::X,
        }
    }

    /// The mark as one upper-case character.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Mark::X => 'X',
            Mark::O => 'O',
        }
    }

    /// The mark as one lower-case character, as used in the position notation.
    #[must_use]
    pub const fn lower_char(self) -> char {
        match self {
            Mark::X => 'x',
            Mark::O => 'o',
        }
    }
}

impl Not for Mark {
    type Output = Mark;

    fn not(self) -> Mark {
        self.opponent()
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// The text was neither `x` nor `o`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{}' is not a mark: type X or O", crate::Shown(.0))]
pub struct ParseMarkError(pub String);

impl FromStr for Mark {
    type Err = ParseMarkError;

    fn from_str(text: &str) -> Result<Mark, ParseMarkError> {
        match text.trim() {
            "x" | "X" => Ok(Mark::X),
            "o" | "O" | "0" => Ok(Mark::O),
            other => Err(ParseMarkError(other.to_owned())),
        }
    }
}
