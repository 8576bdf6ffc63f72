//! The full-screen mode's state, and how keys, clicks and time change it. Nothing here
//! touches the terminal: tests drive an `App` directly.

use std::time::{Duration, Instant};

use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use ttt_core::{Mark, Position, Rules, Square, SquareNaming};
use ttt_players::Strength;
use ttt_solver::{MoveValue, Solver};

use super::job::{Answer, Done, Job, Purpose};
use super::layout;
use super::theme::Theme;
use crate::session::{
    FirstPolicy, Refusal, Score, Seat, Session, SessionConfig, Thinking, Thought, Undo,
};
use crate::signals::Signal;
use crate::words;

/// How long a computer waits before it moves, so a person sees each move happen.
pub const COMPUTER_PAUSE: Duration = Duration::from_millis(450);

/// How long a finished game between two computers stays up before the next one starts.
pub const NEXT_GAME_PAUSE: Duration = Duration::from_millis(1_500);

/// Where the program is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Choosing opponent, letter, first player and square names.
    Start,
    /// A game under way or just finished.
    Game,
}

/// A box drawn over the screen until dismissed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlay {
    /// The list of keys.
    Help,
    /// The review of the finished game.
    Review(Vec<String>),
    /// "Leave the game in progress?", before quitting, a new game or the start screen.
    Confirm(Leave),
}

/// A way out of a game in progress, which asks first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leave {
    /// Quit the program.
    Quit,
    /// Start a new game.
    NewGame,
    /// Go back to the start screen.
    Menu,
}

/// Who the person plays against, as offered on the start screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponent {
    /// Another person at the same keyboard.
    Friend,
    /// A computer of this strength.
    Computer(Strength),
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

    /// Whether this opponent can play on a board of `rules`.
    fn plays_on(self, rules: Rules) -> bool {
        match self {
            Opponent::Friend => true,
            Opponent::Computer(strength) => strength.check(rules).is_ok(),
        }
    }

    fn describe(self) -> String {
        match self {
            Opponent::Friend => "a friend".to_owned(),
            Opponent::Computer(strength) => format!("the computer, {}", strength.difficulty()),
        }
    }
}

/// The start screen's choices, kept for the whole run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choices {
    /// Who the person plays against.
    pub opponent: Opponent,
    /// The person's letter, against the computer.
    pub letter: Mark,
    /// Who moves first.
    pub first: FirstPolicy,
    /// How squares are named.
    pub naming: SquareNaming,
    /// The board.
    pub rules: Rules,
}

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

const FIRSTS: [FirstPolicy; 4] = [
    FirstPolicy::Random,
    FirstPolicy::X,
    FirstPolicy::O,
    FirstPolicy::Alternate,
];
const NAMINGS: [SquareNaming; 3] = [
    SquareNaming::Numbers,
    SquareNaming::Keypad,
    SquareNaming::Coords,
];

/// The boards offered on the start screen (besides one given on the command line):
/// (width, height, k).
pub const BOARDS: [(usize, usize, usize); 8] = [
    (3, 3, 3),
    (4, 4, 4),
    (5, 5, 4),
    (6, 5, 4),
    (7, 6, 4),
    (7, 7, 5),
    (15, 15, 5),
    (19, 19, 5),
];

impl Choices {
    /// The label and current value of a start-screen line.
    pub fn line(&self, line: StartLine) -> (&'static str, String) {
        match line {
            StartLine::Opponent => ("Play against", self.opponent.describe()),
            StartLine::Letter => match self.opponent {
                Opponent::Friend => ("You play", "X and O, taking turns".to_owned()),
                Opponent::Computer(_) => ("You play", self.letter.to_string()),
            },
            StartLine::First => (
                "First move",
                match self.first {
                    FirstPolicy::Random => "drawn at random".to_owned(),
                    FirstPolicy::X => "X".to_owned(),
                    FirstPolicy::O => "O".to_owned(),
                    FirstPolicy::Alternate => "alternate each game".to_owned(),
                },
            ),
            StartLine::Naming => ("Square keys", self.square_keys().to_owned()),
            StartLine::Board => ("Board", self.rules.to_string()),
            StartLine::Start => ("", "Start".to_owned()),
        }
    }

    /// How squares are typed on the chosen board: the chosen scheme on 3x3; column then
    /// row digits where both fit a digit; else the arrows and the mouse only.
    fn square_keys(&self) -> &'static str {
        if !self.rules.is_tic_tac_toe() {
            return if self.rules.width() > 9 || self.rules.height() > 9 {
                "arrows and Enter, or click"
            } else {
                "column then row, as 3 2"
            };
        }
        match self.naming {
            SquareNaming::Numbers => "1-9 row by row",
            SquareNaming::Keypad => "1-9 as a keypad",
            _ => "column then row",
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
                let offered: Vec<Opponent> = Opponent::ALL
                    .into_iter()
                    .filter(|opponent| opponent.plays_on(self.rules) || *opponent == self.opponent)
                    .collect();
                self.opponent = cycle(&offered, self.opponent, step);
            }
            StartLine::Letter if self.opponent == Opponent::Friend => {
                return Some("Against a friend, you take turns with X and O.".to_owned());
            }
            StartLine::Letter => self.letter = !self.letter,
            StartLine::Naming if !self.rules.is_tic_tac_toe() => {
                return Some(format!(
                    "On {}, squares are chosen by {}.",
                    self.rules,
                    self.square_keys()
                ));
            }
            StartLine::First => self.first = cycle(&FIRSTS, self.first, step),
            StartLine::Naming => self.naming = cycle(&NAMINGS, self.naming, step),
            StartLine::Board => {
                let mut boards: Vec<Rules> = BOARDS
                    .iter()
                    .filter_map(|&(w, h, k)| Rules::new(w, h, k).ok())
                    .collect();
                if !boards.contains(&given) {
                    boards.insert(0, given);
                }
                self.rules = cycle(&boards, self.rules, step);
                if !self.opponent.plays_on(self.rules) {
                    self.opponent = Opponent::Computer(Strength::Search);
                    return Some(format!(
                        "The impossible computer plays boards of up to {} squares: now {}.",
                        ttt_solver::MAX_SOLVED_SQUARES,
                        self.opponent.describe()
                    ));
                }
            }
            StartLine::Start => {}
        }
        None
    }

    fn seats(&self) -> (Seat, Seat) {
        match (self.opponent, self.letter) {
            (Opponent::Friend, _) => (Seat::Human, Seat::Human),
            (Opponent::Computer(strength), Mark::X) => (Seat::Human, Seat::Computer(strength)),
            (Opponent::Computer(strength), Mark::O) => (Seat::Computer(strength), Seat::Human),
        }
    }
}

/// What the command line fixed before the start screen.
#[derive(Debug, Clone, Copy)]
pub struct Launch {
    /// Rules, open-centre, seed (seats and first player come from the choices).
    pub config: SessionConfig,
    /// The choices to show first.
    pub choices: Choices,
    /// Both seats, when the command line gave both: the start screen is skipped.
    pub seats: Option<(Seat, Seat)>,
    /// Stop after this many games.
    pub games: Option<u32>,
    /// Colours or not.
    pub theme: Theme,
}

/// Where the slow work stands.
enum JobState {
    /// Nothing to do.
    Idle,
    /// Work to hand out, with the solver in it.
    Ready(Box<Job>),
    /// Handed out: the solver is with it.
    Running(Purpose),
}

/// Everything the full-screen mode knows.
pub struct App {
    /// Start screen or game.
    pub mode: Mode,
    /// The start screen's choices.
    pub choices: Choices,
    /// The highlighted start-screen line.
    pub start_line: usize,
    /// The box shown over everything, if any.
    pub overlay: Option<Overlay>,
    /// The games under way: `None` before the first start.
    pub session: Option<Session>,
    /// The square under the cursor.
    pub cursor: Square,
    /// The values shown in free squares since `H`, until the next move.
    pub hints: Option<Vec<MoveValue>>,
    /// The one-line status.
    pub status: String,
    /// Whether the status reports something refused.
    pub warning: bool,
    /// The window's size, for layout and clicks.
    pub area: Rect,
    /// Styles.
    pub theme: Theme,
    launch: Launch,
    solver: Solver,
    computer_due: Option<Instant>,
    next_game_due: Option<Instant>,
    pending_column: Option<usize>,
    /// The games of sessions before this one (the start screen starts a new session).
    past: Score,
    /// Slow work (a hint, a review) handed out, or ready to be.
    job: JobState,
    quit: bool,
    interrupted: Option<Signal>,
}

impl App {
    /// An app at the start screen, or straight in the first game when the seats are fixed.
    pub fn new(launch: Launch, area: Rect, now: Instant) -> App {
        let mut app = App {
            mode: Mode::Start,
            choices: launch.choices,
            start_line: StartLine::ALL.len() - 1,
            overlay: None,
            session: None,
            cursor: centre(launch.config.rules),
            hints: None,
            status: String::new(),
            warning: false,
            area,
            theme: launch.theme,
            launch,
            solver: Solver::new(),
            computer_due: None,
            next_game_due: None,
            pending_column: None,
            past: Score::default(),
            job: JobState::Idle,
            quit: false,
            interrupted: None,
        };
        if let Some((x, o)) = launch.seats {
            app.begin_session(x, o, now);
        }
        app
    }

    /// Whether the program should end.
    pub fn should_quit(&self) -> bool {
        self.quit || self.interrupted.is_some()
    }

    /// The signal that ended the program, Ctrl-C among them, if one did.
    pub fn interrupted(&self) -> Option<Signal> {
        self.interrupted
    }

    /// A signal arrived: the program ends as soon as the loop sees it.
    pub fn interrupt(&mut self, signal: Signal) {
        self.interrupted.get_or_insert(signal);
    }

    /// The score of every game of the run.
    pub fn score(&self) -> Score {
        self.past + self.session_score()
    }

    /// The score of the games since the last start.
    fn session_score(&self) -> Score {
        self.session
            .as_ref()
            .map(Session::score)
            .unwrap_or_default()
    }

    /// The rules of the games.
    pub fn rules(&self) -> Rules {
        self.choices.rules
    }

    /// The square names in use: the chosen scheme on 3x3, letter and row elsewhere.
    pub fn naming(&self) -> SquareNaming {
        self.choices.naming.on_board(self.rules())
    }

    /// Whether `--games` has been reached (counting every game of the run).
    pub fn games_done(&self) -> bool {
        self.launch
            .games
            .is_some_and(|games| self.score().games() >= games)
    }

    /// Whether a game has started and not finished.
    fn in_progress(&self) -> bool {
        self.session.as_ref().is_some_and(Session::in_progress)
    }

    /// Whether `area` is too small to show the current screen: below the minimum, or, in
    /// a game, too small for the board.
    pub fn too_small(&self, area: Rect) -> bool {
        let below_minimum = area.width < layout::MIN_WIDTH || area.height < layout::MIN_HEIGHT;
        below_minimum || (self.mode == Mode::Game && layout::board(area, self.rules()).is_none())
    }

    /// The window changed size.
    pub fn resize(&mut self, width: u16, height: u16) {
        self.area = Rect::new(0, 0, width, height);
    }

    /// Handles one key.
    pub fn handle_key(&mut self, key: KeyEvent, now: Instant) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            // Raw mode turns Ctrl-C into a key: it ends the program as SIGINT would.
            self.interrupt(Signal::INTERRUPT);
            return;
        }
        if self.too_small(self.area) {
            // Nothing can be shown: only quitting acts (nothing could confirm it, and the
            // screen says q quits).
            if matches!(key.code, KeyCode::Char('q') | KeyCode::Esc) {
                self.quit = true;
            }
            return;
        }
        if let Some(overlay) = self.overlay.take() {
            if let (Overlay::Confirm(leave), KeyCode::Char('y' | 'Y') | KeyCode::Enter) =
                (overlay, key.code)
            {
                match leave {
                    Leave::Quit => self.quit = true,
                    Leave::NewGame => self.new_game(now),
                    Leave::Menu => self.menu(),
                }
            }
            return;
        }
        match self.mode {
            Mode::Start => self.start_key(key.code, now),
            Mode::Game => self.game_key(key.code, now),
        }
    }

    /// Handles one mouse event: a left click picks a menu line or places a mark.
    pub fn handle_mouse(&mut self, mouse: MouseEvent, now: Instant) {
        if mouse.kind != MouseEventKind::Down(MouseButton::Left) || self.too_small(self.area) {
            return;
        }
        if self.overlay.is_some() {
            self.overlay = None;
            return;
        }
        match self.mode {
            Mode::Start => {
                let start = layout::start(self.area, StartLine::ALL.len() as u16);
                let hit = start
                    .lines
                    .iter()
                    .position(|line| line.contains((mouse.column, mouse.row).into()));
                if let Some(index) = hit {
                    self.start_line = index;
                    match StartLine::ALL[index] {
                        StartLine::Start => self.start(now),
                        line => self.change_choice(line, 1),
                    }
                }
            }
            Mode::Game => {
                let rules = self.rules();
                let square = layout::board(self.area, rules)
                    .and_then(|geometry| geometry.square_at(mouse.column, mouse.row, rules));
                if let Some(square) = square {
                    self.cursor = square;
                    self.place(square, now);
                }
            }
        }
    }

    fn start_key(&mut self, code: KeyCode, now: Instant) {
        let line = StartLine::ALL[self.start_line];
        match code {
            KeyCode::Up | KeyCode::Char('k' | 'w') => {
                self.start_line = self.start_line.saturating_sub(1)
            }
            KeyCode::Down | KeyCode::Char('j' | 's') | KeyCode::Tab => {
                self.start_line = (self.start_line + 1).min(StartLine::ALL.len() - 1);
            }
            KeyCode::Left | KeyCode::Char('h' | 'a') => self.change_choice(line, -1),
            KeyCode::Right | KeyCode::Char('l' | 'd') => self.change_choice(line, 1),
            KeyCode::Char(' ') if line != StartLine::Start => self.change_choice(line, 1),
            KeyCode::Enter | KeyCode::Char(' ') => self.start(now),
            KeyCode::Char('?') => self.overlay = Some(Overlay::Help),
            KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
            _ => {}
        }
    }

    /// Changes a start-screen line, saying why when the change moved another line too.
    fn change_choice(&mut self, line: StartLine, step: isize) {
        if let Some(note) = self.choices.change(line, step, self.launch.config.rules) {
            self.say(note);
        }
    }

    /// Leaves the start screen for a new session with the chosen seats.
    fn start(&mut self, now: Instant) {
        if let Opponent::Computer(strength) = self.choices.opponent
            && let Err(error) = strength.check(self.rules())
        {
            return self.refuse(&format!("{}.", words::capitalised(&error.to_string())));
        }
        let (x, o) = self.choices.seats();
        self.begin_session(x, o, now);
    }

    fn begin_session(&mut self, x: Seat, o: Seat, now: Instant) {
        let config = SessionConfig {
            x,
            o,
            first: self.choices.first,
            rules: self.choices.rules,
            ..self.launch.config
        };
        self.past = self.score();
        self.session = Some(Session::new(config));
        self.job = JobState::Idle;
        self.mode = Mode::Game;
        self.new_game(now);
    }

    fn new_game(&mut self, now: Instant) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        if session.is_thinking() {
            return self.refuse("Wait for the computer to move.");
        }
        if self.games_done() {
            return self.refuse("That was the last game: press q to quit.");
        }
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let first = session.start_game();
        self.cursor = centre(self.rules());
        self.hints = None;
        self.pending_column = None;
        self.say(format!("New game: {first} goes first."));
        self.after_move(now);
    }

    fn game_key(&mut self, code: KeyCode, now: Instant) {
        match code {
            KeyCode::Up | KeyCode::Char('k' | 'w') => self.move_cursor(0, -1),
            KeyCode::Down | KeyCode::Char('j' | 's') => self.move_cursor(0, 1),
            KeyCode::Left | KeyCode::Char('h' | 'a') => self.move_cursor(-1, 0),
            KeyCode::Right | KeyCode::Char('l' | 'd') => self.move_cursor(1, 0),
            KeyCode::Enter | KeyCode::Char(' ') => self.place(self.cursor, now),
            KeyCode::Char(digit @ '0'..='9') => self.digit(digit, now),
            KeyCode::Char('H') => self.hint(),
            KeyCode::Char('u') => self.undo(now),
            KeyCode::Char('n') => self.leave(Leave::NewGame, now),
            KeyCode::Char('m') => self.leave(Leave::Menu, now),
            KeyCode::Char('r') => self.review(),
            KeyCode::Char('?') => self.overlay = Some(Overlay::Help),
            KeyCode::Char('q') | KeyCode::Esc => self.leave(Leave::Quit, now),
            _ => {}
        }
    }

    /// Leaves the game as asked, asking first while one is in progress: a game is not
    /// thrown away by one key.
    fn leave(&mut self, leave: Leave, now: Instant) {
        if self.in_progress() {
            self.overlay = Some(Overlay::Confirm(leave));
            return;
        }
        match leave {
            Leave::Quit => self.quit = true,
            Leave::NewGame => self.new_game(now),
            Leave::Menu => self.menu(),
        }
    }

    fn move_cursor(&mut self, dx: isize, dy: isize) {
        let rules = self.rules();
        let (column, row) = (
            rules.column(self.cursor) as isize,
            rules.row(self.cursor) as isize,
        );
        if let Some(square) = rules.square_signed(column + dx, row + dy) {
            self.cursor = square;
        }
    }

    /// A digit: a square of the numbers or keypad scheme, or half of a coordinate pair.
    fn digit(&mut self, digit: char, now: Instant) {
        let rules = self.rules();
        let value = digit.to_digit(10).unwrap_or(0) as usize;
        if rules.width() > 9 || rules.height() > 9 {
            return self
                .refuse("On a board this size, place with the arrows and Enter, or the mouse.");
        }
        if rules.is_tic_tac_toe() && self.naming() != SquareNaming::Coords {
            match self.naming().parse(&digit.to_string(), rules) {
                Ok(square) => {
                    self.cursor = square;
                    self.place(square, now);
                }
                Err(error) => self.refuse(&format!("{error}.")),
            }
            return;
        }
        match self.pending_column.take() {
            None if (1..=rules.width()).contains(&value) => {
                self.pending_column = Some(value);
                self.say(format!(
                    "Column {value}: now the row (1-{}).",
                    rules.height()
                ));
            }
            None => self.refuse(&format!(
                "There is no column {value}: columns are 1-{}.",
                rules.width()
            )),
            Some(column) => match rules.square(column - 1, value.wrapping_sub(1)) {
                Some(square) => {
                    self.cursor = square;
                    self.place(square, now);
                }
                None => self.refuse(&format!(
                    "There is no row {value}: rows are 1-{}.",
                    rules.height()
                )),
            },
        }
    }

    /// Places the mark of the person to move on `square`.
    pub fn place(&mut self, square: Square, now: Instant) {
        let naming = self.naming();
        let rules = self.rules();
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let label = naming.label(square, rules);
        match session.play_human(square) {
            Ok(()) => {
                let mark = !session.position().to_move();
                self.say(format!("{mark} played {label}."));
                self.after_move(now);
            }
            Err(Refusal::GameOver) => self.refuse("The game is over: press n for a new game."),
            Err(Refusal::ComputersTurn) => self.refuse("It is the computer's turn."),
            Err(Refusal::Occupied { mark, .. }) => {
                self.refuse(&format!("Square {label} is taken by {mark}."));
            }
            Err(refusal) => self.refuse(&format!("That move cannot be played: {refusal}.")),
        }
    }

    fn hint(&mut self) {
        let Some(session) = &self.session else {
            return;
        };
        if session.position().is_over() {
            return self.refuse("The game is over: press r for its review.");
        }
        self.ask_for(Purpose::Hint);
    }

    /// Prepares slow work on the current position, unless some is already under way.
    fn ask_for(&mut self, purpose: Purpose) {
        let working = match &self.job {
            JobState::Idle => None,
            JobState::Ready(_) => Some(purpose),
            JobState::Running(running) => Some(*running),
        };
        if let Some(running) = working {
            let what = match running {
                Purpose::Hint => "the hint",
                Purpose::Review => "the review",
            };
            return self.refuse(&format!("Still working out {what}…"));
        }
        let solver = std::mem::take(&mut self.solver);
        let job = Job::new(purpose, self.position(), self.naming(), solver);
        self.job = JobState::Ready(Box::new(job));
        self.say(match purpose {
            Purpose::Hint => "Working out the hint…".to_owned(),
            Purpose::Review => "Working out the review…".to_owned(),
        });
    }

    /// Slow work to do on another thread, if there is some: hand the result back to
    /// [`finish_job`](App::finish_job).
    pub fn take_job(&mut self) -> Option<Job> {
        match std::mem::replace(&mut self.job, JobState::Idle) {
            JobState::Ready(job) => {
                self.job = JobState::Running(job.purpose());
                Some(*job)
            }
            other => {
                self.job = other;
                None
            }
        }
    }

    /// Takes finished work back: shows it if the position is still the one it is about.
    pub fn finish_job(&mut self, done: Done) {
        let Done {
            position,
            solver,
            answer,
            ..
        } = done;
        self.solver = solver;
        self.job = JobState::Idle;
        if self.mode != Mode::Game || position != self.position() {
            return;
        }
        match answer {
            Ok(Answer::Hint(moves)) => {
                let (naming, rules) = (self.naming(), self.rules());
                let summary = words::hint_summary(&moves, |square| naming.label(square, rules));
                self.hints = Some(moves);
                self.say(format!("Hint: {summary}"));
            }
            Ok(Answer::Review(lines)) => {
                self.say("The review of the game:".to_owned());
                self.overlay = Some(Overlay::Review(lines));
            }
            Err(message) => self.refuse(&message),
        }
    }

    fn undo(&mut self, now: Instant) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        if session.is_thinking() {
            return self.refuse("Wait for the computer to move.");
        }
        match session.undo() {
            Undo::TookBack(squares) => {
                let (naming, rules) = (self.naming(), self.rules());
                let labels: Vec<String> = squares.iter().map(|&s| naming.label(s, rules)).collect();
                self.say(format!("Took back {}.", labels.join(" and ")));
                self.after_move(now);
            }
            Undo::Nothing => self.refuse("Nothing to undo."),
        }
    }

    fn review(&mut self) {
        let Some(session) = &self.session else {
            return;
        };
        if !session.position().is_over() {
            return self.refuse("The review comes when the game is over.");
        }
        self.ask_for(Purpose::Review);
    }

    fn menu(&mut self) {
        if self.session.as_ref().is_some_and(Session::is_thinking) {
            return self.refuse("Wait for the computer to move.");
        }
        self.mode = Mode::Start;
        self.start_line = StartLine::ALL.len() - 1;
        self.say("Choose, then Start: the score goes on.".to_owned());
    }

    /// After any change of position: clear the hint, report the end, and schedule the
    /// computer if it is to move.
    fn after_move(&mut self, now: Instant) {
        self.hints = None;
        self.computer_due = None;
        self.next_game_due = None;
        let Some(session) = &self.session else {
            return;
        };
        let position = session.position();
        if position.is_over() {
            let verdict = words::verdict(session);
            let next = if self.games_done() {
                "That was the last game: r for its review, q to quit."
            } else {
                "n: new game · r: review."
            };
            let watched = !session.has_human();
            self.say(format!("{verdict} {next}"));
            if watched && !self.games_done() {
                // Nobody is there to press n between two computers' games.
                self.next_game_due = Some(now + NEXT_GAME_PAUSE);
            }
            return;
        }
        if !session.seat(position.to_move()).is_human() {
            self.computer_due = Some(now + COMPUTER_PAUSE);
        }
    }

    /// Lets time pass: starts the next game between two computers when its pause is over,
    /// and hands out a computer's turn once its pause is over, to be thought through on
    /// another thread and returned with [`receive`](App::receive).
    pub fn tick(&mut self, now: Instant) -> Option<Thinking> {
        if self.too_small(self.area) {
            // Nothing happens unseen: the game waits for a window it can be shown in.
            return None;
        }
        if self.mode == Mode::Game && self.next_game_due.is_some_and(|due| now >= due) {
            self.next_game_due = None;
            self.new_game(now);
        }
        if self.mode != Mode::Game || self.computer_due.is_none_or(|due| now < due) {
            return None;
        }
        self.computer_due = None;
        let session = self.session.as_mut()?;
        let thinking = session.begin_computer_turn()?;
        let mark = session.position().to_move();
        self.say(format!("{} is thinking…", self.player_name(mark)));
        Some(thinking)
    }

    /// Takes a computer's finished thought back and plays it.
    pub fn receive(&mut self, thought: Thought, now: Instant) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let mark = session.position().to_move();
        match session.conclude(thought) {
            Ok(square) => {
                let label = self.naming().label(square, self.rules());
                self.say(format!("{} played {label}.", self.player_name(mark)));
                self.after_move(now);
            }
            Err(error) => self.refuse(&format!("The computer could not move: {error}.")),
        }
    }

    /// "You", "Friend", or "Computer (impossible)", for `mark`.
    pub fn player_name(&self, mark: Mark) -> String {
        let Some(session) = &self.session else {
            return mark.to_string();
        };
        match (session.seat(mark), session.lone_human()) {
            (Seat::Human, Some(_)) => "You".to_owned(),
            (Seat::Human, None) => format!("Player {mark}"),
            (Seat::Computer(strength), _) => format!("Computer ({})", strength.difficulty()),
        }
    }

    /// The position on the board (an empty one before any game).
    pub fn position(&self) -> Position {
        self.session.as_ref().map_or_else(
            || Position::new(self.rules(), Mark::X),
            |session| session.position().clone(),
        )
    }

    fn say(&mut self, status: String) {
        self.status = status;
        self.warning = false;
    }

    fn refuse(&mut self, status: &str) {
        self.status = status.to_owned();
        self.warning = true;
    }
}

fn centre(rules: Rules) -> Square {
    rules.centre().first().copied().unwrap_or(Square::new(0))
}
