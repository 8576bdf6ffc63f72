//! The box a friend online opens from the start screen: host a room (listed for anyone, or
//! private), join one by its code or from the server's list of public rooms waiting for a
//! player, under the name the others see. The box decides nothing about rooms: it asks
//! (an [`Ask`](super::Ask)) and the front end answers with the server's list.
//!
//! ```
//! use std::time::Duration;
//! use ttt_play::app::{Field, Lobby, LobbyAction, Key, Waiting};
//!
//! let mut lobby = Lobby::new("Ann".to_owned(), Duration::ZERO);
//! lobby.listed(Ok(vec![Waiting {
//!     code: "K7QX-2M".to_owned(),
//!     host: "Bob".to_owned(),
//!     board: "3x3".to_owned(),
//!     clock: None,
//! }]));
//! // Enter alone hosts; down to the list, Enter joins the room chosen.
//! assert_eq!(lobby.key(Key::Enter), LobbyAction::Host);
//! lobby.key(Key::Down);
//! lobby.key(Key::Down);
//! lobby.key(Key::Down);
//! assert_eq!(lobby.field, Field::Room(0));
//! assert_eq!(lobby.key(Key::Enter), LobbyAction::Join("K7QX-2M".to_owned()));
//! ```

use std::time::Duration;

use ttt_core::Shown;

use super::Key;

/// The longest code that can be typed (a code is 7 letters and a dash).
const MAX_TYPED_CODE: usize = 12;

/// The longest name that can be typed, in characters.
pub const MAX_NAME: usize = 24;

/// How often the list of rooms is asked for again while the box is open.
pub const LIST_AGAIN: Duration = Duration::from_secs(5);

/// A public room waiting for a player, as the server lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    /// Its code, to join it by.
    pub code: String,
    /// The name of the player waiting there.
    pub host: String,
    /// Its board, as the server writes it (`3x3`, `15x15, k=5`).
    pub board: String,
    /// Its time control (`5+3`), if its games have clocks.
    pub clock: Option<String>,
}

impl Waiting {
    /// The room in one line of the list: `K7QX-2M  Bob, 3x3, clock 5+3`.
    #[must_use]
    pub fn line(&self) -> String {
        let clock = self
            .clock
            .as_ref()
            .map(|clock| format!(", clock {clock}"))
            .unwrap_or_default();
        format!("{}  {}, {}{clock}", self.code, self.host, self.board)
    }
}

/// A line of the box that keys act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The code of a friend's room, typed.
    Code,
    /// The person's name, as the others see it.
    Name,
    /// Whether a room hosted is listed for anyone to join.
    Public,
    /// A room of the list, by its place there.
    Room(usize),
}

/// What the box asks of the app once a key or click acted on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LobbyAction {
    /// Nothing to do beyond showing the box again.
    Nothing,
    /// Host a new room.
    Host,
    /// Join the room of this code (as typed: the front end reads it).
    Join(String),
    /// Close the box, back to the start screen.
    Back,
    /// Have the front end ask for the text of a line in a way of its own (a page on a
    /// touch screen has no keys to type with).
    Edit(Field),
}

/// The box of a friend online.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lobby {
    /// The code typed.
    pub code: String,
    /// The name the others see.
    pub name: String,
    /// Whether a room hosted is listed for anyone to join.
    pub public: bool,
    /// The server's list of rooms waiting for a player: none until it answers, or why
    /// it could not.
    pub rooms: Option<Result<Vec<Waiting>, String>>,
    /// The line keys act on.
    pub field: Field,
    /// When the list was last asked for, and whether it has been answered since.
    asked: (Duration, bool),
}

impl Lobby {
    /// The box for `name`, opened at `now` (when the list is first asked for).
    #[must_use]
    pub fn new(name: String, now: Duration) -> Lobby {
        Lobby {
            code: String::new(),
            name,
            public: false,
            rooms: None,
            field: Field::Code,
            asked: (now, false),
        }
    }

    /// The lines keys go through, in order: the code, the name, public, then the rooms.
    fn fields(&self) -> Vec<Field> {
        let rooms = self.waiting().len();
        [Field::Code, Field::Name, Field::Public]
            .into_iter()
            .chain((0..rooms).map(Field::Room))
            .collect()
    }

    /// The rooms listed, none while the server has not answered.
    #[must_use]
    pub fn waiting(&self) -> &[Waiting] {
        match &self.rooms {
            Some(Ok(rooms)) => rooms,
            _ => &[],
        }
    }

    /// What Enter does now: join the room chosen, or the code typed, or host.
    #[must_use]
    pub fn enter(&self) -> LobbyAction {
        match self.field {
            Field::Room(index) if index < self.waiting().len() => {
                LobbyAction::Join(self.waiting()[index].code.clone())
            }
            _ if !self.code.is_empty() => LobbyAction::Join(self.code.clone()),
            _ => LobbyAction::Host,
        }
    }

    /// Acts on `key`.
    pub fn key(&mut self, key: Key) -> LobbyAction {
        match (key, self.field) {
            (Key::Enter, _) => return self.enter(),
            (Key::Esc, _) => return LobbyAction::Back,
            (Key::Down | Key::Tab, _) => self.step(1),
            (Key::Up, _) => self.step(-1),
            (Key::Char(' ') | Key::Left | Key::Right, Field::Public) => self.public = !self.public,
            (Key::Char(letter), Field::Code)
                if (letter.is_ascii_alphanumeric() || letter == '-')
                    && self.code.len() < MAX_TYPED_CODE =>
            {
                self.code.push(letter.to_ascii_uppercase());
            }
            (Key::Char(letter), Field::Name)
                if !Shown::is_invisible(letter) && self.name.chars().count() < MAX_NAME =>
            {
                self.name.push(letter);
            }
            (Key::Backspace, Field::Code) => {
                self.code.pop();
            }
            (Key::Backspace, Field::Name) => {
                self.name.pop();
            }
            _ => {}
        }
        LobbyAction::Nothing
    }

    /// Acts on a click on `field`: a room joins, public changes, a line to type in is
    /// chosen and, `typed_elsewhere` (a page), asked for in the front end's own way.
    pub fn click(&mut self, field: Field, typed_elsewhere: bool) -> LobbyAction {
        self.field = field;
        match field {
            Field::Room(_) => self.enter(),
            Field::Public => {
                self.public = !self.public;
                LobbyAction::Nothing
            }
            Field::Code | Field::Name if typed_elsewhere => LobbyAction::Edit(field),
            Field::Code | Field::Name => LobbyAction::Nothing,
        }
    }

    /// The text of `field`: the code or the name (nothing for the others).
    #[must_use]
    pub fn text(&self, field: Field) -> &str {
        match field {
            Field::Code => &self.code,
            Field::Name => &self.name,
            Field::Public | Field::Room(_) => "",
        }
    }

    /// Sets the text of `field` (the code or the name) as the front end asked for it.
    pub fn edited(&mut self, field: Field, text: &str) {
        let text = text.trim();
        match field {
            Field::Code => {
                self.code = text
                    .chars()
                    .filter(|letter| letter.is_ascii_alphanumeric() || *letter == '-')
                    .take(MAX_TYPED_CODE)
                    .map(|letter| letter.to_ascii_uppercase())
                    .collect();
            }
            Field::Name => {
                self.name = text
                    .chars()
                    .filter(|letter| !Shown::is_invisible(*letter))
                    .take(MAX_NAME)
                    .collect();
            }
            Field::Public | Field::Room(_) => {}
        }
    }

    /// Moves the line keys act on by `step`, round the box.
    fn step(&mut self, step: isize) {
        let fields = self.fields();
        let at = fields
            .iter()
            .position(|field| *field == self.field)
            .unwrap_or(0);
        let count = fields.len() as isize;
        self.field = fields[(at as isize + step).rem_euclid(count) as usize];
    }

    /// Takes the server's list (or why there is none). The room chosen stays chosen if it
    /// is still listed.
    pub fn listed(&mut self, rooms: Result<Vec<Waiting>, String>) {
        let chosen = match self.field {
            Field::Room(index) => self.waiting().get(index).map(|room| room.code.clone()),
            _ => None,
        };
        self.rooms = Some(rooms);
        self.asked.1 = true;
        if let Field::Room(index) = self.field {
            let rooms = self.waiting();
            self.field =
                match chosen.and_then(|code| rooms.iter().position(|room| room.code == code)) {
                    Some(found) => Field::Room(found),
                    None if rooms.is_empty() => Field::Public,
                    None => Field::Room(index.min(rooms.len() - 1)),
                };
        }
    }

    /// When the list is to be asked for again, once the last answer is in: a front end
    /// that draws only when something changes ticks the app then.
    #[must_use]
    pub fn next_list(&self) -> Option<Duration> {
        let (at, answered) = self.asked;
        answered.then_some(at + LIST_AGAIN)
    }

    /// Whether to ask for the list again at `now`: a while after the last answer. The
    /// time of asking is noted.
    pub fn list_again(&mut self, now: Duration) -> bool {
        let (at, answered) = self.asked;
        let due = answered && now.saturating_sub(at) >= LIST_AGAIN;
        if due {
            self.asked = (now, false);
        }
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room(code: &str) -> Waiting {
        Waiting {
            code: code.to_owned(),
            host: "Bob".to_owned(),
            board: "3x3".to_owned(),
            clock: Some("5+3".to_owned()),
        }
    }

    fn typed(lobby: &mut Lobby, text: &str) {
        for letter in text.chars() {
            lobby.key(Key::Char(letter));
        }
    }

    #[test]
    fn a_code_is_typed_in_capitals_and_joined() {
        let mut lobby = Lobby::new("Ann".to_owned(), Duration::ZERO);
        typed(&mut lobby, "k7qx-2m q!");
        assert_eq!(lobby.code, "K7QX-2MQ");
        lobby.key(Key::Backspace);
        assert_eq!(
            lobby.key(Key::Enter),
            LobbyAction::Join("K7QX-2M".to_owned())
        );
        typed(&mut lobby, "ABCDEFGHIJKLMNOP");
        assert_eq!(lobby.code.len(), MAX_TYPED_CODE);
    }

    #[test]
    fn the_name_is_typed_on_its_line_and_public_changes_on_its_own() {
        let mut lobby = Lobby::new("Guest 7".to_owned(), Duration::ZERO);
        lobby.key(Key::Down);
        assert_eq!(lobby.field, Field::Name);
        for _ in 0..7 {
            lobby.key(Key::Backspace);
        }
        typed(&mut lobby, "Zoë the great, of the long name");
        assert_eq!(lobby.name, "Zoë the great, of the lo");
        assert_eq!(lobby.code, "", "the code is not typed in");
        lobby.key(Key::Tab);
        assert_eq!(lobby.field, Field::Public);
        typed(&mut lobby, "x ");
        assert!(lobby.public);
        lobby.key(Key::Left);
        assert!(!lobby.public);
        assert_eq!(lobby.key(Key::Enter), LobbyAction::Host);
        assert_eq!(lobby.key(Key::Esc), LobbyAction::Back);
    }

    #[test]
    fn keys_go_round_the_lines_and_the_rooms() {
        let mut lobby = Lobby::new("Ann".to_owned(), Duration::ZERO);
        lobby.key(Key::Up);
        assert_eq!(
            lobby.field,
            Field::Public,
            "no rooms yet: up from the top wraps"
        );
        lobby.listed(Ok(vec![room("AAAA-2A"), room("BBBB-2B")]));
        lobby.key(Key::Down);
        lobby.key(Key::Down);
        assert_eq!(lobby.field, Field::Room(1));
        lobby.key(Key::Down);
        assert_eq!(lobby.field, Field::Code);
        lobby.key(Key::Up);
        assert_eq!(
            lobby.key(Key::Enter),
            LobbyAction::Join("BBBB-2B".to_owned())
        );
    }

    #[test]
    fn the_room_chosen_stays_chosen_as_the_list_changes() {
        let mut lobby = Lobby::new("Ann".to_owned(), Duration::ZERO);
        lobby.listed(Ok(vec![room("AAAA-2A"), room("BBBB-2B")]));
        lobby.field = Field::Room(1);
        lobby.listed(Ok(vec![room("CCCC-2C"), room("AAAA-2A"), room("BBBB-2B")]));
        assert_eq!(lobby.field, Field::Room(2));
        lobby.listed(Ok(vec![room("CCCC-2C")]));
        assert_eq!(lobby.field, Field::Room(0), "gone: the nearest one left");
        lobby.listed(Err("no server".to_owned()));
        assert_eq!(lobby.field, Field::Public, "none left: the line above");
        assert_eq!(lobby.key(Key::Enter), LobbyAction::Host);
    }

    #[test]
    fn the_list_is_asked_again_a_while_after_each_answer() {
        let mut lobby = Lobby::new("Ann".to_owned(), Duration::ZERO);
        assert!(!lobby.list_again(LIST_AGAIN * 2), "not answered yet");
        lobby.listed(Ok(Vec::new()));
        assert!(!lobby.list_again(LIST_AGAIN / 2));
        assert!(lobby.list_again(LIST_AGAIN));
        assert!(
            !lobby.list_again(LIST_AGAIN * 3),
            "asked: waits for the answer"
        );
        assert_eq!(lobby.next_list(), None);
        lobby.listed(Ok(Vec::new()));
        assert_eq!(lobby.next_list(), Some(LIST_AGAIN * 2));
    }

    #[test]
    fn clicks_choose_lines_and_a_page_is_asked_for_the_text() {
        let mut lobby = Lobby::new("Ann".to_owned(), Duration::ZERO);
        lobby.listed(Ok(vec![room("AAAA-2A")]));
        assert_eq!(lobby.click(Field::Name, false), LobbyAction::Nothing);
        assert_eq!(lobby.field, Field::Name);
        assert_eq!(
            lobby.click(Field::Code, true),
            LobbyAction::Edit(Field::Code)
        );
        lobby.edited(Field::Code, " k7qx-2m\n");
        assert_eq!(lobby.code, "K7QX-2M");
        lobby.edited(Field::Name, "  Bob\u{1b}[2J  ");
        assert_eq!(lobby.name, "Bob[2J");
        lobby.click(Field::Public, true);
        assert!(lobby.public);
        assert_eq!(
            lobby.click(Field::Room(0), true),
            LobbyAction::Join("AAAA-2A".to_owned())
        );
    }
}
