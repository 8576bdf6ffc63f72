//! How a run plays, settled once: the command line's flags (or a front end's defaults)
//! become one validated [`Settings`], and [`Seats::resolve`] is the one place that decides
//! who sits where and what is still to be asked.
//!
//! ```
//! use ttt_core::{Mark, Rules};
//! use ttt_play::{Seat, Seats, Settings};
//! use ttt_players::Strength;
//!
//! // `--o perfect`: the person plays X, nothing is left to ask.
//! let seats = Seats::resolve(None, Some(Seat::Computer(Strength::Perfect)));
//! assert_eq!(seats, Seats::Fixed { x: Seat::Human, o: Seat::Computer(Strength::Perfect) });
//! let settings = Settings::new(Rules::default(), seats.clone())?.with_games(3)?;
//! assert_eq!(settings.games(), Some(3));
//!
//! // The impossible computer cannot play gomoku: refused when the settings are made.
//! let gomoku = Rules::new(15, 15, 5)?;
//! assert!(Settings::new(gomoku, seats).is_err());
//!
//! // `--o brain:pbrain-embryo`: an outside engine plays O, on five-in-a-row boards only.
//! let engine: Seat = "brain:pbrain-embryo".parse()?;
//! let seats = Seats::resolve(None, Some(engine));
//! assert!(Settings::new(gomoku, seats.clone()).is_ok());
//! assert!(Settings::new(Rules::default(), seats).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

use ttt_core::{Mark, Rules, Shown, SquareNaming};
use ttt_players::{Limits, Strength};
use ttt_solver::SolverError;

/// An outside engine that speaks the Gomocup (Piskvork) protocol, by the command that
/// starts it: a program and its arguments, as `brain:CMD` names it on the command line.
/// The play layer only names it; a front end that can run programs starts it (see
/// [`Session::set_launcher`](crate::Session::set_launcher)).
///
/// ```
/// use ttt_play::EngineCommand;
///
/// let engine: EngineCommand = "brain:pbrain-embryo --quiet".parse()?;
/// assert_eq!(engine.command(), "pbrain-embryo --quiet");
/// assert_eq!(engine.name(), "pbrain-embryo");
/// assert_eq!(engine.to_string(), "brain:pbrain-embryo --quiet");
/// assert!("brain:  ".parse::<EngineCommand>().is_err());
/// # Ok::<(), ttt_play::settings::ParseSeatError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EngineCommand(String);

impl EngineCommand {
    /// What `brain:` is written before.
    pub const PREFIX: &'static str = "brain:";

    /// The command line that starts the engine.
    pub fn command(&self) -> &str {
        &self.0
    }

    /// The engine's name for people: its program's file name, without its folder.
    pub fn name(&self) -> &str {
        let program = self.0.split_whitespace().next().unwrap_or_default();
        program.rsplit(['/', '\\']).next().unwrap_or(program)
    }
}

impl fmt::Display for EngineCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", Self::PREFIX, self.0)
    }
}

impl FromStr for EngineCommand {
    type Err = ParseSeatError;

    fn from_str(text: &str) -> Result<EngineCommand, ParseSeatError> {
        let prefix = EngineCommand::PREFIX.len();
        let command = text
            .trim()
            .get(..prefix)
            .filter(|word| word.eq_ignore_ascii_case(EngineCommand::PREFIX))
            .map(|_| text.trim()[prefix..].trim())
            .ok_or_else(|| ParseSeatError(text.to_owned()))?;
        if command.is_empty() {
            return Err(ParseSeatError(text.to_owned()));
        }
        Ok(EngineCommand(command.to_owned()))
    }
}

/// Who sits at one side of the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seat {
    /// A person typing or clicking.
    Human,
    /// A computer player of this strength.
    Computer(Strength),
    /// An outside engine, started by the front end.
    Engine(EngineCommand),
}

impl Seat {
    /// Whether a person plays this seat.
    pub fn is_human(&self) -> bool {
        *self == Seat::Human
    }

    /// Whether this seat can play on a board of `rules`: the one rule for seats and boards
    /// (a person plays any board, a built-in computer those its player reaches, an outside
    /// engine five in a row from 5x5 to 20x20).
    ///
    /// ```
    /// use ttt_core::Rules;
    /// use ttt_play::Seat;
    /// use ttt_players::Strength;
    ///
    /// let gomoku = Rules::new(15, 15, 5)?;
    /// assert!(Seat::Human.plays_on(gomoku).is_ok());
    /// assert!(Seat::Computer(Strength::Search).plays_on(gomoku).is_ok());
    /// assert!(Seat::Computer(Strength::Perfect).plays_on(gomoku).is_err());
    /// # Ok::<(), ttt_core::RulesError>(())
    /// ```
    ///
    /// # Errors
    /// [`SettingsError::Player`] when a computer cannot play on this board,
    /// [`SettingsError::Engine`] when an outside engine cannot.
    pub fn plays_on(&self, rules: Rules) -> Result<(), SettingsError> {
        match self {
            Seat::Human => Ok(()),
            Seat::Computer(strength) => Ok(strength.check(rules)?),
            Seat::Engine(_) => engine_plays_on(rules),
        }
    }

    /// The built-in computer at this seat, if that is who sits here.
    pub fn strength(&self) -> Option<Strength> {
        match self {
            Seat::Computer(strength) => Some(*strength),
            Seat::Human | Seat::Engine(_) => None,
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Computer(strength) => strength.fmt(f),
            Seat::Engine(engine) => engine.fmt(f),
        }
    }
}

/// The seat name is neither `human`, a computer player nor `brain:` and a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSeatError(String);

impl fmt::Display for ParseSeatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a player: use human, random (easy), rules (medium), search (hard), mcts, perfect (impossible) or brain:COMMAND",
            Shown(&self.0)
        )
    }
}

impl std::error::Error for ParseSeatError {}

impl FromStr for Seat {
    type Err = ParseSeatError;

    fn from_str(text: &str) -> Result<Seat, ParseSeatError> {
        if text.trim().eq_ignore_ascii_case("human") {
            return Ok(Seat::Human);
        }
        if let Ok(engine) = text.parse() {
            return Ok(Seat::Engine(engine));
        }
        text.parse()
            .map(Seat::Computer)
            .map_err(|_| ParseSeatError(text.to_owned()))
    }
}

/// Who moves first in each game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FirstPolicy {
    /// X always.
    X,
    /// O always.
    O,
    /// Drawn at random for every game.
    #[default]
    Random,
    /// Drawn at random for the first game, then swapped every game.
    Alternate,
}

impl FirstPolicy {
    /// Every policy, in the start screen's order.
    pub const ALL: [FirstPolicy; 4] = [
        FirstPolicy::Random,
        FirstPolicy::X,
        FirstPolicy::O,
        FirstPolicy::Alternate,
    ];
}

impl fmt::Display for FirstPolicy {
    /// As the command line takes it: `x`, `o`, `random` or `alternate`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FirstPolicy::X => "x",
            FirstPolicy::O => "o",
            FirstPolicy::Random => "random",
            FirstPolicy::Alternate => "alternate",
        })
    }
}

/// The text is not a first-player policy.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{}' is not a first-player policy: use x, o, random or alternate", Shown(.0))]
pub struct ParseFirstError(String);

impl FromStr for FirstPolicy {
    type Err = ParseFirstError;

    fn from_str(text: &str) -> Result<FirstPolicy, ParseFirstError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "x" => Ok(FirstPolicy::X),
            "o" => Ok(FirstPolicy::O),
            "random" => Ok(FirstPolicy::Random),
            "alternate" => Ok(FirstPolicy::Alternate),
            _ => Err(ParseFirstError(text.to_owned())),
        }
    }
}

/// Who sits where, as far as the settings say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seats {
    /// Both seats are settled.
    Fixed {
        /// Who plays X.
        x: Seat,
        /// Who plays O.
        o: Seat,
    },
    /// The opponent is still to be chosen (asked in the line mode, picked on the start
    /// screen); `letter` is the person's letter when the settings gave it.
    Ask {
        /// The mark the person plays, if already known.
        letter: Option<Mark>,
    },
}

impl Seats {
    /// Settles the seats from `--x` and `--o`: a computer or an engine on one side puts
    /// the person on the other; a person on one side leaves the opponent to be chosen;
    /// nothing given leaves both opponent and letter to be chosen.
    pub fn resolve(x: Option<Seat>, o: Option<Seat>) -> Seats {
        match (x, o) {
            (Some(x), Some(o)) => Seats::Fixed { x, o },
            (Some(Seat::Human), None) => Seats::Ask {
                letter: Some(Mark::X),
            },
            (None, Some(Seat::Human)) => Seats::Ask {
                letter: Some(Mark::O),
            },
            (Some(x), None) => Seats::Fixed { x, o: Seat::Human },
            (None, Some(o)) => Seats::Fixed { x: Seat::Human, o },
            (None, None) => Seats::Ask { letter: None },
        }
    }

    /// The seats once the person has chosen `opponent` (`None`: a friend) and plays
    /// `letter` against it.
    pub fn chosen(opponent: Option<Seat>, letter: Mark) -> (Seat, Seat) {
        match (opponent, letter) {
            (None, _) => (Seat::Human, Seat::Human),
            (Some(opponent), Mark::X) => (Seat::Human, opponent),
            (Some(opponent), Mark::O) => (opponent, Seat::Human),
        }
    }

    /// The seats, when settled.
    fn both(&self) -> [Option<&Seat>; 2] {
        match self {
            Seats::Fixed { x, o } => [Some(x), Some(o)],
            Seats::Ask { .. } => [None, None],
        }
    }
}

/// Why settings were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// A computer seat cannot play on the board.
    #[error("{0} (try the search player instead)")]
    Player(#[from] SolverError),
    /// An outside engine seated on a board that is not five in a row.
    #[error(
        "an outside engine plays five in a row on boards from 5x5 to 20x20, not {rules}: use --gomoku, or --k 5 with --size"
    )]
    Engine {
        /// The board asked for.
        rules: Rules,
    },
    /// `--games 0`.
    #[error("the number of games must be at least 1")]
    NoGames,
}

/// Everything that fixes how a run plays, checked once: the board, the seats as far as
/// they are known, who moves first, the centre opening, the seed, the computers' limits,
/// how many games and how squares are named. Nothing below re-derives or re-stores them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    rules: Rules,
    seats: Seats,
    first: FirstPolicy,
    open_centre: bool,
    seed: Option<u64>,
    limits: Limits,
    games: Option<u32>,
    naming: SquareNaming,
}

impl Settings {
    /// Settings for `rules` and `seats`, everything else at its default.
    ///
    /// # Errors
    /// [`SettingsError::Player`] when a computer seat cannot play on this board,
    /// [`SettingsError::Engine`] when an engine seat cannot.
    pub fn new(rules: Rules, seats: Seats) -> Result<Settings, SettingsError> {
        for seat in seats.both().into_iter().flatten() {
            seat.plays_on(rules)?;
        }
        Ok(Settings {
            rules,
            seats,
            first: FirstPolicy::default(),
            open_centre: false,
            seed: None,
            limits: Limits::default(),
            games: None,
            naming: SquareNaming::default(),
        })
    }

    /// Who moves first.
    #[must_use]
    pub fn with_first(self, first: FirstPolicy) -> Settings {
        Settings { first, ..self }
    }

    /// Whether a computer that moves first takes the centre.
    #[must_use]
    pub fn with_open_centre(self, open_centre: bool) -> Settings {
        Settings {
            open_centre,
            ..self
        }
    }

    /// A seed for every random choice, to repeat a run.
    #[must_use]
    pub fn with_seed(self, seed: Option<u64>) -> Settings {
        Settings { seed, ..self }
    }

    /// What a thinking computer may spend per move.
    #[must_use]
    pub fn with_limits(self, limits: Limits) -> Settings {
        Settings { limits, ..self }
    }

    /// How squares are named (on 3x3; other boards name them `c2`).
    #[must_use]
    pub fn with_naming(self, naming: SquareNaming) -> Settings {
        Settings { naming, ..self }
    }

    /// Stop after this many games.
    ///
    /// # Errors
    /// [`SettingsError::NoGames`] for 0.
    pub fn with_games(self, games: u32) -> Result<Settings, SettingsError> {
        if games == 0 {
            return Err(SettingsError::NoGames);
        }
        Ok(Settings {
            games: Some(games),
            ..self
        })
    }

    /// The board.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Who sits where, as far as known.
    pub fn seats(&self) -> &Seats {
        &self.seats
    }

    /// The outside engines named for the seats, X's first.
    pub fn engines(&self) -> impl Iterator<Item = &EngineCommand> {
        self.seats
            .both()
            .into_iter()
            .flatten()
            .filter_map(|seat| match seat {
                Seat::Engine(engine) => Some(engine),
                _ => None,
            })
    }

    /// The first outside engine named for a seat, if any.
    pub fn engine(&self) -> Option<&EngineCommand> {
        self.engines().next()
    }

    /// Who moves first.
    pub fn first(&self) -> FirstPolicy {
        self.first
    }

    /// Whether a computer that moves first takes the centre.
    pub fn open_centre(&self) -> bool {
        self.open_centre
    }

    /// The seed, if one was given.
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// What a thinking computer may spend per move.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// How many games to play, or `None` for as many as the person wants.
    pub fn games(&self) -> Option<u32> {
        self.games
    }

    /// The naming chosen for 3x3.
    pub fn naming(&self) -> SquareNaming {
        self.naming
    }
}

/// Whether an outside engine can play on a board of `rules`: the protocol knows boards
/// from 5x5 to 20x20 and five in a row only (see [`Seat::plays_on`]).
///
/// # Errors
/// [`SettingsError::Engine`] on any other board.
pub fn engine_plays_on(rules: Rules) -> Result<(), SettingsError> {
    if rules.k() == 5 && rules.width().min(rules.height()) >= 5 {
        Ok(())
    } else {
        Err(SettingsError::Engine { rules })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use super::*;

    #[test]
    fn seats_resolve_as_both_modes_need() {
        let perfect = || Seat::Computer(Strength::Perfect);
        let cases = [
            ((None, None), Seats::Ask { letter: None }),
            (
                (Some(Seat::Human), None),
                Seats::Ask {
                    letter: Some(Mark::X),
                },
            ),
            (
                (None, Some(Seat::Human)),
                Seats::Ask {
                    letter: Some(Mark::O),
                },
            ),
            (
                (Some(perfect()), None),
                Seats::Fixed {
                    x: perfect(),
                    o: Seat::Human,
                },
            ),
            (
                (None, Some(perfect())),
                Seats::Fixed {
                    x: Seat::Human,
                    o: perfect(),
                },
            ),
            (
                (Some(perfect()), Some(perfect())),
                Seats::Fixed {
                    x: perfect(),
                    o: perfect(),
                },
            ),
        ];
        for ((x, o), seats) in cases {
            let shown = format!("{x:?} {o:?}");
            assert_eq!(Seats::resolve(x, o), seats, "{shown}");
        }
    }

    #[test]
    fn settings_refuse_what_cannot_be_played() {
        let gomoku = Rules::new(15, 15, 5).unwrap_or_default();
        let perfect = Seats::resolve(Some(Seat::Computer(Strength::Perfect)), None);
        assert!(matches!(
            Settings::new(gomoku, perfect),
            Err(SettingsError::Player(_))
        ));
        let ask = Settings::new(gomoku, Seats::Ask { letter: None });
        assert!(
            ask.is_ok(),
            "the opponent is chosen later, among those that can"
        );
        assert_eq!(
            ask.and_then(|settings| settings.with_games(0)),
            Err(SettingsError::NoGames)
        );
        let engine = Seat::Engine("brain:pbrain-x".parse().unwrap());
        for (rules, playable) in [
            (Rules::default(), false),
            (Rules::new(4, 4, 4).unwrap(), false),
            (Rules::new(7, 7, 5).unwrap(), true),
            (Rules::new(20, 20, 5).unwrap(), true),
            (Rules::new(19, 19, 6).unwrap(), false),
            (Rules::new(20, 4, 5).unwrap(), false),
        ] {
            let settings = Settings::new(rules, Seats::resolve(None, Some(engine.clone())));
            assert_eq!(settings.is_ok(), playable, "{rules}");
        }
    }

    #[test]
    fn seats_and_policies_parse_by_name_and_alias() {
        assert_eq!("human".parse(), Ok(Seat::Human));
        assert_eq!("impossible".parse(), Ok(Seat::Computer(Strength::Perfect)));
        assert_eq!("EASY".parse(), Ok(Seat::Computer(Strength::Random)));
        assert!("alien".parse::<Seat>().is_err());
        assert!(matches!(
            " BRAIN: pbrain-x 1 ".parse(),
            Ok(Seat::Engine(engine)) if engine.command() == "pbrain-x 1"
        ));
        assert!("brain:".parse::<Seat>().is_err());
        assert!("brainy".parse::<Seat>().is_err());
        assert_eq!("Alternate".parse(), Ok(FirstPolicy::Alternate));
        assert!("later".parse::<FirstPolicy>().is_err());
    }
}
