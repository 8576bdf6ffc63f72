//! A game played elsewhere: a room on a server, which alone decides. The app shows the
//! room as the front end's connection last told it (a [`Table`]) and hands out what the
//! person asks (an [`Ask`]); it never plays a move itself, so what it shows is what the
//! server decided.
//!
//! ```
//! use std::time::Duration;
//! use ratatui::layout::Rect;
//! use ttt_core::{Mark, Rules};
//! use ttt_play::app::{App, Ask, Input, Key, Player, Screen, Table, Theme};
//! use ttt_play::{Seats, Settings};
//!
//! let settings = Settings::new(Rules::default(), Seats::Ask { letter: None })?;
//! let mut app = App::new(settings, Theme::monochrome(), Rect::new(0, 0, 80, 24), Duration::ZERO)
//!     .with_online("Ann");
//! app.enter_online(Rules::default());
//! // The front end's connection says where the person sits, and the game begins.
//! let mut table = Table::waiting(Rules::default());
//! table.code = Some("K7QX-2M".into());
//! table.seat = Some(Mark::X);
//! table.started = true;
//! table.players = [Some(Player::named("Ann")), Some(Player::named("Bob"))];
//! app.show_online(table);
//! app.handle(Input::Key(Key::Char('5')), Duration::ZERO);
//! // The app asks; the server decides.
//! assert_eq!(app.take_asks(), vec![Ask::Play(ttt_core::Square::new(4))]);
//! assert_eq!(app.position().ply(), 0);
//! assert!(matches!(app.screen(), Screen::Online(_)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::Duration;

use ttt_core::{Mark, Outcome, Position, Rules, Square};

use super::{App, Field, GameScreen, Key, Leave, Overlay, Screen, Status, Steered, Waiting, steer};

/// Someone in a seat of a room.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// Their name, as they gave it.
    pub name: String,
    /// Whether their connection is open now.
    pub connected: bool,
    /// Whether a computer of the server's plays the seat.
    pub computer: bool,
}

impl Player {
    /// A person called `name`, connected.
    pub fn named(name: &str) -> Player {
        Player {
            name: name.to_owned(),
            connected: true,
            computer: false,
        }
    }
}

/// The players' clocks in a room with a time control, as the server last told them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clocks {
    /// The time control, as the server writes it (`5+3`: minutes, and seconds added a
    /// move).
    pub control: String,
    /// The time X and O had left when told.
    pub left: [Duration; 2],
    /// Whose clock runs, counting down since it was told; none between games.
    pub running: Option<Mark>,
}

impl Clocks {
    /// The time `mark` has left, `since` after the clocks were told.
    pub fn left(&self, mark: Mark, since: Duration) -> Duration {
        let left = self.left[seat_index(mark)];
        if self.running == Some(mark) {
            left.saturating_sub(since)
        } else {
            left
        }
    }

    /// A clock's time as players read it: `4:05`, `1:02:03` past an hour, and tenths of
    /// a second under ten seconds (`9.4`).
    ///
    /// ```
    /// use std::time::Duration;
    /// use ttt_play::app::Clocks;
    ///
    /// assert_eq!(Clocks::written(Duration::from_millis(245_900)), "4:05");
    /// assert_eq!(Clocks::written(Duration::from_millis(9_450)), "9.4");
    /// assert_eq!(Clocks::written(Duration::from_secs(3723)), "1:02:03");
    /// ```
    pub fn written(time: Duration) -> String {
        let seconds = time.as_secs();
        if seconds < 10 {
            return format!("{seconds}.{}", time.subsec_millis() / 100);
        }
        let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
        if hours > 0 {
            format!("{hours}:{minutes:02}:{seconds:02}")
        } else {
            format!("{minutes}:{seconds:02}")
        }
    }
}

/// A room as the server last told it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// The room's code (`K7QX-2M`); none until the server has let the person in.
    pub code: Option<String>,
    /// The person's seat; none for a watcher.
    pub seat: Option<Mark>,
    /// The game on the board (an empty board of the room's rules before the first).
    pub position: Position,
    /// Whether a game has begun in the room.
    pub started: bool,
    /// Whether the game on the board is over: by a line, a full board or a forfeit.
    pub over: bool,
    /// How it ended, while it stays ended.
    pub ended: Option<Outcome>,
    /// The seat asking to take its move back, if one is.
    pub undo_asked: Option<Mark>,
    /// Games won by X, won by O, drawn.
    pub score: [u32; 3],
    /// The players of X and O, once the seats are taken.
    pub players: [Option<Player>; 2],
    /// How many watch.
    pub watchers: usize,
    /// The clocks, in a room with a time control.
    pub clocks: Option<Clocks>,
    /// The last lines said in the room, oldest first (`Bob: well played`), as text to show
    /// (nothing in them acts on a terminal).
    pub said: Vec<String>,
}

impl Table {
    /// A room on `rules` not entered yet: no code, no seat, no game.
    pub fn waiting(rules: Rules) -> Table {
        Table {
            code: None,
            seat: None,
            position: Position::new(rules, Mark::X),
            started: false,
            over: false,
            ended: None,
            undo_asked: None,
            score: [0; 3],
            players: [None, None],
            watchers: 0,
            clocks: None,
            said: Vec::new(),
        }
    }

    /// The player of `mark`, if the seat is taken.
    pub fn player(&self, mark: Mark) -> Option<&Player> {
        self.players[seat_index(mark)].as_ref()
    }

    /// Whether the other seat asks to undo, so that the person's yes or no is awaited
    /// (a watcher is told it only watches).
    pub fn undo_awaits_answer(&self) -> bool {
        self.undo_asked.is_some() && self.undo_asked != self.seat
    }

    /// Whether it is the person's move.
    pub fn my_turn(&self) -> bool {
        self.started
            && !self.over
            && !self.position.is_over()
            && self.seat == Some(self.position.to_move())
    }
}

/// The slot of `mark` in [`Table::players`].
const fn seat_index(mark: Mark) -> usize {
    match mark {
        Mark::X => 0,
        Mark::O => 1,
    }
}

/// What the person asks of the room, for the front end to send: the server answers by
/// what happens, or a refusal in words ([`App::online_note`](super::App::online_note)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    /// Open a room for games on `rules`, the person in its first seat, with a `clock`
    /// (`5+3`) if one is chosen.
    Host {
        /// The board.
        rules: Rules,
        /// The room's clock, as the server reads it.
        clock: Option<String>,
        /// Whether the room is listed for anyone to join.
        public: bool,
        /// The name the others see (none chosen: the front end's own).
        name: String,
    },
    /// Come into the room of `code`, as typed (the front end reads it): a free seat, or
    /// watch.
    Join {
        /// The code.
        code: String,
        /// The name the others see (none chosen: the front end's own).
        name: String,
    },
    /// List the server's public rooms waiting for a player: the front end answers with
    /// [`App::listed`].
    ListRooms,
    /// Ask for the text of a line of the box of a friend online in the front end's own
    /// way (a page on a touch screen has no keys): the front end answers with
    /// [`App::edited`].
    Edit {
        /// The code's line or the name's.
        field: Field,
        /// Its text now.
        text: String,
    },
    /// Play a square.
    Play(Square),
    /// Take one's last move back (the other player answers).
    Undo,
    /// Answer the other player's undo: yes or no.
    AnswerUndo(bool),
    /// Another game, once this one is over.
    Rematch,
    /// Give the game up.
    Resign,
    /// Win the game of a player who lost the connection and has not come back in time.
    Claim,
    /// Say a line to the room (players and watchers alike).
    Say(String),
    /// Leave the room (the front end closes its connection; a seat is kept for a
    /// return).
    Leave,
    /// Leave the room for good between games, the seat given up for another player (the
    /// front end says so to the server, then closes its connection).
    LeaveRoom,
}

/// The online screen: the room as told, and the person's cursor on its board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnlineScreen {
    /// The room.
    pub table: Table,
    /// The cursor and a square name being typed.
    pub game: GameScreen,
    /// The app's time at its last tick.
    now: Duration,
    /// The app's time when the clocks were last told.
    clocks_told: Duration,
    /// When the other player, who lost the connection mid-game, may be claimed from: the
    /// person is told then.
    claim_due: Option<Duration>,
}

impl OnlineScreen {
    /// The screen while entering a room on `rules`.
    pub(super) fn entering(rules: Rules) -> OnlineScreen {
        OnlineScreen {
            table: Table::waiting(rules),
            game: GameScreen::new(rules),
            now: Duration::ZERO,
            clocks_told: Duration::ZERO,
            claim_due: None,
        }
    }

    /// The time `mark` has left on the clock now, in a room with clocks.
    pub fn clock(&self, mark: Mark) -> Option<Duration> {
        let clocks = self.table.clocks.as_ref()?;
        Some(clocks.left(mark, self.now.saturating_sub(self.clocks_told)))
    }

    /// Time passes: the running clock counts down.
    pub(super) fn tick(&mut self, now: Duration) {
        self.now = now;
    }

    /// When the person is next to be told something without a message from the server:
    /// that the other player's game can be claimed.
    pub(super) fn claim_due(&self) -> Option<Duration> {
        self.claim_due
    }

    /// Whose turn, in words: the verdict once over, who is awaited before the first game.
    pub(super) fn turn_text(&self) -> String {
        let table = &self.table;
        if table.code.is_none() {
            return "entering the room…".to_owned();
        }
        if !table.started {
            return "waiting for a friend".to_owned();
        }
        if table.over || table.position.is_over() {
            return match table.ended {
                Some(Outcome::Win(winner)) if table.seat == Some(winner) => "You win!".to_owned(),
                Some(outcome) => format!("{outcome}."),
                None => "The game is over.".to_owned(),
            };
        }
        let mark = table.position.to_move();
        if table.seat == Some(mark) {
            format!("{mark}: your move")
        } else {
            format!("{mark} to move")
        }
    }

    /// The name shown for the player of `mark`: "(you)" after the person's own, "away"
    /// after one whose connection dropped.
    pub(super) fn player_name(&self, mark: Mark) -> String {
        let table = &self.table;
        let Some(player) = table.player(mark) else {
            return "(free seat)".to_owned();
        };
        let mut name = ttt_core::Shown(&player.name).to_string();
        if table.seat == Some(mark) {
            name.push_str(" (you)");
        } else if player.computer && !player.name.to_lowercase().contains("computer") {
            name.push_str(" (computer)");
        }
        if !player.connected {
            name.push_str(", away");
        }
        name
    }
}

impl App {
    /// The same app for a front end that can play online, where the others see the person
    /// as `name` unless they choose another: the start screen offers a friend online, and
    /// Start then opens the box to [host](Ask::Host) a room or [join](Ask::Join) one.
    #[must_use]
    pub fn with_online(mut self, name: &str) -> App {
        self.online = true;
        self.online_name = name.to_owned();
        if let Screen::Start(menu) = &mut self.screen {
            menu.choices.online = true;
        }
        self
    }

    /// Shows a room on `rules` being entered (hosted, joined, or come back to), until the
    /// front end's connection tells it ([`App::show_online`]).
    pub fn enter_online(&mut self, rules: Rules) {
        self.overlay = None;
        self.screen = Screen::Online(Box::new(OnlineScreen::entering(rules)));
        self.say("Entering the room…".to_owned());
    }

    /// Shows the room as the server last told it. The cursor stays where it was on the
    /// same board. Outside the online screen, nothing changes: the person left.
    pub fn show_online(&mut self, table: Table) {
        let Screen::Online(online) = &mut self.screen else {
            return;
        };
        if online.table.position.rules() != table.position.rules() {
            online.game = GameScreen::new(table.position.rules());
        }
        if online.table.clocks != table.clocks {
            online.clocks_told = online.now;
        }
        // A game that ended while a box asked before leaving it: the question is gone.
        let ended = table.over && !online.table.over;
        online.table = table;
        if ended && matches!(self.overlay, Some(Overlay::Confirm(_))) {
            self.overlay = None;
        }
    }

    /// The other player lost the connection mid-game, and may be claimed from after
    /// `wait` ([`Ask::Claim`]): the person is told when that time comes, if they are still
    /// away then.
    pub fn online_claimable_in(&mut self, wait: Duration) {
        if let Screen::Online(online) = &mut self.screen {
            online.claim_due = Some(online.now + wait);
        }
    }

    /// Tells the person, once, that the game of the other player, still away, can now be
    /// claimed.
    pub(super) fn online_claim_due(&mut self) {
        let Screen::Online(online) = &mut self.screen else {
            return;
        };
        if online.claim_due.is_none_or(|due| online.now < due) {
            return;
        }
        online.claim_due = None;
        let table = &online.table;
        let Some(mine) = table.seat else {
            return;
        };
        let away = table
            .player(!mine)
            .filter(|player| !player.connected && table.started && !table.over)
            .map(|player| player.name.clone());
        if let Some(name) = away {
            self.status = Status {
                text: format!("{name} has not come back: {}.", self.front.claim()),
                warning: false,
            };
        }
    }

    /// Says `text` in the status line of the online screen: what happened in the room, or
    /// why the server refused (`warning`).
    pub fn online_note(&mut self, text: String, warning: bool) {
        if matches!(self.screen, Screen::Online(_)) {
            self.status = Status { text, warning };
        }
    }

    /// Leaves the online screen for the start screen, saying why (the server could not be
    /// reached, or closed the room for good).
    pub fn online_closed(&mut self, why: String) {
        if !matches!(self.screen, Screen::Online(_)) {
            return;
        }
        self.overlay = None;
        // The room is gone already: nothing to leave.
        self.start_screen();
        self.refuse(why);
    }

    /// Shows the server's list of public rooms waiting for a player (or why there is
    /// none) in the box of a friend online, if it is open.
    pub fn listed(&mut self, rooms: Result<Vec<Waiting>, String>) {
        if let Some(Overlay::Lobby(lobby)) = &mut self.overlay {
            lobby.listed(rooms);
        }
    }

    /// Sets the text of a line of the box of a friend online, as the front end asked for
    /// it ([`Ask::Edit`]).
    pub fn edited(&mut self, field: Field, text: &str) {
        if let Some(Overlay::Lobby(lobby)) = &mut self.overlay {
            lobby.edited(field, text);
        }
    }

    /// The name the others see online, as last chosen.
    pub fn online_name(&self) -> &str {
        &self.online_name
    }

    /// What the person asked of the room since the last call, in order, for the front
    /// end to send.
    pub fn take_asks(&mut self) -> Vec<Ask> {
        std::mem::take(&mut self.asks)
    }

    /// The room on the online screen, if it shows.
    pub fn table(&self) -> Option<&Table> {
        match &self.screen {
            Screen::Online(online) => Some(&online.table),
            _ => None,
        }
    }

    pub(super) fn online_key(&mut self, key: Key) {
        let (rules, naming) = (self.rules(), self.naming);
        let Screen::Online(online) = &mut self.screen else {
            return;
        };
        match steer(&mut online.game, key, naming, rules) {
            Steered::Not => {}
            Steered::Moved => return,
            Steered::Said(status) => return self.status = status,
            Steered::Place(square) => return self.place_online(square),
        }
        let table = &online.table;
        let playing = table.seat.is_some() && table.started && !table.over;
        let answering = table.undo_awaits_answer();
        match key {
            Key::Char('u') => self.ask_seated(Ask::Undo),
            Key::Char('y') if answering => self.ask_seated(Ask::AnswerUndo(true)),
            // Once a game is over, n is another game, as its verdict says.
            Key::Char('n') if answering && !table.over => {
                self.ask_seated(Ask::AnswerUndo(false));
            }
            Key::Char('y') => self.refuse("Nobody asks to undo.".to_owned()),
            Key::Char('n') => self.ask_seated(Ask::Rematch),
            Key::Char('c') => self.ask_seated(Ask::Claim),
            Key::Char('g') if playing => self.open(Overlay::Confirm(Leave::Resign)),
            Key::Char('g') => self.refuse("There is no game under way to give up.".to_owned()),
            Key::Char('?') => self.open(Overlay::Help),
            Key::Char('/') if table.code.is_some() => self.open(Overlay::Say(String::new())),
            Key::Char('m') if playing => self.open(Overlay::Confirm(Leave::Menu)),
            Key::Char('q') | Key::Esc if playing => self.open(Overlay::Confirm(Leave::Quit)),
            // Between games, m gives the seat up, and the other reads that this player
            // left (q keeps it, for a return).
            Key::Char('m') if table.code.is_some() => {
                self.asks.push(Ask::LeaveRoom);
                self.start_screen();
            }
            Key::Char('m') => self.show_start(),
            // The front end closes the connection as the app ends.
            Key::Char('q') | Key::Esc => self.end = Some(super::End::Quit),
            _ => {}
        }
    }

    /// Asks to play `square`; the server decides. A watcher, or a room with no game yet,
    /// is told at once.
    pub(super) fn place_online(&mut self, square: Square) {
        let Some(table) = self.table() else {
            return;
        };
        if table.seat.is_some() && !table.started {
            return self.refuse("The game has not begun: wait for your friend.".to_owned());
        }
        self.ask_seated(Ask::Play(square));
    }

    /// Hands `ask` out, unless the person only watches.
    fn ask_seated(&mut self, ask: Ask) {
        match self.table() {
            Some(table) if table.seat.is_some() => self.asks.push(ask),
            Some(_) => self.refuse("You watch this game: the players play it.".to_owned()),
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use ratatui::layout::Rect;

    use super::*;
    use crate::app::{Front, Input, LIST_AGAIN, Lobby, Opponent, Theme};
    use crate::{Seats, Settings};

    const AREA: Rect = Rect::new(0, 0, 80, 24);

    fn app() -> App {
        let settings = Settings::new(Rules::default(), Seats::Ask { letter: None }).unwrap();
        App::new(settings, Theme::monochrome(), AREA, Duration::ZERO).with_online("Ann")
    }

    fn key(app: &mut App, key: Key) {
        app.handle(Input::Key(key), Duration::ZERO);
    }

    /// A room with a game under way, the person in `seat`.
    fn in_room(seat: Option<Mark>) -> App {
        let mut app = app();
        app.enter_online(Rules::default());
        let mut table = Table::waiting(Rules::default());
        table.code = Some("K7QX-2M".to_owned());
        table.seat = seat;
        table.started = true;
        table.players = [Some(Player::named("Ann")), Some(Player::named("Bob"))];
        app.show_online(table);
        app
    }

    #[test]
    fn the_person_is_told_when_the_game_of_a_player_away_can_be_claimed() {
        let mut app = in_room(Some(Mark::X));
        let mut table = app.table().unwrap().clone();
        table.players[1] = Some(Player {
            connected: false,
            ..Player::named("Bob")
        });
        app.show_online(table.clone());
        let wait = Duration::from_secs(60);
        app.online_claimable_in(wait);
        assert_eq!(app.next_due(), Some(wait), "a front end wakes then");
        app.handle(Input::Tick, wait - Duration::from_millis(1));
        assert!(!app.status().text.contains("has not come back"));
        app.handle(Input::Tick, wait);
        assert_eq!(
            app.status().text,
            "Bob has not come back: press c to claim the game, or wait on."
        );
        assert_eq!(app.next_due(), None, "told once");
        // Back in time: nothing to tell.
        app.online_claimable_in(wait);
        table.players[1] = Some(Player::named("Bob"));
        app.show_online(table);
        app.online_note(String::new(), false);
        app.handle(Input::Tick, wait * 3);
        assert!(app.status().text.is_empty());
    }

    #[test]
    fn an_open_box_of_rooms_wakes_its_front_end_to_ask_for_the_list_again() {
        let mut app = in_lobby(Front::Page, Rules::default());
        assert_eq!(app.next_due(), None, "asked, not answered yet");
        app.listed(Ok(Vec::new()));
        assert_eq!(app.next_due(), Some(LIST_AGAIN));
        // Listed stays as last chosen when the box opens again.
        key(&mut app, Key::Down);
        key(&mut app, Key::Down);
        key(&mut app, Key::Char(' '));
        key(&mut app, Key::Esc);
        key(&mut app, Key::Enter);
        assert!(lobby(&app).public);
    }

    #[test]
    fn a_game_that_ends_under_the_box_asking_to_leave_it_closes_the_box() {
        let mut app = in_room(Some(Mark::X));
        key(&mut app, Key::Char('5'));
        let mut table = app.table().unwrap().clone();
        table.position =
            Position::from_moves(Rules::default(), Mark::X, &[Square::new(4)]).unwrap();
        app.show_online(table.clone());
        key(&mut app, Key::Char('q'));
        assert!(matches!(app.overlay(), Some(Overlay::Confirm(_))));
        // A clock falls meanwhile: the game is over, and nothing is left to ask about.
        table.over = true;
        table.ended = Some(Outcome::Win(Mark::O));
        app.show_online(table);
        assert!(app.overlay().is_none());
    }

    #[test]
    fn the_last_lines_said_show_in_the_panel_under_the_moves() {
        let mut app = in_room(Some(Mark::X));
        let shown = crate::app::tests::screen_text(&app);
        assert!(!shown.contains("Said"), "nothing said, no title");
        let mut table = app.table().unwrap().clone();
        table.said = (1..=30).map(|line| format!("Bob: line {line}")).collect();
        table.said.push(format!("Ann: {}", "long ".repeat(12)));
        app.show_online(table);
        let shown = crate::app::tests::screen_text(&app);
        assert!(shown.contains("Said"), "{shown}");
        assert!(
            shown.contains("Bob: line 30") && !shown.contains("Bob: line 1 "),
            "{shown}"
        );
        assert!(
            shown.contains("Ann: long"),
            "the last line, wrapped: {shown}"
        );
    }

    #[test]
    fn slash_says_a_line_to_the_room_as_typed_and_esc_says_nothing() {
        for seat in [Some(Mark::X), None] {
            let mut app = in_room(seat);
            key(&mut app, Key::Char('/'));
            for letter in "gg, wp!".chars() {
                key(&mut app, Key::Char(letter));
            }
            key(&mut app, Key::Backspace);
            key(&mut app, Key::Enter);
            assert_eq!(
                app.take_asks(),
                vec![Ask::Say("gg, wp".to_owned())],
                "{seat:?}"
            );
            assert!(app.overlay().is_none());
            // Esc, or Enter on nothing typed, says nothing.
            key(&mut app, Key::Char('/'));
            key(&mut app, Key::Char('x'));
            key(&mut app, Key::Esc);
            key(&mut app, Key::Char('/'));
            key(&mut app, Key::Enter);
            assert!(app.take_asks().is_empty());
            assert!(matches!(app.screen(), Screen::Online(_)));
        }
    }

    #[test]
    fn the_running_clock_counts_down_from_when_it_was_told() {
        let mut app = in_room(Some(Mark::X));
        app.handle(Input::Tick, Duration::from_secs(10));
        let mut table = app.table().unwrap().clone();
        table.clocks = Some(Clocks {
            control: "1+0".to_owned(),
            left: [Duration::from_secs(60), Duration::from_secs(42)],
            running: Some(Mark::X),
        });
        app.show_online(table);
        app.handle(Input::Tick, Duration::from_millis(15_500));
        let Screen::Online(online) = app.screen() else {
            panic!("not online");
        };
        assert_eq!(online.clock(Mark::X), Some(Duration::from_millis(54_500)));
        assert_eq!(online.clock(Mark::O), Some(Duration::from_secs(42)));
        let mut buffer = ratatui::buffer::Buffer::empty(AREA);
        ratatui::widgets::Widget::render(&app, AREA, &mut buffer);
        let shown: String = buffer.content().iter().map(|cell| cell.symbol()).collect();
        assert!(shown.contains("0:54 Ann (you)"), "{shown}");
        assert!(shown.contains("0:42 Bob"), "{shown}");
        // Told again (a move): counted from then.
        let mut table = app.table().unwrap().clone();
        if let Some(clocks) = &mut table.clocks {
            clocks.left = [Duration::from_secs(54), Duration::from_secs(42)];
            clocks.running = Some(Mark::O);
        }
        app.show_online(table);
        app.handle(Input::Tick, Duration::from_millis(47_000));
        let Screen::Online(online) = app.screen() else {
            panic!("not online");
        };
        assert_eq!(online.clock(Mark::X), Some(Duration::from_secs(54)));
        assert_eq!(online.clock(Mark::O), Some(Duration::from_millis(10_500)));
    }

    #[test]
    fn the_start_screen_offers_a_friend_online_only_to_a_front_end_that_plays_online() {
        let offered = |mut app: App| {
            let mut seen = Vec::new();
            if let Screen::Start(menu) = &mut app.screen {
                menu.line = 0;
            }
            for _ in 0..10 {
                key(&mut app, Key::Right);
                if let Screen::Start(menu) = &app.screen {
                    seen.push(menu.choices.opponent);
                }
            }
            seen.contains(&Opponent::Online)
        };
        assert!(offered(app()));
        // Last run's choices do not take it away.
        let remembered = crate::records::Remembered {
            table: crate::Table {
                rules: Rules::default(),
                x: crate::Seat::Human,
                o: crate::Seat::Computer(ttt_players::Strength::Rules),
                first: crate::FirstPolicy::Random,
            },
            naming: ttt_core::SquareNaming::default(),
        };
        assert!(offered(app().with_remembered(&remembered)));
        let settings = Settings::new(Rules::default(), Seats::Ask { letter: None }).unwrap();
        assert!(!offered(App::new(
            settings,
            Theme::monochrome(),
            AREA,
            Duration::ZERO
        )));
    }

    #[test]
    fn online_the_first_move_line_chooses_the_rooms_clock() {
        let mut app = app().with_front(Front::Page);
        let Screen::Start(menu) = &mut app.screen else {
            panic!("not the start screen");
        };
        menu.choices.opponent = Opponent::Online;
        let line = crate::app::StartLine::ALL
            .iter()
            .position(|&line| line == crate::app::StartLine::First)
            .unwrap();
        menu.line = line;
        let shown = |app: &App| match app.screen() {
            Screen::Start(menu) => menu.choices.line(crate::app::StartLine::First),
            _ => panic!("not the start screen"),
        };
        assert_eq!(shown(&app), ("Clock", "none: take your time".to_owned()));
        key(&mut app, Key::Right);
        assert_eq!(shown(&app).1, "1 min a game");
        key(&mut app, Key::Right);
        assert_eq!(shown(&app).1, "3 min a game, 2 s more a move");
        if let Screen::Start(menu) = &mut app.screen {
            menu.line = crate::app::StartLine::ALL.len() - 1;
        }
        key(&mut app, Key::Enter);
        key(&mut app, Key::Enter);
        let rules = Rules::default();
        let clock = Some("3+2".to_owned());
        let name = "Ann".to_owned();
        let asks = app.take_asks();
        assert_eq!(
            asks.last(),
            Some(&Ask::Host {
                rules,
                clock,
                public: false,
                name
            })
        );
    }

    /// An app on the start screen's box of a friend online, for `front`, on `rules`.
    fn in_lobby(front: Front, rules: Rules) -> App {
        let mut app = app().with_front(front);
        if let Screen::Start(menu) = &mut app.screen {
            menu.choices.opponent = Opponent::Online;
            menu.choices.rules = rules;
        }
        key(&mut app, Key::Enter);
        app
    }

    fn lobby(app: &App) -> &Lobby {
        match app.overlay() {
            Some(Overlay::Lobby(lobby)) => lobby,
            other => panic!("not the box of a friend online: {other:?}"),
        }
    }

    fn waiting(code: &str, host: &str) -> Waiting {
        Waiting {
            code: code.to_owned(),
            host: host.to_owned(),
            board: "3x3".to_owned(),
            clock: None,
        }
    }

    #[test]
    fn start_with_a_friend_online_hosts_a_room_on_the_chosen_board_or_joins_one_by_code() {
        let rules = Rules::new(7, 6, 4).unwrap();
        // The box opens asking for the list: Enter alone hosts, as Ann.
        let mut host = in_lobby(Front::Terminal, rules);
        assert_eq!(lobby(&host).name, "Ann");
        assert_eq!(host.take_asks(), vec![Ask::ListRooms]);
        key(&mut host, Key::Enter);
        let name = "Ann".to_owned();
        assert_eq!(
            host.take_asks(),
            vec![Ask::Host {
                rules,
                clock: None,
                public: false,
                name: name.clone()
            }]
        );
        assert!(matches!(host.screen(), Screen::Online(_)));
        assert_eq!(host.rules(), rules);
        assert_eq!(
            host.position().ply(),
            0,
            "nothing is played before the server says"
        );
        // A code typed joins its room, read as typed (the front end reads the code).
        let mut guest = in_lobby(Front::Terminal, rules);
        for typed in "k7qx-2mm".chars() {
            key(&mut guest, Key::Char(typed));
        }
        key(&mut guest, Key::Backspace);
        assert_eq!(lobby(&guest).code, "K7QX-2M");
        guest.take_asks();
        key(&mut guest, Key::Enter);
        let code = "K7QX-2M".to_owned();
        assert_eq!(guest.take_asks(), vec![Ask::Join { code, name }]);
        assert!(matches!(guest.screen(), Screen::Online(_)));
        // Esc goes back to the start screen, asking nothing; q is typed, not quitting.
        let mut back = in_lobby(Front::Terminal, rules);
        back.take_asks();
        key(&mut back, Key::Char('q'));
        assert_eq!(back.end(), None);
        key(&mut back, Key::Esc);
        assert!(back.overlay().is_none() && matches!(back.screen(), Screen::Start(_)));
        assert!(back.take_asks().is_empty());
    }

    #[test]
    fn the_box_of_a_friend_online_lists_public_rooms_and_hosts_one_under_the_name_chosen() {
        let mut app = in_lobby(Front::Terminal, Rules::default());
        let shown = |app: &App| crate::app::tests::screen_text(app);
        assert!(
            shown(&app).contains("asking the server…"),
            "{}",
            shown(&app)
        );
        app.listed(Err("No server answers at 127.0.0.1:7878.".to_owned()));
        assert!(shown(&app).contains("No server answers"));
        app.listed(Ok(vec![
            waiting("AAAA-2A", "Bob"),
            waiting("BBBB-2B", "Cy"),
        ]));
        assert!(shown(&app).contains("AAAA-2A  Bob, 3x3"), "{}", shown(&app));
        // The list is asked for again a while after each answer.
        app.take_asks();
        app.handle(Input::Tick, LIST_AGAIN);
        assert_eq!(app.take_asks(), vec![Ask::ListRooms]);
        // A new name, and a listed room: both go with the room hosted, and stay chosen.
        key(&mut app, Key::Down);
        for _ in 0..3 {
            key(&mut app, Key::Backspace);
        }
        for typed in "Zoë".chars() {
            key(&mut app, Key::Char(typed));
        }
        key(&mut app, Key::Down);
        key(&mut app, Key::Char(' '));
        assert!(shown(&app).contains("Enter: host a new room, listed."));
        key(&mut app, Key::Enter);
        let rules = Rules::default();
        let name = "Zoë".to_owned();
        assert_eq!(
            app.take_asks(),
            vec![Ask::Host {
                rules,
                clock: None,
                public: true,
                name: name.clone()
            }]
        );
        assert_eq!(app.online_name(), "Zoë");
        // Back on the start screen, the box opens with the name last chosen; down to the
        // second room, Enter joins it.
        app.online_closed("The room closed.".to_owned());
        key(&mut app, Key::Enter);
        assert_eq!(lobby(&app).name, "Zoë");
        app.listed(Ok(vec![
            waiting("AAAA-2A", "Bob"),
            waiting("BBBB-2B", "Cy"),
        ]));
        for _ in 0..4 {
            key(&mut app, Key::Down);
        }
        assert!(shown(&app).contains("› BBBB-2B  Cy"));
        app.take_asks();
        key(&mut app, Key::Enter);
        let code = "BBBB-2B".to_owned();
        assert_eq!(app.take_asks(), vec![Ask::Join { code, name }]);
    }

    #[test]
    fn on_a_page_the_box_is_tapped_and_its_text_asked_for_in_the_pages_way() {
        let mut page = in_lobby(Front::Page, Rules::default());
        page.take_asks();
        page.listed(Ok(vec![waiting("AAAA-2A", "Bob")]));
        let Some(Overlay::Lobby(shown)) = page.overlay().cloned() else {
            panic!("no box");
        };
        let controls = page.shown_controls(AREA);
        let words: Vec<&str> = controls
            .iter()
            .map(|control| control.words.as_str())
            .collect();
        assert_eq!(
            words,
            [
                "host a new room for a friend",
                "Code:",
                "Name: Ann",
                "Listed: no, only with the code",
                "AAAA-2A Bob, 3x3"
            ],
            "{shown:?}"
        );
        let tap = |page: &mut App, index: usize| {
            let (column, row) = page.shown_controls(AREA)[index].click;
            page.handle(Input::Click { column, row }, Duration::ZERO);
        };
        // The name's line asks the page for the name, and takes its answer.
        tap(&mut page, 2);
        let asked = vec![Ask::Edit {
            field: Field::Name,
            text: "Ann".to_owned(),
        }];
        assert_eq!(page.take_asks(), asked);
        page.edited(Field::Name, "Bob");
        assert_eq!(lobby(&page).name, "Bob");
        tap(&mut page, 3);
        assert!(lobby(&page).public);
        // A tap outside the box closes it; on a room, joins it.
        page.handle(Input::Click { column: 0, row: 0 }, Duration::ZERO);
        assert!(page.overlay().is_none());
        key(&mut page, Key::Enter);
        page.listed(Ok(vec![waiting("AAAA-2A", "Bob")]));
        page.take_asks();
        tap(&mut page, 4);
        let code = "AAAA-2A".to_owned();
        let name = "Bob".to_owned();
        assert_eq!(page.take_asks(), vec![Ask::Join { code, name }]);
        assert!(matches!(page.screen(), Screen::Online(_)));
    }

    #[test]
    fn each_key_of_the_room_is_an_ask_and_nothing_is_played_here() {
        let mut app = in_room(Some(Mark::X));
        for (pressed, asked) in [
            (Key::Char('5'), Ask::Play(Square::new(4))),
            (Key::Enter, Ask::Play(Square::new(4))),
            (Key::Char('u'), Ask::Undo),
            (Key::Char('n'), Ask::Rematch),
            (Key::Char('c'), Ask::Claim),
        ] {
            key(&mut app, pressed);
            assert_eq!(app.take_asks(), vec![asked], "{pressed:?}");
        }
        key(&mut app, Key::Right);
        key(&mut app, Key::Char(' '));
        assert_eq!(app.take_asks(), vec![Ask::Play(Square::new(5))]);
        assert_eq!(app.position().ply(), 0);
        // Resigning asks first.
        key(&mut app, Key::Char('g'));
        assert!(app.take_asks().is_empty());
        key(&mut app, Key::Char('y'));
        assert_eq!(app.take_asks(), vec![Ask::Resign]);
    }

    #[test]
    fn an_undo_the_other_player_asks_is_answered_by_y_and_n() {
        let mut app = in_room(Some(Mark::O));
        let mut table = app.table().unwrap().clone();
        table.undo_asked = Some(Mark::X);
        app.show_online(table.clone());
        key(&mut app, Key::Char('n'));
        assert_eq!(app.take_asks(), vec![Ask::AnswerUndo(false)]);
        key(&mut app, Key::Char('y'));
        assert_eq!(app.take_asks(), vec![Ask::AnswerUndo(true)]);
        // One's own request is not answered by oneself.
        table.undo_asked = Some(Mark::O);
        app.show_online(table);
        key(&mut app, Key::Char('y'));
        assert!(app.take_asks().is_empty());
        assert!(app.status().warning);
        // Once the game is over, n is another game, as the verdict's button says; y
        // still allows the undo.
        let mut over = app.table().unwrap().clone();
        over.undo_asked = Some(Mark::X);
        over.over = true;
        app.show_online(over);
        key(&mut app, Key::Char('n'));
        assert_eq!(app.take_asks(), vec![Ask::Rematch]);
        key(&mut app, Key::Char('y'));
        assert_eq!(app.take_asks(), vec![Ask::AnswerUndo(true)]);
    }

    #[test]
    fn a_watcher_is_told_it_watches_and_asks_nothing() {
        let mut app = in_room(None);
        for pressed in [
            Key::Char('5'),
            Key::Char('u'),
            Key::Char('n'),
            Key::Char('c'),
        ] {
            key(&mut app, pressed);
            assert!(app.take_asks().is_empty(), "{pressed:?}");
        }
        assert_eq!(
            app.status().text,
            "You watch this game: the players play it."
        );
        // A click on the board asks nothing either.
        let square = app.shown_squares(AREA)[0].cell;
        app.handle(
            Input::Click {
                column: square.x,
                row: square.y,
            },
            Duration::ZERO,
        );
        assert!(app.take_asks().is_empty());
        // Its key list offers only what a watcher can do.
        let mut buffer = ratatui::buffer::Buffer::empty(AREA);
        ratatui::widgets::Widget::render(&app, AREA, &mut buffer);
        let shown: String = buffer.content().iter().map(|cell| cell.symbol()).collect();
        assert!(
            shown.contains("m leave · / say · ? help · q quit"),
            "{shown}"
        );
        assert!(
            !shown.contains("u undo") && !shown.contains("g resign"),
            "{shown}"
        );
    }

    #[test]
    fn between_games_m_gives_the_seat_up_and_q_keeps_it() {
        let over = |app: &mut App| {
            let mut table = app.table().unwrap().clone();
            table.over = true;
            app.show_online(table);
        };
        let mut app = in_room(Some(Mark::X));
        over(&mut app);
        key(&mut app, Key::Char('m'));
        assert_eq!(app.take_asks(), vec![Ask::LeaveRoom]);
        assert!(matches!(app.screen(), Screen::Start(_)));
        let mut app = in_room(Some(Mark::X));
        over(&mut app);
        key(&mut app, Key::Char('q'));
        assert!(app.take_asks().is_empty());
        assert_eq!(app.end(), Some(crate::app::End::Quit));
    }

    #[test]
    fn leaving_a_game_under_way_asks_first_then_leaves_the_room() {
        let mut app = in_room(Some(Mark::X));
        key(&mut app, Key::Char('m'));
        assert!(matches!(app.overlay(), Some(Overlay::Confirm(Leave::Menu))));
        key(&mut app, Key::Char('y'));
        assert_eq!(app.take_asks(), vec![Ask::Leave]);
        let Screen::Start(menu) = app.screen() else {
            panic!("not on the start screen");
        };
        assert_eq!(
            menu.choices.opponent,
            Opponent::Online,
            "one key hosts again"
        );
    }

    #[test]
    fn a_room_closed_by_the_server_goes_back_to_the_start_screen_saying_why() {
        let mut app = in_room(Some(Mark::X));
        app.online_closed("The room went with its server.".to_owned());
        assert!(matches!(app.screen(), Screen::Start(_)));
        assert!(app.take_asks().is_empty(), "nothing left to leave");
        assert_eq!(app.status().text, "The room went with its server.");
        // What the connection says after is for nobody.
        app.show_online(Table::waiting(Rules::default()));
        app.online_note("late".to_owned(), false);
        assert!(matches!(app.screen(), Screen::Start(_)));
        assert_ne!(app.status().text, "late");
    }

    #[test]
    fn the_room_shows_its_code_players_and_watchers() {
        let mut app = in_room(Some(Mark::O));
        let mut table = app.table().unwrap().clone();
        table.watchers = 2;
        table.players[0].as_mut().unwrap().connected = false;
        app.show_online(table);
        let mut buffer = ratatui::buffer::Buffer::empty(AREA);
        ratatui::widgets::Widget::render(&app, AREA, &mut buffer);
        let text: String = buffer
            .content()
            .iter()
            .map(ratatui::buffer::Cell::symbol)
            .collect();
        for shown in [
            "room K7QX-2M",
            "Ann, away",
            "Bob (you)",
            "2 watching",
            "X to move",
            "n rematch",
        ] {
            assert!(text.contains(shown), "{shown} is not shown");
        }
    }

    #[test]
    fn a_table_is_the_persons_turn_only_in_a_game_on_their_mark() {
        let mut table = Table::waiting(Rules::default());
        table.seat = Some(Mark::X);
        assert!(!table.my_turn(), "no game yet");
        table.started = true;
        assert!(table.my_turn());
        table.seat = Some(Mark::O);
        assert!(!table.my_turn());
        table.seat = None;
        assert!(!table.my_turn(), "a watcher never moves");
        table.seat = Some(Mark::X);
        table.over = true;
        assert!(!table.my_turn(), "a forfeited game is over");
    }
}
