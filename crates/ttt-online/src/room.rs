//! Rooms: a match between two people elsewhere, with watchers, owned by the server; and the
//! lobby that opens rooms and finds them by their code. Both are state machines with no
//! I/O and no randomness: the server hands them each connection's messages, with what
//! only it can give ([`Fresh`]: a new room's code, a newcomer's token, a coin), and sends
//! the [`Delivery`]s they return.

use std::collections::{BTreeMap, HashMap};

use ttt_core::{Mark, Rules, Shown, Square, SquareNaming};
use ttt_play::matches::{Actor, Command, Event, Match, Refusal, Table};
use ttt_play::settings::{FirstPolicy, Seat};
use ttt_play::words;

use crate::protocol::{Happening, ToClient, ToServer, VERSION};

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

/// What only the server can give the lobby: fresh randomness for the message at hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fresh {
    /// A new room's code, should the message open one.
    pub code: String,
    /// A newcomer's token, to come back with after a dropped connection.
    pub token: String,
    /// Who moves first in a new room's first game (they alternate after it).
    pub coin: Mark,
}

/// How much the lobby holds, whatever its clients ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Rooms open at once.
    pub rooms: usize,
    /// Watchers in one room.
    pub watchers: usize,
    /// Characters of a name or of a line said.
    pub text: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            rooms: 10_000,
            watchers: 100,
            text: 300,
        }
    }
}

/// Someone in a room: a player in a seat, or a watcher.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Member {
    /// Their connection, while it lasts.
    id: Option<MemberId>,
    name: String,
    token: String,
    seat: Option<Mark>,
}

/// A match between two people elsewhere, and whoever watches it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Room {
    code: String,
    game: Match,
    members: Vec<Member>,
    /// The number of the last happening.
    seq: u64,
    /// Who asked for another game since this one ended (X, O).
    rematch: [bool; 2],
    /// Who moves first in the first game.
    coin: Mark,
    /// Since when nobody has been connected, in the server's seconds.
    empty_since: Option<u64>,
}

impl Room {
    /// A room of code `code` for games on `rules` between two people, who take turns to
    /// move first; `coin` says who moves first in the first game, which starts once both
    /// seats are taken.
    ///
    /// # Errors
    /// [`Refusal::CannotPlay`] is not possible for two people; the match's own refusal
    /// otherwise.
    pub fn new(code: String, rules: Rules, coin: Mark) -> Result<Room, Refusal> {
        let table = Table {
            rules,
            x: Seat::Human,
            o: Seat::Human,
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
        })
    }

    /// The room's code.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// The match.
    pub fn game(&self) -> &Match {
        &self.game
    }

    /// Whether both seats are taken.
    fn full(&self) -> bool {
        Mark::ALL.iter().all(|&mark| self.holder(mark).is_some())
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
    /// seats are taken.
    fn enter(&mut self, id: MemberId, name: String, token: String, watch: bool) -> Vec<Delivery> {
        let seat = (!watch)
            .then(|| {
                Mark::ALL
                    .into_iter()
                    .find(|&mark| self.holder(mark).is_none())
            })
            .flatten();
        self.members.push(Member {
            id: Some(id),
            name: name.clone(),
            token,
            seat,
        });
        self.empty_since = None;
        let mut out = self.tell_others(
            id,
            Happening::Entered {
                name,
                seat: seat.map(|mark| mark.to_string()),
            },
        );
        if self.full() && !self.game.started() {
            // The newcomer sees the game begun in the welcome, which comes last.
            let started = self.next_game();
            out.extend(started.into_iter().filter(|delivery| delivery.to != id));
        }
        out.push(self.welcome(id));
        out
    }

    /// Someone comes back after a dropped connection, as the holder of `token`.
    fn rejoin(&mut self, id: MemberId, token: &str) -> Option<Vec<Delivery>> {
        let member = self
            .members
            .iter_mut()
            .find(|member| member.token == token)?;
        let earlier = member.id.replace(id);
        let (name, seat) = (member.name.clone(), member.seat);
        self.empty_since = None;
        let mut out = Vec::new();
        if earlier.is_none() {
            out = self.tell_others(
                id,
                Happening::Returned {
                    name,
                    seat: seat.map(|mark| mark.to_string()),
                },
            );
        }
        out.push(self.welcome(id));
        Some(out)
    }

    /// Someone's connection dropped at `now`: a player keeps the seat for their return, a
    /// watcher goes.
    fn leave(&mut self, id: MemberId, now: u64) -> Vec<Delivery> {
        let Some(index) = self.members.iter().position(|member| member.id == Some(id)) else {
            return Vec::new();
        };
        let member = &mut self.members[index];
        member.id = None;
        let (name, seat) = (member.name.clone(), member.seat);
        if seat.is_none() {
            self.members.remove(index);
        }
        if self.members.iter().all(|member| member.id.is_none()) {
            self.empty_since = Some(now);
        }
        self.tell_all(Happening::Left {
            name,
            seat: seat.map(|mark| mark.to_string()),
        })
    }

    /// A message from a member of the room.
    fn handle(&mut self, id: MemberId, message: ToServer, limits: Limits) -> Vec<Delivery> {
        let Some(member) = self.member(id) else {
            return refused(id, "You are not in this room.");
        };
        let (seat, name) = (member.seat, member.name.clone());
        let actor = seat.map_or(Actor::Spectator, Actor::Seat);
        let command = match message {
            ToServer::Play { square } => Command::Play(Square::new(square)),
            ToServer::Undo => Command::Undo,
            ToServer::AnswerUndo { yes } => Command::AnswerUndo(yes),
            ToServer::Resign => Command::Resign,
            ToServer::Rematch => return self.rematch(id, seat),
            ToServer::Say { text } => {
                let text = plain(&text, limits.text);
                if text.is_empty() {
                    return refused(id, "Say something first.");
                }
                return self.tell_all(Happening::Said { name, text });
            }
            ToServer::Host { .. }
            | ToServer::Join { .. }
            | ToServer::Watch { .. }
            | ToServer::Rejoin { .. } => {
                return refused(id, "You are in a room already.");
            }
        };
        if !self.full() && !self.game.started() {
            return refused(id, "Wait for the other player to join.");
        }
        match self.game.apply(actor, command) {
            Ok(events) => {
                if self.game.is_over() {
                    self.rematch = [false; 2];
                }
                self.tell_events(&events)
            }
            Err(refusal) => refused(id, &self.refusal(&refusal)),
        }
    }

    /// A player asks for another game; it starts once both have.
    fn rematch(&mut self, id: MemberId, seat: Option<Mark>) -> Vec<Delivery> {
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
        if self.rematch == [true; 2] {
            self.rematch = [false; 2];
            out.extend(self.next_game());
        }
        out
    }

    /// Starts the next game (the room is its match's host) and tells everyone.
    fn next_game(&mut self) -> Vec<Delivery> {
        let command = Command::NewGame { coin: self.coin };
        match self.game.apply(Actor::Host, command) {
            Ok(events) => self.tell_events(&events),
            Err(_) => Vec::new(),
        }
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
                code: self.code.clone(),
                token: member
                    .map(|member| member.token.clone())
                    .unwrap_or_default(),
                seat: member
                    .and_then(|member| member.seat)
                    .map(|mark| mark.to_string()),
                snapshot: Box::new(self.game.snapshot()),
                seq: self.seq,
            },
        }
    }

    /// Numbers `happening` and tells every connected member.
    fn tell_all(&mut self, happening: Happening) -> Vec<Delivery> {
        self.seq += 1;
        let seq = self.seq;
        self.members
            .iter()
            .filter_map(|member| member.id)
            .map(|to| Delivery {
                to,
                message: ToClient::Happened {
                    seq,
                    happening: happening.clone(),
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

/// A refusal for `id`, in `reason`'s words.
fn refused(id: MemberId, reason: &str) -> Vec<Delivery> {
    vec![Delivery {
        to: id,
        message: ToClient::Refused {
            reason: reason.to_owned(),
        },
    }]
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
    rooms: BTreeMap<String, Room>,
    rooms_of: HashMap<MemberId, String>,
    limits: Limits,
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
    pub fn room(&self, code: &str) -> Option<&Room> {
        self.rooms.get(code)
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
    /// to whom.
    pub fn handle(&mut self, id: MemberId, message: ToServer, fresh: Fresh) -> Vec<Delivery> {
        let limits = self.limits;
        if let Some(code) = self.rooms_of.get(&id) {
            return match self.rooms.get_mut(code) {
                Some(room) => room.handle(id, message, limits),
                None => refused(id, "That room is closed."),
            };
        }
        // Outside a room, only the ways into one.
        let (code, out) = match message {
            ToServer::Host { rules, name } => {
                let rules = match rules.parse::<Rules>() {
                    Ok(rules) => rules,
                    Err(error) => return refused(id, &format!("{error}.")),
                };
                if self.rooms.len() >= limits.rooms {
                    return refused(id, "The server has no room for another game: try later.");
                }
                if self.rooms.contains_key(&fresh.code) {
                    return refused(id, "That room code is taken: try again.");
                }
                let Ok(mut room) = Room::new(fresh.code.clone(), rules, fresh.coin) else {
                    return refused(id, "That board cannot be played here.");
                };
                let out = room.enter(id, name_of(&name, limits), fresh.token, false);
                self.rooms.insert(fresh.code.clone(), room);
                (fresh.code, out)
            }
            ToServer::Join { code, name } => {
                return self.enter(id, code, name, fresh.token, false);
            }
            ToServer::Watch { code, name } => {
                return self.enter(id, code, name, fresh.token, true);
            }
            ToServer::Rejoin { code, token } => {
                let Some(room) = self.rooms.get_mut(&code) else {
                    return refused(id, &no_room(&code));
                };
                match room.rejoin(id, &token) {
                    Some(out) => (code, out),
                    None => return refused(id, "That token is not for this room."),
                }
            }
            _ => return refused(id, "Host a room, or join one by its code, first."),
        };
        self.rooms_of.insert(id, code);
        out
    }

    /// Someone comes into the room `code`, to play if `watch` is false and a seat is free.
    fn enter(
        &mut self,
        id: MemberId,
        code: String,
        name: String,
        token: String,
        watch: bool,
    ) -> Vec<Delivery> {
        let limits = self.limits;
        let Some(room) = self.rooms.get_mut(&code) else {
            return refused(id, &no_room(&code));
        };
        let watch = watch || room.full();
        if watch && room.watchers() >= limits.watchers {
            return refused(id, "That room has as many watchers as it takes.");
        }
        let out = room.enter(id, name_of(&name, limits), token, watch);
        self.rooms_of.insert(id, code);
        out
    }

    /// The connection `id` dropped at `now` (the server's seconds).
    pub fn disconnect(&mut self, id: MemberId, now: u64) -> Vec<Delivery> {
        let Some(code) = self.rooms_of.remove(&id) else {
            return Vec::new();
        };
        self.rooms
            .get_mut(&code)
            .map(|room| room.leave(id, now))
            .unwrap_or_default()
    }

    /// Closes the rooms nobody has been connected to for `idle` seconds or more at `now`;
    /// how many.
    pub fn sweep(&mut self, now: u64, idle: u64) -> usize {
        let before = self.rooms.len();
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
fn no_room(code: &str) -> String {
    format!("No room has the code '{}'.", plain(code, 20))
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        clippy::panic,
        reason = "a test fails by panicking"
    )]

    use proptest::prelude::*;

    use super::*;

    const ANN: MemberId = MemberId(1);
    const BOB: MemberId = MemberId(2);
    const EVE: MemberId = MemberId(3);

    fn fresh(token: &str) -> Fresh {
        Fresh {
            code: "K7Q2".to_owned(),
            token: token.to_owned(),
            coin: Mark::X,
        }
    }

    /// Ann hosts 3x3, Bob joins, Eve watches: the first game has begun, Ann (X) to move.
    fn room_of_three() -> Lobby {
        let mut lobby = Lobby::new(Limits::default());
        let host = ToServer::Host {
            rules: "3x3, k=3".to_owned(),
            name: "Ann".to_owned(),
        };
        lobby.handle(ANN, host, fresh("ann"));
        let join = |name: &str| ToServer::Join {
            code: "K7Q2".to_owned(),
            name: name.to_owned(),
        };
        lobby.handle(BOB, join("Bob"), fresh("bob"));
        lobby.handle(EVE, join("Eve"), fresh("eve"));
        lobby
    }

    fn send(lobby: &mut Lobby, id: MemberId, message: ToServer) -> Vec<Delivery> {
        lobby.handle(id, message, fresh("unused"))
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
        let room = lobby.room("K7Q2").unwrap();
        room.game().position().history().len()
    }

    fn refusal(out: &[Delivery]) -> &str {
        match out {
            [
                Delivery {
                    message: ToClient::Refused { reason },
                    ..
                },
            ] => reason,
            _ => panic!("not one refusal: {out:?}"),
        }
    }

    #[test]
    fn two_players_and_a_watcher_see_one_game_and_a_rematch() {
        let mut lobby = room_of_three();
        let room = lobby.room("K7Q2").unwrap();
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
                seat: Some("O".to_owned())
            }]
        );
        assert_eq!(
            refusal(&play(&mut lobby, ANN, 0)),
            "It is the other side's turn."
        );
        let again = MemberId(9);
        let wrong = ToServer::Rejoin {
            code: "K7Q2".to_owned(),
            token: "guess".to_owned(),
        };
        assert_eq!(
            refusal(&send(&mut lobby, again, wrong)),
            "That token is not for this room."
        );
        let rejoin = ToServer::Rejoin {
            code: "K7Q2".to_owned(),
            token: "bob".to_owned(),
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
    fn bad_asks_are_refused_in_words_and_names_and_lines_are_plain() {
        let mut lobby = Lobby::new(Limits {
            rooms: 1,
            ..Limits::default()
        });
        let host = |rules: &str| ToServer::Host {
            rules: rules.to_owned(),
            name: "\u{1b}[2JAnn\u{7}".to_owned(),
        };
        assert!(refusal(&send(&mut lobby, ANN, host("9x9"))).contains("9x9"));
        assert_eq!(
            refusal(&play(&mut lobby, ANN, 4)),
            "Host a room, or join one by its code, first."
        );
        let join = ToServer::Join {
            code: "NOPE".to_owned(),
            name: "Bob".to_owned(),
        };
        assert_eq!(
            refusal(&send(&mut lobby, BOB, join)),
            "No room has the code 'NOPE'."
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
            code: "K7Q2".to_owned(),
            name: "Bob".to_owned(),
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
        assert!(lobby.room("K7Q2").unwrap().members[0].name == "[2JAnn");
    }

    #[test]
    fn a_room_nobody_is_connected_to_closes_after_the_idle_time() {
        let mut lobby = room_of_three();
        for (id, now) in [(ANN, 10), (BOB, 20), (EVE, 30)] {
            lobby.disconnect(id, now);
        }
        assert_eq!(lobby.sweep(100, 100), 0, "not yet");
        assert_eq!(lobby.sweep(130, 100), 1);
        assert!(lobby.is_empty());
    }

    fn messages() -> impl Strategy<Value = ToServer> {
        let code = || prop_oneof![Just("K7Q2".to_owned()), Just("ZZZZ".to_owned())];
        prop_oneof![
            6 => (0..12usize).prop_map(|square| ToServer::Play { square }),
            1 => Just(ToServer::Undo),
            1 => any::<bool>().prop_map(|yes| ToServer::AnswerUndo { yes }),
            1 => Just(ToServer::Resign),
            2 => Just(ToServer::Rematch),
            1 => ".{0,8}".prop_map(|text| ToServer::Say { text }),
            1 => code().prop_map(|code| ToServer::Join { code, name: "P".to_owned() }),
            1 => code().prop_map(|code| ToServer::Watch { code, name: "W".to_owned() }),
            1 => Just(ToServer::Host { rules: "3x3, k=3".to_owned(), name: "H".to_owned() }),
            1 => code().prop_map(|code| ToServer::Rejoin { code, token: "t1".to_owned() }),
        ]
    }

    proptest! {
        #[test]
        fn any_messages_from_anyone_keep_every_member_in_step(
            steps in proptest::collection::vec((0..4u64, messages(), any::<bool>()), 0..80),
        ) {
            let mut lobby = Lobby::new(Limits::default());
            // What each connection was told last, to check the numbering.
            let mut last_seq: HashMap<MemberId, u64> = HashMap::new();
            for (step, (who, message, drop)) in steps.into_iter().enumerate() {
                let id = MemberId(who);
                let before = lobby.room("K7Q2").map(|room| room.game().snapshot());
                let token = format!("t{who}");
                let fresh = Fresh { code: "K7Q2".to_owned(), token, coin: Mark::O };
                let out = if drop {
                    lobby.disconnect(id, step as u64)
                } else {
                    lobby.handle(id, message, fresh)
                };
                for delivery in &out {
                    match &delivery.message {
                        ToClient::Refused { reason } => {
                            prop_assert!(!reason.is_empty());
                            let after = lobby.room("K7Q2").map(|room| room.game().snapshot());
                            prop_assert_eq!(&after, &before, "a refusal changes nothing");
                        }
                        ToClient::Welcome { seq, snapshot, .. } => {
                            let room = lobby.room("K7Q2").unwrap();
                            prop_assert_eq!(snapshot.as_ref(), &room.game().snapshot());
                            last_seq.insert(delivery.to, *seq);
                        }
                        ToClient::Happened { seq, .. } => {
                            // Each member is told every happening once, in order, after
                            // its welcome.
                            let last = last_seq.get_mut(&delivery.to);
                            prop_assert!(last.is_some(), "told before welcomed: {:?}", delivery);
                            if let Some(last) = last {
                                prop_assert_eq!(*seq, *last + 1, "{:?}", delivery);
                                *last = *seq;
                            }
                        }
                    }
                }
                if drop {
                    last_seq.remove(&id);
                }
            }
        }
    }
}
