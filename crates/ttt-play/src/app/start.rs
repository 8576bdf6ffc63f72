//! The start screen: opponent, letter, first player, square names and board, then Start.

use ttt_core::{Mark, Rules, SquareNaming, WinRule};
use ttt_players::Strength;

use super::input::Key;
use crate::session::Table;
use crate::settings::{EngineCommand, FirstPolicy, Seat, Seats, SettingsError};
use crate::words;

/// Who the person plays against, as offered on the start screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponent {
    /// Another person at the same keyboard.
    Friend,
    /// A computer of this strength.
    Computer(Strength),
    /// The outside engine named on the command line (offered only then).
    Engine,
    /// A friend elsewhere, in a room on a server (offered by a front end that can play
    /// online).
    Online,
}

impl Opponent {
    /// Every opponent, in the start screen's order.
    pub const ALL: [Opponent; 6] = [
        Opponent::Friend,
        Opponent::Computer(Strength::Random),
        Opponent::Computer(Strength::Rules),
        Opponent::Computer(Strength::Mcts),
        Opponent::Computer(Strength::Search),
        Opponent::Computer(Strength::Perfect),
    ];

    /// Whether this opponent can play on a board of `rules`, by the seats' one rule
    /// ([`Seat::plays_on`](crate::Seat::plays_on)).
    ///
    /// # Errors
    /// The seat's, when it cannot.
    pub fn plays_on(self, rules: Rules) -> Result<(), SettingsError> {
        match self {
            Opponent::Friend | Opponent::Online => Ok(()),
            Opponent::Computer(strength) => crate::Seat::Computer(strength).plays_on(rules),
            Opponent::Engine => crate::settings::engine_plays_on(rules),
        }
    }
}

/// The start screen's choices: a draft of the next [`Table`] until Start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choices {
    /// Who the person plays against.
    pub opponent: Opponent,
    /// The person's letter, against the computer.
    pub letter: Mark,
    /// Who moves first.
    pub first: FirstPolicy,
    /// How squares are named on 3x3.
    pub naming: SquareNaming,
    /// The board.
    pub rules: Rules,
    /// The outside engine named on the command line, offered as an opponent.
    pub engine: Option<EngineCommand>,
    /// Whether a friend online is offered ([`App::with_online`](super::App::with_online)).
    pub online: bool,
    /// The clock of a room hosted online, as the server reads it (`5+3`: minutes, and
    /// seconds added a move); none for untimed games.
    pub clock: Option<&'static str>,
}

/// The clocks offered for a room hosted online: none, then minutes and seconds a move.
pub const CLOCKS: [Option<&str>; 5] = [None, Some("1+0"), Some("3+2"), Some("5+3"), Some("10+5")];

/// The lines of the start screen, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartLine {
    /// Opponent and strength.
    Opponent,
    /// X or O.
    Letter,
    /// Who goes first.
    First,
    /// Square names.
    Naming,
    /// Board size and line length.
    Board,
    /// The start button.
    Start,
}

impl StartLine {
    /// Every line, top to bottom.
    pub const ALL: [StartLine; 6] = [
        StartLine::Opponent,
        StartLine::Letter,
        StartLine::First,
        StartLine::Naming,
        StartLine::Board,
        StartLine::Start,
    ];
}

const NAMINGS: [SquareNaming; 3] = [
    SquareNaming::Numbers,
    SquareNaming::Keypad,
    SquareNaming::Coords,
];

/// The boards offered on the start screen (besides one given on the command line):
/// (width, height, k, win rule). Gomoku comes both ways: five or more, and exactly five.
pub const BOARDS: [(usize, usize, usize, WinRule); 9] = [
    (3, 3, 3, WinRule::Freestyle),
    (4, 4, 4, WinRule::Freestyle),
    (5, 5, 4, WinRule::Freestyle),
    (6, 5, 4, WinRule::Freestyle),
    (7, 6, 4, WinRule::Freestyle),
    (7, 7, 5, WinRule::Freestyle),
    (15, 15, 5, WinRule::Freestyle),
    (15, 15, 5, WinRule::Exact),
    (19, 19, 5, WinRule::Freestyle),
];

impl Choices {
    /// The choices that lead to `table`; `naming` is the 3x3 naming in use.
    /// The choices that lead to `table`; `naming` is the 3x3 naming in use, `engine` the
    /// outside engine the command line named, if any. Of two computers, the one playing X
    /// is taken as the opponent.
    pub fn of(table: &Table, naming: SquareNaming, engine: Option<&EngineCommand>) -> Choices {
        let (opponent, letter) = match (&table.x, &table.o) {
            (Seat::Human, Seat::Human) => (&Seat::Human, Mark::X),
            (Seat::Human, opponent) => (opponent, Mark::X),
            (opponent, _) => (opponent, Mark::O),
        };
        Choices {
            opponent: match opponent {
                Seat::Human => Opponent::Friend,
                Seat::Computer(strength) => Opponent::Computer(*strength),
                Seat::Engine(_) => Opponent::Engine,
            },
            letter,
            first: table.first,
            naming,
            rules: table.rules,
            engine: engine.cloned(),
            online: false,
            clock: None,
        }
    }

    /// The table these choices make.
    pub fn table(&self) -> Table {
        let opponent = match self.opponent {
            Opponent::Friend | Opponent::Online => None,
            Opponent::Computer(strength) => Some(Seat::Computer(strength)),
            Opponent::Engine => self.engine.clone().map(Seat::Engine),
        };
        let (x, o) = Seats::chosen(opponent, self.letter);
        Table {
            rules: self.rules,
            x,
            o,
            first: self.first,
        }
    }

    /// The opponent in words.
    fn describe(&self, opponent: Opponent) -> String {
        match (opponent, &self.engine) {
            (Opponent::Friend, _) => "a friend".to_owned(),
            (Opponent::Online, _) => "a friend online, by invitation".to_owned(),
            (Opponent::Computer(strength), _) => {
                format!("the computer, {}", strength.difficulty())
            }
            (Opponent::Engine, Some(engine)) => format!("the engine {}", engine.name()),
            (Opponent::Engine, None) => "an engine".to_owned(),
        }
    }

    /// The label and current value of a start-screen line.
    pub fn line(&self, line: StartLine) -> (&'static str, String) {
        match line {
            StartLine::Opponent => ("Play against", self.describe(self.opponent)),
            StartLine::Letter => match self.opponent {
                Opponent::Friend => ("Letters", "X and O, taking turns".to_owned()),
                Opponent::Online => ("You play", "X, as the host".to_owned()),
                Opponent::Computer(_) | Opponent::Engine => ("You play", self.letter.to_string()),
            },
            // Online, who moves first is drawn: the line sets the room's clock instead.
            StartLine::First if self.opponent == Opponent::Online => ("Clock", self.clock_name()),
            StartLine::First => (
                "First move",
                match self.first {
                    FirstPolicy::Random => "drawn at random".to_owned(),
                    FirstPolicy::X => "X".to_owned(),
                    FirstPolicy::O => "O".to_owned(),
                    FirstPolicy::Alternate => "alternate each game".to_owned(),
                },
            ),
            StartLine::Naming => ("Square names", self.square_names().to_owned()),
            StartLine::Board => ("Board", words::board_name(self.rules)),
            StartLine::Start => ("", "Start".to_owned()),
        }
    }

    /// The chosen clock in words: "none: take your time", "5 min a game, 3 s more a move".
    fn clock_name(&self) -> String {
        let Some((minutes, seconds)) = self.clock.and_then(|clock| clock.split_once('+')) else {
            return "none: take your time".to_owned();
        };
        match seconds {
            "0" => format!("{minutes} min a game"),
            _ => format!("{minutes} min a game, {seconds} s more a move"),
        }
    }

    /// How squares are named on the chosen board: the chosen scheme on 3x3; a column
    /// letter and a row number elsewhere.
    fn square_names(&self) -> &'static str {
        if !self.rules.is_tic_tac_toe() {
            return "letter and row, as c2";
        }
        match self.naming {
            SquareNaming::Numbers => "1-9 row by row",
            SquareNaming::Keypad => "1-9 as a keypad",
            _ => "column then row, as 3 2",
        }
    }

    /// Changes a line's value by `step` places; `given` is the board from the command line,
    /// offered with the usual ones. Only opponents that can play on the board are offered;
    /// a board too big for the chosen one changes it, and the note returned says so.
    fn change(&mut self, line: StartLine, step: isize, given: Rules) -> Option<String> {
        fn cycle<T: Copy + PartialEq>(all: &[T], current: T, step: isize) -> T {
            let index = all.iter().position(|&item| item == current).unwrap_or(0) as isize;
            all[(index + step).rem_euclid(all.len() as isize) as usize]
        }
        match line {
            StartLine::Opponent => {
                let engine = self.engine.as_ref().map(|_| Opponent::Engine);
                // A friend online comes next to the friend here.
                let online = self.online.then_some(Opponent::Online);
                let offered: Vec<Opponent> = Opponent::ALL[..1]
                    .iter()
                    .copied()
                    .chain(online)
                    .chain(Opponent::ALL[1..].iter().copied())
                    .chain(engine)
                    .filter(|opponent| {
                        opponent.plays_on(self.rules).is_ok() || *opponent == self.opponent
                    })
                    .collect();
                self.opponent = cycle(&offered, self.opponent, step);
            }
            StartLine::Letter if self.opponent == Opponent::Friend => {
                return Some("Against a friend, you take turns with X and O.".to_owned());
            }
            StartLine::Letter if self.opponent == Opponent::Online => {
                return Some(
                    "Online, the host plays X and the first move is drawn at random.".to_owned(),
                );
            }
            StartLine::First if self.opponent == Opponent::Online => {
                self.clock = cycle(&CLOCKS, self.clock, step);
            }
            StartLine::Letter => self.letter = !self.letter,
            StartLine::Naming if !self.rules.is_tic_tac_toe() => {
                return Some(format!(
                    "On {}, squares are named by {}.",
                    self.rules,
                    self.square_names()
                ));
            }
            StartLine::First => self.first = cycle(&FirstPolicy::ALL, self.first, step),
            StartLine::Naming => self.naming = cycle(&NAMINGS, self.naming, step),
            StartLine::Board => {
                let mut boards: Vec<Rules> = BOARDS
                    .iter()
                    .filter_map(|&(w, h, k, win)| {
                        Some(Rules::new(w, h, k).ok()?.with_win_rule(win))
                    })
                    .collect();
                if !boards.contains(&given) {
                    boards.insert(0, given);
                }
                self.rules = cycle(&boards, self.rules, step);
                if self.opponent.plays_on(self.rules).is_err() {
                    let why = match self.opponent {
                        Opponent::Engine => {
                            "An outside engine plays five in a row on boards of 5x5 or more"
                                .to_owned()
                        }
                        _ => format!(
                            "The impossible computer plays boards of up to {} squares",
                            ttt_solver::MAX_SOLVED_SQUARES
                        ),
                    };
                    self.opponent = Opponent::Computer(Strength::Search);
                    return Some(format!("{why}: now {}.", self.describe(self.opponent)));
                }
            }
            StartLine::Start => {}
        }
        None
    }
}

/// The start screen: the choices and the highlighted line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartMenu {
    /// The choices shown.
    pub choices: Choices,
    /// The highlighted line, an index into [`StartLine::ALL`].
    pub line: usize,
}

/// What a key or click on the start screen asks of the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartAction {
    /// Nothing beyond the menu's own highlight.
    Nothing,
    /// A choice changed, and nothing else with it: a note about an earlier change no
    /// longer holds.
    Changed,
    /// A change that moved another line too, and why.
    Note(String),
    /// Leave for the game.
    Start,
    /// Show the keys.
    Help,
    /// End the program.
    Quit,
}

impl StartMenu {
    /// The menu showing `choices`, the Start button highlighted.
    pub fn new(choices: Choices) -> StartMenu {
        StartMenu {
            choices,
            line: StartLine::ALL.len() - 1,
        }
    }

    /// Handles a key; `given` is the board from the command line.
    pub fn key(&mut self, key: Key, given: Rules) -> StartAction {
        let line = StartLine::ALL[self.line];
        match key {
            Key::Up | Key::Char('k' | 'w') => self.line = self.line.saturating_sub(1),
            Key::Down | Key::Char('j' | 's') | Key::Tab => {
                self.line = (self.line + 1).min(StartLine::ALL.len() - 1);
            }
            Key::Left | Key::Char('h' | 'a') => return self.change(line, -1, given),
            Key::Right | Key::Char('l' | 'd') => return self.change(line, 1, given),
            Key::Char(' ') if line != StartLine::Start => return self.change(line, 1, given),
            Key::Enter | Key::Char(' ') => return StartAction::Start,
            Key::Char('?') => return StartAction::Help,
            Key::Char('q') | Key::Esc => return StartAction::Quit,
            _ => {}
        }
        StartAction::Nothing
    }

    /// A click on line `index`: it is highlighted and changed, or the game starts.
    pub fn click(&mut self, index: usize, step: isize, given: Rules) -> StartAction {
        let Some(&line) = StartLine::ALL.get(index) else {
            return StartAction::Nothing;
        };
        self.line = index;
        match line {
            StartLine::Start => StartAction::Start,
            line => self.change(line, step, given),
        }
    }

    fn change(&mut self, line: StartLine, step: isize, given: Rules) -> StartAction {
        match self.choices.change(line, step, given) {
            Some(note) => StartAction::Note(note),
            None => StartAction::Changed,
        }
    }

    /// Whether the chosen opponent can play the chosen board, in words if not.
    pub fn check(&self) -> Result<(), String> {
        self.choices
            .opponent
            .plays_on(self.choices.rules)
            .map_err(|error| match error {
                // The command line's advice (its flags) means nothing here.
                SettingsError::Engine { rules } => format!(
                    "An outside engine plays five in a row on boards of 5x5 or more, not {rules}."
                ),
                error => format!("{}.", words::capitalised(&error.to_string())),
            })
    }
}
