//! The full screen's rooms on a server: a connection on a thread of its own (the
//! terminal client's WebSocket), and the stay in the room ([`Visit`]) that decides what
//! to say on it and what each message changes in the app. The app shows the room and
//! hands out what the person asks; the server decides.

use std::net::SocketAddr;
use std::sync::mpsc::{self, TryRecvError};
use std::time::{Duration, Instant};

use ttt::client;
use ttt::client::RoomKeeping;
use ttt::store::{SeatTokens, Store};
use ttt_online::protocol::{Listed, Request, RoomCode};
use ttt_online::visit::Visit;
use ttt_online::words;
use ttt_play::app::{App, Ask, Screen, Waiting};
use tungstenite::Message;

use crate::commands::serve::OwnServer;

/// How long the connection's thread waits on the socket before looking at what to send.
const LOOK: Duration = Duration::from_millis(20);

/// Where the full screen plays online, and the room it is in.
pub struct Online {
    /// The server named on the command line; without one, the one at the default
    /// address, or else one of the person's own started there.
    named: Option<String>,
    /// The person's name, as the others see it.
    name: String,
    /// The seats' tokens and the games played, kept.
    keeping: RoomKeeping,
    /// The person's own server, once started: it lasts as long as the program.
    own: Option<OwnServer>,
    room: Option<Room>,
    /// The room to enter as the full screen opens (`ttt join`), and its server.
    first: Option<(Visit, String)>,
    /// The threads of connections closing, with a last word to send.
    closing: Vec<std::thread::JoinHandle<()>>,
    /// The server's list of public rooms, on its way from a thread of its own.
    listing: Option<mpsc::Receiver<Result<Vec<Waiting>, String>>>,
}

/// A stay in a room over the connections of a server.
struct Room {
    visit: Visit,
    server: String,
    link: Option<Link>,
    /// Whether the first message went on the open link: until it has, a request is not
    /// sent, and the person is told to wait for the connection.
    said_hello: bool,
    /// When to connect again, after a drop.
    again: Option<Instant>,
}

/// One connection, carried by a thread of its own that ends when the link is dropped.
struct Link {
    outgoing: mpsc::Sender<String>,
    heard: mpsc::Receiver<Heard>,
    thread: std::thread::JoinHandle<()>,
}

/// What a connection's thread hands back.
enum Heard {
    /// The connection opened.
    Opened,
    /// A message from the server.
    Message(String),
    /// The connection closed, or could not open.
    Closed,
}

impl Online {
    /// Plays on `named` (or the default server, or one of the person's own) as `name`,
    /// keeping seats' tokens in `seats` and the games played in `games`; with `own`, a
    /// server of the person's own already started (`ttt host`).
    pub fn new(
        named: Option<String>,
        name: String,
        seats: Option<SeatTokens>,
        own: Option<OwnServer>,
        games: Option<Store>,
    ) -> Online {
        Online {
            named,
            name,
            keeping: RoomKeeping::new(seats, games),
            own,
            room: None,
            first: None,
            listing: None,
            closing: Vec::new(),
        }
    }

    /// The person's name, as the others see it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Takes `name` as the person's name from now on, if they chose one.
    fn rename(&mut self, name: &str) {
        if !name.trim().is_empty() {
            name.trim().clone_into(&mut self.name);
        }
    }

    /// Asks the server that would be played on for its public rooms, on a thread of its
    /// own: the answer is shown as [`Online::poll`] takes it.
    fn list_rooms(&mut self) {
        if self.listing.is_some() {
            return;
        }
        let server = self.server_to_join();
        // At the default address, a server may not run yet: asked quickly first.
        let probe = self.named.is_none() && self.own.is_none();
        let (sender, receiver) = mpsc::channel();
        let listed = std::thread::Builder::new()
            .name("rooms".to_owned())
            .spawn(move || {
                let answer = if probe && !answers(&server) {
                    Err(format!(
                        "No server answers at {server}: a room hosted starts one."
                    ))
                } else {
                    client::list_rooms(&server)
                        .map(|rooms| rooms.iter().map(Listed::to_app).collect())
                        .map_err(|error| {
                            format!("{}.", ttt_play::words::capitalised(&format!("{error:#}")))
                        })
                };
                let _ = sender.send(answer);
            });
        if listed.is_ok() {
            self.listing = Some(receiver);
        }
    }

    /// Enters the room of `visit` on `server` as the full screen opens.
    pub fn first(&mut self, visit: Visit, server: String) {
        self.first = Some((visit, server));
    }

    /// Enters the room given [first](Online::first), if one was.
    pub fn begin(&mut self, app: &mut App) {
        if let Some((visit, server)) = self.first.take() {
            self.enter(visit, server, app);
        }
    }

    /// The server to host on: the one named, the person's own, the one at the default
    /// address if it answers, or else a new one of the person's own there.
    fn server(&mut self) -> anyhow::Result<String> {
        if let Some(named) = &self.named {
            return Ok(named.clone());
        }
        if let Some(own) = &self.own {
            return Ok(own.reached_at());
        }
        let default: SocketAddr = client::DEFAULT_SERVER.parse()?;
        if answers(client::DEFAULT_SERVER) {
            return Ok(client::DEFAULT_SERVER.to_owned());
        }
        let own = OwnServer::start(default)?;
        let server = own.reached_at();
        self.own = Some(own);
        Ok(server)
    }

    /// The server to join a room on: the one named, or the default one.
    fn server_to_join(&self) -> String {
        match (&self.named, &self.own) {
            (Some(named), _) => named.clone(),
            (None, Some(own)) => own.reached_at(),
            (None, None) => client::DEFAULT_SERVER.to_owned(),
        }
    }

    /// Enters the room of `visit` on `server`, leaving any other.
    pub fn enter(&mut self, visit: Visit, server: String, app: &mut App) {
        app.enter_online(visit.rules());
        self.room = Some(Room {
            visit,
            server: server.clone(),
            link: Some(Link::open(server)),
            said_hello: false,
            again: None,
        });
    }

    /// A visit to the room `code` as this person: back to a seat of theirs if nobody
    /// holds it.
    pub fn join(&self, code: RoomCode, server: &str) -> Visit {
        let tokens = self.keeping.tokens(server, code);
        Visit::join(code, &self.name, tokens, None)
    }

    /// Sends what the person asked since the last call: opening a room connects, leaving
    /// closes.
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
                    match self.server() {
                        Ok(server) => {
                            let clock = clock.and_then(|clock| clock.parse().ok());
                            let visit = Visit::host(rules, &self.name)
                                .with_clock(clock)
                                .listed(public);
                            self.enter(visit, server, app);
                        }
                        Err(error) => {
                            app.online_closed(format!("No server to open a room on: {error:#}."));
                        }
                    }
                }
                Ask::Join { code, name } => {
                    self.rename(&name);
                    self.join_typed(&code, app);
                }
                Ask::ListRooms => self.list_rooms(),
                // Typed in the box itself.
                Ask::Edit { .. } => {}
                Ask::Leave => self.step_away(),
                Ask::LeaveRoom => self.leave(),
                ask => {
                    let Some(room) = &mut self.room else {
                        continue;
                    };
                    if !room.send(ask) {
                        app.online_note(
                            "Not connected to the server: wait until the connection is back."
                                .to_owned(),
                            true,
                        );
                    }
                }
            }
        }
    }

    /// Takes what the server said since the last call, and comes back after a drop when
    /// it is time.
    pub fn poll(&mut self, app: &mut App) {
        if let Some(listing) = &self.listing {
            match listing.try_recv() {
                Ok(rooms) => {
                    app.listed(rooms);
                    self.listing = None;
                }
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => self.listing = None,
            }
        }
        let Some(room) = &mut self.room else {
            return;
        };
        if room.link.is_none() && room.again.is_some_and(|at| Instant::now() >= at) {
            room.again = None;
            room.said_hello = false;
            room.link = Some(Link::open(room.server.clone()));
        }
        let mut over = false;
        while let Some(heard) = room.link.as_ref().and_then(Link::next) {
            match heard {
                Heard::Opened => {
                    room.said_hello = true;
                    let hello = room.visit.hello();
                    room.post(&hello);
                }
                Heard::Message(text) => {
                    let reply = room.visit.heard(&text, app);
                    for request in &reply.send {
                        room.post(request);
                    }
                    self.keeping
                        .after(&mut room.visit, reply.welcomed, &room.server, None, app);
                    if reply.come_back {
                        room.link = None;
                        room.again = Some(Instant::now() + Duration::from_secs(1));
                    }
                    over |= reply.ended;
                }
                Heard::Closed => {
                    room.link = None;
                    match room.visit.dropped(app) {
                        Some(wait) => room.again = Some(Instant::now() + wait),
                        None => over = true,
                    }
                }
            }
            if over {
                break;
            }
        }
        if over || !matches!(app.screen(), Screen::Online(_)) {
            self.room = None;
        }
    }

    /// The room's score in words, for the last line after the full screen: none when the
    /// person is in no room.
    pub fn tally(&self) -> Option<String> {
        words::tally(self.room.as_ref()?.visit.mirror())
    }

    /// Leaves the room on purpose: a watcher goes, a player gives the seat up between
    /// games (in the middle of one, the seat is kept for a return); the connection closes.
    pub fn leave(&mut self) {
        self.part(Visit::farewell);
    }

    /// Steps away from the room keeping the seat, saying so to the server (the others
    /// read that it was meant, not a dropped connection).
    fn step_away(&mut self) {
        self.part(Visit::away);
    }

    /// Leaves the room with the last word `word` gives, if any; its connection closes
    /// once the word is sent.
    fn part(&mut self, word: fn(&mut Visit) -> Option<Request>) {
        if let Some(mut room) = self.room.take() {
            if room.said_hello
                && let Some(word) = word(&mut room.visit)
            {
                room.post(&word);
            }
            self.closing.extend(room.link.take().map(Link::close));
        }
    }

    /// As the program ends: steps away from the room it is in (the seat kept, the others
    /// told it was meant), and waits a moment for the last words to leave.
    pub fn close_down(&mut self) {
        self.step_away();
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until && self.closing.iter().any(|thread| !thread.is_finished()) {
            std::thread::sleep(Duration::from_millis(10));
        }
        self.closing.clear();
    }

    /// Parses `code` as a room's code and joins it on the server named or the default one.
    fn join_typed(&mut self, code: &str, app: &mut App) {
        match code.parse::<RoomCode>() {
            Ok(code) => {
                let server = self.server_to_join();
                let visit = self.join(code, &server);
                self.enter(visit, server, app);
            }
            Err(error) => app.online_closed(format!("{error}.")),
        }
    }
}

impl Room {
    /// Sends `ask`, numbered for the board shown. False when there is no open connection
    /// to send it on.
    fn send(&mut self, ask: Ask) -> bool {
        let Some(request) = self.visit.request(ask) else {
            return true;
        };
        self.said_hello && self.post(&request)
    }

    /// Hands `request` to the connection's thread.
    fn post(&self, request: &Request) -> bool {
        let (Some(link), Ok(text)) = (&self.link, serde_json::to_string(request)) else {
            return false;
        };
        link.outgoing.send(text).is_ok()
    }
}

impl Link {
    /// Connects to `server` on a thread of its own.
    fn open(server: String) -> Link {
        let (outgoing, to_send) = mpsc::channel();
        let (tell, heard) = mpsc::channel();
        let thread = std::thread::spawn(move || carry(&server, &to_send, &tell));
        Link {
            outgoing,
            heard,
            thread,
        }
    }

    /// Closes the connection once what was handed to it is sent: its thread, to wait for
    /// before the program ends.
    fn close(self) -> std::thread::JoinHandle<()> {
        self.thread
    }

    /// What the connection heard next, if anything yet.
    fn next(&self) -> Option<Heard> {
        self.heard.try_recv().ok()
    }
}

/// The connection's thread: connects, then sends what it is handed and hands back what
/// it hears, until either side closes. Dropping the [`Link`] closes the connection.
fn carry(server: &str, to_send: &mpsc::Receiver<String>, tell: &mpsc::Sender<Heard>) {
    let Ok(mut socket) = client::connect(server) else {
        let _ = tell.send(Heard::Closed);
        return;
    };
    let _ = socket.get_ref().set_read_timeout(Some(LOOK));
    if tell.send(Heard::Opened).is_err() {
        return;
    }
    loop {
        loop {
            match to_send.try_recv() {
                Ok(text) => {
                    if socket.send(Message::text(text)).is_err() {
                        let _ = tell.send(Heard::Closed);
                        return;
                    }
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    let _ = socket.close(None);
                    let _ = socket.flush();
                    return;
                }
            }
        }
        match socket.read() {
            Ok(Message::Text(text)) => {
                if tell.send(Heard::Message(text.as_str().to_owned())).is_err() {
                    let _ = socket.close(None);
                    let _ = socket.flush();
                    return;
                }
            }
            Ok(_) => {}
            Err(tungstenite::Error::Io(error)) if client::waiting(&error) => {}
            Err(_) => {
                let _ = tell.send(Heard::Closed);
                return;
            }
        }
    }
}

/// Whether something answers at `server` (HOST:PORT) within a moment: the probe for a
/// server at the default address.
fn answers(server: &str) -> bool {
    server.parse::<SocketAddr>().is_ok_and(|address| {
        std::net::TcpStream::connect_timeout(&address, Duration::from_millis(250)).is_ok()
    })
}
