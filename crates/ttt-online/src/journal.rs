//! What a server keeps so that a restart, however the last run ended (SIGKILL, a power
//! cut), finds every room as it was. The lobby is a state machine with no clock and no
//! randomness of its own: everything it was ever given is in what it was handed. So a
//! server keeps the lobby whole now and then ([`Kept`]), and after it a journal of every
//! [`Entry`] that changed it, in order; the lobby again is the kept one with the entries
//! replayed. A server writes each entry, and flushes it to the disk, before it sends
//! anyone what the entry did: whatever a client was told survives.
//!
//! ```
//! use ttt_core::Mark;
//! use ttt_online::journal::{Entry, Kept};
//! use ttt_online::protocol::ToServer;
//! use ttt_online::room::{Fresh, Limits, Lobby, MemberId};
//!
//! let mut lobby = Lobby::new(Limits::default());
//! let mut journal: Vec<Entry> = Vec::new();
//! let fresh = Fresh { code: "K7QX-2M".parse()?, token: "a".into(), coin: Mark::X, now: 0 };
//! let host = ToServer::Host { rules: "3x3, k=3".into(), name: "Ann".into(), computer: None, clock: None, public: false };
//! let (welcome, entry) = lobby.handle_kept(MemberId(1), host.into(), fresh.clone());
//! // The server keeps what changed the lobby, before it sends Ann her welcome.
//! assert_eq!(welcome.len(), 1);
//! journal.extend(entry);
//! // A ping changes nothing: nothing to keep.
//! let (_, entry) = lobby.handle_kept(MemberId(1), ToServer::Ping.into(), fresh);
//! assert_eq!(entry, None);
//! // After a crash: the kept lobby (empty here), the journal replayed over it.
//! let mut again = Lobby::restore(Kept::default(), Limits::default())?;
//! for entry in journal {
//!     again.replay(entry);
//! }
//! assert_eq!(again.keep(), lobby.keep());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use serde::{Deserialize, Serialize};
use ttt_core::{Mark, Square};
use ttt_play::matches::{Match, Snapshot};

use crate::clock::Clocks;
use crate::protocol::{Request, RoomCode, ToClient, ToServer};
use crate::room::{Delivery, Fresh, Limits, Lobby, Member, MemberId, Room};

/// One thing that changed the lobby, as a journal keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "entry", rename_all = "snake_case")]
pub enum Entry {
    /// A connection's request, with what the server gave with it.
    Asked {
        /// The connection.
        id: u64,
        /// Its request.
        request: Request,
        /// The code a room it opened would take.
        code: RoomCode,
        /// The token a newcomer would get.
        token: String,
        /// The coin for a new room's first game.
        coin: String,
        /// The server's clock, in milliseconds.
        now: u64,
    },
    /// A computer of the server's played.
    Computer {
        /// Its room.
        code: RoomCode,
        /// Its mark.
        mark: String,
        /// The ply it thought on.
        ply: usize,
        /// The square it chose, by index.
        square: usize,
        /// The server's clock (none in journals written before rooms had clocks).
        #[serde(default)]
        now: u64,
    },
    /// A connection dropped.
    Left {
        /// The connection.
        id: u64,
        /// The server's clock.
        now: u64,
    },
    /// Rooms nobody came back to were closed.
    Swept {
        /// The server's clock.
        now: u64,
        /// The idle time that closes a room, in seconds.
        idle: u64,
    },
    /// The server's clock ticked, and a player's time ran out.
    Ticked {
        /// The server's clock.
        now: u64,
    },
}

impl Entry {
    /// The server's time it was taken at.
    #[must_use]
    pub fn now(&self) -> u64 {
        match self {
            Entry::Asked { now, .. }
            | Entry::Computer { now, .. }
            | Entry::Left { now, .. }
            | Entry::Swept { now, .. }
            | Entry::Ticked { now } => *now,
        }
    }

    /// The entry as a journal written when the server's clock counted seconds keeps
    /// it, with its time in milliseconds (journals have kept milliseconds since rooms
    /// had clocks).
    #[must_use]
    pub fn from_seconds(mut self) -> Entry {
        match &mut self {
            Entry::Asked { now, .. }
            | Entry::Computer { now, .. }
            | Entry::Left { now, .. }
            | Entry::Swept { now, .. }
            | Entry::Ticked { now } => *now = now.saturating_mul(1000),
        }
        self
    }
}

/// The lobby whole, as kept: every room with its members, their tokens and which
/// connection each has now.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kept {
    /// Every room open.
    pub rooms: Vec<KeptRoom>,
    /// The time of the last entry the lobby took, in the server's milliseconds.
    #[serde(default)]
    pub kept_at: u64,
}

impl Kept {
    /// The lobby as a store written when the server's clock counted seconds keeps it,
    /// with its times in milliseconds.
    #[must_use]
    pub fn from_seconds(mut self) -> Kept {
        self.kept_at = self.kept_at.saturating_mul(1000);
        let thousand = |time: &mut Option<u64>| *time = time.map(|time| time.saturating_mul(1000));
        for room in &mut self.rooms {
            thousand(&mut room.empty_since);
            for member in &mut room.members {
                thousand(&mut member.gone_since);
            }
            room.clocks = room.clocks.take().map(Clocks::since_in_seconds);
        }
        self
    }
}

/// A room as kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptRoom {
    code: RoomCode,
    game: Snapshot,
    members: Vec<KeptMember>,
    seq: u64,
    rematch: [bool; 2],
    coin: String,
    empty_since: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    clocks: Option<Clocks>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    public: bool,
}

/// Someone in a room, as kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct KeptMember {
    id: Option<u64>,
    name: String,
    token: String,
    seat: Option<String>,
    gone_since: Option<u64>,
}

/// A kept lobby that does not make a lobby again: which room, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RestoreError {
    /// The room's code.
    pub code: RoomCode,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for RestoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "room {} cannot be restored: {}", self.code, self.reason)
    }
}

impl std::error::Error for RestoreError {}

impl Lobby {
    /// Handles `request` from `id` as [`Lobby::handle`] does, with the entry a journal
    /// keeps for it: none when it changed nothing (a refusal, a ping, a member seeing its
    /// own room again).
    pub fn handle_kept(
        &mut self,
        id: MemberId,
        request: Request,
        fresh: Fresh,
    ) -> (Vec<Delivery>, Option<Entry>) {
        let resync = self.room_of(id).is_some() && matches!(request.ask, ToServer::Rejoin { .. });
        let entry = Entry::Asked {
            id: id.0,
            request: request.clone(),
            code: fresh.code,
            token: fresh.token.clone(),
            coin: fresh.coin.to_string(),
            now: fresh.now,
        };
        let out = self.handle(id, request, fresh);
        // A refusal changes nothing, nor does a member's resync; but a clock that fell
        // before the request was looked at did.
        let changed = out.iter().any(|delivery| match delivery.message {
            ToClient::Happened { .. } | ToClient::Bye { .. } => true,
            ToClient::Welcome { .. } => !resync,
            ToClient::Refused { .. }
            | ToClient::Done { .. }
            | ToClient::Pong { .. }
            | ToClient::Rooms { .. } => false,
        });
        (out, changed.then(|| self.took(entry)))
    }

    /// `entry`, once the lobby notes its time as the last kept.
    fn took(&mut self, entry: Entry) -> Entry {
        self.kept_at = self.kept_at.max(entry.now());
        entry
    }

    /// Drops the connection `id` as [`Lobby::disconnect`] does, with the entry a journal
    /// keeps for it: none for a connection in no room.
    pub fn disconnect_kept(&mut self, id: MemberId, now: u64) -> (Vec<Delivery>, Option<Entry>) {
        let left = self
            .room_of(id)
            .is_some()
            .then(|| self.took(Entry::Left { id: id.0, now }));
        (self.disconnect(id, now), left)
    }

    /// Closes the rooms idle for `idle` seconds as [`Lobby::sweep`] does, with the entry
    /// a journal keeps for it: none when no room closed.
    pub fn sweep_kept(&mut self, now: u64, idle: u64) -> Option<Entry> {
        (self.sweep(now, idle) > 0).then(|| self.took(Entry::Swept { now, idle }))
    }

    /// Takes the computer's `square` as [`Lobby::computer_played`] does, with the entry a
    /// journal keeps for it; none when it is not taken.
    pub fn computer_played_kept(
        &mut self,
        code: RoomCode,
        mark: Mark,
        ply: usize,
        square: Square,
        now: u64,
    ) -> Option<(Vec<Delivery>, Entry)> {
        let out = self.computer_played(code, mark, ply, square, now)?;
        let entry = self.took(Entry::Computer {
            code,
            mark: mark.to_string(),
            ply,
            square: square.index(),
            now,
        });
        Some((out, entry))
    }

    /// How often, in milliseconds, a server keeps a tick while clocks run, whether or
    /// not one fell: a restart then knows, to that, when it stopped.
    pub const TICK_KEPT_EVERY: u64 = 5_000;

    /// Ticks the lobby's clocks as [`Lobby::tick`] does, with the entry a journal keeps
    /// for it: when a clock fell, or when clocks run and `due` (the last kept tick was
    /// [`Lobby::TICK_KEPT_EVERY`] ago).
    pub fn tick_kept(&mut self, now: u64, due: bool) -> Option<(Vec<Delivery>, Entry)> {
        let running = due && self.rooms.values().any(|room| room.running().is_some());
        let out = match self.tick(now) {
            Some(out) => out,
            None if running => Vec::new(),
            None => return None,
        };
        Some((out, self.took(Entry::Ticked { now })))
    }

    /// The lobby whole, to keep.
    pub fn keep(&self) -> Kept {
        let rooms = self
            .rooms
            .values()
            .map(|room| KeptRoom {
                code: room.code,
                game: room.game.snapshot(),
                members: room
                    .members
                    .iter()
                    .map(|member| KeptMember {
                        id: member.id.map(|id| id.0),
                        name: member.name.clone(),
                        token: member.token.clone(),
                        seat: member.seat.map(|mark| mark.to_string()),
                        gone_since: member.gone_since,
                    })
                    .collect(),
                seq: room.seq,
                rematch: room.rematch,
                coin: room.coin.to_string(),
                empty_since: room.empty_since,
                clocks: room.clocks.clone(),
                public: room.public,
            })
            .collect();
        Kept {
            rooms,
            kept_at: self.kept_at,
        }
    }

    /// The lobby `kept` was taken of, holding to `limits`.
    ///
    /// # Errors
    /// The first room whose game or marks do not read back.
    pub fn restore(kept: Kept, limits: Limits) -> Result<Lobby, RestoreError> {
        let mut rooms = BTreeMap::new();
        let mut rooms_of = HashMap::new();
        for room in kept.rooms {
            let code = room.code;
            let error = |reason: &str| RestoreError {
                code,
                reason: reason.to_owned(),
            };
            let mark = |text: &str| {
                text.parse::<Mark>()
                    .map_err(|_| error(&format!("'{text}' is not a mark")))
            };
            let game = Match::restore(&room.game).map_err(|_| error("its game does not read"))?;
            let mut members = Vec::with_capacity(room.members.len());
            for member in room.members {
                let id = member.id.map(MemberId);
                if let Some(id) = id {
                    rooms_of.insert(id, code);
                }
                members.push(Member {
                    id,
                    name: member.name,
                    token: member.token,
                    seat: member.seat.as_deref().map(mark).transpose()?,
                    gone_since: member.gone_since,
                });
            }
            let restored = Room {
                code,
                game,
                members,
                seq: room.seq,
                rematch: room.rematch,
                coin: mark(&room.coin)?,
                empty_since: room.empty_since,
                clocks: room.clocks,
                public: room.public,
                now: 0,
            };
            rooms.insert(code, restored);
        }
        Ok(Lobby {
            rooms,
            rooms_of,
            limits,
            kept_at: kept.kept_at,
        })
    }

    /// Does again what `entry` says was done.
    pub fn replay(&mut self, entry: Entry) {
        self.kept_at = self.kept_at.max(entry.now());
        match entry {
            Entry::Asked {
                id,
                request,
                code,
                token,
                coin,
                now,
            } => {
                let fresh = Fresh {
                    code,
                    token,
                    coin: coin.parse().unwrap_or(Mark::X),
                    now,
                };
                self.handle(MemberId(id), request, fresh);
            }
            Entry::Computer {
                code,
                mark,
                ply,
                square,
                now,
            } => {
                if let Ok(mark) = mark.parse() {
                    self.computer_played(code, mark, ply, Square::new(square), now);
                }
            }
            Entry::Left { id, now } => {
                self.disconnect(MemberId(id), now);
            }
            Entry::Swept { now, idle } => {
                self.sweep(now, idle);
            }
            Entry::Ticked { now } => {
                self.tick(now);
            }
        }
    }

    /// Every connection dropped at `now`, as when the server starts again: each player
    /// keeps the seat for their return. The time the server was down (from the last
    /// entry the lobby took: while clocks run, a tick at most
    /// [`Lobby::TICK_KEPT_EVERY`] before it stopped) is counted on nobody's clock.
    pub fn leave_all(&mut self, now: u64) {
        // A store kept before it said when it last took an entry says nothing of it.
        let down = if self.kept_at == 0 {
            0
        } else {
            now.saturating_sub(self.kept_at)
        };
        for room in self.rooms.values_mut() {
            let running = room.running().is_some();
            if let Some(clocks) = room.clocks.as_mut().filter(|_| running) {
                clocks.pause(down);
            }
        }
        self.kept_at = self.kept_at.max(now);
        let ids: Vec<MemberId> = self.rooms_of.keys().copied().collect();
        for id in ids {
            self.disconnect(id, now);
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use proptest::prelude::*;

    use super::*;

    fn asks() -> impl Strategy<Value = ToServer> {
        let code = || prop_oneof![Just("K7QX-2M".to_owned()), Just("ZZZZ-ZZ".to_owned())];
        let token = || prop_oneof![Just("t1".to_owned()), Just("t2".to_owned())];
        prop_oneof![
            6 => (0..9usize).prop_map(|square| ToServer::Play { square }),
            1 => Just(ToServer::Undo),
            1 => any::<bool>().prop_map(|yes| ToServer::AnswerUndo { yes }),
            1 => Just(ToServer::Resign),
            2 => Just(ToServer::Rematch),
            1 => Just(ToServer::Claim),
            1 => Just(ToServer::Leave),
            1 => Just(ToServer::Rooms),
            1 => "[a-z]{0,4}".prop_map(|text| ToServer::Say { text }),
            2 => (code(), proptest::collection::vec(token(), 0..2))
                .prop_map(|(code, tokens)| ToServer::Join { code, name: "P".to_owned(), tokens }),
            1 => code().prop_map(|code| ToServer::Watch { code, name: "W".to_owned() }),
            2 => (proptest::option::of(Just("random".to_owned())), proptest::option::of(Just("0.05+1".to_owned())))
                .prop_map(|(computer, clock)| ToServer::Host { rules: "3x3, k=3".to_owned(), name: "H".to_owned(), computer, clock, public: false }),
            1 => (code(), token()).prop_map(|(code, token)| ToServer::Rejoin { code, token, name: None }),
        ]
    }

    proptest! {
        /// Whatever happens, a lobby kept at any moment and the journal after it make the
        /// same lobby again; so does the journal alone from the start, and a restart
        /// (everyone's connection dropped) in the middle.
        #[test]
        fn the_kept_lobby_and_the_journal_make_the_lobby_again(
            steps in proptest::collection::vec((0..4u64, asks(), 0..11u8), 0..=120),
            cut in 0..120usize,
        ) {
            let limits = Limits { reconnect_wait: 3, ..Limits::default() };
            let mut lobby = Lobby::new(limits);
            let mut journal = Vec::new();
            let mut kept_at_cut = None;
            for (step, (who, ask, roll)) in steps.into_iter().enumerate() {
                if step == cut {
                    kept_at_cut = Some((lobby.keep(), journal.len()));
                }
                // A second a step: clocks of 3 s fall now and then.
                let now = step as u64 * 1000;
                let id = MemberId(who);
                // The live lobby is driven as a server drives it; the journal keeps it.
                let entry = match roll {
                    0 => lobby.disconnect_kept(id, now).1,
                    1 => lobby.sweep_kept(now, 5),
                    10 => lobby.tick_kept(now, who == 0).map(|(_, entry)| entry),
                    // A computer to move plays a square the roll picks (legal or not).
                    2 | 3 => {
                        let Some((code, mark, _)) = lobby.computers_to_move().first().copied() else {
                            continue;
                        };
                        let ply = lobby.room(code).unwrap().game().position().ply();
                        let square = Square::new(usize::from(roll) * 3 % 9);
                        lobby.computer_played_kept(code, mark, ply, square, now).map(|(_, entry)| entry)
                    }
                    _ => {
                        let fresh = Fresh {
                            code: "K7QX-2M".parse().unwrap(),
                            token: format!("t{who}"),
                            coin: if roll % 2 == 0 { Mark::X } else { Mark::O },
                            now,
                        };
                        let request = Request { id: Some(step as u64), ply: None, ask };
                        journal.extend(lobby.handle_kept(id, request, fresh).1);
                        continue;
                    }
                };
                journal.extend(entry);
            }
            // Clocks that ran out by the end fall, so that a restart then changes no game.
            let end = 120_000;
            journal.extend(lobby.tick_kept(end, false).map(|(_, entry)| entry));
            let whole = lobby.keep();
            // The journal alone, through JSON as a file holds it.
            let mut again = Lobby::new(limits);
            for entry in &journal {
                let line = serde_json::to_string(entry).unwrap();
                again.replay(serde_json::from_str(&line).unwrap());
            }
            prop_assert_eq!(&again.keep(), &whole);
            // The lobby kept at the cut, through JSON, and the journal after it.
            if let Some((kept, from)) = kept_at_cut {
                let text = serde_json::to_string(&kept).unwrap();
                let mut again = Lobby::restore(serde_json::from_str(&text).unwrap(), limits).unwrap();
                for entry in &journal[from..] {
                    again.replay(entry.clone());
                }
                prop_assert_eq!(&again.keep(), &whole);
            }
            // A restart: everyone dropped, every seat kept.
            let mut restarted = Lobby::restore(whole.clone(), limits).unwrap();
            restarted.leave_all(end);
            let seats = |kept: &Kept| kept.rooms.iter().map(|room| (room.code, room.game.clone(), room.members.iter().filter(|member| member.seat.is_some()).count())).collect::<Vec<_>>();
            prop_assert_eq!(seats(&restarted.keep()), seats(&whole));
            prop_assert!(restarted.keep().rooms.iter().all(|room| room.members.iter().all(|member| member.id.is_none())));
        }
    }
}
