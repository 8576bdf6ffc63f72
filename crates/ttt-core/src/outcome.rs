//! How a finished game ended.

use std::fmt;

use crate::Mark;

/// The end of a game: a win for one mark, or a draw. A game still going has no outcome
/// (`Option<Outcome>` is `None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This mark made a line.
    Win(Mark),
    /// The board filled with no line made.
    Draw,
}

impl Outcome {
    /// The mark that won, if any.
    #[must_use]
    pub const fn winner(self) -> Option<Mark> {
        match self {
            Outcome::Win(mark) => Some(mark),
            Outcome::Draw => None,
        }
    }
}

impl fmt::Display for Outcome {
    /// "X wins", "O wins" or "Draw".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(mark) => write!(f, "{mark} wins"),
            Outcome::Draw => f.write_str("Draw"),
        }
    }
}
