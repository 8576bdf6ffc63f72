//! The room as a client sees it: rebuilt from the welcome, kept in step by each numbered
//! happening after it. Every client (the terminal's, the page's) holds one, so that what
//! it shows is what the server decided; a happening out of its number's order means a
//! message was missed, and the client asks for the whole room again
//! ([`ToServer::Rejoin`]) rather than guess.
//!
//! ```
//! use ttt_online::mirror::Mirror;
//! use ttt_online::protocol::{Happening, ToClient};
//!
//! let mut mirror = Mirror::default();
//! let played = ToClient::Happened {
//!     seq: 5,
//!     happening: Happening::Played { mark: "X".into(), square: 4 },
//!     clock: None,
//! };
//! // Nothing is known before the welcome: a happening then is out of step.
//! assert!(mirror.take(&played).is_err());
//! ```

use std::fmt;

use ttt_core::{Mark, Outcome, Position, Rules, Shown, ShownLine, Square};
use ttt_play::Seat;
use ttt_play::app::{Player, Table};
use ttt_play::matches::Match;
use ttt_play::records::{GameRecord, OnlineRecord};

use crate::protocol::{Clocks, Happening, Member, Request, ToClient, ToServer};

/// The most lines said in a room that a client keeps to show.
pub const MAX_SAID_KEPT: usize = 50;

/// What a client knows of its room.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Mirror {
    /// The client's own name, as it came in: a watcher comes back under it.
    pub name: String,
    /// The room's code, once welcomed.
    pub code: Option<String>,
    /// The token to come back with.
    pub token: String,
    /// The client's seat; none for a watcher.
    pub seat: Option<Mark>,
    /// The room's board.
    pub rules: Option<Rules>,
    /// The game on the board; none before the first.
    pub position: Option<Position>,
    /// The game ended (by a line, a full board or a forfeit).
    pub over: bool,
    /// The seat asking to undo, if one is.
    pub undo_asked: Option<Mark>,
    /// Games won by X, won by O, drawn.
    pub score: [u32; 3],
    /// Everyone in the room.
    pub members: Vec<Member>,
    /// The number of the last happening taken.
    pub seq: u64,
    /// The number of the game on the board, from 1; 0 before the first.
    pub game: u32,
    /// The protocol's version the server speaks, as its welcome said.
    pub version: u32,
    /// The clocks as last told, in a room with a time control (a client counts the
    /// running one down from when it was told).
    pub clocks: Option<Clocks>,
    /// How the last game ended, while it stays ended (an undo may take it back).
    ended: Option<Outcome>,
    /// Why the game on the board ended early, when a player forfeited.
    forfeit: Option<String>,
    /// The last lines said in the room since the client came in, oldest first: who said
    /// it, and what.
    said: Vec<(String, String)>,
}

/// A happening whose number does not follow the last one taken: something was missed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfStep {
    /// The number expected.
    pub expected: u64,
    /// The number that came.
    pub came: u64,
}

impl fmt::Display for OutOfStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "happening {} came where {} was expected",
            self.came, self.expected
        )
    }
}

impl std::error::Error for OutOfStep {}

impl Mirror {
    /// Takes what the server said. A welcome sets everything afresh; a happening must be
    /// the next by number, or nothing changes and [`OutOfStep`] says so. Answers to
    /// requests change nothing.
    ///
    /// # Errors
    /// [`OutOfStep`] for a happening that does not follow the last one (or comes before
    /// a welcome).
    pub fn take(&mut self, told: &ToClient) -> Result<(), OutOfStep> {
        match told {
            ToClient::Welcome {
                code,
                token,
                seat,
                members,
                snapshot,
                seq,
                clock,
                version,
            } => {
                // The match as the server holds it, read as the match reads itself.
                let game = Match::restore(snapshot).ok();
                // What was said stays through a return to the same room.
                let said = if self.code.as_ref() == Some(code) {
                    std::mem::take(&mut self.said)
                } else {
                    Vec::new()
                };
                *self = Mirror {
                    name: std::mem::take(&mut self.name),
                    code: Some(code.clone()),
                    token: token.clone(),
                    seat: seat.as_deref().and_then(|seat| seat.parse().ok()),
                    rules: snapshot.rules.parse::<Rules>().ok(),
                    position: game
                        .as_ref()
                        .filter(|game| game.started())
                        .map(|game| game.position().clone()),
                    over: game.as_ref().is_some_and(Match::is_over),
                    ended: game.as_ref().and_then(Match::outcome),
                    undo_asked: game.as_ref().and_then(Match::undo_asked),
                    score: snapshot.score,
                    members: members.clone(),
                    seq: *seq,
                    game: snapshot.games_started,
                    version: *version,
                    clocks: clock.clone(),
                    forfeit: snapshot.forfeit.as_ref().map(|(_, reason)| reason.clone()),
                    said,
                };
                Ok(())
            }
            ToClient::Happened {
                seq,
                happening,
                clock,
            } => {
                let expected = self.seq + 1;
                if self.code.is_none() || *seq != expected {
                    return Err(OutOfStep {
                        expected,
                        came: *seq,
                    });
                }
                self.seq = *seq;
                self.clocks.clone_from(clock);
                self.happen(happening);
                Ok(())
            }
            ToClient::Refused { .. }
            | ToClient::Done { .. }
            | ToClient::Pong { .. }
            | ToClient::Rooms { .. }
            | ToClient::Bye { .. } => Ok(()),
        }
    }

    fn happen(&mut self, happening: &Happening) {
        match happening {
            Happening::Entered { name, seat } => self.members.push(Member {
                name: name.clone(),
                seat: seat.clone(),
                connected: true,
                computer: false,
                strength: None,
            }),
            Happening::Left { name, seat, .. } => match seat {
                Some(_) => self.connect(seat, false),
                None => {
                    let watcher = self.members.iter().position(|member| {
                        member.seat.is_none() && member.connected && &member.name == name
                    });
                    if let Some(index) = watcher {
                        self.members.remove(index);
                    }
                }
            },
            Happening::Gone { name, seat } => {
                let gone = self
                    .members
                    .iter()
                    .position(|member| &member.seat == seat && &member.name == name);
                if let Some(index) = gone {
                    self.members.remove(index);
                }
            }
            Happening::Returned { seat, .. } => self.connect(seat, true),
            Happening::GameStarted { first, number } => {
                let first = first.parse().unwrap_or(Mark::X);
                self.position = self.rules.map(|rules| Position::new(rules, first));
                self.game = *number;
                self.over = false;
                self.ended = None;
                self.forfeit = None;
                self.undo_asked = None;
            }
            Happening::Played { square, .. } => {
                if let Some(position) = &mut self.position {
                    // The server played it: it is legal there, and so here, in step.
                    let _ = position.play(Square::new(*square));
                }
                self.undo_asked = None;
            }
            Happening::UndoAsked { by } => self.undo_asked = by.parse().ok(),
            Happening::UndoRefused => self.undo_asked = None,
            Happening::Undone { squares } => {
                if let Some(position) = &mut self.position {
                    for _ in squares {
                        position.undo();
                    }
                }
                self.forfeit = None;
                if let Some(outcome) = self.ended.take() {
                    let slot = &mut self.score[score_index(outcome)];
                    *slot = slot.saturating_sub(1);
                }
                self.over = false;
                self.undo_asked = None;
            }
            Happening::Forfeited { reason, .. } => {
                self.forfeit = Some(reason.clone());
                self.over = true;
                self.undo_asked = None;
            }
            Happening::Ended { outcome } => {
                self.over = true;
                if let Ok(outcome) = outcome.parse::<Outcome>() {
                    let slot = &mut self.score[score_index(outcome)];
                    *slot = slot.saturating_add(1);
                    self.ended = Some(outcome);
                }
            }
            Happening::Said { name, text } => {
                if self.said.len() == MAX_SAID_KEPT {
                    self.said.remove(0);
                }
                self.said.push((name.clone(), text.clone()));
            }
            Happening::RematchAsked { .. } | Happening::TableChanged => {}
        }
    }

    fn connect(&mut self, seat: &Option<String>, connected: bool) {
        let member = self
            .members
            .iter_mut()
            .find(|member| member.seat.is_some() && &member.seat == seat);
        if let Some(member) = member {
            member.connected = connected;
        }
    }

    /// The game on the board as the person's own store keeps it: the people and the
    /// server's computer (as its strength) in their seats, named (none once a seat is
    /// given up: the game was kept before), marked online with the room, the game's number and the person's seat; none
    /// for a watcher or before the first move. When it started and ended are the
    /// keeper's to say ([`OnlineGames`](crate::keeping::OnlineGames)).
    #[must_use]
    pub fn record(&self) -> Option<GameRecord> {
        let (seat, code, position) = (self.seat?, self.code.as_ref()?, self.position.as_ref()?);
        // Nothing before the first move; nor between the winning move and the end the
        // server tells next: the record would say the game goes on.
        if position.ply() == 0 || (position.is_over() && self.ended.is_none()) {
            return None;
        }
        // People, and the server's computer as the strength it plays.
        let seat_of = |mark: Mark| {
            let mark = mark.to_string();
            self.members
                .iter()
                .find(|member| member.computer && member.seat.as_deref() == Some(mark.as_str()))
                .and_then(|member| member.strength.as_deref()?.parse().ok())
                .map_or(Seat::Human, Seat::Computer)
        };
        let mut record = GameRecord::new(
            position.rules(),
            seat_of(Mark::X),
            seat_of(Mark::O),
            position.first(),
            0,
        );
        record.moves = position.history().to_vec();
        record.outcome = self.ended();
        record.forfeit = self.forfeit.clone().filter(|_| record.outcome.is_some());
        // Once a player has left the room for good, the game was kept with their name,
        // and is not kept again without it.
        let (x, o) = (self.name_of(Mark::X)?, self.name_of(Mark::O)?);
        record.names = Some((x.to_owned(), o.to_owned()));
        record.online = Some(OnlineRecord {
            room: code.clone(),
            game: self.game,
            seat,
        });
        Some(record)
    }

    /// The goodbye, numbered `id`, of a person who leaves the room on purpose: a watcher
    /// goes, a player gives the seat up between games ([`ToServer::Leave`]); in the middle
    /// of a game the seat is kept for a return ([`ToServer::Away`]). None before the
    /// welcome.
    #[must_use]
    pub fn farewell(&self, id: u64) -> Option<Request> {
        self.code.as_ref()?;
        let between = self.position.is_none() || self.over;
        let ask = if self.seat.is_none() || between {
            ToServer::Leave
        } else {
            ToServer::Away
        };
        Some(self.request(id, ask))
    }

    /// The word that this client, numbered `id`, steps away on purpose and keeps its seat
    /// ([`ToServer::Away`]): for a player in a room; none for a watcher or before the
    /// welcome.
    #[must_use]
    pub fn away(&self, id: u64) -> Option<Request> {
        self.code.as_ref()?;
        self.seat.map(|_| self.request(id, ToServer::Away))
    }

    /// `ask` as the client's request numbered `id`, meant for the ply on the board.
    #[must_use]
    pub fn request(&self, id: u64, ask: ToServer) -> Request {
        Request {
            id: Some(id),
            ply: Some(self.ply()),
            ask,
        }
    }

    /// What a client named `name` knows before it comes into a room: nothing yet.
    #[must_use]
    pub fn named(name: &str) -> Mirror {
        Mirror {
            name: name.to_owned(),
            ..Mirror::default()
        }
    }

    /// The message that takes this client back to its place in the room, by its token:
    /// on a new connection after a drop, or on the same one to see the room whole again.
    #[must_use]
    pub fn rejoin(&self) -> ToServer {
        ToServer::Rejoin {
            code: self.code.clone().unwrap_or_default(),
            token: self.token.clone(),
            name: Some(self.name.clone()).filter(|name| !name.is_empty()),
        }
    }

    /// The moves on the board of the game, for a request's `ply`.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.position.as_ref().map_or(0, Position::ply)
    }

    /// Whether it is this client's turn to move.
    #[must_use]
    pub fn my_turn(&self) -> bool {
        !self.over
            && self.position.as_ref().is_some_and(|position| {
                !position.is_over() && self.seat == Some(position.to_move())
            })
    }

    /// How the game on the board ended, once it has (and until an undo takes the end
    /// back).
    #[must_use]
    pub fn ended(&self) -> Option<Outcome> {
        self.ended
    }

    /// How many watch.
    #[must_use]
    pub fn watchers(&self) -> usize {
        self.members
            .iter()
            .filter(|member| member.seat.is_none())
            .count()
    }

    /// The name of the computer of the server's in a seat, if one plays here.
    #[must_use]
    pub fn computer(&self) -> Option<&str> {
        self.members
            .iter()
            .find(|member| member.computer)
            .map(|member| member.name.as_str())
    }

    /// The room as the full-screen app shows it ([`App::show_online`]): before the
    /// welcome, an empty board of the rules `expected`.
    ///
    /// [`App::show_online`]: ttt_play::app::App::show_online
    #[must_use]
    pub fn table(&self, expected: Rules) -> Table {
        let rules = self.rules.unwrap_or(expected);
        let mut table = Table::waiting(rules);
        table.code.clone_from(&self.code);
        table.seat = self.seat;
        if let Some(position) = &self.position {
            table.position = position.clone();
            table.started = true;
        }
        table.over = self.over;
        table.ended = self.ended;
        table.undo_asked = self.undo_asked;
        table.score = self.score;
        table.watchers = self.watchers();
        table.clocks = self.clocks.as_ref().map(Clocks::to_app);
        table.said = self
            .said
            .iter()
            .map(|(name, text)| format!("{}: {}", Shown(name), ShownLine(text)))
            .collect();
        for mark in Mark::ALL {
            let seat = mark.to_string();
            let member = self
                .members
                .iter()
                .find(|member| member.seat.as_deref() == Some(seat.as_str()));
            table.players[usize::from(mark == Mark::O)] = member.map(|member| Player {
                name: member.name.clone(),
                connected: member.connected,
                computer: member.computer,
            });
        }
        table
    }

    /// Why the game on the board ended early (`Bob ran out of time`), if it did.
    #[must_use]
    pub fn forfeit(&self) -> Option<&str> {
        self.forfeit.as_deref()
    }

    /// The name of the player of `mark`, if the seat is taken.
    #[must_use]
    pub fn name_of(&self, mark: Mark) -> Option<&str> {
        let seat = mark.to_string();
        self.members
            .iter()
            .find(|member| member.seat.as_deref() == Some(seat.as_str()))
            .map(|member| member.name.as_str())
    }
}

/// The tally's slot of an outcome: X's wins, O's wins, draws.
fn score_index(outcome: Outcome) -> usize {
    match outcome {
        Outcome::Win(Mark::X) => 0,
        Outcome::Win(Mark::O) => 1,
        Outcome::Draw => 2,
    }
}
