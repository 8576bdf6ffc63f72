//! An SSH session's rooms: the stay in a room ([`Visit`]) as the terminal's full screen
//! keeps it, over a member of the server's own lobby instead of a WebSocket. What the
//! person asks goes to the lobby as a connection's request would (within the same rate);
//! what the lobby tells the member comes back to the visit as the same messages.

use std::net::IpAddr;
use std::time::Duration;

use crate::store::{SeatTokens, Store};
use tokio::time::Instant;
use ttt_online::protocol::{Listed, Request, RoomCode, ToClient, ToServer};
use ttt_online::visit::Visit;
use ttt_online::words;
use ttt_play::app::{App, Ask, Screen};
use ttt_play::records::Keep;

use super::Context;
use crate::server::{Budget, Member, handle};

/// The seat tokens' name for this server's rooms in a key's folder.
const SEATS: &str = "ssh";

/// Where the session plays online, and the room it is in.
pub(super) struct Online {
    address: IpAddr,
    /// The person's name, as the others see it.
    name: String,
    /// Where a keyed player's seats are kept, to come back to them from another session.
    seats: Option<SeatTokens>,
    /// Where a keyed player's games are kept, online ones too.
    games: Option<Store>,
    keeping_failed: bool,
    room: Option<Room>,
    /// The member asking for the list of public rooms, until it is answered.
    listing: Option<Member>,
    /// Requests a second, as a connection's.
    budget: Budget,
}

/// A stay in a room, over a member of the lobby (none while it comes back after a drop).
struct Room {
    visit: Visit,
    member: Option<Member>,
    again: Option<Instant>,
}

/// What the lobby said to the session's members.
pub(super) enum Heard {
    /// To the room's member: a message, or `None` when it was cut off.
    Room(Option<ToClient>),
    /// To the member asking for the list.
    Listing(Option<ToClient>),
}

impl Online {
    /// Plays as `name` from `address`, keeping seats and games in the key's `folder`.
    pub fn new(
        context: &Context,
        address: IpAddr,
        name: String,
        folder: Option<&std::path::Path>,
        games: Option<Store>,
    ) -> Online {
        let limits = super::lock(&context.hub).limits;
        Online {
            address,
            name,
            seats: folder.map(SeatTokens::in_folder),
            games,
            keeping_failed: false,
            room: None,
            listing: None,
            budget: Budget::new(limits.messages_per_second, Duration::from_secs(1)),
        }
    }

    /// Enters the room of `visit`, leaving any other.
    pub fn enter(&mut self, context: &Context, visit: Visit, app: &mut App) {
        self.leave(context);
        app.enter_online(visit.rules());
        let mut room = Room {
            visit,
            member: None,
            again: None,
        };
        self.connect(context, &mut room);
        self.room = Some(room);
    }

    /// Joins the room `code`: back to a seat of this key's if nobody holds it.
    pub fn join(&mut self, context: &Context, code: RoomCode, app: &mut App) {
        let tokens = self
            .seats
            .as_ref()
            .map_or_else(Vec::new, |seats| seats.get(SEATS, &code.to_string()));
        let visit = Visit::join(code, &self.name, tokens, None);
        self.enter(context, visit, app);
    }

    /// Watches the room `code`.
    pub fn watch(&mut self, context: &Context, code: RoomCode, app: &mut App) {
        let visit = Visit::watch(code, &self.name);
        self.enter(context, visit, app);
    }

    /// A new member for `room`, saying hello.
    fn connect(&mut self, context: &Context, room: &mut Room) {
        let member = Member::enlist(&context.hub);
        let hello = room.visit.hello();
        handle(&context.hub, member.id, self.address, hello);
        room.member = Some(member);
    }

    /// Sends what the person asked since the last call.
    pub fn asks(&mut self, context: &Context, app: &mut App) {
        for ask in app.take_asks() {
            match ask {
                Ask::Host {
                    rules,
                    clock,
                    public,
                    name,
                } => {
                    self.rename(&name);
                    let clock = clock.and_then(|clock| clock.parse().ok());
                    let visit = Visit::host(rules, &self.name)
                        .with_clock(clock)
                        .listed(public);
                    self.enter(context, visit, app);
                }
                Ask::Join { code, name } => {
                    self.rename(&name);
                    match code.parse::<RoomCode>() {
                        Ok(code) => self.join(context, code, app),
                        Err(error) => app.online_closed(format!("{error}.")),
                    }
                }
                Ask::ListRooms => {
                    if self.listing.is_none() {
                        let member = Member::enlist(&context.hub);
                        handle(
                            &context.hub,
                            member.id,
                            self.address,
                            ToServer::Rooms.into(),
                        );
                        self.listing = Some(member);
                    }
                }
                // Typed in the box itself.
                Ask::Edit { .. } => {}
                Ask::Leave => self.part(context, Visit::away),
                Ask::LeaveRoom => self.leave(context),
                ask => {
                    let Some(room) = &mut self.room else {
                        continue;
                    };
                    let (Some(request), Some(member)) = (room.visit.request(ask), &room.member)
                    else {
                        continue;
                    };
                    if self.budget.take() {
                        handle(&context.hub, member.id, self.address, request);
                    } else {
                        app.online_note("Too many messages: slow down.".to_owned(), true);
                    }
                }
            }
        }
    }

    /// Takes `name` as the person's name from now on, if they chose one.
    fn rename(&mut self, name: &str) {
        if !name.trim().is_empty() {
            name.trim().clone_into(&mut self.name);
        }
    }

    /// The next thing the lobby says to one of the session's members: waits for ever
    /// when there is none.
    pub async fn heard(&mut self) -> Heard {
        let room = self.room.as_mut().and_then(|room| room.member.as_mut());
        tokio::select! {
            heard = next(room) => Heard::Room(heard),
            heard = next(self.listing.as_mut()) => Heard::Listing(heard),
        }
    }

    /// Takes what the lobby said into the app.
    pub fn take(&mut self, context: &Context, heard: Heard, app: &mut App) {
        match heard {
            Heard::Listing(heard) => {
                if let Some(member) = self.listing.take() {
                    Member::dismiss(&context.hub, member.id);
                }
                app.listed(match heard {
                    Some(ToClient::Rooms { rooms, .. }) => {
                        Ok(rooms.iter().map(Listed::to_app).collect())
                    }
                    Some(ToClient::Refused { reason, .. }) => Err(reason),
                    _ => Err("The server did not list its rooms.".to_owned()),
                });
            }
            Heard::Room(Some(message)) => self.told(context, &message, app),
            Heard::Room(None) => {
                let Some(room) = &mut self.room else {
                    return;
                };
                if let Some(member) = room.member.take() {
                    Member::dismiss(&context.hub, member.id);
                }
                match room.visit.dropped(app) {
                    Some(wait) => room.again = Some(Instant::now() + wait),
                    None => self.room = None,
                }
            }
        }
        if !matches!(app.screen(), Screen::Online(_)) {
            self.leave(context);
        }
    }

    /// A message of the lobby to the room's member.
    fn told(&mut self, context: &Context, message: &ToClient, app: &mut App) {
        let Some(room) = &mut self.room else {
            return;
        };
        let Ok(text) = serde_json::to_string(message) else {
            return;
        };
        let reply = room.visit.heard(&text, app);
        if let Some(member) = &room.member {
            for request in reply.send {
                handle(&context.hub, member.id, self.address, request);
            }
        }
        if reply.welcomed {
            if let (Some(seats), Some((code, token))) = (&self.seats, room.visit.token()) {
                // Without it, only this session can come back to the seat.
                let _ = seats.keep(SEATS, code, token);
            }
            let server = context
                .web
                .address
                .map_or_else(String::new, |address| address.to_string());
            let link = room
                .visit
                .mirror()
                .code
                .as_deref()
                .zip(context.web.address)
                .filter(|_| context.web.page)
                .map(|(code, address)| format!("http://{address}/#{code}"));
            let welcome = words::welcome(room.visit.mirror(), &server, link.as_deref());
            app.online_note(welcome, false);
        }
        if reply.come_back {
            if let Some(member) = room.member.take() {
                Member::dismiss(&context.hub, member.id);
            }
            room.again = Some(Instant::now() + Duration::from_secs(1));
        }
        if let (Some(store), Some((id, record))) =
            (&mut self.games, room.visit.to_keep(crate::store::now()))
            && let Err(error) = store.keep(Some(&id), &record)
            && !std::mem::replace(&mut self.keeping_failed, true)
        {
            app.online_note(format!("{}.", ttt_play::words::capitalised(&error)), true);
        }
        if reply.ended {
            self.room = None;
        }
    }

    /// Comes back to the room after a drop, when it is time.
    pub fn poll(&mut self, context: &Context) {
        let Some(mut room) = self.room.take() else {
            return;
        };
        if room.member.is_none() && room.again.is_some_and(|at| Instant::now() >= at) {
            room.again = None;
            self.connect(context, &mut room);
        }
        self.room = Some(room);
    }

    /// When [`Online::poll`] has something to do.
    pub fn next_due(&self) -> Option<Instant> {
        self.room.as_ref().and_then(|room| room.again)
    }

    /// The room's score in words, for the last line after the full screen.
    pub fn tally(&self) -> Option<String> {
        words::tally(self.room.as_ref()?.visit.mirror())
    }

    /// Leaves the room on purpose: a watcher goes, a player gives the seat up between
    /// games (in the middle of one, the seat is kept for a return).
    pub fn leave(&mut self, context: &Context) {
        self.part(context, Visit::farewell);
    }

    /// As the session ends: steps away from the room (the seat kept, the others told it
    /// was meant), and lets go of every member.
    pub fn close_down(&mut self, context: &Context) {
        self.part(context, Visit::away);
        if let Some(member) = self.listing.take() {
            Member::dismiss(&context.hub, member.id);
        }
    }

    /// As the connection is gone without a word: the room sees the member drop, as a
    /// dropped connection (the seat waits for a return).
    pub fn dropped(&mut self, context: &Context) {
        self.part(context, |_| None);
        if let Some(member) = self.listing.take() {
            Member::dismiss(&context.hub, member.id);
        }
    }

    /// Leaves the room with the last word `word` gives, if any.
    fn part(&mut self, context: &Context, word: fn(&mut Visit) -> Option<Request>) {
        let Some(mut room) = self.room.take() else {
            return;
        };
        if let Some(member) = room.member.take() {
            if let Some(word) = word(&mut room.visit) {
                handle(&context.hub, member.id, self.address, word);
            }
            Member::dismiss(&context.hub, member.id);
        }
    }
}

/// The next message to `member`, `None` once it is cut off; for ever without a member.
async fn next(member: Option<&mut Member>) -> Option<ToClient> {
    let Some(member) = member else {
        return std::future::pending().await;
    };
    tokio::select! {
        message = member.inbox.recv() => message,
        () = member.cut.notified() => None,
    }
}
