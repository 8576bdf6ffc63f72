//! How a finished game ended.

use std::fmt;
use std::str::FromStr;

use crate::Mark;

/// The end of a game: a win for one mark, or a draw. A game still going has no outcome
/// (`Option<Outcome>` is `None`).
///
/// ```
/// use ttt_core::{Mark, Outcome};
///
/// assert_eq!(Outcome::Win(Mark::O).to_string(), "O wins");
/// assert_eq!("O wins".parse(), Ok(Outcome::Win(Mark::O)));
/// assert_eq!("draw".parse(), Ok(Outcome::Draw));
/// assert!("X".parse::<Outcome>().is_err());
/// ```
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

/// Text that is not an outcome.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not how a game ends: X wins, O wins or Draw")]
pub struct OutcomeError(String);

impl FromStr for Outcome {
    type Err = OutcomeError;

    /// What [`Display`](fmt::Display) writes, in any case.
    fn from_str(text: &str) -> Result<Outcome, OutcomeError> {
        let words = text.trim();
        if words.eq_ignore_ascii_case("draw") {
            return Ok(Outcome::Draw);
        }
        words
            .split_once(' ')
            .filter(|(_, wins)| wins.eq_ignore_ascii_case("wins"))
            .and_then(|(mark, _)| mark.parse().ok())
            .map(Outcome::Win)
            .ok_or_else(|| OutcomeError(words.chars().take(20).collect()))
    }
}
