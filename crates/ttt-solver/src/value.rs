//! The value of a position under perfect play.

use std::cmp::Ordering;
use std::fmt;

/// Win, draw or loss, from the point of view of one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The side can force a win.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The other side can force a win.
    Loss,
}

impl GameResult {
    /// `"win"`, `"draw"` or `"loss"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::Win => "win",
            GameResult::Draw => "draw",
            GameResult::Loss => "loss",
        }
    }

    /// The same result seen by the other side: a win is the other's loss.
    ///
    /// ```
    /// use ttt_solver::GameResult;
    ///
    /// assert_eq!(GameResult::Win.for_the_other_side(), GameResult::Loss);
    /// assert_eq!(GameResult::Draw.for_the_other_side(), GameResult::Draw);
    /// ```
    #[must_use]
    pub const fn for_the_other_side(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }
}

/// What a position is worth to the side to move when both sides play perfectly: the
/// result, and how many plies (single moves) the game then lasts. The winner hurries and
/// the loser delays, so `plies` is the fastest win or the longest loss.
///
/// Values order from the mover's point of view: a faster win is better than a slower one,
/// any win better than a draw, and a slower loss better than a faster one.
///
/// ```
/// use ttt_solver::{GameResult, Value};
///
/// let quick = Value::new(GameResult::Win, 1);
/// let slow = Value::new(GameResult::Win, 5);
/// let draw = Value::new(GameResult::Draw, 4);
/// let late_loss = Value::new(GameResult::Loss, 6);
/// assert!(quick > slow && slow > draw && draw > late_loss);
/// assert_eq!(slow.to_string(), "win in 5");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Value {
    /// Win, draw or loss for the side to move.
    pub result: GameResult,
    /// Plies until the game ends under perfect play.
    pub plies: u32,
}

impl Value {
    /// A value of `result` reached in `plies` plies.
    #[must_use]
    pub const fn new(result: GameResult, plies: u32) -> Value {
        Value { result, plies }
    }

    /// The value of the same line of play one ply earlier, to the other side: what a move
    /// is worth to the player who makes it, given the value of the position it leads to.
    #[must_use]
    pub const fn before(self) -> Value {
        Value::new(self.result.for_the_other_side(), self.plies + 1)
    }

    /// A number that orders values as [`Ord`] does; larger is better for the mover.
    const fn rank(self) -> i64 {
        let plies = self.plies as i64;
        match self.result {
            GameResult::Win => 1_000 - plies,
            GameResult::Draw => 0,
            GameResult::Loss => plies - 1_000,
        }
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Value {
    /// "win in 3", "draw", "loss in 4"; "lost" and "drawn" for a finished game.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.result, self.plies) {
            (GameResult::Win, plies) => write!(f, "win in {plies}"),
            (GameResult::Draw, 0) => f.write_str("drawn"),
            (GameResult::Draw, _) => f.write_str("draw"),
            (GameResult::Loss, 0) => f.write_str("lost"),
            (GameResult::Loss, plies) => write!(f, "loss in {plies}"),
        }
    }
}

/// A value packed in one byte for the solver's tables, from the mover's view:
/// `SCALE - plies` for a win, `plies - SCALE` for a loss, 0 for a draw (whose length is the
/// number of free squares, so it need not be stored).
pub(crate) type Score = i8;

const SCALE: Score = 100;

/// The score of winning with the very next move.
pub(crate) const WIN_NOW: Score = SCALE - 1;

/// The score of a move to its mover, given the score of the position it leads to.
pub(crate) const fn one_ply_earlier(score: Score) -> Score {
    match score {
        0 => 0,
        s if s > 0 => 1 - s,
        s => -1 - s,
    }
}

/// Unpacks a score of a position with `free` empty squares.
pub(crate) const fn decode(score: Score, free: u32) -> Value {
    match score {
        0 => Value::new(GameResult::Draw, free),
        s if s > 0 => Value::new(GameResult::Win, (SCALE - s) as u32),
        s => Value::new(GameResult::Loss, (SCALE + s) as u32),
    }
}
