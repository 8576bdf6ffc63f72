//! An SSH session's rooms: the stay in a room ([`Visit`]) as the terminal's full screen
//! keeps it, over a member of the server's own lobby instead of a WebSocket. What the
//! person asks goes to the lobby as a connection's request would (within the same rate);
//! what the lobby tells the member comes back to the visit as the same messages.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use crate::client::RoomKeeping;
use crate::store::{SeatTokens, Store};
use tokio::time::Instant;
use ttt_online::protocol::{Listed, Request, RoomCode, ToClient, ToServer};
use ttt_online::room::MemberId;
use ttt_online::visit::Visit;
use ttt_online::words;
use ttt_play::app::{App, Ask, Screen};

use super::Context;
use crate::server::{Budget, Member, handle};

/// The server as its players name it: its WebSocket address (what `ttt join --server`
/// takes, and the name of its seats' tokens in a key's folder).
fn server(context: &Context) -> String {
    context
        .web
        .address
        .map_or_else(|| "ssh".to_owned(), |address| address.to_string())
}

/// Where the session plays online, and the room it is in.
pub(super) struct Online {
    context: Arc<Context>,
    address: IpAddr,
    /// The person's name, as the others see it.
    name: String,
    /// A keyed player's seats' tokens (to come back to a seat from another session) and
    /// games, kept.
    keeping: RoomKeeping,
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
        context: &Arc<Context>,
        address: IpAddr,
        name: String,
        folder: Option<&std::path::Path>,
        games: Option<Store>,
    ) -> Online {
        let limits = super::lock(&context.hub).limits;
        Online {
            context: context.clone(),
            address,
            name,
            keeping: RoomKeeping::new(folder.map(SeatTokens::in_folder), games),
            room: None,
            listing: None,
            budget: Budget::new(limits.messages_per_second, Duration::from_secs(1)),
        }
    }

    /// Enters the room of `visit`, leaving any other.
    pub fn enter(&mut self, visit: Visit, app: &mut App) {
        self.leave();
        app.enter_online(visit.rules());
        let mut room = Room {
            visit,
            member: None,
            again: None,
        };
        self.connect(&mut room);
        self.room = Some(room);
    }

    /// Joins the room `code`: back to a seat of this key's if nobody holds it.
    pub fn join(&mut self, code: RoomCode, app: &mut App) {
        let tokens = self.keeping.tokens(&server(&self.context), code);
        let visit = Visit::join(code, &self.name, tokens, None);
        self.enter(visit, app);
    }

    /// Watches the room `code`.
    pub fn watch(&mut self, code: RoomCode, app: &mut App) {
        let visit = Visit::watch(code, &self.name);
        self.enter(visit, app);
    }

    /// A new member for `room`, saying hello; over the rate of requests, a second later.
    fn connect(&mut self, room: &mut Room) {
        if !self.budget.take() {
            room.again = Some(Instant::now() + Duration::from_secs(1));
            return;
        }
        let member = Member::enlist(&self.context.hub);
        handle(
            &self.context.hub,
            member.id,
            self.address,
            room.visit.hello(),
        );
        room.member = Some(member);
    }

    /// Hands `request` to the lobby as `member`'s, within the rate a connection has:
    /// false when over it (the request is dropped).
    fn post(&mut self, member: MemberId, request: Request) -> bool {
        let within = self.budget.take();
        if within {
            handle(&self.context.hub, member, self.address, request);
        }
        within
    }

    /// Sends what the person asked since the last call.
    pub fn asks(&mut self, app: &mut App) {
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
                    self.enter(visit, app);
                }
                Ask::Join { code, name } => {
                    self.rename(&name);
                    match code.parse::<RoomCode>() {
                        Ok(code) => self.join(code, app),
                        Err(error) => app.online_closed(format!("{error}.")),
                    }
                }
                Ask::ListRooms => {
                    if self.listing.is_none() {
                        let member = Member::enlist(&self.context.hub);
                        if self.post(member.id, ToServer::Rooms.into()) {
                            self.listing = Some(member);
                        } else {
                            Member::dismiss(&self.context.hub, member.id);
                            app.listed(Err("Too many messages: slow down.".to_owned()));
                        }
                    }
                }
                // Typed in the box itself.
                Ask::Edit { .. } => {}
                Ask::Leave => self.part(Visit::away),
                Ask::LeaveRoom => self.leave(),
                ask => {
                    let Some(room) = &mut self.room else {
                        continue;
                    };
                    let Some(request) = room.visit.request(ask) else {
                        continue;
                    };
                    let Some(member) = room.member.as_ref().map(|member| member.id) else {
                        app.online_note(
                            "Not connected to the room: wait until the connection is back."
                                .to_owned(),
                            true,
                        );
                        continue;
                    };
                    if !self.post(member, request) {
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
    pub fn take(&mut self, heard: Heard, app: &mut App) {
        match heard {
            Heard::Listing(heard) => {
                if let Some(member) = self.listing.take() {
                    Member::dismiss(&self.context.hub, member.id);
                }
                app.listed(match heard {
                    Some(ToClient::Rooms { rooms, .. }) => {
                        Ok(rooms.iter().map(Listed::to_app).collect())
                    }
                    Some(ToClient::Refused { reason, .. }) => Err(reason),
                    _ => Err("The server did not list its rooms.".to_owned()),
                });
            }
            Heard::Room(Some(message)) => self.told(&message, app),
            Heard::Room(None) => {
                let Some(room) = &mut self.room else {
                    return;
                };
                if let Some(member) = room.member.take() {
                    Member::dismiss(&self.context.hub, member.id);
                }
                match room.visit.dropped(app) {
                    Some(wait) => room.again = Some(Instant::now() + wait),
                    None => self.room = None,
                }
            }
        }
        if !matches!(app.screen(), Screen::Online(_)) {
            self.leave();
        }
    }

    /// A message of the lobby to the room's member.
    fn told(&mut self, message: &ToClient, app: &mut App) {
        let Some(room) = &mut self.room else {
            return;
        };
        let Ok(text) = serde_json::to_string(message) else {
            return;
        };
        let reply = room.visit.heard(&text, app);
        if let Some(member) = &room.member {
            for request in reply.send {
                handle(&self.context.hub, member.id, self.address, request);
            }
        }
        let server = server(&self.context);
        let link = room
            .visit
            .mirror()
            .code
            .as_deref()
            .zip(self.context.web.address)
            .filter(|_| self.context.web.page)
            .map(|(code, address)| format!("http://{address}/#{code}"));
        self.keeping.after(
            &mut room.visit,
            reply.welcomed,
            &server,
            link.as_deref(),
            app,
        );
        if reply.come_back {
            if let Some(member) = room.member.take() {
                Member::dismiss(&self.context.hub, member.id);
            }
            room.again = Some(Instant::now() + Duration::from_secs(1));
        }
        if reply.ended {
            self.room = None;
        }
    }

    /// Comes back to the room after a drop, when it is time.
    pub fn poll(&mut self) {
        let Some(mut room) = self.room.take() else {
            return;
        };
        if room.member.is_none() && room.again.is_some_and(|at| Instant::now() >= at) {
            room.again = None;
            self.connect(&mut room);
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
    pub fn leave(&mut self) {
        self.part(Visit::farewell);
    }

    /// As the session ends: steps away from the room (the seat kept, the others told it
    /// was meant), and lets go of every member.
    pub fn close_down(&mut self) {
        self.part(Visit::away);
        if let Some(member) = self.listing.take() {
            Member::dismiss(&self.context.hub, member.id);
        }
    }

    /// As the connection is gone without a word: the room sees the member drop, as a
    /// dropped connection (the seat waits for a return).
    pub fn dropped(&mut self) {
        self.part(|_| None);
        if let Some(member) = self.listing.take() {
            Member::dismiss(&self.context.hub, member.id);
        }
    }

    /// Leaves the room with the last word `word` gives, if any.
    fn part(&mut self, word: fn(&mut Visit) -> Option<Request>) {
        let Some(mut room) = self.room.take() else {
            return;
        };
        if let Some(member) = room.member.take() {
            if let Some(word) = word(&mut room.visit) {
                // A last word over the rate is not said: the room sees a drop.
                self.post(member.id, word);
            }
            Member::dismiss(&self.context.hub, member.id);
        }
    }
}

impl Drop for Online {
    /// Whatever way the session ended (a panic too), its members leave the lobby.
    fn drop(&mut self) {
        let members = self.room.take().and_then(|room| room.member);
        for member in members.into_iter().chain(self.listing.take()) {
            Member::dismiss(&self.context.hub, member.id);
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
