//! The computer players by name, as chosen on the command line or in a menu.

use std::fmt;
use std::str::FromStr;
use ttt_core::Rules;
use ttt_solver::{MAX_SOLVED_SQUARES, SolverError};

use crate::{CentreOpening, Limits, Mcts, Perfect, Player, Random, RulesPlayer, Search};

/// Which computer player: the names a person picks from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Strength {
    /// Any free square ([`Random`]); also called `easy`.
    Random,
    /// Win, block, corner, centre, side ([`RulesPlayer`]); also called `medium`.
    Rules,
    /// Never loses ([`Perfect`]); also called `impossible`.
    Perfect,
    /// Searches within a time bound on any board ([`Search`]); also called `hard`.
    Search,
    /// Monte-Carlo tree search within a time bound ([`Mcts`]); a different style, also
    /// called `tricky`.
    Mcts,
}

impl Strength {
    /// Every strength, weakest first.
    pub const ALL: [Strength; 5] = [
        Strength::Random,
        Strength::Rules,
        Strength::Mcts,
        Strength::Search,
        Strength::Perfect,
    ];

    /// A new player of this strength; a thinking one stays within `limits` on every move.
    #[must_use]
    pub fn player(self, limits: Limits) -> Box<dyn Player + Send> {
        match self {
            Strength::Random => Box::new(Random),
            Strength::Rules => Box::new(RulesPlayer),
            Strength::Perfect => Box::new(Perfect::new()),
            Strength::Search => Box::new(Search::new(limits)),
            Strength::Mcts => Box::new(Mcts::new(limits)),
        }
    }

    /// A new player of this strength that always opens in the centre when it moves first.
    #[must_use]
    pub fn player_opening_centre(self, limits: Limits) -> Box<dyn Player + Send> {
        Box::new(CentreOpening::new(self.player(limits)))
    }

    /// Whether this player can play on a board of `rules`.
    ///
    /// # Errors
    /// [`SolverError::TooLarge`] for the perfect player on a board its solver cannot
    /// finish.
    pub fn check(self, rules: Rules) -> Result<(), SolverError> {
        match self {
            Strength::Perfect if rules.square_count() > MAX_SOLVED_SQUARES => {
                Err(SolverError::TooLarge { rules })
            }
            _ => Ok(()),
        }
    }

    /// The everyday word for the strength, in order from the weakest: easy, medium,
    /// tricky, hard or impossible.
    #[must_use]
    pub const fn difficulty(self) -> &'static str {
        match self {
            Strength::Random => "easy",
            Strength::Rules => "medium",
            Strength::Perfect => "impossible",
            Strength::Search => "hard",
            Strength::Mcts => "tricky",
        }
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Strength::Random => "random",
            Strength::Rules => "rules",
            Strength::Perfect => "perfect",
            Strength::Search => "search",
            Strength::Mcts => "mcts",
        })
    }
}

/// The name is not a computer player. It says every name there is, from [`Strength::ALL`]:
///
/// ```
/// use ttt_players::Strength;
///
/// let said = "bogus".parse::<Strength>().unwrap_err().to_string();
/// assert_eq!(
///     said,
///     "'bogus' is not a computer player: use random (easy), rules (medium), \
///      mcts (tricky), search (hard) or perfect (impossible)"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ParseStrengthError(pub String);

impl fmt::Display for ParseStrengthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a computer player: use ",
            ttt_core::Shown(&self.0)
        )?;
        let last = Strength::ALL.len() - 1;
        for (index, strength) in Strength::ALL.into_iter().enumerate() {
            let between = match index {
                0 => "",
                _ if index == last => " or ",
                _ => ", ",
            };
            write!(f, "{between}{strength} ({})", strength.difficulty())?;
        }
        Ok(())
    }
}

impl FromStr for Strength {
    type Err = ParseStrengthError;

    fn from_str(text: &str) -> Result<Strength, ParseStrengthError> {
        let word = text.trim().to_ascii_lowercase();
        Strength::ALL
            .into_iter()
            .find(|strength| strength.to_string() == word || strength.difficulty() == word)
            .ok_or_else(|| ParseStrengthError(text.to_owned()))
    }
}
