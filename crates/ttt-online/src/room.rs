//! Rooms: a match between two people elsewhere, with watchers, owned by the server; and the
//! lobby that opens rooms and finds them by their code. Both are state machines with no
//! I/O and no randomness: the server hands them each connection's messages, with what
//! only it can give ([`Fresh`]: a new room's code, a newcomer's token, a coin), and sends
//! the [`Delivery`]s they return.

use std::collections::{BTreeMap, HashMap};

use ttt_core::{Mark, Rules, Shown, Square, SquareNaming};
use ttt_play::matches::{Actor, Command, Event, Forfeit, Match, Refusal, Table};
use ttt_play::settings::{FirstPolicy, Seat};
use ttt_play::words;
use ttt_players::Strength;

use crate::clock::{Clocks, TimeControl};
use crate::protocol::{
    self, Happening, MAX_TOKENS, Request, RoomCode, ToClient, ToServer, VERSION,
};

/// One connection to the server, numbered by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MemberId(pub u64);

/// A message for one connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    /// To whom.
    pub to: MemberId,
    /// What.
    pub message: ToClient,
}

/// What only the server can give the lobby: fresh randomness for the message at hand, and
/// the time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fresh {
    /// A new room's code, should the message open one.
    pub code: RoomCode,
    /// A newcomer's token, to come back with after a dropped connection.
    pub token: String,
    /// Who moves first in a new room's first game (they alternate after it).
    pub coin: Mark,
    /// The server's clock, in milliseconds since 1970 (so that times kept across a
    /// restart still count).
    pub now: u64,
}

/// How much the lobby holds, whatever its clients ask. Kept with the lobby: a journal is
/// replayed under the limits it was written under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Limits {
    /// Rooms open at once.
    pub rooms: usize,
    /// Watchers in one room.
    pub watchers: usize,
    /// Characters of a name or of a line said.
    pub text: usize,
    /// Seconds a player who lost the connection mid-game has to come back before the
    /// other may claim the game.
    pub reconnect_wait: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            rooms: 10_000,
            watchers: 100,
            text: 300,
            reconnect_wait: 60,
        }
    }
}

/// Someone in a room: a player in a seat, or a watcher.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Member {
    /// Their connection, while it lasts.
    pub(crate) id: Option<MemberId>,
    pub(crate) name: String,
    pub(crate) token: String,
    pub(crate) seat: Option<Mark>,
    /// Since when the connection has been lost, in the server's milliseconds.
    pub(crate) gone_since: Option<u64>,
}

impl Member {
    fn present(&self) -> protocol::Member {
        protocol::Member {
            name: self.name.clone(),
            seat: self.seat.map(|mark| mark.to_string()),
            connected: self.id.is_some(),
            computer: false,
            strength: None,
        }
    }
}

/// A match between two people elsewhere, and whoever watches it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Room {
    pub(crate) code: RoomCode,
    pub(crate) game: Match,
    pub(crate) members: Vec<Member>,
    /// The number of the last happening.
    pub(crate) seq: u64,
    /// Who asked for another game since this one ended (X, O).
    pub(crate) rematch: [bool; 2],
    /// Who moves first in the first game.
    pub(crate) coin: Mark,
    /// Since when nobody has been connected, in the server's milliseconds.
    pub(crate) empty_since: Option<u64>,
    /// The players' clocks, in a room with a time control.
    pub(crate) clocks: Option<Clocks>,
    /// Whether the lobby lists the room while it waits for a player.
    pub(crate) public: bool,
    /// The server's time when the room was last handed something (not kept: the next
    /// thing handed to it says it again).
    pub(crate) now: u64,
}

impl Room {
    /// A room of code `code` for games on `rules` between two people, or a person (X)
    /// and the server's `computer` (O), who take turns to move first; `coin` says who
    /// moves first in the first game, which starts once the people's seats are taken.
    /// With a `clock`, each player has that time for each game.
    ///
    /// # Errors
    /// [`Refusal::CannotPlay`] when the computer cannot play the board (the perfect
    /// player beyond the boards it solves); the match's own refusal otherwise.
    pub fn new(
        code: RoomCode,
        rules: Rules,
        coin: Mark,
        computer: Option<Strength>,
        clock: Option<TimeControl>,
    ) -> Result<Room, Refusal> {
        let table = Table {
            rules,
            x: Seat::Human,
            o: computer.map_or(Seat::Human, Seat::Computer),
            first: FirstPolicy::Alternate,
        };
        Ok(Room {
            code,
            game: Match::new(table, None)?,
            members: Vec::new(),
            seq: 0,
            rematch: [false; 2],
            coin,
            empty_since: None,
            clocks: clock.map(|control| Clocks::new(control, 0)),
            public: false,
            now: 0,
        })
    }

    /// The room's code.
    pub fn code(&self) -> RoomCode {
        self.code
    }

    /// The number of the last happening.
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// The match.
    pub fn game(&self) -> &Match {
        &self.game
    }

    /// The players' clocks, in a room with a time control.
    pub fn clocks(&self) -> Option<&Clocks> {
        self.clocks.as_ref()
    }

    /// Whose clock runs: the side to move in a game under way, in a room with clocks.
    pub(crate) fn running(&self) -> Option<Mark> {
        let under_way = self.game.started() && !self.game.is_over();
        (self.clocks.is_some() && under_way).then(|| self.game.position().to_move())
    }

    /// The server's time is `now`: the side to move whose clock ran out at it loses
    /// the game; what to tell whom (perhaps nobody) when a clock fell, none when none did.
    fn at(&mut self, now: u64) -> Option<Vec<Delivery>> {
        self.now = self.now.max(now);
        let (clocks, mark) = self.clocks.as_ref().zip(self.running())?;
        if !clocks.fallen(self.now, mark) {
            return None;
        }
        let name = self.holder(mark).map_or_else(
            || format!("The computer ({mark})"),
            |member| member.name.clone(),
        );
        let forfeit = Forfeit {
            loser: mark,
            reason: format!("{name} ran out of time"),
        };
        Some(
            self.apply(Actor::Host, Command::Forfeit(forfeit))
                .unwrap_or_default(),
        )
    }

    /// Whether both seats are taken (a computer's always is).
    fn full(&self) -> bool {
        Mark::ALL
            .iter()
            .all(|&mark| self.holder(mark).is_some() || self.computer(mark).is_some())
    }

    /// The computer in the seat of `mark`, if a computer sits there.
    fn computer(&self, mark: Mark) -> Option<Strength> {
        match self.game.seat(mark) {
            Seat::Computer(strength) => Some(*strength),
            _ => None,
        }
    }

    /// The computer whose move it is, and its mark, if the game is under way and a
    /// computer is to move: the server has it think, then hands its square to
    /// [`Lobby::computer_played`].
    pub fn computer_to_move(&self) -> Option<(Mark, Strength)> {
        if !self.game.started() || self.game.is_over() {
            return None;
        }
        let mark = self.game.position().to_move();
        self.computer(mark).map(|strength| (mark, strength))
    }

    fn holder(&self, mark: Mark) -> Option<&Member> {
        self.members.iter().find(|member| member.seat == Some(mark))
    }

    fn watchers(&self) -> usize {
        self.members
            .iter()
            .filter(|member| member.seat.is_none())
            .count()
    }

    fn member(&self, id: MemberId) -> Option<&Member> {
        self.members.iter().find(|member| member.id == Some(id))
    }

    /// Someone comes in, named `name`, with `token` to come back with: to the first free
    /// seat, or to watch (`watch`, or both seats taken). The first game starts once both
    /// seats are taken. Between games, the seat of a player who lost the last game by
    /// forfeit (claimed, out of time, resigned) and is away counts as free: the others are
    /// told they are gone, and the room can play again.
    fn enter(
        &mut self,
        id: MemberId,
        name: String,
        token: String,
        watch: bool,
        now: u64,
    ) -> Vec<Delivery> {
        let mut out = self.at(now).unwrap_or_default();
        if let Some(mark) = self.forfeited_away().filter(|_| !watch)
            && Mark::ALL.iter().all(|&seat| self.holder(seat).is_some())
            && let Some(index) = self
                .members
                .iter()
                .position(|member| member.seat == Some(mark))
        {
            let gone = self.members.remove(index);
            out.extend(self.tell_all(Happening::Gone {
                name: gone.name,
                seat: Some(mark.to_string()),
            }));
        }
        let seat = (!watch)
            .then(|| {
                Mark::ALL
                    .into_iter()
                    .find(|&mark| self.holder(mark).is_none() && self.computer(mark).is_none())
            })
            .flatten();
        self.members.push(Member {
            id: Some(id),
            name: name.clone(),
            token,
            seat,
            gone_since: None,
        });
        self.empty_since = None;
        out.extend(self.tell_others(
            id,
            Happening::Entered {
                name,
                seat: seat.map(|mark| mark.to_string()),
            },
        ));
        // The first game begins once both seats are taken; so does the next, when a
        // newcomer takes a seat someone gave up after a game.
        let next = !self.game.started() || (seat.is_some() && self.game.is_over());
        if self.full() && next {
            // The newcomer sees the game begun in the welcome, which comes last.
            let started = self.next_game(now);
            out.extend(started.into_iter().filter(|delivery| delivery.to != id));
        }
        out.push(self.welcome(id));
        out
    }

    /// Between games, the seat of the player who lost the last game by forfeit and is
    /// away: a newcomer may take it.
    fn forfeited_away(&self) -> Option<Mark> {
        let loser = self.game.forfeit().map(|forfeit| forfeit.loser)?;
        let away = self.holder(loser).is_some_and(|member| member.id.is_none());
        (self.game.is_over() && away).then_some(loser)
    }

    /// The member holding `token`. Every token is compared whole, so the time taken tells
    /// nothing of a guess.
    fn holder_of(&self, token: &str) -> Option<usize> {
        self.members
            .iter()
            .enumerate()
            .fold(None, |found, (index, member)| {
                if same_secret(&member.token, token) {
                    Some(index)
                } else {
                    found
                }
            })
    }

    /// Whether the holder of `token` plays here and has lost the connection.
    fn is_away(&self, token: &str) -> bool {
        self.holder_of(token).is_some_and(|index| {
            let member = &self.members[index];
            member.id.is_none() && member.seat.is_some()
        })
    }

    /// Someone comes back after a dropped connection, as the holder of `token`. A
    /// connection still open for them (another window) is told it was replaced, and goes.
    fn rejoin(&mut self, id: MemberId, token: &str, now: u64) -> Option<Vec<Delivery>> {
        let index = self.holder_of(token)?;
        let mut out = self.at(now).unwrap_or_default();
        let member = &mut self.members[index];
        let earlier = member.id.replace(id);
        member.gone_since = None;
        let (name, seat) = (member.name.clone(), member.seat);
        self.empty_since = None;
        match earlier {
            None => {
                out.extend(self.tell_others(
                    id,
                    Happening::Returned {
                        name,
                        seat: seat.map(|mark| mark.to_string()),
                    },
                ));
            }
            Some(earlier) => out.push(Delivery {
                to: earlier,
                message: ToClient::Bye {
                    reason: "This seat was taken by another connection (another window or \
                             tab): play on there."
                        .to_owned(),
                    again: false,
                },
            }),
        }
        out.push(self.welcome(id));
        Some(out)
    }

    /// Someone's connection dropped at `now`: a player keeps the seat for their return
    /// (in a game under way, for `wait` seconds before the other may claim it), a
    /// watcher goes.
    fn leave(&mut self, id: MemberId, now: u64, wait: u64, chose: bool) -> Vec<Delivery> {
        let mut out = self.at(now).unwrap_or_default();
        let Some(index) = self.members.iter().position(|member| member.id == Some(id)) else {
            return out;
        };
        let member = &mut self.members[index];
        member.id = None;
        member.gone_since = Some(now);
        let (name, seat) = (member.name.clone(), member.seat);
        if seat.is_none() {
            self.members.remove(index);
        }
        if self.members.iter().all(|member| member.id.is_none()) {
            self.empty_since = Some(now);
        }
        let under_way = self.game.started() && !self.game.is_over();
        out.extend(self.tell_all(Happening::Left {
            name,
            seat: seat.map(|mark| mark.to_string()),
            wait: (seat.is_some() && under_way).then_some(wait),
            chose,
        }));
        out
    }

    /// The player of `mark` claims the game at `now`: the other lost the connection and
    /// has not come back in `wait` seconds.
    fn claim(&mut self, id: MemberId, mark: Mark, now: u64, wait: u64) -> Vec<Delivery> {
        if !self.game.started() || self.game.is_over() {
            return refused(id, "There is no game under way to claim.");
        }
        let Some(other) = self.holder(!mark) else {
            return refused(id, "Nobody else is here to claim the game from.");
        };
        let Some(since) = other.gone_since.filter(|_| other.id.is_none()) else {
            return refused(id, &format!("{} is still here: play on.", other.name));
        };
        let (waited, wait) = (now.saturating_sub(since), wait.saturating_mul(1000));
        if waited < wait {
            return refused(
                id,
                &format!(
                    "{} may still come back: you can claim the game in {} s.",
                    other.name,
                    (wait - waited).div_ceil(1000)
                ),
            );
        }
        let forfeit = Forfeit {
            loser: !mark,
            reason: format!("{} lost the connection and did not come back", other.name),
        };
        self.apply(Actor::Host, Command::Forfeit(forfeit))
            .unwrap_or_else(|refusal| refused(id, &self.refusal(&refusal)))
    }

    /// Has the match apply `command` from `actor` and tells everyone what it did; a
    /// game that ended waits for both players' rematch again. The clocks see the turn
    /// change: the one that ran stops (with the increment after a move), the next runs;
    /// a new game has them full again.
    fn apply(&mut self, actor: Actor, command: Command) -> Result<Vec<Delivery>, Refusal> {
        let (ran, ply) = (self.running(), self.game.position().ply());
        let events = self.game.apply(actor, command)?;
        if self.game.is_over() {
            self.rematch = [false; 2];
        }
        let now = self.now;
        if let Some(clocks) = &mut self.clocks {
            let after = self.game.position().ply();
            if events
                .iter()
                .any(|event| matches!(event, Event::GameStarted { .. }))
            {
                *clocks = Clocks::new(clocks.control, now);
            } else {
                clocks.turn(now, ran, after > ply);
                // Moves taken back take their increments with them, the last move's by
                // the side that was not to move, and so on back.
                if let Some(to_move) = ran.filter(|_| after < ply) {
                    for back in 1..=ply - after {
                        let mover = if back % 2 == 1 { !to_move } else { to_move };
                        clocks.take_back(mover);
                    }
                }
            }
        }
        Ok(self.tell_events(&events))
    }

    /// A message from a member of the room, meant for the game at `ply` if it says so.
    fn handle(
        &mut self,
        id: MemberId,
        message: ToServer,
        ply: Option<usize>,
        limits: Limits,
        now: u64,
    ) -> Vec<Delivery> {
        let mut out = self.at(now).unwrap_or_default();
        out.extend(self.decide(id, message, ply, limits, now));
        out
    }

    /// What [`Room::handle`] does once the clocks have been looked at.
    fn decide(
        &mut self,
        id: MemberId,
        message: ToServer,
        ply: Option<usize>,
        limits: Limits,
        now: u64,
    ) -> Vec<Delivery> {
        let Some(member) = self.member(id) else {
            return refused(id, "You are not in this room.");
        };
        let (seat, name) = (member.seat, member.name.clone());
        let actor = seat.map_or(Actor::Spectator, Actor::Seat);
        let moves = self.game.position().ply();
        if ply.is_some_and(|ply| ply != moves) && message.is_for_the_board() {
            return refused(
                id,
                "The board changed before that arrived: look at it again.",
            );
        }
        let command = match message {
            ToServer::Play { square } => Command::Play(Square::new(square)),
            // Time that ran out, or a game lost on time, is not taken back.
            ToServer::Undo if self.clocks.is_some() && self.game.is_over() => {
                return refused(id, "A timed game that is over stays over: ask for another.");
            }
            ToServer::Undo => Command::Undo,
            ToServer::AnswerUndo { yes } => Command::AnswerUndo(yes),
            ToServer::Resign => Command::Resign,
            ToServer::Rematch => return self.rematch(id, seat, now),
            ToServer::Say { text } => {
                let text = plain(&text, limits.text);
                if text.is_empty() {
                    return refused(id, "Say something first.");
                }
                return self.tell_all(Happening::Said { name, text });
            }
            ToServer::Claim => {
                let Some(mark) = seat else {
                    return refused(id, &self.refusal(&Refusal::Watching));
                };
                return self.claim(id, mark, now, limits.reconnect_wait);
            }
            // A member out of step sees the whole room again.
            ToServer::Rejoin { code, token, .. }
                if code.parse() == Ok(self.code)
                    && self
                        .member(id)
                        .is_some_and(|member| same_secret(&member.token, &token)) =>
            {
                return vec![self.welcome(id)];
            }
            ToServer::Host { .. }
            | ToServer::Join { .. }
            | ToServer::Watch { .. }
            | ToServer::Rejoin { .. } => {
                return refused(id, "You are in a room already.");
            }
            // The lobby answers pings, lists rooms and lets members go.
            ToServer::Ping | ToServer::Rooms | ToServer::Leave | ToServer::Away => {
                return Vec::new();
            }
        };
        if !self.full() && !self.game.started() {
            return refused(id, "Wait for the other player to join.");
        }
        self.apply(actor, command)
            .unwrap_or_else(|refusal| refused(id, &self.refusal(&refusal)))
    }

    /// A player asks for another game; it starts once both have.
    fn rematch(&mut self, id: MemberId, seat: Option<Mark>, now: u64) -> Vec<Delivery> {
        let Some(mark) = seat else {
            return refused(id, &self.refusal(&Refusal::Watching));
        };
        if !self.game.is_over() {
            return refused(id, &self.refusal(&Refusal::NotOver));
        }
        let index = usize::from(mark == Mark::O);
        if self.rematch[index] {
            return refused(id, "You asked already: the other player answers.");
        }
        self.rematch[index] = true;
        let mut out = self.tell_all(Happening::RematchAsked {
            by: mark.to_string(),
        });
        // A computer is always ready for another game.
        for (slot, mark) in Mark::ALL.into_iter().enumerate() {
            self.rematch[slot] |= self.computer(mark).is_some();
        }
        if self.rematch == [true; 2] {
            self.rematch = [false; 2];
            out.extend(self.next_game(now));
        }
        out
    }

    /// Starts the next game (the room is its match's host) and tells everyone.
    /// A player already gone when it starts (at `now`) is waited for from its start, not
    /// from when they left: a game cannot be claimed the moment it begins.
    fn next_game(&mut self, now: u64) -> Vec<Delivery> {
        for member in &mut self.members {
            if member.id.is_none() && member.seat.is_some() {
                member.gone_since = Some(now);
            }
        }
        self.rematch = [false; 2];
        self.apply(Actor::Host, Command::NewGame { coin: self.coin })
            .unwrap_or_default()
    }

    /// Tells everyone what the match did, each event its own numbered happening.
    fn tell_events(&mut self, events: &[Event]) -> Vec<Delivery> {
        events
            .iter()
            .flat_map(|event| self.tell_all(Happening::from(event)))
            .collect()
    }

    /// A refusal in the game's words, squares named as the board names them.
    fn refusal(&self, refusal: &Refusal) -> String {
        let rules = self.game.table().rules;
        let naming = SquareNaming::Numbers.on_board(rules);
        format!(
            "{}.",
            words::refusal(refusal, |square| naming.label(square, rules))
        )
    }

    /// The newcomer's view of the room: everything as it stands.
    fn welcome(&self, id: MemberId) -> Delivery {
        let member = self.member(id);
        Delivery {
            to: id,
            message: ToClient::Welcome {
                version: VERSION,
                code: self.code.to_string(),
                token: member
                    .map(|member| member.token.clone())
                    .unwrap_or_default(),
                seat: member
                    .and_then(|member| member.seat)
                    .map(|mark| mark.to_string()),
                members: self
                    .members
                    .iter()
                    .map(Member::present)
                    .chain(Mark::ALL.into_iter().filter_map(|mark| {
                        self.computer(mark).map(|strength| protocol::Member {
                            name: format!("Computer ({})", strength.difficulty()),
                            seat: Some(mark.to_string()),
                            connected: true,
                            computer: true,
                            strength: Some(strength.to_string()),
                        })
                    }))
                    .collect(),
                snapshot: Box::new(self.game.snapshot()),
                seq: self.seq,
                clock: self.shown_clocks(),
            },
        }
    }

    /// The room as the lobby lists it.
    fn listing(&self) -> protocol::Listed {
        let host = self
            .members
            .iter()
            .find(|member| member.seat.is_some())
            .map_or_else(String::new, |member| member.name.clone());
        protocol::Listed {
            code: self.code.to_string(),
            rules: self.game.table().rules.to_string(),
            host,
            clock: self
                .clocks
                .as_ref()
                .map(|clocks| clocks.control.to_string()),
        }
    }

    /// The clocks as they stand, for a client.
    fn shown_clocks(&self) -> Option<protocol::Clocks> {
        let clocks = self.clocks.as_ref()?;
        Some(clocks.shown(self.now, self.running()))
    }

    /// Numbers `happening` and tells every connected member.
    fn tell_all(&mut self, happening: Happening) -> Vec<Delivery> {
        self.seq += 1;
        let seq = self.seq;
        let clock = self.shown_clocks();
        self.members
            .iter()
            .filter_map(|member| member.id)
            .map(|to| Delivery {
                to,
                message: ToClient::Happened {
                    seq,
                    happening: happening.clone(),
                    clock: clock.clone(),
                },
            })
            .collect()
    }

    /// Numbers `happening` and tells every connected member but `id`.
    fn tell_others(&mut self, id: MemberId, happening: Happening) -> Vec<Delivery> {
        let mut out = self.tell_all(happening);
        out.retain(|delivery| delivery.to != id);
        out
    }
}

impl ToServer {
    /// Whether this asks something of the game on the board, and so is meant for one ply.
    fn is_for_the_board(&self) -> bool {
        matches!(
            self,
            ToServer::Play { .. }
                | ToServer::Undo
                | ToServer::AnswerUndo { .. }
                | ToServer::Resign
                | ToServer::Claim
        )
    }
}

/// A refusal for `id`, in `reason`'s words.
fn refused(id: MemberId, reason: &str) -> Vec<Delivery> {
    vec![Delivery {
        to: id,
        message: ToClient::Refused {
            reason: reason.to_owned(),
            re: None,
        },
    }]
}

/// Whether two secrets are the same, in a time that depends on their lengths alone.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0, |differ, (a, b)| differ | (a ^ b))
            == 0
}

/// `text` with nothing that acts on a terminal or hides itself ([`Shown::is_invisible`]),
/// trimmed, and at most `limit` characters.
fn plain(text: &str, limit: usize) -> String {
    text.chars()
        .filter(|&c| !Shown::is_invisible(c))
        .take(limit)
        .collect::<String>()
        .trim()
        .to_owned()
}

/// Every open room, found by its code, and which room each connection is in.
#[derive(Debug, Clone, Default)]
pub struct Lobby {
    pub(crate) rooms: BTreeMap<RoomCode, Room>,
    pub(crate) rooms_of: HashMap<MemberId, RoomCode>,
    pub(crate) limits: Limits,
    /// The time of the last entry a journal took (see [`crate::journal`]).
    pub(crate) kept_at: u64,
}

impl Lobby {
    /// An empty lobby that holds at most what `limits` allow.
    pub fn new(limits: Limits) -> Lobby {
        Lobby {
            limits,
            ..Lobby::default()
        }
    }

    /// The room of code `code`, if it is open.
    pub fn room(&self, code: RoomCode) -> Option<&Room> {
        self.rooms.get(&code)
    }

    /// The limits it holds to.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Holds to `limits` from now on (a server started again with other settings, once
    /// it has replayed its journal under the old ones).
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// The room the connection `id` is in.
    pub fn room_of(&self, id: MemberId) -> Option<&Room> {
        self.rooms.get(self.rooms_of.get(&id)?)
    }

    /// Rooms open.
    pub fn len(&self) -> usize {
        self.rooms.len()
    }

    /// Whether no room is open.
    pub fn is_empty(&self) -> bool {
        self.rooms.is_empty()
    }

    /// A message from the connection `id`, with the randomness it may need; what to send
    /// to whom. The sender's answer names its request's `id`: a refusal, or
    /// [`ToClient::Done`] once done.
    pub fn handle(&mut self, id: MemberId, request: Request, fresh: Fresh) -> Vec<Delivery> {
        if request.ask == ToServer::Ping {
            let pong = ToClient::Pong { re: request.id };
            return vec![Delivery {
                to: id,
                message: pong,
            }];
        }
        if request.ask == ToServer::Rooms {
            let rooms = ToClient::Rooms {
                rooms: self.listed(),
                re: request.id,
            };
            return vec![Delivery {
                to: id,
                message: rooms,
            }];
        }
        let mut out = self.decide(id, request.ask, request.ply, fresh);
        let mut done = true;
        for delivery in &mut out {
            match &mut delivery.message {
                ToClient::Refused { re, .. } if delivery.to == id => {
                    *re = request.id;
                    done = false;
                }
                // A connection replaced by another is no longer in the room.
                ToClient::Bye { .. } => {
                    self.rooms_of.remove(&delivery.to);
                }
                _ => {}
            }
        }
        if let Some(re) = request.id.filter(|_| done) {
            let seq = self.room_of(id).map_or(0, Room::seq);
            out.push(Delivery {
                to: id,
                message: ToClient::Done { re, seq },
            });
        }
        out
    }

    fn decide(
        &mut self,
        id: MemberId,
        message: ToServer,
        ply: Option<usize>,
        fresh: Fresh,
    ) -> Vec<Delivery> {
        let limits = self.limits;
        if message == ToServer::Leave {
            return self.leave_room(id, fresh.now);
        }
        if message == ToServer::Away {
            return self.step_away(id, fresh.now, true);
        }
        if let Some(code) = self.rooms_of.get(&id) {
            return match self.rooms.get_mut(code) {
                Some(room) => room.handle(id, message, ply, limits, fresh.now),
                None => refused(id, "That room is closed."),
            };
        }
        // Outside a room, only the ways into one.
        let (code, out) = match message {
            ToServer::Host {
                rules,
                name,
                computer,
                clock,
                public,
            } => {
                let rules = match rules.parse::<Rules>() {
                    Ok(rules) => rules,
                    Err(error) => return refused(id, &format!("{error}.")),
                };
                let computer = match computer.map(|text| text.parse::<Strength>()).transpose() {
                    Ok(computer) => computer,
                    Err(error) => return refused(id, &format!("{error}.")),
                };
                let clock = match clock.map(|text| text.parse::<TimeControl>()).transpose() {
                    Ok(clock) => clock,
                    Err(error) => return refused(id, &format!("{error}.")),
                };
                // Which computer cannot play the board, and why, in so many words.
                if let Some((strength, Err(error))) =
                    computer.map(|strength| (strength, strength.check(rules)))
                {
                    return refused(
                        id,
                        &format!(
                            "The {} computer cannot play here: {error}.",
                            strength.difficulty()
                        ),
                    );
                }
                if self.rooms.len() >= limits.rooms {
                    return refused(id, "The server has no room for another game: try later.");
                }
                if self.rooms.contains_key(&fresh.code) {
                    return refused(id, "That room code is taken: try again.");
                }
                // A board a seat cannot play: no square to name.
                let mut room = match Room::new(fresh.code, rules, fresh.coin, computer, clock) {
                    Ok(room) => room,
                    Err(refusal) => return refused(id, &words::refusal_sentence(&refusal)),
                };
                room.public = public;
                let out = room.enter(id, name_of(&name, limits), fresh.token, false, fresh.now);
                self.rooms.insert(fresh.code, room);
                (fresh.code, out)
            }
            ToServer::Join { code, name, tokens } => {
                // Back to a seat of one's own that nobody holds, if one of the tokens
                // names one.
                let back = code.parse::<RoomCode>().ok().and_then(|code| {
                    let room = self.rooms.get_mut(&code)?;
                    let token = tokens
                        .iter()
                        .take(MAX_TOKENS)
                        .find(|token| room.is_away(token))?;
                    Some((code, room.rejoin(id, token, fresh.now)?))
                });
                match back {
                    Some(back) => back,
                    None => return self.enter(id, &code, name, fresh.token, false, fresh.now),
                }
            }
            ToServer::Watch { code, name } => {
                return self.enter(id, &code, name, fresh.token, true, fresh.now);
            }
            ToServer::Rejoin { code, token, name } => {
                let code = match code.parse::<RoomCode>() {
                    Ok(code) => code,
                    Err(error) => return refused(id, &format!("{error}.")),
                };
                let Some(room) = self.rooms.get_mut(&code) else {
                    return refused(id, &no_room(code));
                };
                match room.rejoin(id, &token, fresh.now) {
                    Some(out) => (code, out),
                    // A watcher is not kept when the connection drops (nor over a
                    // restart): it comes back to watch.
                    None => {
                        let name = name.unwrap_or_default();
                        return self.enter(
                            id,
                            &code.to_string(),
                            name,
                            fresh.token,
                            true,
                            fresh.now,
                        );
                    }
                }
            }
            _ => return refused(id, "Host a room, or join one by its code, first."),
        };
        self.rooms_of.insert(id, code);
        out
    }

    /// The connection `id` leaves its room for good at `now` ([`ToServer::Leave`]),
    /// between games: the others are told, the room closes if nobody is left, and the
    /// connection is told goodbye.
    fn leave_room(&mut self, id: MemberId, now: u64) -> Vec<Delivery> {
        let Some(&code) = self.rooms_of.get(&id) else {
            return refused(id, "You are in no room to leave.");
        };
        let Some(room) = self.rooms.get_mut(&code) else {
            return refused(id, "That room is closed.");
        };
        let mut out = room.at(now).unwrap_or_default();
        let Some(index) = room.members.iter().position(|member| member.id == Some(id)) else {
            return refused(id, "You are not in this room.");
        };
        let under_way = room.game.started() && !room.game.is_over();
        if under_way && room.members[index].seat.is_some() {
            out.extend(refused(
                id,
                "A game is under way: finish it, or resign, before you leave the room.",
            ));
            return out;
        }
        let member = room.members.remove(index);
        self.rooms_of.remove(&id);
        out.extend(room.tell_all(Happening::Gone {
            name: member.name,
            seat: member.seat.map(|mark| mark.to_string()),
        }));
        // No seat held any more: the room closes. A player away keeps it open for their
        // return, until it has been empty too long.
        if room.members.iter().all(|member| member.seat.is_none()) {
            // Those still watching are told, and go with it.
            for watcher in room.members.iter().filter_map(|member| member.id) {
                self.rooms_of.remove(&watcher);
                out.push(Delivery {
                    to: watcher,
                    message: ToClient::Bye {
                        reason: "The room closed: its players left it.".to_owned(),
                        again: false,
                    },
                });
            }
            self.rooms.remove(&code);
        } else if room.members.iter().all(|member| member.id.is_none()) {
            room.empty_since = Some(now);
        }
        out.push(Delivery {
            to: id,
            message: ToClient::Bye {
                reason: "You left the room.".to_owned(),
                again: false,
            },
        });
        out
    }

    /// Someone comes into the room `code`, to play if `watch` is false and a seat is free.
    fn enter(
        &mut self,
        id: MemberId,
        code: &str,
        name: String,
        token: String,
        watch: bool,
        now: u64,
    ) -> Vec<Delivery> {
        let limits = self.limits;
        let code = match code.parse::<RoomCode>() {
            Ok(code) => code,
            Err(error) => return refused(id, &format!("{error}.")),
        };
        let Some(room) = self.rooms.get_mut(&code) else {
            return refused(id, &no_room(code));
        };
        let watch = watch || (room.full() && room.forfeited_away().is_none());
        if watch && room.watchers() >= limits.watchers {
            return refused(id, "That room has as many watchers as it takes.");
        }
        let out = room.enter(id, name_of(&name, limits), token, watch, now);
        self.rooms_of.insert(id, code);
        out
    }

    /// The rooms the lobby lists: public ones with a seat free, the oldest first (by
    /// code: the order does not matter), at most [`protocol::MAX_LISTED`].
    pub fn listed(&self) -> Vec<protocol::Listed> {
        self.rooms
            .values()
            // A room whose host has gone is not offered: nobody would play there.
            .filter(|room| {
                room.public
                    && !room.full()
                    && room
                        .members
                        .iter()
                        .all(|member| member.seat.is_none() || member.id.is_some())
            })
            .take(protocol::MAX_LISTED)
            .map(Room::listing)
            .collect()
    }

    /// The computer of `mark` in room `code` played `square` at `now`, thinking on the
    /// game at `ply`: what to tell whom (nobody, if nobody is connected). `None` when
    /// nothing changed: the game moved on meanwhile (an undo, a resignation, a room
    /// closed), or the square was not free; the server then asks
    /// [`Room::computer_to_move`] again. A computer whose clock ran out loses instead.
    pub fn computer_played(
        &mut self,
        code: RoomCode,
        mark: Mark,
        ply: usize,
        square: Square,
        now: u64,
    ) -> Option<Vec<Delivery>> {
        let room = self.rooms.get_mut(&code)?;
        let fell = room.at(now);
        if room.computer_to_move().map(|(to_move, _)| to_move) != Some(mark)
            || room.game.position().ply() != ply
        {
            return fell;
        }
        let played = room.apply(Actor::Seat(mark), Command::Play(square)).ok()?;
        Some(fell.into_iter().flatten().chain(played).collect())
    }

    /// The server's time is `now`: every player whose clock ran out loses the game; what
    /// to tell whom (perhaps nobody) when a clock fell, none when none did. A server ticks
    /// the lobby often (a tenth of a second), so that a clock falls when it runs out,
    /// whether or not anything else happens in its room.
    pub fn tick(&mut self, now: u64) -> Option<Vec<Delivery>> {
        let mut fell = None;
        for room in self.rooms.values_mut() {
            if room.running().is_some()
                && let Some(out) = room.at(now)
            {
                fell.get_or_insert_with(Vec::new).extend(out);
            }
        }
        fell
    }

    /// Every room where a computer is to move, with its mark and strength.
    pub fn computers_to_move(&self) -> Vec<(RoomCode, Mark, Strength)> {
        self.rooms
            .values()
            .filter_map(|room| {
                let (mark, strength) = room.computer_to_move()?;
                Some((room.code, mark, strength))
            })
            .collect()
    }

    /// The connection `id` dropped at `now` (the server's milliseconds).
    pub fn disconnect(&mut self, id: MemberId, now: u64) -> Vec<Delivery> {
        self.step_away(id, now, false)
    }

    /// The connection `id` goes from its room at `now`, as [`Lobby::disconnect`] says, on
    /// purpose (`chose`, [`ToServer::Away`]) or not.
    fn step_away(&mut self, id: MemberId, now: u64, chose: bool) -> Vec<Delivery> {
        let Some(code) = self.rooms_of.remove(&id) else {
            return Vec::new();
        };
        let wait = self.limits.reconnect_wait;
        self.rooms
            .get_mut(&code)
            .map(|room| room.leave(id, now, wait, chose))
            .unwrap_or_default()
    }

    /// Closes the rooms nobody has been connected to for `idle` seconds or more at `now`
    /// (in milliseconds); how many.
    pub fn sweep(&mut self, now: u64, idle: u64) -> usize {
        let before = self.rooms.len();
        let idle = idle.saturating_mul(1000);
        self.rooms.retain(|_, room| {
            room.empty_since
                .is_none_or(|since| now.saturating_sub(since) < idle)
        });
        before - self.rooms.len()
    }
}

/// A name as others see it: plain, and a default for none.
fn name_of(name: &str, limits: Limits) -> String {
    let name = plain(name, limits.text.min(Shown::MAX_CHARS));
    if name.is_empty() {
        "Someone".to_owned()
    } else {
        name
    }
}

/// There is no room of this code.
fn no_room(code: RoomCode) -> String {
    format!("No room has the code {code}: it may have closed, or the code is mistyped.")
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        clippy::panic,
        reason = "a test fails by panicking"
    )]

    use proptest::prelude::*;
    use ttt_core::Position;

    use super::*;
    use crate::mirror::Mirror;

    const ANN: MemberId = MemberId(1);
    const BOB: MemberId = MemberId(2);
    const EVE: MemberId = MemberId(3);

    const CODE: &str = "K7QX-2M";

    fn code() -> RoomCode {
        CODE.parse().unwrap()
    }

    fn fresh(token: &str) -> Fresh {
        Fresh {
            code: code(),
            token: token.to_owned(),
            coin: Mark::X,
            now: 0,
        }
    }

    /// Ann hosts 3x3, Bob joins, Eve watches: the first game has begun, Ann (X) to move.
    fn room_of_three() -> Lobby {
        let mut lobby = Lobby::new(Limits::default());
        let host = ToServer::Host {
            rules: "3x3, k=3".to_owned(),
            name: "Ann".to_owned(),
            computer: None,
            clock: None,
            public: false,
        };
        send(&mut lobby, ANN, host);
        let join = |name: &str| ToServer::Join {
            code: CODE.to_owned(),
            name: name.to_owned(),
            tokens: Vec::new(),
        };
        lobby.handle(BOB, join("Bob").into(), fresh("bob"));
        lobby.handle(EVE, join("Eve").into(), fresh("eve"));
        lobby
    }

    fn send(lobby: &mut Lobby, id: MemberId, message: ToServer) -> Vec<Delivery> {
        lobby.handle(id, message.into(), fresh("unused"))
    }

    fn play(lobby: &mut Lobby, id: MemberId, square: usize) -> Vec<Delivery> {
        send(lobby, id, ToServer::Play { square })
    }

    fn happenings(out: &[Delivery], to: MemberId) -> Vec<Happening> {
        out.iter()
            .filter(|delivery| delivery.to == to)
            .filter_map(|delivery| match &delivery.message {
                ToClient::Happened { happening, .. } => Some(happening.clone()),
                _ => None,
            })
            .collect()
    }

    /// Moves of the game on the board in the room "K7Q2".
    fn moves_played(lobby: &Lobby) -> usize {
        let room = lobby.room(code()).unwrap();
        room.game().position().history().len()
    }

    fn refusal(out: &[Delivery]) -> &str {
        match out {
            [
                Delivery {
                    message: ToClient::Refused { reason, .. },
                    ..
                },
            ] => reason,
            _ => panic!("not one refusal: {out:?}"),
        }
    }

    #[test]
    fn two_players_and_a_watcher_see_one_game_and_a_rematch() {
        let mut lobby = room_of_three();
        let room = lobby.room(code()).unwrap();
        assert_eq!(room.game().position().to_move(), Mark::X);
        // Eve came third: she watches, and cannot play.
        assert_eq!(
            refusal(&play(&mut lobby, EVE, 4)),
            "You are watching: only the players move."
        );
        assert_eq!(
            refusal(&play(&mut lobby, BOB, 4)),
            "It is the other side's turn."
        );
        let mut last = Vec::new();
        for (id, square) in [(ANN, 0), (BOB, 3), (ANN, 1), (BOB, 4), (ANN, 2)] {
            last = play(&mut lobby, id, square);
            for member in [ANN, BOB, EVE] {
                assert!(
                    matches!(happenings(&last, member)[0], Happening::Played { .. }),
                    "{member:?} is told each move"
                );
            }
        }
        assert_eq!(
            happenings(&last, EVE).last(),
            Some(&Happening::Ended {
                outcome: "X wins".to_owned()
            })
        );
        assert_eq!(refusal(&play(&mut lobby, BOB, 5)), "The game is over.");
        // Another game once both ask; O moves first in it.
        send(&mut lobby, ANN, ToServer::Rematch);
        assert_eq!(
            refusal(&send(&mut lobby, ANN, ToServer::Rematch)),
            "You asked already: the other player answers."
        );
        let out = send(&mut lobby, BOB, ToServer::Rematch);
        assert!(happenings(&out, EVE).contains(&Happening::GameStarted {
            first: "O".to_owned(),
            number: 2
        }));
        play(&mut lobby, BOB, 4);
        assert_eq!(moves_played(&lobby), 1);
    }

    #[test]
    fn undo_is_asked_of_the_other_player_and_answered() {
        let mut lobby = room_of_three();
        play(&mut lobby, ANN, 4);
        let asked = send(&mut lobby, ANN, ToServer::Undo);
        assert_eq!(
            happenings(&asked, BOB),
            [Happening::UndoAsked { by: "X".to_owned() }]
        );
        assert_eq!(
            refusal(&send(&mut lobby, EVE, ToServer::AnswerUndo { yes: true })),
            "You are watching: only the players move."
        );
        let answered = send(&mut lobby, BOB, ToServer::AnswerUndo { yes: true });
        assert_eq!(
            happenings(&answered, ANN),
            [Happening::Undone { squares: vec![4] }]
        );
    }

    #[test]
    fn a_dropped_player_keeps_the_seat_and_comes_back_by_token() {
        let mut lobby = room_of_three();
        play(&mut lobby, ANN, 4);
        let out = lobby.disconnect(BOB, 100);
        assert_eq!(
            happenings(&out, ANN),
            [Happening::Left {
                name: "Bob".to_owned(),
                seat: Some("O".to_owned()),
                wait: Some(60),
                chose: false,
            }]
        );
        assert_eq!(
            refusal(&play(&mut lobby, ANN, 0)),
            "It is the other side's turn."
        );
        // A token the room does not know (a watcher's, after a restart) watches.
        let stranger = MemberId(8);
        let wrong = ToServer::Rejoin {
            code: CODE.to_owned(),
            token: "guess".to_owned(),
            name: None,
        };
        let watching = send(&mut lobby, stranger, wrong);
        assert!(
            watching.iter().any(|delivery| delivery.to == stranger
                && matches!(&delivery.message, ToClient::Welcome { seat: None, .. })),
            "{watching:?}"
        );
        let again = MemberId(9);
        let rejoin = ToServer::Rejoin {
            code: CODE.to_owned(),
            token: "bob".to_owned(),
            name: None,
        };
        let out = send(&mut lobby, again, rejoin);
        let Some(ToClient::Welcome { seat, snapshot, .. }) = out
            .iter()
            .find(|delivery| delivery.to == again)
            .map(|delivery| delivery.message.clone())
        else {
            panic!("no welcome: {out:?}");
        };
        assert_eq!(seat.as_deref(), Some("O"));
        assert_eq!(snapshot.moves, [4]);
        assert!(happenings(&out, ANN).contains(&Happening::Returned {
            name: "Bob".to_owned(),
            seat: Some("O".to_owned())
        }));
        play(&mut lobby, again, 0);
        assert_eq!(moves_played(&lobby), 2);
    }

    #[test]
    fn a_move_meant_for_another_ply_is_refused_and_a_numbered_ask_is_answered() {
        let mut lobby = room_of_three();
        let ask = |id, ply, square| Request {
            id: Some(id),
            ply: Some(ply),
            ask: ToServer::Play { square },
        };
        let done = lobby.handle(ANN, ask(1, 0, 4), fresh(""));
        assert_eq!(
            done.last().unwrap().message,
            ToClient::Done {
                re: 1,
                seq: lobby.room(code()).unwrap().seq()
            }
        );
        // Bob meant his move for the empty board he saw before Ann's arrived.
        let stale = lobby.handle(BOB, ask(2, 0, 0), fresh(""));
        assert_eq!(
            stale,
            [Delivery {
                to: BOB,
                message: ToClient::Refused {
                    reason: "The board changed before that arrived: look at it again.".to_owned(),
                    re: Some(2)
                }
            }]
        );
        assert_eq!(moves_played(&lobby), 1);
        // A line said is not for a ply: it goes whatever the ply.
        let say = Request {
            id: Some(3),
            ply: Some(7),
            ask: ToServer::Say {
                text: "hi".to_owned(),
            },
        };
        assert_eq!(lobby.handle(EVE, say, fresh("")).len(), 4);
        let ping = Request {
            id: Some(4),
            ply: None,
            ask: ToServer::Ping,
        };
        assert_eq!(
            lobby.handle(MemberId(42), ping, fresh("")),
            [Delivery {
                to: MemberId(42),
                message: ToClient::Pong { re: Some(4) }
            }]
        );
    }

    #[test]
    fn joining_with_a_kept_token_takes_back_ones_own_seat_only_when_nobody_holds_it() {
        let mut lobby = room_of_three();
        let join = |tokens: &[&str]| ToServer::Join {
            code: CODE.to_owned(),
            name: "Bob".to_owned(),
            tokens: tokens.iter().map(|token| (*token).to_owned()).collect(),
        };
        // Bob is still connected: his token brings a newcomer in to watch, and Bob stays.
        let friend = MemberId(8);
        let out = send(&mut lobby, friend, join(&["bob"]));
        assert!(
            out.iter()
                .all(|delivery| !matches!(delivery.message, ToClient::Bye { .. }))
        );
        assert_eq!(lobby.room_of(friend).unwrap().watchers(), 2);
        // Gone, Bob comes back by joining again with the tokens he kept.
        lobby.disconnect(BOB, 10);
        let back = MemberId(9);
        let out = send(&mut lobby, back, join(&["guess", "bob"]));
        assert!(happenings(&out, ANN).contains(&Happening::Returned {
            name: "Bob".to_owned(),
            seat: Some("O".to_owned())
        }));
        play(&mut lobby, ANN, 4);
        play(&mut lobby, back, 0);
        assert_eq!(moves_played(&lobby), 2);
    }

    #[test]
    fn a_room_against_a_computer_starts_at_once_and_takes_its_moves_from_the_server() {
        let mut lobby = Lobby::new(Limits::default());
        let host = |computer: &str, rules: &str| ToServer::Host {
            rules: rules.to_owned(),
            name: "Ann".to_owned(),
            computer: Some(computer.to_owned()),
            clock: None,
            public: false,
        };
        assert!(
            refusal(&send(&mut lobby, ANN, host("grandmaster", "3x3, k=3")))
                .contains("grandmaster"),
        );
        assert!(
            refusal(&send(&mut lobby, ANN, host("perfect", "15x15, k=5"))).starts_with(
                "The impossible computer cannot play here: perfect play is out of reach on 15x15"
            ),
            "the perfect player cannot play 15x15"
        );
        // O moves first in this room's first game: the computer has O.
        let fresh = Fresh {
            coin: Mark::O,
            ..fresh("ann")
        };
        let out = lobby.handle(ANN, host("easy", "3x3, k=3").into(), fresh);
        let Some(ToClient::Welcome {
            members, snapshot, ..
        }) = out.last().map(|delivery| delivery.message.clone())
        else {
            panic!("{out:?}");
        };
        assert_eq!(members[1].name, "Computer (easy)");
        assert_eq!(
            snapshot.games_started, 1,
            "the game began with the host alone"
        );
        assert_eq!(
            refusal(&play(&mut lobby, ANN, 4)),
            "It is the other side's turn."
        );
        assert_eq!(
            lobby.computers_to_move(),
            [(code(), Mark::O, Strength::Random)]
        );
        // A square found for another ply, or for the other mark, changes nothing.
        assert_eq!(
            lobby.computer_played(code(), Mark::O, 1, Square::new(0), 0),
            None
        );
        assert_eq!(
            lobby.computer_played(code(), Mark::X, 0, Square::new(0), 0),
            None
        );
        let out = lobby
            .computer_played(code(), Mark::O, 0, Square::new(0), 0)
            .unwrap();
        assert_eq!(
            happenings(&out, ANN),
            [Happening::Played {
                mark: "O".to_owned(),
                square: 0
            }]
        );
        assert!(lobby.computers_to_move().is_empty(), "Ann's move now");
        send(&mut lobby, ANN, ToServer::Resign);
        // The computer is always ready for another game: Ann's ask starts it.
        let out = send(&mut lobby, ANN, ToServer::Rematch);
        assert!(happenings(&out, ANN).contains(&Happening::GameStarted {
            first: "X".to_owned(),
            number: 2
        }));
        // Whoever else comes watches.
        let join = ToServer::Join {
            code: CODE.to_owned(),
            name: "Bob".to_owned(),
            tokens: Vec::new(),
        };
        send(&mut lobby, BOB, join);
        assert_eq!(lobby.room(code()).unwrap().watchers(), 1);
    }

    #[test]
    fn the_seat_of_a_player_claimed_from_goes_to_a_newcomer_while_they_stay_away() {
        let mut lobby = room_of_three();
        play(&mut lobby, ANN, 4);
        lobby.disconnect(BOB, 0);
        let at = |now| Fresh {
            now,
            ..fresh("dan")
        };
        lobby.handle(ANN, ToServer::Claim.into(), at(60_000));
        // A watcher stays a watcher; a newcomer takes Bob's seat, and the next game starts.
        let dan = MemberId(4);
        let join = ToServer::Join {
            code: CODE.to_owned(),
            name: "Dan".to_owned(),
            tokens: Vec::new(),
        };
        let out = lobby.handle(dan, join.into(), at(70_000));
        let told = happenings(&out, ANN);
        assert!(told.len() >= 2, "{out:?}");
        assert_eq!(
            told[..2],
            [
                Happening::Gone {
                    name: "Bob".to_owned(),
                    seat: Some("O".to_owned())
                },
                Happening::Entered {
                    name: "Dan".to_owned(),
                    seat: Some("O".to_owned())
                },
            ],
            "{told:?}"
        );
        assert!(
            told.iter()
                .any(|happening| matches!(happening, Happening::GameStarted { number: 2, .. })),
            "{told:?}"
        );
        // Bob, back at last, watches.
        let back = ToServer::Rejoin {
            code: CODE.to_owned(),
            token: "bob".to_owned(),
            name: Some("Bob".to_owned()),
        };
        let out = lobby.handle(MemberId(5), back.into(), at(80_000));
        assert!(happenings(&out, ANN).contains(&Happening::Entered {
            name: "Bob".to_owned(),
            seat: None
        }));
    }

    #[test]
    fn a_game_is_claimed_only_after_the_other_player_stayed_away_for_the_wait() {
        let mut lobby = room_of_three();
        play(&mut lobby, ANN, 4);
        let at = |now| Fresh { now, ..fresh("") };
        let claim = |lobby: &mut Lobby, now| lobby.handle(ANN, ToServer::Claim.into(), at(now));
        assert_eq!(
            refusal(&claim(&mut lobby, 0)),
            "Bob is still here: play on."
        );
        // Times in milliseconds; the wait in seconds.
        lobby.disconnect(BOB, 100_000);
        assert_eq!(
            refusal(&claim(&mut lobby, 158_500)),
            "Bob may still come back: you can claim the game in 2 s."
        );
        assert_eq!(
            refusal(&claim(&mut lobby, 159_999)),
            "Bob may still come back: you can claim the game in 1 s."
        );
        assert_eq!(
            refusal(&lobby.handle(EVE, ToServer::Claim.into(), at(200_000))),
            "You are watching: only the players move."
        );
        let out = claim(&mut lobby, 160_000);
        assert_eq!(
            happenings(&out, EVE),
            [
                Happening::Forfeited {
                    loser: "O".to_owned(),
                    reason: "Bob lost the connection and did not come back".to_owned()
                },
                Happening::Ended {
                    outcome: "X wins".to_owned()
                }
            ]
        );
        assert_eq!(
            refusal(&claim(&mut lobby, 300_000)),
            "There is no game under way to claim."
        );
        // Bob asks for another game and drops; Ann's ask starts it ten minutes later: the
        // wait counts from then.
        let bob = MemberId(11);
        let rejoin = ToServer::Rejoin {
            code: CODE.to_owned(),
            token: "bob".to_owned(),
            name: None,
        };
        send(&mut lobby, bob, rejoin);
        lobby.handle(bob, ToServer::Rematch.into(), at(400_000));
        lobby.disconnect(bob, 400_000);
        lobby.handle(ANN, ToServer::Rematch.into(), at(1_000_000));
        assert_eq!(
            refusal(&claim(&mut lobby, 1_001_000)),
            "Bob may still come back: you can claim the game in 59 s."
        );
    }

    #[test]
    fn a_second_connection_for_a_seat_replaces_the_first_which_is_told_not_to_come_back() {
        let mut lobby = room_of_three();
        let tab = MemberId(7);
        let rejoin = ToServer::Rejoin {
            code: "k7qx-2m".to_owned(),
            token: "bob".to_owned(),
            name: None,
        };
        let out = send(&mut lobby, tab, rejoin.clone());
        // The new connection, out of step, sees the room again.
        let again = send(&mut lobby, tab, rejoin);
        assert!(matches!(
            again[..],
            [Delivery {
                message: ToClient::Welcome { .. },
                ..
            }]
        ));
        assert!(
            out.iter().any(|delivery| delivery.to == BOB
                && matches!(delivery.message, ToClient::Bye { again: false, .. })),
            "{out:?}"
        );
        assert!(
            happenings(&out, ANN).is_empty(),
            "nobody left, so nobody returned"
        );
        assert_eq!(
            refusal(&play(&mut lobby, BOB, 0)),
            "Host a room, or join one by its code, first."
        );
        play(&mut lobby, ANN, 4);
        play(&mut lobby, tab, 0);
        assert_eq!(moves_played(&lobby), 2);
        // The replaced connection ends without a word to the room.
        assert!(lobby.disconnect(BOB, 5).is_empty());
    }

    #[test]
    fn bad_asks_are_refused_in_words_and_names_and_lines_are_plain() {
        let mut lobby = Lobby::new(Limits {
            rooms: 1,
            ..Limits::default()
        });
        let host = |rules: &str| ToServer::Host {
            rules: rules.to_owned(),
            name: "\u{1b}[2JAnn\u{7}".to_owned(),
            computer: None,
            clock: None,
            public: false,
        };
        assert!(refusal(&send(&mut lobby, ANN, host("9x9"))).contains("9x9"));
        assert_eq!(
            refusal(&play(&mut lobby, ANN, 4)),
            "Host a room, or join one by its code, first."
        );
        let join = |code: &str| ToServer::Join {
            code: code.to_owned(),
            name: "Bob".to_owned(),
            tokens: Vec::new(),
        };
        assert_eq!(
            refusal(&send(&mut lobby, BOB, join("NOPE"))),
            "'NOPE' is not a room code: six letters and digits, like K7QX-2M (no I, L, O, 0 or 1, which look alike)."
        );
        assert_eq!(
            refusal(&send(&mut lobby, BOB, join("zzzz zz"))),
            "No room has the code ZZZZ-ZZ: it may have closed, or the code is mistyped."
        );
        send(&mut lobby, ANN, host("3x3, k=3"));
        assert_eq!(
            refusal(&send(&mut lobby, BOB, host("3x3, k=3"))),
            "The server has no room for another game: try later."
        );
        assert_eq!(
            refusal(&play(&mut lobby, ANN, 4)),
            "Wait for the other player to join."
        );
        let join = ToServer::Join {
            code: CODE.to_owned(),
            name: "Bob".to_owned(),
            tokens: Vec::new(),
        };
        let out = send(&mut lobby, BOB, join);
        assert!(happenings(&out, ANN).contains(&Happening::Entered {
            name: "Bob".to_owned(),
            seat: Some("O".to_owned())
        }));
        let said = send(
            &mut lobby,
            BOB,
            ToServer::Say {
                text: format!("hi\u{1b}]0;x\u{7}{}", "a".repeat(1000)),
            },
        );
        let [Happening::Said { name, text }] = &happenings(&said, ANN)[..] else {
            panic!("{said:?}");
        };
        assert_eq!(name, "Bob");
        assert!(
            text.starts_with("hi]0;x") && text.chars().count() == 300,
            "{text}"
        );
        assert!(lobby.room(code()).unwrap().members[0].name == "[2JAnn");
    }

    /// The clocks told with the last message to `to` in `out`.
    fn clocks_told(out: &[Delivery], to: MemberId) -> protocol::Clocks {
        let told = out.iter().rev().find(|delivery| delivery.to == to);
        match told.map(|delivery| &delivery.message) {
            Some(
                ToClient::Happened {
                    clock: Some(clock), ..
                }
                | ToClient::Welcome {
                    clock: Some(clock), ..
                },
            ) => clock.clone(),
            _ => panic!("no clocks told: {out:?}"),
        }
    }

    fn clocks(x: u64, o: u64, running: Option<&str>) -> protocol::Clocks {
        protocol::Clocks {
            control: "0.1+1".to_owned(),
            x,
            o,
            running: running.map(str::to_owned),
        }
    }

    /// Ann hosts a 3x3 room whose games have 6 s a player and a second more a move, at
    /// 0 ms; Bob joins `joined` ms later, which begins the first game (X, Ann, first):
    /// the lobby, and what Bob's join told.
    fn timed_room(joined: u64) -> (Lobby, Vec<Delivery>) {
        let mut lobby = Lobby::new(Limits::default());
        let host = ToServer::Host {
            rules: "3x3, k=3".to_owned(),
            name: "Ann".to_owned(),
            computer: None,
            clock: Some("0.1+1".to_owned()),
            public: false,
        };
        let fresh_at = |now, token| Fresh {
            now,
            ..fresh(token)
        };
        lobby.handle(ANN, host.into(), fresh_at(0, "ann"));
        let join = ToServer::Join {
            code: CODE.to_owned(),
            name: "Bob".to_owned(),
            tokens: Vec::new(),
        };
        let out = lobby.handle(BOB, join.into(), fresh_at(joined, "bob"));
        (lobby, out)
    }

    #[test]
    fn with_a_clock_the_side_to_move_loses_when_its_time_runs_out() {
        // Times in milliseconds: the game has 6 s a player, and 1 s more a move.
        let at = |now| Fresh { now, ..fresh("") };
        // The game begins as Bob comes in: Ann's clock (X) runs.
        let (mut lobby, out) = timed_room(1_000);
        assert_eq!(clocks_told(&out, BOB), clocks(6_000, 6_000, Some("X")));
        // Ann thinks 2 s: 4 s left, and 1 s more for her move; Bob's runs.
        let out = lobby.handle(ANN, ToServer::Play { square: 4 }.into(), at(3_000));
        assert_eq!(clocks_told(&out, BOB), clocks(5_000, 6_000, Some("O")));
        // Said a second later: Bob's clock as it stands then.
        let said = ToServer::Say {
            text: "hm".to_owned(),
        };
        let out = lobby.handle(ANN, said.into(), at(4_000));
        assert_eq!(clocks_told(&out, BOB), clocks(5_000, 5_000, Some("O")));
        // Bob's 6 s run out at 9 s: not a moment before.
        assert_eq!(lobby.tick(8_999), None);
        let out = lobby.tick(9_000).unwrap();
        assert_eq!(
            happenings(&out, ANN),
            [
                Happening::Forfeited {
                    loser: "O".to_owned(),
                    reason: "Bob ran out of time".to_owned()
                },
                Happening::Ended {
                    outcome: "X wins".to_owned()
                }
            ]
        );
        assert_eq!(clocks_told(&out, ANN), clocks(5_000, 0, None));
        let late = lobby.handle(BOB, ToServer::Play { square: 0 }.into(), at(9_050));
        assert_eq!(refusal(&late), "The game is over.");
        // Another game: both clocks full again, Bob's running (he moves first now).
        lobby.handle(ANN, ToServer::Rematch.into(), at(10_000));
        let out = lobby.handle(BOB, ToServer::Rematch.into(), at(11_000));
        assert_eq!(clocks_told(&out, BOB), clocks(6_000, 6_000, Some("O")));
        // A move that comes after its player's time ran out, before any tick, loses the
        // game rather than being played.
        let out = lobby.handle(BOB, ToServer::Play { square: 0 }.into(), at(17_000));
        assert_eq!(
            happenings(&out, ANN),
            [
                Happening::Forfeited {
                    loser: "O".to_owned(),
                    reason: "Bob ran out of time".to_owned()
                },
                Happening::Ended {
                    outcome: "X wins".to_owned()
                }
            ]
        );
        assert!(out.iter().any(|delivery| delivery.to == BOB
            && matches!(&delivery.message, ToClient::Refused { reason, .. } if reason == "The game is over.")));
        assert_eq!(lobby.room(code()).unwrap().game().score().x_wins, 2);
        // A clock the server cannot read is refused, the room unopened.
        let host = ToServer::Host {
            rules: "3x3, k=3".to_owned(),
            name: "Eve".to_owned(),
            computer: None,
            clock: Some("5+3+1".to_owned()),
            public: false,
        };
        let refused = lobby.handle(
            EVE,
            host.into(),
            Fresh {
                code: "ZZZZ-ZZ".parse().unwrap(),
                ..fresh("eve")
            },
        );
        assert!(refusal(&refused).contains("like 5+3"), "{refused:?}");
    }

    #[test]
    fn the_lobby_lists_public_rooms_waiting_for_a_player_and_no_others() {
        let mut lobby = Lobby::new(Limits::default());
        let list = |lobby: &mut Lobby| match &send(lobby, EVE, ToServer::Rooms)[..] {
            [
                Delivery {
                    message: ToClient::Rooms { rooms, .. },
                    ..
                },
            ] => rooms.clone(),
            other => panic!("{other:?}"),
        };
        let host = |name: &str, public: bool, clock: Option<&str>| ToServer::Host {
            rules: "7x6, k=4".to_owned(),
            name: name.to_owned(),
            computer: None,
            clock: clock.map(str::to_owned),
            public,
        };
        let open = |lobby: &mut Lobby, id: u64, code: &str, ask: ToServer| {
            let fresh = Fresh {
                code: code.parse().unwrap(),
                ..fresh("t")
            };
            lobby.handle(MemberId(id), ask.into(), fresh);
        };
        open(&mut lobby, 10, "AAAA-AA", host("Ann", true, Some("5+3")));
        open(&mut lobby, 11, "BBBB-BB", host("Bob", false, None));
        assert_eq!(
            list(&mut lobby),
            [protocol::Listed {
                code: "AAAA-AA".to_owned(),
                rules: "7x6, k=4".to_owned(),
                host: "Ann".to_owned(),
                clock: Some("5+3".to_owned()),
            }]
        );
        // Once its seats are taken, a public room is no longer listed; asking from
        // inside a room lists the lobby all the same, and changes nothing.
        let join = ToServer::Join {
            code: "AAAA-AA".to_owned(),
            name: "Cy".to_owned(),
            tokens: Vec::new(),
        };
        send(&mut lobby, MemberId(12), join);
        assert_eq!(list(&mut lobby), []);
        let (out, entry) = lobby.handle_kept(MemberId(12), ToServer::Rooms.into(), fresh(""));
        assert!(matches!(
            &out[..],
            [Delivery {
                message: ToClient::Rooms { .. },
                ..
            }]
        ));
        assert_eq!(entry, None);
    }

    #[test]
    fn moves_taken_back_take_their_increments_and_a_timed_game_over_stays_over() {
        let at = |now| Fresh { now, ..fresh("") };
        let (mut lobby, _) = timed_room(0);
        // Ann thinks 1 s, Bob 2 s: 6 s less each, and a second more for each move.
        lobby.handle(ANN, ToServer::Play { square: 4 }.into(), at(1_000));
        lobby.handle(BOB, ToServer::Play { square: 0 }.into(), at(3_000));
        assert_eq!(
            clocks_told(
                &send(&mut lobby, ANN, ToServer::Say { text: "u".into() }),
                ANN
            ),
            clocks(6_000, 5_000, Some("X"))
        );
        // Ann asks at 4 s (her clock running) to take back her move; Bob answers at 5 s:
        // both moves go, with their increments, and Ann is to move again.
        lobby.handle(ANN, ToServer::Undo.into(), at(4_000));
        let out = lobby.handle(BOB, ToServer::AnswerUndo { yes: true }.into(), at(5_000));
        assert_eq!(clocks_told(&out, ANN), clocks(3_000, 4_000, Some("X")));
        // Lost on time: no undo brings it back.
        assert!(lobby.tick(8_000).is_some());
        let undo = lobby.handle(BOB, ToServer::Undo.into(), at(8_100));
        assert_eq!(
            refusal(&undo),
            "A timed game that is over stays over: ask for another."
        );
    }

    #[test]
    fn a_player_leaves_between_games_and_a_newcomer_takes_the_seat_for_the_next() {
        let mut lobby = room_of_three();
        // Not in the middle of a game.
        let refused = send(&mut lobby, BOB, ToServer::Leave);
        assert!(
            refusal(&refused).starts_with("A game is under way"),
            "{refused:?}"
        );
        for (who, square) in [(ANN, 0), (BOB, 3), (ANN, 1), (BOB, 4), (ANN, 2)] {
            play(&mut lobby, who, square);
        }
        let out = send(&mut lobby, BOB, ToServer::Leave);
        assert_eq!(
            happenings(&out, ANN),
            [Happening::Gone {
                name: "Bob".to_owned(),
                seat: Some("O".to_owned())
            }]
        );
        assert!(out.iter().any(|delivery| delivery.to == BOB
            && matches!(delivery.message, ToClient::Bye { again: false, .. })));
        assert!(lobby.room_of(BOB).is_none());
        // Dan takes the free seat (Eve still watches), and the next game begins.
        let dan = MemberId(4);
        let join = ToServer::Join {
            code: CODE.to_owned(),
            name: "Dan".to_owned(),
            tokens: Vec::new(),
        };
        let out = send(&mut lobby, dan, join);
        assert!(happenings(&out, ANN).contains(&Happening::GameStarted {
            first: "O".to_owned(),
            number: 2
        }));
        assert_eq!(lobby.room(code()).unwrap().watchers(), 1);
        // A player away keeps the room open for their return, whoever else leaves; once
        // no seat is held, it closes. Leaving no room is refused.
        for (who, square) in [(dan, 0), (ANN, 3), (dan, 1), (ANN, 4), (dan, 2)] {
            play(&mut lobby, who, square);
        }
        lobby.disconnect(dan, 0);
        send(&mut lobby, EVE, ToServer::Leave);
        send(&mut lobby, ANN, ToServer::Leave);
        assert_eq!(lobby.len(), 1, "Dan may come back");
        let back = ToServer::Rejoin {
            code: CODE.to_owned(),
            token: "unused".to_owned(),
            name: None,
        };
        send(&mut lobby, dan, back);
        send(&mut lobby, dan, ToServer::Leave);
        assert!(lobby.is_empty());
        assert_eq!(
            refusal(&send(&mut lobby, ANN, ToServer::Leave)),
            "You are in no room to leave."
        );
    }

    #[test]
    fn a_watcher_whose_connection_dropped_comes_back_to_watch_under_its_name() {
        let mut lobby = room_of_three();
        lobby.disconnect(EVE, 0);
        let back = ToServer::Rejoin {
            code: CODE.to_owned(),
            token: "eve".to_owned(),
            name: Some("Eve".to_owned()),
        };
        let again = MemberId(9);
        let out = send(&mut lobby, again, back);
        let entered = Happening::Entered {
            name: "Eve".to_owned(),
            seat: None,
        };
        assert!(happenings(&out, ANN).contains(&entered), "{out:?}");
    }

    #[test]
    fn a_player_who_steps_away_on_purpose_keeps_the_seat_and_the_others_are_told_so() {
        let mut lobby = room_of_three();
        play(&mut lobby, ANN, 4);
        let out = send(&mut lobby, BOB, ToServer::Away);
        let left = Happening::Left {
            name: "Bob".to_owned(),
            seat: Some("O".to_owned()),
            wait: Some(60),
            chose: true,
        };
        assert_eq!(happenings(&out, ANN), std::slice::from_ref(&left));
        assert_eq!(
            crate::words::told(&left, &crate::mirror::Mirror::default()).as_deref(),
            Some(
                "Bob stepped away: their seat is kept, and the game can be claimed if they \
                 are not back in 60 s."
            )
        );
        // The connection closing after it says nothing more; the seat waits, as after a
        // drop, and the token takes it back.
        assert!(lobby.disconnect(BOB, 10).is_empty());
        let back = ToServer::Rejoin {
            code: CODE.to_owned(),
            token: "bob".to_owned(),
            name: None,
        };
        let out = send(&mut lobby, MemberId(7), back);
        assert!(happenings(&out, ANN).contains(&Happening::Returned {
            name: "Bob".to_owned(),
            seat: Some("O".to_owned())
        }));
    }

    #[test]
    fn a_room_nobody_is_connected_to_closes_after_the_idle_time() {
        let mut lobby = room_of_three();
        // Times in milliseconds; the idle time in seconds.
        for (id, now) in [(ANN, 10_000), (BOB, 20_000), (EVE, 30_000)] {
            lobby.disconnect(id, now);
        }
        assert_eq!(lobby.sweep(129_999, 100), 0, "not yet");
        assert_eq!(lobby.sweep(130_000, 100), 1);
        assert!(lobby.is_empty());
    }

    fn messages() -> impl Strategy<Value = ToServer> {
        let code = || prop_oneof![Just(CODE.to_owned()), Just("ZZZZ-ZZ".to_owned())];
        let token = || {
            prop_oneof![
                Just("t1".to_owned()),
                Just("t2".to_owned()),
                Just("x".to_owned())
            ]
        };
        prop_oneof![
            6 => (0..12usize).prop_map(|square| ToServer::Play { square }),
            1 => Just(ToServer::Undo),
            1 => any::<bool>().prop_map(|yes| ToServer::AnswerUndo { yes }),
            1 => Just(ToServer::Resign),
            2 => Just(ToServer::Rematch),
            1 => Just(ToServer::Claim),
            1 => Just(ToServer::Leave),
            1 => Just(ToServer::Rooms),
            1 => Just(ToServer::Ping),
            1 => ".{0,8}".prop_map(|text| ToServer::Say { text }),
            1 => (code(), proptest::collection::vec(token(), 0..2))
                .prop_map(|(code, tokens)| ToServer::Join { code, name: "P".to_owned(), tokens }),
            1 => code().prop_map(|code| ToServer::Watch { code, name: "W".to_owned() }),
            1 => Just(ToServer::Host { rules: "3x3, k=3".to_owned(), name: "H".to_owned(), computer: None, clock: None, public: false }),
            1 => (code(), token()).prop_map(|(code, token)| ToServer::Rejoin { code, token, name: None }),
        ]
    }

    /// What a step of the property test does: a message (with an id, and a ply that may be
    /// stale), or a dropped connection.
    #[derive(Debug, Clone)]
    enum Step {
        Send {
            ask: ToServer,
            id: Option<u64>,
            stale: Option<usize>,
        },
        Drop,
    }

    fn steps() -> impl Strategy<Value = Step> {
        prop_oneof![
            8 => (messages(), proptest::option::of(0..100u64), proptest::option::of(0..3usize))
                .prop_map(|(ask, id, stale)| Step::Send { ask, id, stale }),
            1 => Just(Step::Drop),
        ]
    }

    proptest! {
        /// The server's authority: whatever anyone sends (wrong tokens, moves out of turn or
        /// for a stale ply, asks outside a room), every position is one the rules allow,
        /// a refusal changes nothing, each member is told every happening once and in
        /// order, each request with an id is answered once, and every member still
        /// connected ends seeing the server's game.
        #[test]
        fn any_messages_from_anyone_keep_every_member_in_step(
            steps in proptest::collection::vec((0..4u64, steps()), 0..100),
        ) {
            let mut lobby = Lobby::new(Limits { reconnect_wait: 5, ..Limits::default() });
            let mut mirrors: HashMap<MemberId, Mirror> = HashMap::new();
            for (now, (who, step)) in (0u64..).zip(steps) {
                let id = MemberId(who);
                let before = lobby.room(code()).map(|room| room.game().snapshot());
                let fresh = Fresh { code: code(), token: format!("t{who}"), coin: Mark::O, now };
                let (out, asked) = match step {
                    Step::Drop => (lobby.disconnect(id, now), None),
                    Step::Send { ask, id: ask_id, stale } => {
                        // A ply the client saw, or one a few moves off.
                        let seen = mirrors.get(&id).map_or(0, Mirror::ply);
                        let ply = stale.map(|off| seen + off);
                        let request = Request { id: ask_id, ply, ask };
                        (lobby.handle(id, request, fresh), ask_id)
                    }
                };
                let mut answers = 0;
                for delivery in &out {
                    let answer = match &delivery.message {
                        ToClient::Refused { re, .. }
                        | ToClient::Pong { re }
                        | ToClient::Rooms { re, .. } => Some(*re),
                        ToClient::Done { re, .. } => Some(Some(*re)),
                        _ => None,
                    };
                    if let Some(re) = answer {
                        prop_assert_eq!(delivery.to, id, "an answer goes to the asker");
                        prop_assert_eq!(re, asked);
                        answers += 1;
                    }
                    match &delivery.message {
                        ToClient::Refused { reason, .. } => {
                            prop_assert!(!reason.is_empty());
                            let after = lobby.room(code()).map(|room| room.game().snapshot());
                            prop_assert_eq!(&after, &before, "a refusal changes nothing");
                        }
                        ToClient::Bye { .. } => {
                            mirrors.remove(&delivery.to);
                        }
                        told => {
                            let mirror = mirrors.entry(delivery.to).or_default();
                            prop_assert_eq!(mirror.take(told), Ok(()), "{:?}", delivery);
                        }
                    }
                }
                if asked.is_some() {
                    prop_assert_eq!(answers, 1, "one answer to a numbered request: {:?}", out);
                }
                if let Some(room) = lobby.room(code()) {
                    let position = room.game().position();
                    let replayed =
                        Position::from_moves(position.rules(), position.first(), position.history());
                    prop_assert!(
                        replayed.is_ok_and(|replayed| &replayed == position),
                        "a position the rules allow"
                    );
                }
                if lobby.room_of(id).is_none() {
                    mirrors.remove(&id);
                }
            }
            for (id, mirror) in &mirrors {
                let room = lobby.room_of(*id).unwrap();
                prop_assert_eq!(mirror.seq, room.seq());
                let game = room.game();
                let position = mirror.position.as_ref().map_or(&[][..], Position::history);
                let expected = if game.started() { game.position().history() } else { &[] };
                prop_assert_eq!(position, expected);
                prop_assert_eq!(mirror.score, game.snapshot().score);
                prop_assert_eq!(mirror.over, game.started() && game.is_over());
                prop_assert_eq!(mirror.undo_asked, game.undo_asked());
            }
        }
    }
}
