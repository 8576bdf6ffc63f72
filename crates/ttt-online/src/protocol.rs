//! The messages between a server and its clients, one JSON object each, tagged by `type`.
//! A client states intentions ([`ToServer`]); the server alone decides, and tells what
//! happened ([`ToClient`]), each happening numbered in its room so that a client sees
//! every one, in order, once. Everything is plain data: marks as `"X"` and `"O"`, squares
//! by index from 0 at the top left, boards as [`Rules`](ttt_core::Rules) writes them.
//!
//! A client numbers what it asks (`id`, named again by the answer: [`ToClient::Done`] or
//! [`ToClient::Refused`]) and says which move of the game it means it for (`ply`, the
//! moves on the board when it asked): a move meant for a board that has changed since is
//! refused, never played somewhere the person did not see.
//!
//! ```
//! use ttt_online::protocol::{Request, ToServer};
//!
//! let asked: Request = serde_json::from_str(r#"{"type":"play","square":4,"id":7,"ply":2}"#)?;
//! assert_eq!(asked, Request { id: Some(7), ply: Some(2), ask: ToServer::Play { square: 4 } });
//! // Both numbers may be left out.
//! let bare: Request = serde_json::from_str(r#"{"type":"undo"}"#)?;
//! assert_eq!(bare, Request::from(ToServer::Undo));
//! assert_eq!(serde_json::to_string(&bare)?, r#"{"type":"undo"}"#);
//! # Ok::<(), serde_json::Error>(())
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use ttt_play::app::Ask;
use ttt_play::matches::{Event, Snapshot};

/// The protocol's version, said in [`ToClient::Welcome`]: a client that knows another
/// says so rather than guess.
pub const VERSION: u32 = 3;

/// The server a client plays on when none is named, `HOST:PORT`: `ttt serve`'s own
/// address.
pub const DEFAULT_SERVER: &str = "127.0.0.1:7878";

/// The refusal of a message that is not one of the protocol's, saying why in one line:
/// what of the message the decoder quotes (an unknown `type`, say) is shown with
/// anything that acts on a terminal escaped.
///
/// ```
/// use ttt_online::protocol::{Request, not_understood};
///
/// let error = serde_json::from_str::<Request>("{\"type\":\"fly\\u001b[2J\"}").unwrap_err();
/// let said = not_understood(&error);
/// assert!(said.starts_with("That is not a message of this server: unknown variant `fly\\u{1b}[2J`"), "{said}");
/// ```
pub fn not_understood(error: &serde_json::Error) -> String {
    format!(
        "That is not a message of this server: {}.",
        ttt_core::ShownLine(&error.to_string())
    )
}

/// Tokens a [`ToServer::Join`] may bring.
pub const MAX_TOKENS: usize = 4;

/// One message from a client: what it asks, numbered for the answer, and the ply it
/// means it for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// The client's number for this message, named by the answer; none for no answer
    /// but what happens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    /// The moves on the board of the game the client saw when it asked; a move, an undo,
    /// an answer or a resignation meant for another ply is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
    /// What it asks.
    #[serde(flatten)]
    pub ask: ToServer,
}

impl From<ToServer> for Request {
    fn from(ask: ToServer) -> Request {
        Request {
            id: None,
            ply: None,
            ask,
        }
    }
}

/// A room's code: six letters and digits, none that look alike (no I, L, O, 0 or 1),
/// written `K7QX-2M`. Read back however a person types it: any case, with or without
/// the dash or spaces, or as the end of the page's link.
///
/// ```
/// use ttt_online::protocol::RoomCode;
///
/// let code: RoomCode = "k7qx 2m".parse()?;
/// assert_eq!(code.to_string(), "K7QX-2M");
/// assert_eq!("http://127.0.0.1:7878/#K7QX-2M".parse::<RoomCode>()?, code);
/// assert!("K7QX-2".parse::<RoomCode>().is_err());
/// assert!("K7QX-2I".parse::<RoomCode>().is_err());
/// # Ok::<(), ttt_online::protocol::RoomCodeError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RoomCode([u8; RoomCode::LENGTH]);

impl RoomCode {
    /// The characters of a code.
    pub const ALPHABET: &[u8; 31] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
    /// Characters in a code.
    pub const LENGTH: usize = 6;

    /// The code numbered `number` (any number: it is taken modulo the codes there are),
    /// for a server that draws a number at random.
    #[must_use]
    pub fn numbered(mut number: u64) -> RoomCode {
        let base = RoomCode::ALPHABET.len() as u64;
        let mut code = [0; RoomCode::LENGTH];
        for slot in &mut code {
            *slot = RoomCode::ALPHABET[(number % base) as usize];
            number /= base;
        }
        RoomCode(code)
    }
}

impl fmt::Display for RoomCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: String = self.0.iter().map(|&byte| char::from(byte)).collect();
        write!(f, "{}-{}", &text[..4], &text[4..])
    }
}

/// Text that is not a room code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomCodeError {
    /// What was given (its first characters).
    pub given: String,
}

impl fmt::Display for RoomCodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a room code: six letters and digits, like K7QX-2M (no I, L, O, 0 \
             or 1, which look alike)",
            self.given
        )
    }
}

impl std::error::Error for RoomCodeError {}

impl Serialize for RoomCode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for RoomCode {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<RoomCode, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl FromStr for RoomCode {
    type Err = RoomCodeError;

    fn from_str(text: &str) -> Result<RoomCode, RoomCodeError> {
        let error = || RoomCodeError {
            given: text
                .chars()
                .filter(|&c| !ttt_core::Shown::is_invisible(c))
                .take(40)
                .collect(),
        };
        // The page's link ends with the code.
        let code = text.rsplit_once('#').map_or(text, |(_, code)| code);
        let mut slots = [0; RoomCode::LENGTH];
        let mut count = 0;
        for c in code.chars().filter(|&c| c != '-' && !c.is_whitespace()) {
            let upper = c.to_ascii_uppercase();
            let known = u8::try_from(upper)
                .ok()
                .filter(|byte| RoomCode::ALPHABET.contains(byte))
                .ok_or_else(error)?;
            *slots.get_mut(count).ok_or_else(error)? = known;
            count += 1;
        }
        if count < RoomCode::LENGTH {
            return Err(error());
        }
        Ok(RoomCode(slots))
    }
}

/// A room's code as a person gives it: the code alone, or the page's link to the room,
/// which names the server too (`http://HOST:PORT/#K7QX-2M`).
///
/// ```
/// use ttt_online::protocol::RoomLink;
///
/// let link: RoomLink = "http://192.168.1.20:7878/#k7qx-2m".parse()?;
/// assert_eq!(link.code.to_string(), "K7QX-2M");
/// assert_eq!(link.server.as_deref(), Some("192.168.1.20:7878"));
/// assert_eq!("http://example.org/#K7QX-2M".parse::<RoomLink>()?.server.as_deref(), Some("example.org:80"));
/// assert_eq!("K7QX-2M".parse::<RoomLink>()?.server, None);
/// assert_eq!("http://host:/#K7QX-2M".parse::<RoomLink>()?.server.as_deref(), Some("host:80"));
/// # Ok::<(), ttt_online::protocol::RoomCodeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomLink {
    /// The room's code.
    pub code: RoomCode,
    /// The server the link names (`HOST:PORT`), if it is a link.
    pub server: Option<String>,
}

impl FromStr for RoomLink {
    type Err = RoomCodeError;

    fn from_str(text: &str) -> Result<RoomLink, RoomCodeError> {
        let code = text.parse()?;
        let text = text.trim();
        let server = ["http://", "https://"].iter().find_map(|scheme| {
            let rest = text
                .get(..scheme.len())?
                .eq_ignore_ascii_case(scheme)
                .then(|| &text[scheme.len()..])?;
            let host = rest.split(['/', '#', '?']).next()?.trim_end_matches(':');
            if host.is_empty() {
                return None;
            }
            // A port of its own, or the scheme's (an address in brackets has colons).
            let ported = host.rsplit_once(':').is_some_and(|(_, port)| {
                !port.is_empty() && port.bytes().all(|byte| byte.is_ascii_digit())
            });
            Some(if ported {
                host.to_owned()
            } else if *scheme == "https://" {
                format!("{host}:443")
            } else {
                format!("{host}:80")
            })
        });
        Ok(RoomLink { code, server })
    }
}

/// What a client asks of the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToServer {
    /// Opens a room for a game on `rules` (`"3x3, k=3"`), the sender in its first seat;
    /// the answer names its code for a friend to join.
    Host {
        /// The board, as [`Rules`](ttt_core::Rules) writes it.
        rules: String,
        /// The sender's name, as the others see it.
        name: String,
        /// A computer of the server's for the other seat, by its strength (`easy`,
        /// `medium`, `tricky`, `hard`, `impossible`, or `random`, `rules`, `mcts`,
        /// `search`, `perfect`); none for a friend to join.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        computer: Option<String>,
        /// A time control for every game of the room ([`TimeControl`]: `"5+3"`, minutes
        /// and seconds added a move); none for games without clocks.
        ///
        /// [`TimeControl`]: crate::clock::TimeControl
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<String>,
        /// Whether the lobby lists the room while it waits for a player
        /// ([`ToServer::Rooms`]); a room is private otherwise, found by its code alone.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        public: bool,
    },
    /// Asks for the list of public rooms waiting for a player ([`ToClient::Rooms`]).
    Rooms,
    /// Steps away on purpose, the seat kept for a return (as after a dropped connection,
    /// but the others are told it was meant: [`Happening::Left`]'s `chose`). The client
    /// closes its connection after it.
    Away,
    /// Leaves the room for good, giving up one's seat for someone else to take: only
    /// between games (a game under way is played or resigned first). The server says
    /// goodbye; a room nobody is left in closes.
    Leave,
    /// Takes the free seat of the room `code`, or watches when both are taken; or takes
    /// back the seat one of `tokens` was given, if nobody is connected to it (a client
    /// that ended comes back this way, without pushing out a friend on the same
    /// machine).
    Join {
        /// The room's code.
        code: String,
        /// The sender's name.
        name: String,
        /// Tokens of seats this person took in the room before (at most
        /// [`MAX_TOKENS`] are looked at).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tokens: Vec<String>,
    },
    /// Watches the room `code`.
    Watch {
        /// The room's code.
        code: String,
        /// The sender's name.
        name: String,
    },
    /// Comes back to the room `code` after a dropped connection (or to see it whole
    /// again), as whoever was given `token` there.
    Rejoin {
        /// The room's code.
        code: String,
        /// The token the welcome gave.
        token: String,
        /// The sender's name, should the room no longer know the token (a watcher is
        /// not kept once its connection drops): in to watch under it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// Plays a square.
    Play {
        /// The square, by index from 0 at the top left.
        square: usize,
    },
    /// Asks to take back one's last move (the other player answers).
    Undo,
    /// Answers the other player's request to undo.
    AnswerUndo {
        /// Yes or no.
        yes: bool,
    },
    /// Gives the game up.
    Resign,
    /// Asks for another game once this one is over; it starts when both players have.
    Rematch,
    /// Says a line to the room.
    Say {
        /// What is said.
        text: String,
    },
    /// Claims the game when the other player lost the connection and has not come back
    /// in the wait the server gives ([`Happening::Left`]'s `wait`).
    Claim,
    /// Asks for a [`ToClient::Pong`]: a page cannot send the WebSocket's own pings, and
    /// a client learns this way that the server still answers.
    Ping,
}

impl ToServer {
    /// The message for what a person asked in the full-screen app, `name` being theirs
    /// unless they chose another (for a room they open or join); none for leaving, which
    /// is the connection's to close, and for what the front end answers itself.
    ///
    /// ```
    /// use ttt_core::{Rules, Square};
    /// use ttt_online::protocol::ToServer;
    /// use ttt_play::app::Ask;
    ///
    /// assert_eq!(ToServer::asked(Ask::Play(Square::new(4)), "Ann"), Some(ToServer::Play { square: 4 }));
    /// let host = ToServer::Host { rules: "3x3, k=3".into(), name: "Ann".into(), computer: None, clock: Some("5+3".into()), public: false };
    /// let asked = Ask::Host { rules: Rules::default(), clock: Some("5+3".into()), public: false, name: String::new() };
    /// assert_eq!(ToServer::asked(asked, "Ann"), Some(host));
    /// assert_eq!(ToServer::asked(Ask::Leave, "Ann"), None);
    /// ```
    #[must_use]
    pub fn asked(ask: Ask, name: &str) -> Option<ToServer> {
        let named = |chosen: String| {
            if chosen.trim().is_empty() {
                name.to_owned()
            } else {
                chosen
            }
        };
        Some(match ask {
            Ask::Host {
                rules,
                clock,
                public,
                name: chosen,
            } => ToServer::Host {
                rules: rules.to_string(),
                name: named(chosen),
                computer: None,
                clock,
                public,
            },
            Ask::Join { code, name: chosen } => ToServer::Join {
                code,
                name: named(chosen),
                tokens: Vec::new(),
            },
            Ask::ListRooms => ToServer::Rooms,
            Ask::Play(square) => ToServer::Play {
                square: square.index(),
            },
            Ask::Undo => ToServer::Undo,
            Ask::AnswerUndo(yes) => ToServer::AnswerUndo { yes },
            Ask::Rematch => ToServer::Rematch,
            Ask::Resign => ToServer::Resign,
            Ask::Claim => ToServer::Claim,
            Ask::Say(text) => ToServer::Say { text },
            Ask::Leave | Ask::LeaveRoom | Ask::Edit { .. } => return None,
        })
    }
}

/// What the server tells a client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToClient {
    /// The sender is in a room: its code, the token to come back with, the seat (none
    /// for a watcher), the whole match as it stands, and the number of the last
    /// happening so far.
    Welcome {
        /// The protocol's version ([`VERSION`]).
        version: u32,
        /// The room's code.
        code: String,
        /// The token for [`ToServer::Rejoin`].
        token: String,
        /// `"X"`, `"O"`, or none for a watcher.
        seat: Option<String>,
        /// Everyone in the room, the newcomer too.
        members: Vec<Member>,
        /// The match.
        snapshot: Box<Snapshot>,
        /// The number of the last happening in the room.
        seq: u64,
        /// The clocks, in a room with a time control.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<Clocks>,
    },
    /// Something happened in the room, numbered from 1.
    Happened {
        /// Its number in the room.
        seq: u64,
        /// What happened.
        happening: Happening,
        /// The clocks once it happened, in a room with a time control.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<Clocks>,
    },
    /// What the sender asked was refused, and why, in the game's words; nothing changed.
    Refused {
        /// Why.
        reason: String,
        /// The request's `id`, if it had one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        re: Option<u64>,
    },
    /// The request numbered `re` was done; what it did was told as happenings up to
    /// `seq`.
    Done {
        /// The request's `id`.
        re: u64,
        /// The room's last happening after it (0 outside a room).
        seq: u64,
    },
    /// The answer to [`ToServer::Rooms`]: public rooms waiting for a player.
    Rooms {
        /// At most [`MAX_LISTED`] of them.
        rooms: Vec<Listed>,
        /// The request's `id`, if it had one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        re: Option<u64>,
    },
    /// The answer to [`ToServer::Ping`].
    Pong {
        /// The ping's `id`, if it had one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        re: Option<u64>,
    },
    /// The server closes this connection, and says why; `again` says whether coming back
    /// makes sense (not when another connection took the seat, which would then be
    /// taken back in turn for ever).
    Bye {
        /// Why.
        reason: String,
        /// Whether to come back.
        again: bool,
    },
}

/// The clocks of a room with a time control, as they stood when the message was sent: a
/// client counts the running one down from there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    /// The time control, as [`TimeControl`](crate::clock::TimeControl) writes it.
    pub control: String,
    /// Milliseconds left to X.
    pub x: u64,
    /// Milliseconds left to O.
    pub o: u64,
    /// `"X"` or `"O"`, whose clock runs; none between games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running: Option<String>,
}

impl Clocks {
    /// The clocks as the full-screen app shows them, counting down from when they were
    /// told.
    #[must_use]
    pub fn to_app(&self) -> ttt_play::app::Clocks {
        ttt_play::app::Clocks {
            control: self.control.clone(),
            left: [self.x, self.o].map(std::time::Duration::from_millis),
            running: self.running.as_deref().and_then(|mark| mark.parse().ok()),
        }
    }
}

/// The most rooms a [`ToClient::Rooms`] lists.
pub const MAX_LISTED: usize = 50;

/// A public room waiting for a player, as the lobby lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listed {
    /// Its code, to join it by.
    pub code: String,
    /// The board, as [`Rules`](ttt_core::Rules) writes it.
    pub rules: String,
    /// The name of the player waiting there.
    pub host: String,
    /// Its time control, if its games have clocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<String>,
}

impl Listed {
    /// The room as the full-screen app lists it, every word shown as text (nothing in a
    /// name acts on a terminal).
    ///
    /// ```
    /// use ttt_online::protocol::Listed;
    ///
    /// let listed = Listed {
    ///     code: "K7QX-2M".into(),
    ///     rules: "3x3".into(),
    ///     host: "Bob\u{1b}[2J".into(),
    ///     clock: Some("5+3".into()),
    /// };
    /// assert_eq!(listed.to_app().line(), "K7QX-2M  Bob\\u{1b}[2J, 3x3, clock 5+3");
    /// ```
    #[must_use]
    pub fn to_app(&self) -> ttt_play::app::Waiting {
        let shown = |text: &str| ttt_core::Shown(text).to_string();
        ttt_play::app::Waiting {
            code: shown(&self.code),
            host: shown(&self.host),
            board: shown(&self.rules),
            clock: self.clock.as_deref().map(shown),
        }
    }
}

/// Someone in a room, as the welcome lists them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// Their name.
    pub name: String,
    /// `"X"`, `"O"`, or none for a watcher.
    pub seat: Option<String>,
    /// Whether their connection is open now.
    pub connected: bool,
    /// Whether this is a computer of the server's.
    #[serde(default)]
    pub computer: bool,
    /// A computer's strength (`hard`, `search`…), as the server reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<String>,
}

/// Something that happened in a room, as every member is told it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Happening {
    /// Someone came in: to a seat, or to watch.
    Entered {
        /// Their name.
        name: String,
        /// `"X"`, `"O"`, or none for a watcher.
        seat: Option<String>,
    },
    /// Someone's connection dropped; a player's seat is kept for their return.
    Left {
        /// Their name.
        name: String,
        /// Their seat, if they play.
        seat: Option<String>,
        /// For a player in a game under way: the seconds after which the other player may
        /// [claim](ToServer::Claim) it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        wait: Option<u64>,
        /// Whether they stepped away on purpose ([`ToServer::Away`]) rather than lost the
        /// connection.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        chose: bool,
    },
    /// Someone left the room for good ([`ToServer::Leave`]): a player's seat is free for
    /// another to take.
    Gone {
        /// Their name.
        name: String,
        /// The seat they gave up, if they played.
        seat: Option<String>,
    },
    /// Someone came back after a dropped connection.
    Returned {
        /// Their name.
        name: String,
        /// Their seat, if they play.
        seat: Option<String>,
    },
    /// A game began.
    GameStarted {
        /// Who moves first.
        first: String,
        /// Its number in the room, from 1.
        number: u32,
    },
    /// A mark went down.
    Played {
        /// Whose.
        mark: String,
        /// Where, by index.
        square: usize,
    },
    /// A player asks to take moves back.
    UndoAsked {
        /// Who.
        by: String,
    },
    /// The other player said no to an undo, or moved on.
    UndoRefused,
    /// Moves were taken back, the most recent first.
    Undone {
        /// The squares emptied, by index.
        squares: Vec<usize>,
    },
    /// A player asks for another game.
    RematchAsked {
        /// Who.
        by: String,
    },
    /// The game ended early: a resignation, a player who could not move, a claim, or a
    /// clock that ran out.
    Forfeited {
        /// Who lost it.
        loser: String,
        /// Why.
        reason: String,
    },
    /// The game is over: `"X wins"`, `"O wins"` or `"Draw"`.
    Ended {
        /// How it ended.
        outcome: String,
    },
    /// The board or the seats changed for the next game.
    TableChanged,
    /// A line said in the room.
    Said {
        /// Who said it.
        name: String,
        /// What.
        text: String,
    },
}

impl From<&Event> for Happening {
    fn from(event: &Event) -> Happening {
        match event {
            Event::GameStarted { first, number } => Happening::GameStarted {
                first: first.to_string(),
                number: *number,
            },
            Event::TableChanged => Happening::TableChanged,
            Event::Played { mark, square } => Happening::Played {
                mark: mark.to_string(),
                square: square.index(),
            },
            Event::UndoAsked { by } => Happening::UndoAsked { by: by.to_string() },
            Event::UndoRefused => Happening::UndoRefused,
            Event::Undone { squares } => Happening::Undone {
                squares: squares.iter().map(|square| square.index()).collect(),
            },
            Event::Forfeited(forfeit) => Happening::Forfeited {
                loser: forfeit.loser.to_string(),
                reason: forfeit.reason.clone(),
            },
            Event::Ended(outcome) => Happening::Ended {
                outcome: outcome.to_string(),
            },
        }
    }
}
