//! Which lines win: `k` or more in a row (freestyle), or exactly `k`.

use std::fmt;
use std::str::FromStr;

/// Which runs of marks win: the length that counts, given `k`.
///
/// Under [`WinRule::Freestyle`] (the default, and the only rule of tic-tac-toe) a run of
/// `k` **or more** marks wins. Under [`WinRule::Exact`] (Gomocup's rule 1, "exactly five")
/// only a run of exactly `k` does: a longer run, an *overline*, wins for neither side and
/// the game goes on. One move can make both, in different directions; then the run of
/// exactly `k` wins.
///
/// ```
/// use ttt_core::WinRule;
///
/// assert!(WinRule::Freestyle.wins(6, 5));
/// assert!(WinRule::Exact.wins(5, 5));
/// assert!(!WinRule::Exact.wins(6, 5), "an overline does not win");
/// assert!(!WinRule::Exact.wins(4, 5) && !WinRule::Freestyle.wins(4, 5));
///
/// assert_eq!("exact".parse::<WinRule>()?, WinRule::Exact);
/// assert_eq!(WinRule::Freestyle.to_string(), "freestyle");
/// assert_eq!(WinRule::default(), WinRule::Freestyle);
/// # Ok::<(), ttt_core::ParseWinRuleError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum WinRule {
    /// A run of `k` or more wins.
    #[default]
    Freestyle,
    /// Only a run of exactly `k` wins; a longer one does not.
    Exact,
}

impl WinRule {
    /// Both rules, freestyle first.
    pub const ALL: [WinRule; 2] = [WinRule::Freestyle, WinRule::Exact];

    /// Whether a run of `length` marks in a row wins when the goal is `k` in a row.
    #[must_use]
    pub const fn wins(self, length: usize, k: usize) -> bool {
        match self {
            WinRule::Freestyle => length >= k,
            WinRule::Exact => length == k,
        }
    }
}

impl fmt::Display for WinRule {
    /// `freestyle` or `exact`, the words [`FromStr`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WinRule::Freestyle => "freestyle",
            WinRule::Exact => "exact",
        })
    }
}

/// The text names no win rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{}' is not a win rule: use freestyle (k or more in a row wins) or exact (exactly k)",
    crate::Shown(.0)
)]
pub struct ParseWinRuleError(pub String);

impl FromStr for WinRule {
    type Err = ParseWinRuleError;

    /// `freestyle` or `exact`, in any case, around spaces.
    fn from_str(text: &str) -> Result<WinRule, ParseWinRuleError> {
        let word = text.trim();
        WinRule::ALL
            .into_iter()
            .find(|rule| word.eq_ignore_ascii_case(&rule.to_string()))
            .ok_or_else(|| ParseWinRuleError(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_and_others_are_refused() {
        for rule in WinRule::ALL {
            assert_eq!(rule.to_string().parse(), Ok(rule));
            assert_eq!(rule.to_string().to_uppercase().parse(), Ok(rule));
        }
        assert_eq!(" Exact ".parse(), Ok(WinRule::Exact));
        for text in ["", "exactly", "renju", "free style"] {
            assert_eq!(
                text.parse::<WinRule>(),
                Err(ParseWinRuleError(text.to_owned()))
            );
        }
    }

    #[test]
    fn lengths_that_win() {
        // (length, k, freestyle, exact)
        let table = [
            (2, 3, false, false),
            (3, 3, true, true),
            (4, 3, true, false),
            (4, 5, false, false),
            (5, 5, true, true),
            (6, 5, true, false),
            (9, 5, true, false),
        ];
        for (length, k, freestyle, exact) in table {
            assert_eq!(
                WinRule::Freestyle.wins(length, k),
                freestyle,
                "{length} of {k}"
            );
            assert_eq!(WinRule::Exact.wins(length, k), exact, "{length} of {k}");
        }
    }
}
