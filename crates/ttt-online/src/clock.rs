//! A room's clocks: each player's time for the game, kept by the server alone. The clock
//! of the side to move runs from the moment its turn began; a move stops it, adds the
//! increment, and starts the other's; the side whose time runs out loses. Like the rest
//! of the lobby, the clocks read no time of their own: they are handed the server's
//! (`now`, in milliseconds) with everything that happens.
//!
//! ```
//! use ttt_core::Mark;
//! use ttt_online::clock::{Clocks, TimeControl};
//!
//! let control: TimeControl = "5+3".parse()?;
//! assert_eq!(control.to_string(), "5+3");
//! let mut clocks = Clocks::new(control, 0);
//! // X thinks 10 s and moves: 5 min less 10 s, plus 3 s.
//! clocks.turn(10_000, Some(Mark::X), true);
//! assert_eq!(clocks.left(Mark::X, 10_000, None), 293_000);
//! // O's clock runs meanwhile.
//! assert_eq!(clocks.left(Mark::O, 70_000, Some(Mark::O)), 240_000);
//! assert!(clocks.fallen(10_000 + 300_000, Mark::O));
//! # Ok::<(), ttt_online::clock::TimeControlError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use ttt_core::Mark;

/// How long each player has for a game: minutes for the game, and seconds added after
/// each of their moves, written `5+3` (`5` alone adds none; `0.5+2` is 30 s and 2 s).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// Each player's time for the game, in milliseconds.
    pub base: u64,
    /// Added to a player's time after each of their moves, in milliseconds.
    pub increment: u64,
}

impl TimeControl {
    /// The longest game time a clock takes: three hours.
    pub const MAX_BASE: u64 = 3 * 60 * 60 * 1000;
    /// The shortest: a second.
    pub const MIN_BASE: u64 = 1000;
    /// The largest increment: a minute.
    pub const MAX_INCREMENT: u64 = 60 * 1000;
}

/// Text that is not a time control.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeControlError {
    /// What was given (its first characters).
    pub given: String,
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a clock: minutes for the game and seconds added a move, like 5+3 \
             (a second to 180 minutes, and at most 60 seconds)",
            self.given
        )
    }
}

impl std::error::Error for TimeControlError {}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let error = || TimeControlError {
            given: text
                .chars()
                .filter(|&c| !ttt_core::Shown::is_invisible(c))
                .take(20)
                .collect(),
        };
        let (minutes, seconds) = text.trim().split_once('+').unwrap_or((text.trim(), "0"));
        let base = thousandths(minutes.trim(), 60).ok_or_else(error)?;
        let increment = thousandths(seconds.trim(), 1).ok_or_else(error)?;
        if !(TimeControl::MIN_BASE..=TimeControl::MAX_BASE).contains(&base)
            || increment > TimeControl::MAX_INCREMENT
        {
            return Err(error());
        }
        Ok(TimeControl { base, increment })
    }
}

/// `text`, a number of units of `seconds` seconds each with at most three decimals
/// (`0.5`), in milliseconds; none for anything else (a sign, an exponent, too large).
fn thousandths(text: &str, seconds: u64) -> Option<u64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty()
        || !digits(whole)
        || !digits(fraction)
        || whole.len() > 6
        || fraction.len() > 3
    {
        return None;
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let fraction: u64 = format!("{fraction:0<3}").parse().ok()?;
    Some((whole * 1000 + fraction) * seconds)
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let minutes = self.base / 60_000;
        let rest = self.base % 60_000;
        if rest == 0 {
            write!(f, "{minutes}")?;
        } else {
            // Thousandths of a minute, as written: 0.5 for 30 s.
            let fraction = format!("{:03}", rest * 1000 / 60_000);
            write!(f, "{minutes}.{}", fraction.trim_end_matches('0'))?;
        }
        let seconds = self.increment / 1000;
        match self.increment % 1000 {
            0 => write!(f, "+{seconds}"),
            rest => {
                let fraction = format!("{rest:03}");
                write!(f, "+{seconds}.{}", fraction.trim_end_matches('0'))
            }
        }
    }
}

impl Serialize for TimeControl {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for TimeControl {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<TimeControl, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Both players' clocks in a room: the time each had left when their clock last
/// stopped, and since when the clock of the side to move runs. Whose runs is the room's
/// to say (the side to move of a game under way); the clocks only count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    /// The time control.
    pub control: TimeControl,
    /// Milliseconds left to X and to O when their clock last stopped.
    left: [u64; 2],
    /// When the running clock started, in the server's milliseconds.
    since: u64,
}

impl Clocks {
    /// Full clocks for a game beginning at `now`.
    #[must_use]
    pub fn new(control: TimeControl, now: u64) -> Clocks {
        Clocks {
            control,
            left: [control.base; 2],
            since: now,
        }
    }

    /// The time `mark` has left at `now`, its clock running if `running` names it.
    #[must_use]
    pub fn left(&self, mark: Mark, now: u64, running: Option<Mark>) -> u64 {
        let left = self.left[slot(mark)];
        if running == Some(mark) {
            left.saturating_sub(now.saturating_sub(self.since))
        } else {
            left
        }
    }

    /// Whether `to_move`, whose clock runs, has no time left at `now`.
    #[must_use]
    pub fn fallen(&self, now: u64, to_move: Mark) -> bool {
        self.left(to_move, now, Some(to_move)) == 0
    }

    /// The turn changes at `now`: the clock that ran (`ran`, if one did) stops, with the
    /// increment added if its player `moved`, and the next starts from `now`.
    pub fn turn(&mut self, now: u64, ran: Option<Mark>, moved: bool) {
        if let Some(mark) = ran {
            let left = self.left(mark, now, ran);
            self.left[slot(mark)] = if moved {
                left + self.control.increment
            } else {
                left
            };
        }
        self.since = self.since.max(now);
    }

    /// The running clock stood still for `millis` (the server was down): its turn
    /// began that much later.
    pub fn pause(&mut self, millis: u64) {
        self.since = self.since.saturating_add(millis);
    }

    /// A move of `mark`'s was taken back: the increment it earned goes too.
    pub fn take_back(&mut self, mark: Mark) {
        let left = &mut self.left[slot(mark)];
        *left = left.saturating_sub(self.control.increment);
    }

    /// The clocks at `now`, as a client is told them, `running` naming the side whose
    /// clock runs.
    #[must_use]
    pub fn shown(&self, now: u64, running: Option<Mark>) -> crate::protocol::Clocks {
        crate::protocol::Clocks {
            control: self.control.to_string(),
            x: self.left(Mark::X, now, running),
            o: self.left(Mark::O, now, running),
            running: running.map(|mark| mark.to_string()),
        }
    }

    /// The clocks as kept in a store written when times were in seconds.
    #[must_use]
    pub(crate) fn since_in_seconds(mut self) -> Clocks {
        self.since = self.since.saturating_mul(1000);
        self
    }
}

/// The slot of `mark` in [`Clocks::left`].
const fn slot(mark: Mark) -> usize {
    match mark {
        Mark::X => 0,
        Mark::O => 1,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use super::*;

    #[test]
    fn time_controls_read_and_write_as_people_write_them() {
        for (text, base, increment, written) in [
            ("5+3", 300_000, 3_000, "5+3"),
            ("5", 300_000, 0, "5+0"),
            (" 1 + 0 ", 60_000, 0, "1+0"),
            ("0.5+2", 30_000, 2_000, "0.5+2"),
            (".25+0.5", 15_000, 500, "0.25+0.5"),
            ("180+60", TimeControl::MAX_BASE, 60_000, "180+60"),
        ] {
            let control: TimeControl = text.parse().unwrap();
            assert_eq!(
                (control.base, control.increment),
                (base, increment),
                "{text}"
            );
            assert_eq!(control.to_string(), written);
            assert_eq!(written.parse::<TimeControl>(), Ok(control));
        }
        for text in [
            "",
            "+",
            "0",
            "0+5",
            "0.01",
            "-5+3",
            "5+-3",
            "181",
            "5+61",
            "1e3",
            "5+3+1",
            "x",
            "0.0001",
            "99999999999999999999",
        ] {
            let error = text.parse::<TimeControl>().unwrap_err();
            assert!(error.to_string().contains("like 5+3"), "{text}: {error}");
        }
    }

    #[test]
    fn the_clock_of_the_side_to_move_runs_a_move_adds_the_increment() {
        let control: TimeControl = "0.2+1".parse().unwrap();
        let mut clocks = Clocks::new(control, 1_000);
        // X thinks 4 s.
        assert_eq!(clocks.left(Mark::X, 5_000, Some(Mark::X)), 8_000);
        assert_eq!(clocks.left(Mark::O, 5_000, Some(Mark::X)), 12_000);
        clocks.turn(5_000, Some(Mark::X), true);
        assert_eq!(clocks.left(Mark::X, 9_000, Some(Mark::O)), 9_000);
        // O takes 12 s: fallen, never below nothing.
        assert!(!clocks.fallen(16_999, Mark::O));
        assert!(clocks.fallen(17_000, Mark::O));
        assert_eq!(clocks.left(Mark::O, 99_000, Some(Mark::O)), 0);
        // A turn that changes without a move (an undo) adds nothing.
        clocks.turn(8_000, Some(Mark::O), false);
        assert_eq!(clocks.left(Mark::O, 8_000, None), 9_000);
        let shown = clocks.shown(9_000, Some(Mark::X));
        assert_eq!((shown.x, shown.o), (8_000, 9_000));
        assert_eq!(shown.running.as_deref(), Some("X"));
        assert_eq!(shown.control, "0.2+1");
    }
}
