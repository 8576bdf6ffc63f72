//! The messages between a server and its clients, one JSON object each, tagged by `type`.
//! A client states intentions ([`ToServer`]); the server alone decides, and tells what
//! happened ([`ToClient`]), each happening numbered in its room so that a client sees
//! every one, in order, once. Everything is plain data: marks as `"X"` and `"O"`, squares
//! by index from 0 at the top left, boards as [`Rules`](ttt_core::Rules) writes them.
//!
//! ```
//! use ttt_online::protocol::ToServer;
//!
//! let asked: ToServer = serde_json::from_str(r#"{"type":"play","square":4}"#)?;
//! assert_eq!(asked, ToServer::Play { square: 4 });
//! assert_eq!(serde_json::to_string(&ToServer::Undo)?, r#"{"type":"undo"}"#);
//! # Ok::<(), serde_json::Error>(())
//! ```

use serde::{Deserialize, Serialize};
use ttt_play::matches::{Event, Snapshot};

/// The protocol's version, said in [`ToClient::Welcome`]: a client that knows another
/// says so rather than guess.
pub const VERSION: u32 = 1;

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
    },
    /// Takes the free seat of the room `code`, or watches when both are taken.
    Join {
        /// The room's code.
        code: String,
        /// The sender's name.
        name: String,
    },
    /// Watches the room `code`.
    Watch {
        /// The room's code.
        code: String,
        /// The sender's name.
        name: String,
    },
    /// Comes back to the room `code` after a dropped connection, as whoever was given
    /// `token` there.
    Rejoin {
        /// The room's code.
        code: String,
        /// The token the welcome gave.
        token: String,
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
        /// The match.
        snapshot: Box<Snapshot>,
        /// The number of the last happening in the room.
        seq: u64,
    },
    /// Something happened in the room, numbered from 1.
    Happened {
        /// Its number in the room.
        seq: u64,
        /// What happened.
        happening: Happening,
    },
    /// What the sender asked was refused, and why, in the game's words; nothing changed.
    Refused {
        /// Why.
        reason: String,
    },
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
    /// The game ended early: a resignation, or a player who could not move.
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
