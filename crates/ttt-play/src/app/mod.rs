//! The full-screen app: a start screen, the game, and boxes over them (help, review,
//! "leave the game?"). It takes [`Input`]s and the time from whatever front end drives
//! it, hands slow work (a computer's move, a hint, a review) out to be done elsewhere, and
//! draws itself as a ratatui [`Widget`](ratatui::widgets::Widget). It knows no terminal:
//! the `ttt` binary drives it with crossterm, tests drive it directly.
//!
//! ```
//! use std::time::Duration;
//! use ratatui::layout::Rect;
//! use ttt_core::Rules;
//! use ttt_play::app::{App, Input, Key, Theme};
//! use ttt_play::{Seat, Seats, Settings};
//!
//! let seats = Seats::Fixed { x: Seat::Human, o: Seat::Human };
//! let settings = Settings::new(Rules::default(), seats)?
//!     .with_first(ttt_play::FirstPolicy::X);
//! let mut app = App::new(settings, Theme::monochrome(), Rect::new(0, 0, 80, 24), Duration::ZERO);
//! for key in ['1', '4', '2', '5', '3'] {
//!     app.handle(Input::Key(Key::Char(key)), Duration::ZERO);
//! }
//! assert_eq!(app.session().score().x_wins, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod front;
mod game;
mod input;
mod job;
mod kept;
mod layout;
mod lobby;
mod online;
mod replay;
mod start;
mod theme;
mod ui;

pub use kept::KeptGames;
pub use lobby::{Field, LIST_AGAIN, Lobby, LobbyAction, MAX_NAME, Waiting};
pub use online::{Ask, Clocks, OnlineScreen, Player, Table};
pub use replay::{REPLAY_KEYS, ReplayScreen};

use std::time::Duration;

use ratatui::layout::Rect;
use ttt_core::{Mark, Position, Rules, Square, SquareNaming};

pub use front::Front;
pub use game::GameScreen;
pub use input::{Input, Key};
pub use job::{Answer, Done, Job, Purpose};
pub use layout::{
    MIN_HEIGHT, MIN_WIDTH, SMALL_MIN_HEIGHT, SMALL_MIN_WIDTH, TALL_MIN_HEIGHT, TALL_MIN_WIDTH,
};
pub use start::{BOARDS, Choices, Opponent, StartLine, StartMenu};
pub use theme::Theme;
pub use ui::{footer, footer_items};

use crate::records::{GameRecord, Remembered, Stats};
use crate::session::{Launcher, Refusal, Session, Thinking, Thought};
use crate::settings::{FirstPolicy, Seat, Seats, Settings};
use crate::words;
use game::Typing;
use start::StartAction;
use ttt_solver::Solver;

/// How long a computer waits before it moves, so a person sees each move happen.
pub const COMPUTER_PAUSE: Duration = Duration::from_millis(450);

/// How long a finished game between two computers stays up before the next one starts.
pub const NEXT_GAME_PAUSE: Duration = Duration::from_millis(1_500);

/// The most characters of a line said to a room (the server's own bound).
const MAX_SAID: usize = 300;

/// Which screen shows, with its own state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Screen {
    /// Choosing opponent, letter, first player, square names and board.
    Start(StartMenu),
    /// A game under way or just finished.
    Game(GameScreen),
    /// A room on a server, with a friend elsewhere (or watching).
    Online(Box<OnlineScreen>),
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
    /// Online from the start screen: host a new room, or join one by the code typed or
    /// from the server's list.
    Lobby(Lobby),
    /// A line being typed, to say to the room.
    Say(String),
    /// What the computer thought for its last move, a sentence a line.
    Thought(Vec<String>),
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
    /// Give the online game up.
    Resign,
}

impl Leave {
    /// The word for saying yes to it: "quit", "new game", "leave".
    #[must_use]
    pub const fn answer(self) -> &'static str {
        match self {
            Leave::Quit => "quit",
            Leave::NewGame => "new game",
            Leave::Menu => "leave",
            Leave::Resign => "resign",
        }
    }
}

/// How the app ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// The person quit.
    Quit,
    /// Ctrl-C.
    Interrupted,
}

/// The one-line status under the board.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Status {
    /// What it says.
    pub text: String,
    /// Whether it reports something refused.
    pub warning: bool,
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
    screen: Screen,
    overlay: Option<Overlay>,
    session: Session,
    status: Status,
    area: Rect,
    theme: Theme,
    solver: Solver,
    job: JobState,
    thinking: Option<Thinking>,
    /// How squares are named on 3x3, as last chosen.
    naming: SquareNaming,
    end: Option<End>,
    /// The kept games' statistics, for the start screen's record line; set only by a
    /// front end that keeps games (quitting then says the game is kept).
    stats: Option<Stats>,
    /// An unfinished game the start screen offers to resume.
    offer: Option<GameRecord>,
    /// Set when the offered game was resumed, until the front end takes it.
    resumed: bool,
    /// Whether the front end draws the marks on the board itself ([`App::shown_marks`]).
    marks_outside: bool,
    /// The kind of front end, whose words the app uses ([`App::with_front`]).
    front: Front,
    /// How many rows of the box over the screen are scrolled out of sight at its top, when
    /// the window is too short for the whole box.
    scroll: u16,
    /// Whether the front end can play online (the start screen then offers it).
    online: bool,
    /// The name the others see online, as last chosen.
    online_name: String,
    /// Whether a room hosted online is listed for anyone, as last chosen.
    online_public: bool,
    /// What the person asked of an online room, for the front end to send.
    asks: Vec<Ask>,
}

/// A control the screen shows (a start-screen line, the start button, the offer of an
/// unfinished game, an entry of a key list), for a front end that offers it as a control
/// of its own (the web page's buttons, for a screen reader and for the keyboard's focus).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownControl {
    /// Where it is drawn, in the screen's cells.
    pub cell: Rect,
    /// What it is, in words: "Board: 3x3, k=3: tic-tac-toe", "Start", "undo".
    pub words: String,
    /// The cell a click presses it at: [`Input::Click`] there does what it does.
    pub click: (u16, u16),
}

/// A square of the board as the game screen shows it, for a front end that offers the
/// board in a form of its own (the web page's grid of buttons, for a screen reader).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownSquare {
    /// The square.
    pub square: Square,
    /// The inside of its square, in the screen's cells.
    pub cell: Rect,
    /// Its row and column from 0, top left first.
    pub row: usize,
    /// See [`ShownSquare::row`].
    pub column: usize,
    /// In words, as a screen reader says it: "5: row 2, column 2, X".
    pub words: String,
    /// Whether the cursor is on it (in a game not over).
    pub cursor: bool,
}

/// A mark on the board as the game screen shows it, for a front end that draws marks with
/// its own glyphs (the web page, in crisp shapes that fill their squares).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShownMark {
    /// The inside of its square, in the screen's cells.
    pub cell: Rect,
    /// The mark.
    pub mark: Mark,
    /// Whether it is on the winning line.
    pub winning: bool,
    /// Whether it is the last move.
    pub last: bool,
    /// Whether the cursor is on it (in a game not over), drawn on the cursor's colour.
    pub cursor: bool,
}

impl App {
    /// An app for `settings`: at the start screen, or straight in the first game when the
    /// settings fix both seats. `area` is the screen's size; `now` the front end's clock.
    pub fn new(settings: Settings, theme: Theme, area: Rect, now: Duration) -> App {
        let (x, o, fixed) = match settings.seats() {
            Seats::Fixed { x, o } => (x.clone(), o.clone(), true),
            Seats::Ask { letter } => {
                let letter = letter.unwrap_or(Mark::X);
                let rules = Seat::Computer(ttt_players::Strength::Rules);
                let (x, o) = Seats::chosen(Some(rules), letter);
                (x, o, false)
            }
        };
        let naming = settings.naming();
        let rules = settings.rules();
        let session = Session::new(settings, x, o);
        let choices = Choices::of(session.table(), naming, session.settings().engine());
        let mut app = App {
            screen: Screen::Start(StartMenu::new(choices)),
            overlay: None,
            session,
            status: Status::default(),
            area,
            theme,
            solver: Solver::new(),
            job: JobState::Idle,
            thinking: None,
            naming,
            end: None,
            stats: None,
            offer: None,
            resumed: false,
            marks_outside: false,
            front: Front::Terminal,
            scroll: 0,
            online: false,
            online_name: String::new(),
            online_public: false,
            asks: Vec::new(),
        };
        if fixed {
            app.screen = Screen::Game(GameScreen::new(rules));
            app.new_game(now);
        }
        app
    }

    /// The start screen opens with `remembered`, last run's choices, when the settings
    /// leave the seats to choose and its opponent can still be offered (an engine only when
    /// the command line names it again). A letter or a board given on the command line wins.
    #[must_use]
    pub fn with_remembered(mut self, remembered: &Remembered) -> App {
        let settings = self.session.settings();
        let Seats::Ask { letter } = settings.seats() else {
            return self;
        };
        let mut choices = Choices::of(&remembered.table, remembered.naming, settings.engine());
        if let Some(letter) = letter {
            choices.letter = *letter;
        }
        if settings.rules() != Rules::default() {
            choices.rules = settings.rules();
        }
        let engine_forgotten = choices.opponent == Opponent::Engine && settings.engine().is_none();
        if engine_forgotten || choices.opponent.plays_on(choices.rules).is_err() {
            return self;
        }
        // Whether the front end plays online is its own, whatever was remembered.
        choices.online = self.online;
        if let Screen::Start(menu) = &mut self.screen {
            menu.choices = choices;
            self.naming = remembered.naming;
        }
        self
    }

    /// The choices to remember for the next run: the start screen's, or the game's that it
    /// started; `None` when the command line settled the seats (nothing was chosen) or an
    /// engine plays (it is remembered only when named again).
    pub fn remembered(&self) -> Option<Remembered> {
        if !matches!(self.session.settings().seats(), Seats::Ask { .. }) {
            return None;
        }
        let (table, naming) = match &self.screen {
            Screen::Start(menu) => (menu.choices.table(), menu.choices.naming),
            Screen::Game(_) | Screen::Online(_) => (self.session.table().clone(), self.naming),
        };
        let engine = |seat: &Seat| matches!(seat, Seat::Engine(_));
        if engine(&table.x) || engine(&table.o) {
            return None;
        }
        Some(Remembered { table, naming })
    }

    /// The kept games' statistics: the start screen shows the record against the chosen
    /// opponent.
    pub fn set_stats(&mut self, stats: Stats) {
        self.stats = Some(stats);
    }

    /// The start screen's line on the record against the chosen opponent, if there are
    /// statistics and games against it.
    pub fn record_line(&self) -> Option<String> {
        let (Screen::Start(menu), Some(stats)) = (&self.screen, &self.stats) else {
            return None;
        };
        let table = menu.choices.table();
        let opponent = match (table.x.is_human(), table.o.is_human()) {
            (true, true) => "friend".to_owned(),
            (true, false) => table.o.to_string(),
            _ => table.x.to_string(),
        };
        let tally = stats.against(&opponent);
        (tally.games() > 0).then(|| {
            format!(
                "Your record against {}: {tally}",
                menu.choices.line(StartLine::Opponent).1
            )
        })
    }

    /// Offers `record`, an unfinished game, on the start screen: `r` resumes it.
    pub fn offer(&mut self, record: GameRecord) {
        self.offer = Some(record);
    }

    /// Whether an unfinished game is on offer.
    pub fn has_offer(&self) -> bool {
        self.offer.is_some()
    }

    /// Takes the offer of an unfinished game back: it has ended or gone since.
    pub fn withdraw_offer(&mut self) {
        self.offer = None;
    }

    /// The start screen's line offering the unfinished game, if there is one.
    pub fn offer_line(&self) -> Option<String> {
        let record = self.offer.as_ref()?;
        matches!(self.screen, Screen::Start(_)).then(|| {
            self.front.resume(&format!(
                "{}, X {} against O {}, {}",
                record.rules,
                record.x,
                record.o,
                words::count(record.moves.len(), "move")
            ))
        })
    }

    /// Whether the offered game was resumed since the last call: the front end then keeps
    /// it as that game.
    pub fn take_resumed(&mut self) -> bool {
        std::mem::take(&mut self.resumed)
    }

    /// Takes up an unfinished game where it was left (see [`Session::resume`]), in the
    /// game screen.
    ///
    /// # Errors
    /// The session's refusal; the app is as it was.
    pub fn resume(&mut self, record: &GameRecord, now: Duration) -> Result<(), Refusal> {
        let first = self.session.table().first;
        self.resume_with(record, first, now)
    }

    /// Takes up an unfinished game, the next games' first player chosen by `first`.
    fn resume_with(
        &mut self,
        record: &GameRecord,
        first: FirstPolicy,
        now: Duration,
    ) -> Result<(), Refusal> {
        self.session.resume_with(record, first)?;
        self.overlay = None;
        self.screen = Screen::Game(GameScreen::new(record.rules));
        let mark = self.session.position().to_move();
        self.say(format!("The unfinished game goes on: {mark} to move."));
        self.after_move(now);
        Ok(())
    }

    /// The app with `launcher` starting the outside engines the settings name: a front
    /// end that can run programs lends it (see [`Launcher`]).
    #[must_use]
    pub fn with_launcher(mut self, launcher: Box<dyn Launcher>) -> App {
        if let Err(refusal) = self.session.set_launcher(launcher) {
            self.refuse(words::refusal_sentence(&refusal));
        }
        self
    }

    /// The screen showing.
    pub fn screen(&self) -> &Screen {
        &self.screen
    }

    /// The same app for another kind of front end, in its words. On a web page
    /// ([`Front::Page`]) the app says what to tap rather than which key to press, and
    /// offers no quitting, there being nothing to quit to (q, Esc and Ctrl-C still act as
    /// they do: the front end decides where quitting goes).
    #[must_use]
    pub fn with_front(mut self, front: Front) -> App {
        self.front = front;
        self
    }

    /// The same app, leaving the board's marks to the front end: the game screen draws
    /// each square's colours but not its mark wherever [`App::shown_marks`] lists it (a box
    /// over the board brings the app's own drawings back, since the front end's would
    /// cover the box).
    #[must_use]
    pub fn with_marks_outside(mut self) -> App {
        self.marks_outside = true;
        self
    }

    /// The marks the front end draws itself, set by [`App::with_marks_outside`]: those on
    /// the game screen's board, where a window of `area` shows it and no box covers it;
    /// none otherwise, and none for a front end that leaves the drawing to the app.
    pub fn shown_marks(&self, area: Rect) -> Vec<ShownMark> {
        let Some(geometry) = self.shown_board(area).filter(|_| self.marks_outside) else {
            return Vec::new();
        };
        let position = self.position();
        let rules = position.rules();
        let last = position.history().last().copied();
        let cursor = self.cursor_shown();
        rules
            .squares()
            .filter_map(|square| {
                let mark = position.board().get(square)?;
                Some(ShownMark {
                    cell: geometry.cell(rules.column(square) as u16, rules.row(square) as u16),
                    mark,
                    winning: position.is_over() && position.is_on_winning_line(square),
                    last: Some(square) == last,
                    cursor: Some(square) == cursor,
                })
            })
            .collect()
    }

    /// Every control of the screen a window of `area` shows, top to bottom: on the start
    /// screen its lines, the start button, the offer of an unfinished game and the key
    /// list's entries that press a key; in a game, the verdict's "play again" and the key
    /// list's; while a box covers the screen, the box's (its yes and "keep playing", or
    /// "close").
    ///
    /// ```
    /// use std::time::Duration;
    /// use ratatui::layout::Rect;
    /// use ttt_core::Rules;
    /// use ttt_play::app::{App, Input, Theme};
    /// use ttt_play::{Seats, Settings};
    ///
    /// let settings = Settings::new(Rules::default(), Seats::Ask { letter: None }).unwrap();
    /// let area = Rect::new(0, 0, 80, 24);
    /// let mut app = App::new(settings, Theme::monochrome(), area, Duration::ZERO);
    /// let controls = app.shown_controls(area);
    /// let start = controls.iter().find(|control| control.words == "Start").unwrap();
    /// let (column, row) = start.click;
    /// app.handle(Input::Click { column, row }, Duration::ZERO);
    /// assert!(app.shown_controls(area).iter().any(|control| control.words == "undo"));
    /// ```
    pub fn shown_controls(&self, area: Rect) -> Vec<ShownControl> {
        if self.too_small(area) {
            return Vec::new();
        }
        match &self.overlay {
            Some(overlay) => ui::overlay_controls(self, overlay, area),
            None => ui::controls(self, area),
        }
    }

    /// The box over the screen, if one is open, as drawn: its title and lines (for a
    /// front end that says it in words, as the web page does to a screen reader).
    pub fn overlay_lines(&self) -> Option<(&'static str, Vec<String>)> {
        Some(ui::shown_overlay(self, self.overlay.as_ref()?))
    }

    /// The square the cursor is on, while a game goes on (none on the start screen or
    /// once the game is over).
    fn cursor_shown(&self) -> Option<Square> {
        match &self.screen {
            Screen::Game(game) if !self.session.is_over() => Some(game.cursor),
            Screen::Online(online) if !online.table.over && !online.table.position.is_over() => {
                Some(online.game.cursor)
            }
            _ => None,
        }
    }

    /// Where the game screen's board is drawn, when a window of `area` shows it and no
    /// box covers it.
    fn shown_board(&self, area: Rect) -> Option<layout::BoardGeometry> {
        if self.overlay.is_some() || self.too_small(area) {
            return None;
        }
        match &self.screen {
            Screen::Game(_) | Screen::Online(_) => layout::board(area, self.rules()),
            Screen::Start(_) => None,
        }
    }

    /// Every square of the game screen's board, where a window of `area` shows it and no
    /// box covers it, row by row; none otherwise.
    pub fn shown_squares(&self, area: Rect) -> Vec<ShownSquare> {
        let Some(geometry) = self.shown_board(area) else {
            return Vec::new();
        };
        let position = self.position();
        let rules = position.rules();
        let naming = self.naming();
        let cursor = self.cursor_shown();
        rules
            .squares()
            .map(|square| {
                let (row, column) = (rules.row(square), rules.column(square));
                let mut words = format!(
                    "{}: row {}, column {}, ",
                    naming.label(square, rules),
                    row + 1,
                    column + 1
                );
                match position.board().get(square) {
                    Some(mark) => words.push_str(&mark.to_string()),
                    None => words.push_str("empty"),
                }
                let cursor = Some(square) == cursor;
                if position.is_over() && position.is_on_winning_line(square) {
                    words.push_str(", on the winning line");
                } else if cursor {
                    words.push_str(", the cursor");
                }
                ShownSquare {
                    square,
                    cell: geometry.cell(column as u16, row as u16),
                    row,
                    column,
                    words,
                    cursor,
                }
            })
            .collect()
    }

    /// The box over the screen, if any.
    pub fn overlay(&self) -> Option<&Overlay> {
        self.overlay.as_ref()
    }

    /// The session: the game on the board, the seats, the tally of the whole run.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The status line.
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// The styles.
    pub fn theme(&self) -> Theme {
        self.theme
    }

    /// When time passing next changes something (a computer's pause over, the next game
    /// between two computers), if anything waits on time: a front end that draws only when
    /// something changed sends [`Input::Tick`] then, and needs none before.
    ///
    /// ```
    /// use std::time::Duration;
    /// use ratatui::layout::Rect;
    /// use ttt_core::Rules;
    /// use ttt_play::app::{App, Input, Theme, COMPUTER_PAUSE};
    /// use ttt_play::{FirstPolicy, Seat, Seats, Settings};
    /// use ttt_players::Strength;
    ///
    /// // The computer opens: its move is due after its pause.
    /// let seats = Seats::Fixed { x: Seat::Computer(Strength::Perfect), o: Seat::Human };
    /// let settings = Settings::new(Rules::default(), seats).unwrap().with_first(FirstPolicy::X);
    /// let mut app = App::new(settings, Theme::monochrome(), Rect::new(0, 0, 80, 24), Duration::ZERO);
    /// assert_eq!(app.next_due(), Some(COMPUTER_PAUSE));
    /// // Then it thinks (elsewhere): nothing waits on time until its move comes back.
    /// app.handle(Input::Tick, COMPUTER_PAUSE);
    /// let thinking = app.take_thinking().unwrap();
    /// assert_eq!(app.next_due(), None);
    /// app.receive(thinking.think(), COMPUTER_PAUSE);
    /// assert_eq!(app.next_due(), None, "the person's turn waits on nobody");
    /// ```
    pub fn next_due(&self) -> Option<Duration> {
        if let Some(Overlay::Lobby(lobby)) = &self.overlay {
            return lobby.next_list();
        }
        if let Screen::Online(online) = &self.screen {
            return online.claim_due();
        }
        let Screen::Game(game) = &self.screen else {
            return None;
        };
        match (game.computer_due, game.next_game_due) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// How the app ended, once it has.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// The rules of the game on the board.
    pub fn rules(&self) -> Rules {
        match &self.screen {
            Screen::Online(online) => online.table.position.rules(),
            _ => self.session.table().rules,
        }
    }

    /// How squares are named on the board: the chosen scheme on 3x3, letter and row
    /// elsewhere.
    pub fn naming(&self) -> SquareNaming {
        self.naming.on_board(self.rules())
    }

    /// The game on the board.
    pub fn position(&self) -> &Position {
        match &self.screen {
            Screen::Online(online) => &online.table.position,
            _ => self.session.position(),
        }
    }

    /// Whether `area` is too small to show the current screen: below the minimum, or, in
    /// a game, too small for the board.
    pub fn too_small(&self, area: Rect) -> bool {
        let in_game = matches!(self.screen, Screen::Game(_) | Screen::Online(_));
        !layout::fits(area) || (in_game && layout::board(area, self.rules()).is_none())
    }

    /// Handles one input at time `now`.
    pub fn handle(&mut self, input: Input, now: Duration) {
        match input {
            Input::Resize { width, height } => self.area = Rect::new(0, 0, width, height),
            Input::Tick => self.tick(now),
            Input::Key(Key::Interrupt) => {
                self.end.get_or_insert(End::Interrupted);
            }
            _ if self.too_small(self.area) => {
                // Nothing can be shown: only quitting acts (nothing could confirm it, and
                // the screen says q quits).
                if matches!(input, Input::Key(Key::Char('q') | Key::Esc)) {
                    self.end = Some(End::Quit);
                }
            }
            Input::Key(key) => self.key(key, now),
            Input::Click { column, row } => self.click(column, row, now),
            Input::Select { column, row } => self.select(column, row, now),
        }
    }

    /// A computer's turn to think through elsewhere (another thread, a web worker), if one
    /// is due: hand the [`Thought`] back with [`receive`](App::receive).
    pub fn take_thinking(&mut self) -> Option<Thinking> {
        self.thinking.take()
    }

    /// Slow work to do elsewhere, if there is some: hand the result back to
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

    fn key(&mut self, key: Key, now: Duration) {
        if let Some(overlay) = self.overlay.take() {
            let hidden = ui::overlay_hidden_rows(self, &overlay, self.area);
            match (overlay, key) {
                (Overlay::Confirm(leave), Key::Char('y' | 'Y') | Key::Enter) => {
                    self.leave_now(leave, now);
                }
                (Overlay::Say(typed), Key::Enter) => {
                    let line = typed.trim();
                    if !line.is_empty() {
                        self.asks.push(Ask::Say(line.to_owned()));
                    }
                }
                (Overlay::Say(_), Key::Esc) => {}
                (Overlay::Say(mut typed), key) => {
                    match key {
                        Key::Char(letter)
                            if !letter.is_control() && typed.chars().count() < MAX_SAID =>
                        {
                            typed.push(letter);
                        }
                        Key::Backspace => {
                            typed.pop();
                        }
                        _ => {}
                    }
                    self.overlay = Some(Overlay::Say(typed));
                }
                (Overlay::Lobby(mut lobby), key) => {
                    let action = lobby.key(key);
                    self.lobby_action(lobby, action);
                }
                // A box taller than the window scrolls; other keys close it.
                (
                    overlay,
                    Key::Up | Key::Down | Key::Char('k' | 'j' | 'w' | 's') | Key::Home | Key::End,
                ) if hidden > 0 => {
                    self.scroll = match key {
                        Key::Up | Key::Char('k' | 'w') => self.scroll.saturating_sub(1),
                        Key::Home => 0,
                        Key::End => hidden,
                        _ => (self.scroll + 1).min(hidden),
                    };
                    self.overlay = Some(overlay);
                }
                (overlay, _) => self.closed(&overlay),
            }
            return;
        }
        let given = self.session.settings().rules();
        if let Screen::Start(menu) = &self.screen
            && key == Key::Char('r')
            && let Some(record) = self.offer.take()
        {
            // The game goes on with the first-move policy chosen on the screen.
            let first = menu.choices.first;
            match self.resume_with(&record, first, now) {
                Ok(()) => self.resumed = true,
                Err(refusal) => self.refuse(words::refusal_sentence(&refusal)),
            }
            return;
        }
        match &mut self.screen {
            Screen::Start(menu) => match menu.key(key, given) {
                StartAction::Nothing => {}
                StartAction::Changed => self.status = Status::default(),
                StartAction::Note(note) => self.say(note),
                StartAction::Start => self.start(now),
                StartAction::Help => self.open(Overlay::Help),
                StartAction::Quit => self.end = Some(End::Quit),
            },
            Screen::Game(_) => self.game_key(key, now),
            Screen::Online(_) => self.online_key(key),
        }
    }

    fn click(&mut self, column: u16, row: u16, now: Duration) {
        if let Some(overlay) = self.overlay.take() {
            // A click on the yes of the answer line says yes; anywhere else closes the box.
            match overlay {
                Overlay::Confirm(leave)
                    if ui::confirms(&overlay, self.front, self.area, column, row) =>
                {
                    self.leave_now(leave, now);
                }
                Overlay::Lobby(mut lobby) => {
                    let action = match ui::lobby_line_at(self, &lobby, column, row) {
                        None => LobbyAction::Back,
                        Some(None) => LobbyAction::Nothing,
                        Some(Some(ui::LobbyLine::Enter)) => lobby.enter(),
                        Some(Some(ui::LobbyLine::Field(field))) => {
                            lobby.click(field, self.front == Front::Page)
                        }
                    };
                    self.lobby_action(lobby, action);
                }
                overlay => self.closed(&overlay),
            }
            return;
        }
        let (area, rules, given) = (self.area, self.rules(), self.session.settings().rules());
        let plays_again = layout::screen(area, rules)
            .and_then(|screen| ui::result_line(self, screen.title))
            .is_some_and(|(_, button)| button.contains((column, row).into()));
        match &mut self.screen {
            Screen::Start(menu) => {
                let start = layout::start(area, StartLine::ALL.len() as u16);
                let hit = start
                    .lines
                    .iter()
                    .position(|line| line.contains((column, row).into()));
                if let Some(index) = hit {
                    // A click on the ‹ steps back; anywhere else on the line, forward.
                    let back = start.value_at + start.lines[index].x;
                    let step = if (back..back + 2).contains(&column) {
                        -1
                    } else {
                        1
                    };
                    match menu.click(index, step, given) {
                        StartAction::Start => self.start(now),
                        StartAction::Note(note) => self.say(note),
                        StartAction::Changed => self.status = Status::default(),
                        _ => {}
                    }
                } else if let Some(key) = ui::start_key(self, area, &start, column, row) {
                    self.key(key, now);
                } else if ui::start_notes(self, area, &start)
                    .iter()
                    .any(|note| note.offers && note.area.contains((column, row).into()))
                {
                    // The offer of the unfinished game is a button too.
                    self.key(Key::Char('r'), now);
                }
            }
            Screen::Game(_) | Screen::Online(_) if plays_again => {
                // The verdict's button: the next game.
                self.key(Key::Char('n'), now);
            }
            Screen::Game(_) | Screen::Online(_)
                if let Some(screen) = layout::screen(area, rules)
                    && screen.footer.contains((column, row).into()) =>
            {
                // The key list is buttons too, for a mouse or a finger alone.
                if let Some(key) = ui::footer_key_at(self, screen.footer, column, row) {
                    self.key(key, now);
                }
            }
            Screen::Game(_) => {
                if let Some(square) = self.cursor_to(column, row) {
                    self.place(square, now);
                }
            }
            Screen::Online(_) => {
                if let Some(square) = self.cursor_to(column, row) {
                    self.place_online(square);
                }
            }
        }
    }

    /// Puts the cursor on the board's square drawn at a cell, if a game shows one there
    /// with no box over it (leaving any name being typed), and returns it.
    fn cursor_to(&mut self, column: u16, row: u16) -> Option<Square> {
        if self.overlay.is_some() {
            return None;
        }
        let rules = self.rules();
        let square = layout::board(self.area, rules)?.square_at(column, row, rules)?;
        let game = match &mut self.screen {
            Screen::Game(game) => game,
            Screen::Online(online) => &mut online.game,
            Screen::Start(_) => return None,
        };
        game.entry = None;
        game.cursor = square;
        Some(square)
    }

    /// Moves the cursor to the square at a cell without playing it, and says how to play
    /// it; anywhere but a square of the board, a click.
    fn select(&mut self, column: u16, row: u16, now: Duration) {
        let Some(square) = self.cursor_to(column, row) else {
            return self.click(column, row, now);
        };
        let (rules, naming) = (self.rules(), self.naming());
        let label = naming.label(square, rules);
        let said = match self.position().board().get(square) {
            _ if self.position().is_over() => format!("Square {label} chosen."),
            Some(mark) => format!(
                "{}.",
                words::refusal(&Refusal::Occupied { square, mark }, |square| {
                    naming.label(square, rules)
                })
            ),
            None => format!("Square {label} chosen: tap it again to play there."),
        };
        self.say(said);
    }

    /// Does what the box of a friend online asked: leaves the start screen for a room
    /// (a new one on the chosen board, or the one of a code), or goes back to it, or
    /// shows the box again.
    fn lobby_action(&mut self, lobby: Lobby, action: LobbyAction) {
        let Screen::Start(menu) = &self.screen else {
            return;
        };
        let (rules, clock) = (menu.choices.rules, menu.choices.clock.map(str::to_owned));
        // The box opens again as it was left: the name and Listed.
        let name = lobby.name.trim().to_owned();
        self.online_name.clone_from(&name);
        self.online_public = lobby.public;
        let ask = match action {
            LobbyAction::Back => {
                self.status = Status::default();
                return;
            }
            LobbyAction::Nothing => {
                self.overlay = Some(Overlay::Lobby(lobby));
                return;
            }
            LobbyAction::Edit(field) => {
                let text = lobby.text(field).to_owned();
                self.asks.push(Ask::Edit { field, text });
                self.overlay = Some(Overlay::Lobby(lobby));
                return;
            }
            LobbyAction::Host => Ask::Host {
                rules,
                clock,
                public: lobby.public,
                name,
            },
            LobbyAction::Join(code) => Ask::Join { code, name },
        };
        self.naming = menu.choices.naming;
        self.enter_online(rules);
        self.asks.push(ask);
    }

    /// Leaves the start screen for the game with the chosen table, the tally going on.
    fn start(&mut self, now: Duration) {
        let Screen::Start(menu) = &self.screen else {
            return;
        };
        if let Err(message) = menu.check() {
            return self.refuse(message);
        }
        if menu.choices.opponent == Opponent::Online {
            let mut lobby = Lobby::new(self.online_name.clone(), now);
            lobby.public = self.online_public;
            self.open(Overlay::Lobby(lobby));
            self.asks.push(Ask::ListRooms);
            return;
        }
        let table = menu.choices.table();
        self.naming = menu.choices.naming;
        // The same choices bring back a game left for the start screen.
        let resume = *self.session.table() == table && self.session.in_progress();
        if !resume && let Err(refusal) = self.session.change_table(table) {
            return self.refuse(words::refusal_sentence(&refusal));
        }
        self.screen = Screen::Game(GameScreen::new(self.session.table().rules));
        if resume {
            self.say("Back to the game.".to_owned());
            self.after_move(now);
        } else {
            self.new_game(now);
        }
    }

    fn new_game(&mut self, now: Duration) {
        match self.session.start_game() {
            Ok(first) => {
                if let Screen::Game(game) = &mut self.screen {
                    *game = GameScreen::new(self.session.table().rules);
                }
                self.say(format!("New game: {first} goes first."));
                self.after_move(now);
            }
            Err(Refusal::NoGamesLeft) => {
                self.refuse("That was the last game: press q to quit.".to_owned());
            }
            Err(refusal) => self.refuse(words::refusal_sentence(&refusal)),
        }
    }

    fn game_key(&mut self, key: Key, now: Duration) {
        let (rules, naming) = (self.rules(), self.naming);
        let Screen::Game(game) = &mut self.screen else {
            return;
        };
        match steer(game, key, naming, rules) {
            Steered::Not => {}
            Steered::Moved => return,
            Steered::Said(status) => return self.status = status,
            Steered::Place(square) => return self.place(square, now),
        }
        match key {
            Key::Char('H') => self.hint(),
            Key::Char('i') => self.tell_thought(),
            Key::Char('u') => self.undo(now),
            Key::Char('n') => self.leave(Leave::NewGame, now),
            Key::Char('m') => self.leave(Leave::Menu, now),
            Key::Char('r') => self.review(),
            Key::Char('?') => self.open(Overlay::Help),
            Key::Char('q') | Key::Esc => self.leave(Leave::Quit, now),
            _ => {}
        }
    }

    /// Shows what the computer thought for the last move in a box (any key closes it),
    /// when it was a computer's that says (the hard one, a search).
    fn tell_thought(&mut self) {
        let last = self.position().history().last().copied();
        match self.session.said().zip(last) {
            Some(((mark, said), square)) => {
                let played = self.naming().label(square, self.rules());
                let lines = words::thought_lines(&self.player_name(mark), &played, &said);
                self.open(Overlay::Thought(lines));
            }
            None => self.say(
                "Nothing to tell: the hard computer (search) says what it thought for its \
                 last move, until the next one."
                    .to_owned(),
            ),
        }
    }

    /// Leaves the game as asked, asking first while one is in progress: a game is not
    /// thrown away by one key.
    fn leave(&mut self, leave: Leave, now: Duration) {
        if self.session.is_thinking() && leave != Leave::Quit {
            // A new game or the menu waits for the computer's move; quitting does not.
            return self.refuse(words::refusal_sentence(&Refusal::Thinking));
        }
        // A game with no move yet has nothing to lose.
        let played = !self.position().history().is_empty();
        if self.session.in_progress() && played {
            self.open(Overlay::Confirm(leave));
            return;
        }
        self.leave_now(leave, now);
    }

    /// Opens a box over the screen, its top row showing.
    fn open(&mut self, overlay: Overlay) {
        self.overlay = Some(overlay);
        self.scroll = 0;
    }

    /// A box was closed without an answer: after a review, the game's end is said again.
    fn closed(&mut self, overlay: &Overlay) {
        if matches!(overlay, Overlay::Review(_)) && self.session.is_over() {
            let message = self.end_message();
            self.say(message);
        }
    }

    fn leave_now(&mut self, leave: Leave, now: Duration) {
        match leave {
            Leave::Quit => self.end = Some(End::Quit),
            Leave::NewGame => self.new_game(now),
            Leave::Menu => self.menu(),
            Leave::Resign => self.asks.push(Ask::Resign),
        }
    }

    /// Places the mark of the person to move on `square`.
    pub fn place(&mut self, square: Square, now: Duration) {
        let label = self.naming().label(square, self.rules());
        match self.session.play_human(square) {
            Ok(()) => {
                let mark = !self.session.position().to_move();
                self.say(format!("{mark} played {label}."));
                self.after_move(now);
            }
            Err(Refusal::GameOver) => {
                self.refuse(self.front.over_for_new_game().to_owned());
            }
            Err(refusal) => self.refuse(format!(
                "{}.",
                words::refusal(&refusal, |square| self.naming().label(square, self.rules()))
            )),
        }
    }

    fn hint(&mut self) {
        match self.session.game_on() {
            Ok(game) => self.ask_for(Purpose::Hint, game.clone()),
            Err(_) => self.refuse(self.front.over_for_review().to_owned()),
        }
    }

    fn review(&mut self) {
        match self.session.finished_game() {
            Ok(game) => self.ask_for(Purpose::Review, game.clone()),
            Err(_) => self.refuse("The review comes when the game is over.".to_owned()),
        }
    }

    /// Prepares slow work on `position`, unless some is already under way.
    fn ask_for(&mut self, purpose: Purpose, position: Position) {
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
            return self.refuse(format!("Still working out {what}…"));
        }
        let solver = std::mem::take(&mut self.solver);
        let job = Job::new(purpose, position, self.naming(), solver);
        self.job = JobState::Ready(Box::new(job));
        self.say(match purpose {
            Purpose::Hint => "Working out the hint…".to_owned(),
            Purpose::Review => "Working out the review…".to_owned(),
        });
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
        let (naming, rules) = (self.naming(), self.rules());
        let current = &position == self.session.position()
            && position.history() == self.session.position().history();
        let Screen::Game(game) = &mut self.screen else {
            return;
        };
        if !current {
            return;
        }
        match answer {
            Ok(Answer::Hint(moves)) => {
                let summary = words::hint_summary(&moves, |square| naming.label(square, rules));
                game.hints = Some(moves);
                self.say(format!("Hint: {summary}"));
            }
            Ok(Answer::Review(lines)) => {
                self.say(self.front.review_opened().to_owned());
                self.open(Overlay::Review(lines));
            }
            Err(message) => self.refuse(message),
        }
    }

    fn undo(&mut self, now: Duration) {
        match self.session.undo() {
            Ok(squares) => {
                let (naming, rules) = (self.naming(), self.rules());
                let labels: Vec<String> = squares.iter().map(|&s| naming.label(s, rules)).collect();
                self.say(format!("Took back {}.", labels.join(" and ")));
                self.after_move(now);
            }
            Err(refusal) => self.refuse(words::refusal_sentence(&refusal)),
        }
    }

    fn menu(&mut self) {
        if self.session.is_thinking() {
            return self.refuse(words::refusal_sentence(&Refusal::Thinking));
        }
        self.show_start();
    }

    /// Shows the start screen, leaving the online room the person is in.
    fn show_start(&mut self) {
        if matches!(self.screen, Screen::Online(_)) {
            self.asks.push(Ask::Leave);
        }
        self.start_screen();
    }

    /// Shows the start screen with the last game's choices (a room's, to host another).
    pub(super) fn start_screen(&mut self) {
        let engine = self.session.settings().engine();
        let mut choices = Choices::of(self.session.table(), self.naming, engine);
        choices.online = self.online;
        if let Screen::Online(online) = &self.screen {
            choices.opponent = Opponent::Online;
            choices.rules = online.table.position.rules();
        }
        self.screen = Screen::Start(StartMenu::new(choices));
        self.say("Choose, then Start: the score goes on.".to_owned());
    }

    /// Takes back the end the app reached (the person quit) and shows the start screen
    /// with the last game's choices and the tally so far: for a front end that has nothing
    /// to quit to, such as a web page.
    pub fn start_over(&mut self) {
        self.end = None;
        self.overlay = None;
        if matches!(self.screen, Screen::Start(_)) {
            return self.say("There is nothing to quit to here: choose, then Start.".to_owned());
        }
        self.show_start();
    }

    /// After any change of position: clear the hint, report the end, and schedule the
    /// computer if it is to move.
    fn after_move(&mut self, now: Duration) {
        let Screen::Game(game) = &mut self.screen else {
            return;
        };
        game.hints = None;
        game.computer_due = None;
        game.next_game_due = None;
        let session = &self.session;
        let position = session.position();
        if session.is_over() {
            let last = session.games_left() == Some(0);
            if !session.has_human() && !last {
                // Nobody is there to press n between two computers' games.
                game.next_game_due = Some(now + NEXT_GAME_PAUSE);
            }
            let message = self.end_message();
            self.say(message);
            return;
        }
        if !session.seat(position.to_move()).is_human() {
            game.computer_due = Some(now + COMPUTER_PAUSE);
        }
    }

    /// What is said when a game has ended: the verdict and what can be done next.
    fn end_message(&self) -> String {
        let session = &self.session;
        let verdict = words::verdict(session.rules_of_play());
        let next = if session.games_left() == Some(0) {
            "That was the last game: r for its review, q to quit."
        } else {
            self.front.after_game()
        };
        format!("{verdict} {next}")
    }

    /// Lets time pass: starts the next game between two computers when its pause is over,
    /// and hands out a computer's turn once its pause is over.
    fn tick(&mut self, now: Duration) {
        if let Screen::Online(online) = &mut self.screen {
            online.tick(now);
            self.online_claim_due();
        }
        if let Some(Overlay::Lobby(lobby)) = &mut self.overlay
            && lobby.list_again(now)
        {
            self.asks.push(Ask::ListRooms);
        }
        if self.too_small(self.area) {
            // Nothing happens unseen: the game waits for a window it can be shown in.
            return;
        }
        let Screen::Game(game) = &mut self.screen else {
            return;
        };
        if game.next_game_due.is_some_and(|due| now >= due) {
            game.next_game_due = None;
            return self.new_game(now);
        }
        if game.computer_due.is_none_or(|due| now < due) {
            return;
        }
        game.computer_due = None;
        if let Some(thinking) = self.session.begin_computer_turn() {
            self.thinking = Some(thinking);
            let mark = self.session.position().to_move();
            self.say(format!("{} is thinking…", self.player_name(mark)));
        }
    }

    /// Takes a computer's finished thought back and plays it.
    pub fn receive(&mut self, thought: Thought, now: Duration) {
        let mark = self.session.position().to_move();
        match self.session.conclude(thought) {
            Ok(square) => {
                let label = self.naming().label(square, self.rules());
                self.say(format!("{} played {label}.", self.player_name(mark)));
                self.after_move(now);
            }
            // A player that cannot move forfeits: the game is over.
            Err(_) if self.session.is_over() => self.after_move(now),
            Err(error) => self.refuse(format!("The computer could not move: {error}.")),
        }
    }

    /// "You", "Player X", or "Computer (impossible)", for `mark`.
    pub fn player_name(&self, mark: Mark) -> String {
        if let Screen::Online(online) = &self.screen {
            return online.player_name(mark);
        }
        match (self.session.seat(mark), self.session.lone_human()) {
            (Seat::Human, Some(_)) => "You".to_owned(),
            (Seat::Human, None) => format!("Player {mark}"),
            (Seat::Computer(strength), _) => format!("Computer ({})", strength.difficulty()),
            (Seat::Engine(engine), _) => format!("Engine {}", engine.name()),
        }
    }

    fn say(&mut self, text: String) {
        self.status = Status {
            text,
            warning: false,
        };
    }

    fn refuse(&mut self, text: String) {
        self.status = Status {
            text,
            warning: true,
        };
    }
}

/// What a key did to a board's cursor or a square's name being typed.
enum Steered {
    /// Nothing: the key is not one of these.
    Not,
    /// The cursor moved.
    Moved,
    /// The name being typed changed, and this is what to say.
    Said(Status),
    /// The square under the cursor, or the one named, is to be played.
    Place(Square),
}

/// The keys that steer on a board, the same at home and online: the arrows move the
/// cursor, Enter and Space play under it, digits and `t` type a square's name.
fn steer(game: &mut GameScreen, key: Key, naming: SquareNaming, rules: Rules) -> Steered {
    if game.entry.is_some() {
        let typing = game.type_key(key, naming, rules);
        return typed(game, typing, naming, rules);
    }
    match key {
        Key::Up | Key::Char('k' | 'w') => game.move_cursor(rules, 0, -1),
        Key::Down | Key::Char('j' | 's') => game.move_cursor(rules, 0, 1),
        Key::Left | Key::Char('h' | 'a') => game.move_cursor(rules, -1, 0),
        Key::Right | Key::Char('l' | 'd') => game.move_cursor(rules, 1, 0),
        Key::Enter | Key::Char(' ') => return Steered::Place(game.cursor),
        Key::Char(digit @ '0'..='9') => {
            game.entry = Some(String::new());
            let typing = game.type_key(Key::Char(digit), naming, rules);
            // A digit that starts no square's name here types nothing: the keys stay the
            // board's.
            if matches!(typing, Typing::Refused(_)) {
                game.entry = None;
            }
            return typed(game, typing, naming, rules);
        }
        Key::Char('t') | Key::Tab => {
            game.entry = Some(String::new());
            let example = naming.on_board(rules).label(game.cursor, rules);
            return Steered::Said(Status {
                text: format!(
                    "Type a square, as {example}: played once its name is whole (Enter where it could go on); Esc cancels."
                ),
                warning: false,
            });
        }
        _ => return Steered::Not,
    }
    Steered::Moved
}

/// What a key typed into a square's name did, for the board and to say.
fn typed(game: &mut GameScreen, typing: Typing, naming: SquareNaming, rules: Rules) -> Steered {
    match typing {
        Typing::Going => Steered::Said(Status {
            text: format!(
                "Square: {}_  (played once whole, Enter where it could go on; Esc cancels)",
                ttt_core::Shown(game.entry.as_deref().unwrap_or_default())
            ),
            warning: false,
        }),
        Typing::Cancelled => Steered::Said(Status {
            text: "Typing cancelled.".to_owned(),
            warning: false,
        }),
        Typing::Done(square) => {
            game.cursor = square;
            Steered::Place(square)
        }
        // Said with the name when it is still open to mend.
        Typing::Refused(error) => Steered::Said(Status {
            text: match game.entry.as_deref() {
                Some(entry) => words::square_refusal(&error, entry, naming, rules),
                None => words::square_error(&error, naming, rules),
            },
            warning: true,
        }),
    }
}

#[cfg(test)]
mod tests;
