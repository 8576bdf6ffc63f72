//! `ttt host` and `ttt join CODE`: network play from a terminal, in lines as the line mode
//! plays: the board, what happened, and a prompt on your turn. The server decides
//! everything; the client shows what it is told and sends what is typed.

use std::io::{self, BufRead, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use rand::RngExt;
use ttt_core::{Mark, Rules, Shown, ShownLine, SquareNaming};
use ttt_online::clock::TimeControl;
use ttt_online::mirror::Mirror;
use ttt_online::protocol::{Happening, Listed, Request, RoomCode, ToClient, ToServer};
use ttt_play::matches::Refusal;
use ttt_players::Strength;
use tungstenite::{Message, WebSocket};

use crate::line::board_style::{self, BoardStyle};
use crate::line::input::{Input, Interruption, Line};
use crate::line::palette::Palette;
use crate::line::typed::{self, Typed, TypedError};
use crate::signals::Interrupts;
use crate::store::{self, SeatTokens, Store};
use ttt_online::keeping::OnlineGames;

pub use ttt_online::protocol::DEFAULT_SERVER;

/// The name the others see when none is given: the login name, or "Player".
pub fn default_name() -> String {
    std::env::var("USER")
        .ok()
        .filter(|name| !name.trim().is_empty())
        .unwrap_or_else(|| "Player".to_owned())
}

/// How long a connection may take to open.
const CONNECT: Duration = Duration::from_secs(10);
/// How often the client looks from the socket to the keyboard and back.
const LOOK: Duration = Duration::from_millis(50);

/// How to come into a room.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// Open a room for a game on `rules`, against a computer of the server's if one is
    /// named, with a clock if one is given.
    Host {
        /// The board.
        rules: Rules,
        /// The server's computer in the other seat, if one plays there.
        computer: Option<Strength>,
        /// The time control of each game, if the games are timed.
        clock: Option<TimeControl>,
        /// Whether the server's lobby lists the room for anyone to join.
        public: bool,
    },
    /// Take the free seat of the room of this code (or watch when both are taken).
    Join(RoomCode),
    /// Watch the room of this code.
    Watch(RoomCode),
}

/// What a client keeps in the person's data folder: seats' tokens, and the games played.
#[derive(Debug, Default)]
pub struct Keeping<'a> {
    /// Where seats' tokens are kept, so that `ttt join` takes a seat back.
    pub seats: Option<&'a SeatTokens>,
    /// Where the games are kept, as the games at home are.
    pub games: Option<Store>,
    /// Whether the server is this run's own (`ttt host` with none named): leaving ends
    /// it, and the room with it.
    pub own_server: bool,
}

/// What a full screen's stay in a room keeps as it goes (the terminal's, and an SSH
/// session's): each seat's token, so that another run takes the seat back, and the games
/// played, as the games at home are; and what it says of them.
#[derive(Debug)]
pub struct RoomKeeping {
    seats: Option<SeatTokens>,
    games: Option<Store>,
    /// Whether keeping a game failed: said once.
    failed: bool,
}

impl RoomKeeping {
    /// Keeps tokens in `seats` and games in `games`, where given.
    pub fn new(seats: Option<SeatTokens>, games: Option<Store>) -> RoomKeeping {
        RoomKeeping {
            seats,
            games,
            failed: false,
        }
    }

    /// The tokens kept for the room `code` on `server`: a join comes back to a seat with
    /// them, if nobody holds it.
    pub fn tokens(&self, server: &str, code: RoomCode) -> Vec<String> {
        self.seats
            .as_ref()
            .map_or_else(Vec::new, |seats| seats.get(server, &code.to_string()))
    }

    /// After `visit` took a message from `server`: once `welcomed`, the seat's token is
    /// kept and the welcome said (with `link`, the page's address for the room, where
    /// there is one); a game that changed is kept, a failure to keep it said once.
    pub fn after(
        &mut self,
        visit: &mut ttt_online::visit::Visit,
        welcomed: bool,
        server: &str,
        link: Option<&str>,
        app: &mut ttt_play::app::App,
    ) {
        if welcomed {
            if let (Some(seats), Some((code, token))) = (&self.seats, visit.token()) {
                // Without it, only this run can come back to the seat.
                let _ = seats.keep(server, code, token);
            }
            let welcome = ttt_online::words::welcome(visit.mirror(), server, link);
            app.online_note(welcome, false);
        }
        if let (Some(games), Some((id, record))) = (&mut self.games, visit.to_keep(store::now()))
            && let Err(error) = ttt_play::records::Keep::keep(games, Some(&id), &record)
            && !std::mem::replace(&mut self.failed, true)
        {
            app.online_note(format!("{}.", ttt_play::words::capitalised(&error)), true);
        }
    }
}

/// The client's side of a room: the room as the server said it, and what only this
/// client knows.
struct Client {
    mirror: Mirror,
    /// On its way in (or back), until the server welcomes it.
    entering: bool,
    /// The number of the last request sent.
    last_id: u64,
    /// When the other player, who lost the connection, may be claimed from, and their
    /// name: said once, when the time comes.
    claimable: Option<(Instant, String)>,
    /// When the server last told the clocks.
    clocks_told: Instant,
}

impl Client {
    /// `ask`, numbered and meant for the ply on the board.
    fn request(&mut self, ask: ToServer) -> Request {
        self.last_id += 1;
        self.mirror.request(self.last_id, ask)
    }
}

/// Plays online until the person quits, input ends, a signal comes or the connection
/// ends: `server` is `HOST:PORT`, `name` what the others see, lines read from `input`
/// (on a thread of their own, watching `interrupts`), everything said to `out`. A seat's
/// token is kept in `keeping`'s seats (when given), and `ttt join` with the room's code takes the
/// seat back with it.
///
/// # Errors
/// When the server cannot be reached, refuses the way in, or answers what is not the
/// protocol.
#[allow(
    clippy::too_many_arguments,
    reason = "each is one thing the client is given"
)]
pub fn run(
    server: &str,
    entry: Entry,
    name: &str,
    input: impl BufRead + Send + 'static,
    interrupts: &Interrupts,
    palette: Palette,
    keeping: Keeping<'_>,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    let Keeping {
        seats,
        mut games,
        own_server,
    } = keeping;
    let mut online_games = OnlineGames::default();
    let mut keeping_failed = false;
    let mut socket = connect(server)?;
    let mut input = Input::spawn(input, interrupts);
    let hello = match &entry {
        Entry::Host {
            rules,
            computer,
            clock,
            public,
        } => ToServer::Host {
            rules: rules.to_string(),
            name: name.to_owned(),
            computer: computer.map(|strength| strength.to_string()),
            clock: clock.map(|clock| clock.to_string()),
            public: *public,
        },
        Entry::Join(code) => ToServer::Join {
            code: code.to_string(),
            name: name.to_owned(),
            // Seats taken here before: back to one nobody holds, if there is one.
            tokens: seats.map_or_else(Vec::new, |seats| seats.get(server, &code.to_string())),
        },
        Entry::Watch(code) => ToServer::Watch {
            code: code.to_string(),
            name: name.to_owned(),
        },
    };
    let mut client = Client {
        mirror: Mirror::named(name),
        entering: true,
        last_id: 0,
        claimable: None,
        clocks_told: Instant::now(),
    };
    send(&mut socket, hello.into())?;
    loop {
        // What the server says first, then what is typed: after a message, the keyboard
        // is only glanced at, so that a busy room never fills this client's queue at the
        // server.
        let mut look = LOOK;
        match socket.read() {
            Ok(Message::Text(text)) => {
                let told = read_told(text.as_str())?;
                match &told {
                    ToClient::Refused { reason, .. } if client.entering => {
                        // Refused on the way in (or back): there is no room to be in.
                        bail!("{}", ShownLine(reason));
                    }
                    ToClient::Bye { reason, again } => {
                        match after_bye(
                            reason,
                            *again,
                            socket,
                            server,
                            &client.mirror,
                            interrupts,
                            out,
                        )? {
                            Some(again) => {
                                socket = again;
                                client.entering = true;
                            }
                            None => return Ok(ExitCode::FAILURE),
                        }
                        continue;
                    }
                    _ => {}
                }
                if let Err(missed) = client.mirror.take(&told) {
                    // A happening went missing: the whole room again, on this connection.
                    let resync = client.mirror.rejoin();
                    writeln!(
                        out,
                        "Out of step with the server ({missed}): looking again…"
                    )?;
                    send(&mut socket, resync.into())?;
                    continue;
                }
                if let ToClient::Welcome { clock: Some(_), .. }
                | ToClient::Happened { clock: Some(_), .. } = &told
                {
                    client.clocks_told = Instant::now();
                }
                if let ToClient::Welcome { code, token, .. } = &told {
                    client.entering = false;
                    if let (Some(seats), Some(_)) = (seats, client.mirror.seat) {
                        // Without it, only this run can come back to the seat.
                        let _ = seats.keep(server, code, token);
                    }
                }
                show(&told, &mut client, server, palette, out)?;
                if let (Some(store), Some((id, record))) = (
                    &mut games,
                    online_games.observe(&client.mirror, store::now()),
                ) && let Err(error) = store.write(Some(&id), &record)
                    && !std::mem::replace(&mut keeping_failed, true)
                {
                    writeln!(out, "The game could not be kept: {error}.")?;
                }
                look = Duration::ZERO;
            }
            Ok(_) => {}
            // Closed without a goodbye (the server stopped, or cut this client off), or
            // dropped: back to the seat, by the token.
            Err(error) if lost(&error) => {
                // A connection dropped on the way: back to the seat, by the token.
                match come_back(server, &client.mirror, interrupts, out)? {
                    Some(again) => {
                        socket = again;
                        client.entering = true;
                    }
                    None => {
                        let signal = interrupts.received();
                        return Ok(signal.map_or(ExitCode::FAILURE, |signal| signal.exit_code()));
                    }
                }
            }
            // Nothing yet, or a signal came (the keyboard's side looks at it next).
            Err(tungstenite::Error::Io(error)) if waiting(&error) => {}
            Err(error) => {
                writeln!(out, "The connection to the server failed: {error}.")?;
                return Ok(ExitCode::FAILURE);
            }
        }
        let due = |(when, _): &mut (Instant, String)| Instant::now() >= *when;
        if let Some((_, name)) = client.claimable.take_if(due)
            && !client.mirror.over
        {
            writeln!(
                out,
                "{} has not come back: type claim to win the game, or wait for them.",
                Shown(&name)
            )?;
        }
        out.flush()?;
        let line = match input.poll(look) {
            None => continue,
            Some(Ok(Line::Text(line))) => line,
            Some(Ok(Line::TooLong | Line::NotText)) => {
                writeln!(out, "That line is not a move: type a square, or help.")?;
                continue;
            }
            // The end of the input is a quit: said to the room as one.
            Some(Ok(Line::End)) => "quit".to_owned(),
            Some(Err(Interruption::Signal(signal))) => {
                let _ = socket.close(None);
                return Ok(signal.exit_code());
            }
            Some(Err(Interruption::Io(error))) => return Err(error.into()),
        };
        match understood(&line, &client.mirror, client.clocks_told.elapsed()) {
            Ok(Some(ask)) => {
                let request = client.request(ask);
                send(&mut socket, request)?;
            }
            Ok(None) => {
                client.last_id += 1;
                let farewell = client.mirror.farewell(client.last_id);
                // Mid-game the seat is kept (the others are told it was meant).
                let kept = farewell
                    .as_ref()
                    .is_some_and(|farewell| farewell.ask == ToServer::Away)
                    && !own_server;
                if let Some(farewell) = farewell {
                    let _ = send(&mut socket, farewell);
                }
                let _ = socket.close(None);
                match client.mirror.code.as_deref().filter(|_| kept) {
                    Some(code) => writeln!(
                        out,
                        "Left the room; your seat is kept for the game under way: ttt join \
                         {code}{} takes it back.",
                        ttt_online::words::server_flag(server)
                    )?,
                    None if own_server => writeln!(
                        out,
                        "You left the room; it closes with the server of this run."
                    )?,
                    None => writeln!(out, "You left the room.")?,
                }
                return Ok(ExitCode::SUCCESS);
            }
            Err(help) => {
                writeln!(out, "{help}")?;
                prompt(&client.mirror, out)?;
            }
        }
    }
}

/// A message of the server's, as `text` says it.
///
/// # Errors
/// When it is not one of the protocol's: the server speaks another ttt.
pub(crate) fn read_told(text: &str) -> anyhow::Result<ToClient> {
    serde_json::from_str(text)
        .with_context(|| format!("the server said what ttt does not know: {}", Shown(text)))
}

/// The server said goodbye on `socket`, for `reason`: says it, closes the connection,
/// and comes back on a new one when it asked to (`again`); none when there is no
/// coming back.
pub(crate) fn after_bye(
    reason: &str,
    again: bool,
    mut socket: WebSocket<TcpStream>,
    server: &str,
    mirror: &Mirror,
    interrupts: &Interrupts,
    out: &mut impl Write,
) -> io::Result<Option<WebSocket<TcpStream>>> {
    writeln!(out, "{}", ShownLine(reason))?;
    let _ = socket.close(None);
    if !again {
        return Ok(None);
    }
    come_back(server, mirror, interrupts, out)
}

/// Whether `error` is a connection lost on the way (not a refusal, nor a wait).
fn lost(error: &tungstenite::Error) -> bool {
    match error {
        tungstenite::Error::ConnectionClosed
        | tungstenite::Error::AlreadyClosed
        | tungstenite::Error::Protocol(_) => true,
        tungstenite::Error::Io(error) => !waiting(error),
        _ => false,
    }
}

/// Whether `error` only says nothing came yet (or a signal came): the socket is fine.
pub fn waiting(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
    )
}

/// Comes back to the room after a dropped connection: a new connection, and the room's
/// code with this seat's token. `None` when there is no room to come back to, or no try
/// worked, or a signal came meanwhile.
pub(crate) fn come_back(
    server: &str,
    mirror: &Mirror,
    interrupts: &Interrupts,
    out: &mut impl Write,
) -> io::Result<Option<WebSocket<TcpStream>>> {
    let Some(code) = mirror.code.clone().filter(|_| !mirror.token.is_empty()) else {
        writeln!(out, "The connection to the server ended.")?;
        return Ok(None);
    };
    writeln!(out, "The connection to the server was lost: coming back…")?;
    out.flush()?;
    let mut rng: rand::rngs::StdRng = rand::make_rng();
    // The waits of every client, once each: about half a minute in all. Each is drawn a
    // quarter either way, so that the clients a restarted server lost do not all come
    // back in the same instant.
    for wait in ttt_online::visit::BACK_OFF {
        let jittered = wait * 1000 * rng.random_range(750..=1250) / 1000;
        let until = std::time::Instant::now() + Duration::from_millis(jittered);
        while std::time::Instant::now() < until {
            if interrupts.received().is_some() {
                return Ok(None);
            }
            std::thread::sleep(LOOK);
        }
        let Ok(mut socket) = connect(server) else {
            continue;
        };
        if send(&mut socket, mirror.rejoin().into()).is_ok() {
            return Ok(Some(socket));
        }
    }
    writeln!(out, "Could not get back to room {code}.")?;
    Ok(None)
}

/// Connects to `server` (`HOST:PORT`), the socket then looked at every few tens of
/// milliseconds (`LOOK`).
///
/// # Errors
/// When `server` names no address, nothing answers there within 10 s, or what answers
/// does not speak ttt's WebSocket.
pub fn connect(server: &str) -> anyhow::Result<WebSocket<TcpStream>> {
    let address = server
        .to_socket_addrs()
        .with_context(|| {
            format!(
                "'{}' is not a server's address: give HOST:PORT",
                Shown(server)
            )
        })?
        .next()
        .with_context(|| format!("'{}' names no address", Shown(server)))?;
    let stream = TcpStream::connect_timeout(&address, CONNECT)
        .with_context(|| format!("cannot reach a ttt server at {server}"))?;
    stream.set_read_timeout(Some(CONNECT))?;
    let (socket, _) =
        tungstenite::client(format!("ws://{server}/ws"), stream).map_err(|error| {
            // A listener that never answers holds the handshake until the read times out.
            let silent = matches!(&error, tungstenite::HandshakeError::Interrupted(_))
                || matches!(
                    &error,
                    tungstenite::HandshakeError::Failure(tungstenite::Error::Io(io)) if waiting(io)
                );
            if silent {
                anyhow::anyhow!(
                    "nothing at {server} answered as a ttt server within {} s",
                    CONNECT.as_secs()
                )
            } else {
                anyhow::Error::new(error)
                    .context(format!("{server} does not serve ttt's network play"))
            }
        })?;
    socket.get_ref().set_read_timeout(Some(LOOK))?;
    // A server that stops reading does not hold this client for ever: the write fails,
    // and the client comes back on a new connection.
    socket.get_ref().set_write_timeout(Some(CONNECT))?;
    Ok(socket)
}

/// Lists the public rooms waiting for a player on `server`, for `ttt rooms`.
///
/// # Errors
/// When the server cannot be reached or does not answer in time.
pub fn rooms(server: &str, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let rooms = list_rooms(server)?;
    let on = ttt_online::words::server_flag(server);
    if rooms.is_empty() {
        writeln!(
            out,
            "No public room waits for a player on {server}: open one with ttt host --public{on}"
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "Rooms waiting for a player on {server}:")?;
    for room in &rooms {
        let clock = room
            .clock
            .as_ref()
            .map(|clock| format!(", clock {}", Shown(clock)))
            .unwrap_or_default();
        writeln!(
            out,
            "  {}  {}, {}{clock}",
            Shown(&room.code),
            Shown(&room.host),
            Shown(&room.rules)
        )?;
    }
    writeln!(out, "Join one with: ttt join CODE{on}")?;
    Ok(ExitCode::SUCCESS)
}

/// The public rooms waiting for a player on `server`.
///
/// # Errors
/// When the server cannot be reached or does not answer in time.
pub fn list_rooms(server: &str) -> anyhow::Result<Vec<Listed>> {
    let mut socket = connect(server)?;
    send(&mut socket, ToServer::Rooms.into())?;
    let until = Instant::now() + CONNECT;
    let rooms = loop {
        match socket.read() {
            Ok(Message::Text(text)) => {
                if let Ok(ToClient::Rooms { rooms, .. }) = serde_json::from_str(text.as_str()) {
                    break rooms;
                }
            }
            Ok(_) => {}
            Err(tungstenite::Error::Io(error)) if waiting(&error) && Instant::now() < until => {}
            Err(error) => {
                return Err(error).with_context(|| format!("{server} did not list its rooms"));
            }
        }
    };
    let _ = socket.close(None);
    Ok(rooms)
}

pub(crate) fn send(socket: &mut WebSocket<TcpStream>, request: Request) -> anyhow::Result<()> {
    socket
        .send(Message::text(serde_json::to_string(&request)?))
        .context("cannot write to the server")
}

/// What a person can type in a room, after the square: for help and for a word not known.
const COMMANDS: &str = "undo, yes or no (to an undo asked), resign, rematch, claim (when the \
                        other player has gone), clock, say and a line to the room, help or \
                        quit";

/// The most characters of a line said (the server's bound).
const MAX_SAID: usize = 300;

/// What `clock` says in a room without clocks.
const NO_CLOCKS: &str = "This room has no clocks: take your time.";

/// What a typed line asks the server; `None` to leave; what to say instead when it asks
/// nothing (the help, the clocks as they stand `since` they were told).
fn understood(line: &str, mirror: &Mirror, since: Duration) -> Result<Option<ToServer>, String> {
    let words = line.trim();
    let (command, rest) = words.split_once(' ').unwrap_or((words, ""));
    let answer = |yes| match mirror.undo_asked {
        Some(_) => Ok(Some(ToServer::AnswerUndo { yes })),
        None => Err(ttt_play::words::refusal_sentence(&Refusal::NoUndoAsked)),
    };
    match command.to_lowercase().as_str() {
        "" => return Err(String::new()),
        "say" if rest.trim().is_empty() => return Err("Say what? Type say and a line.".to_owned()),
        "say" if rest.trim().chars().count() > MAX_SAID => {
            return Err(format!(
                "A line said is at most {MAX_SAID} characters: say it in parts."
            ));
        }
        "say" => {
            return Ok(Some(ToServer::Say {
                text: rest.trim().to_owned(),
            }));
        }
        "quit" | "q" | "exit" => return Ok(None),
        "help" | "?" | "h" | "hint" => return Err(help(mirror)),
        "undo" | "u" => return Ok(Some(ToServer::Undo)),
        "rematch" | "again" => return Ok(Some(ToServer::Rematch)),
        "resign" => return Ok(Some(ToServer::Resign)),
        "claim" => return Ok(Some(ToServer::Claim)),
        // The clocks as they stand now: the client counts from what it was told.
        "clock" | "clocks" | "time" => {
            return Err(ttt_online::words::clocks(mirror, since).unwrap_or(NO_CLOCKS.to_owned()));
        }
        "yes" | "y" => return answer(true),
        "no" | "n" => return answer(false),
        _ => {}
    }
    let Some(position) = &mirror.position else {
        return Err("The game has not begun: wait for the other player.".to_owned());
    };
    let rules = position.rules();
    let naming = SquareNaming::Numbers.on_board(rules);
    match typed::parse(words, naming, rules) {
        Ok(Typed::Square(square)) => Ok(Some(ToServer::Play {
            square: square.index(),
        })),
        Err(TypedError::Square(error)) => Err(TypedError::Square(error).message(naming, rules)),
        // Every other word was read above: whatever is left is none of the commands.
        Ok(_) | Err(TypedError::UnknownCommand(_)) => Err(format!(
            "Unknown command '{}': type a square, or {COMMANDS}.",
            Shown(words)
        )),
    }
}

/// The help: the squares of the room's board, and the commands.
fn help(mirror: &Mirror) -> String {
    match mirror.rules {
        Some(rules) => {
            let naming = SquareNaming::Numbers.on_board(rules);
            format!(
                "Type a square ({}), or {COMMANDS}.",
                ttt_play::words::expected_squares(naming, rules)
            )
        }
        None => format!("Type a square once the game begins, or {COMMANDS}."),
    }
}

/// Says what the server said, once the mirror has taken it.
fn show(
    told: &ToClient,
    client: &mut Client,
    server: &str,
    palette: Palette,
    out: &mut impl Write,
) -> io::Result<()> {
    let mirror = &client.mirror;
    match told {
        ToClient::Welcome { .. } => {
            writeln!(out, "{}", ttt_online::words::welcome(mirror, server, None))?;
            if mirror.position.is_some() {
                board(mirror, palette, out)?;
                prompt(mirror, out)?;
                ended(mirror, out)?;
            } else {
                writeln!(out, "Waiting for the other player…")?;
            }
        }
        ToClient::Refused { reason, .. } => {
            writeln!(out, "{}", ShownLine(reason))?;
            prompt(mirror, out)?;
        }
        ToClient::Happened { happening, .. } => happened(happening, client, palette, out)?,
        ToClient::Done { .. }
        | ToClient::Pong { .. }
        | ToClient::Rooms { .. }
        | ToClient::Bye { .. } => {}
    }
    Ok(())
}

/// Says what happened in the room (the mirror has taken it already).
fn happened(
    happening: &Happening,
    client: &mut Client,
    palette: Palette,
    out: &mut impl Write,
) -> io::Result<()> {
    match happening {
        Happening::Left {
            name,
            seat,
            wait: Some(wait),
            ..
        } => {
            let theirs = seat.as_deref().and_then(|seat| seat.parse::<Mark>().ok());
            if let (Some(mine), Some(theirs)) = (client.mirror.seat, theirs)
                && mine != theirs
            {
                let when = Instant::now() + Duration::from_secs(*wait);
                client.claimable = Some((when, name.clone()));
            }
        }
        Happening::Returned { .. } | Happening::Forfeited { .. } => client.claimable = None,
        _ => {}
    }
    let mirror = &client.mirror;
    let Some(sentence) = ttt_online::words::told(happening, mirror) else {
        return Ok(());
    };
    match happening {
        Happening::UndoAsked { .. }
            if mirror.undo_asked != mirror.seat && mirror.seat.is_some() =>
        {
            writeln!(out, "{sentence} Yes or no?")?;
        }
        Happening::Ended { .. } => {
            writeln!(out, "{sentence} Type rematch for another game, or quit.")?;
        }
        Happening::GameStarted { .. } | Happening::Played { .. } | Happening::Undone { .. } => {
            writeln!(out, "{sentence}")?;
            board(mirror, palette, out)?;
            prompt(mirror, out)?;
        }
        _ => writeln!(out, "{sentence}")?,
    }
    Ok(())
}

/// The end of a game, the score, and what to do next, for a player who comes back to it.
fn ended(mirror: &Mirror, out: &mut impl Write) -> io::Result<()> {
    let Some(outcome) = mirror.ended() else {
        return Ok(());
    };
    let said = Happening::Ended {
        outcome: outcome.to_string(),
    };
    if let Some(sentence) = ttt_online::words::told(&said, mirror) {
        writeln!(out, "{sentence} Type rematch for another game, or quit.")?;
    }
    Ok(())
}

/// The board, and the clocks under it in a room with clocks.
fn board(mirror: &Mirror, palette: Palette, out: &mut impl Write) -> io::Result<()> {
    let Some(position) = &mirror.position else {
        return Ok(());
    };
    let rules = position.rules();
    let naming = SquareNaming::Numbers.on_board(rules);
    for line in board_style::draw(position, BoardStyle::for_board(rules), naming, palette) {
        writeln!(out, "{line}")?;
    }
    if let Some(clocks) = ttt_online::words::clocks(mirror, Duration::ZERO) {
        writeln!(out, "{clocks}")?;
    }
    Ok(())
}

fn prompt(mirror: &Mirror, out: &mut impl Write) -> io::Result<()> {
    let Some(position) = &mirror.position else {
        return Ok(());
    };
    if mirror.over || position.is_over() {
        return Ok(());
    }
    let mark = position.to_move();
    if mirror.my_turn() {
        writeln!(out, "Your move ({mark}):")
    } else {
        writeln!(out, "{mark} to move…")
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use super::*;

    fn mirror(in_game: bool, undo_asked: Option<Mark>) -> Mirror {
        let rules = Rules::default();
        let mut mirror = Mirror::default();
        mirror.code = Some("K7QX-2M".to_owned());
        mirror.seat = Some(Mark::X);
        mirror.rules = Some(rules);
        mirror.position = in_game.then(|| ttt_core::Position::new(rules, Mark::X));
        mirror.undo_asked = undo_asked;
        mirror
    }

    #[test]
    fn each_line_typed_in_a_room_is_a_message_or_says_why_not() {
        let playing = mirror(true, None);
        assert_eq!(
            understood("5", &playing, Duration::ZERO),
            Ok(Some(ToServer::Play { square: 4 }))
        );
        assert_eq!(
            understood("Say Good game ", &playing, Duration::ZERO),
            Ok(Some(ToServer::Say {
                text: "Good game".to_owned()
            }))
        );
        assert_eq!(
            understood("say", &playing, Duration::ZERO),
            Err("Say what? Type say and a line.".to_owned())
        );
        assert_eq!(
            understood("yes", &playing, Duration::ZERO),
            Err("Nobody asked you to undo.".to_owned())
        );
        assert_eq!(
            understood("y", &mirror(true, Some(Mark::O)), Duration::ZERO),
            Ok(Some(ToServer::AnswerUndo { yes: true }))
        );
        assert_eq!(
            understood("REMATCH", &playing, Duration::ZERO),
            Ok(Some(ToServer::Rematch))
        );
        let unknown = understood("fly", &playing, Duration::ZERO).unwrap_err();
        assert!(
            unknown.starts_with("Unknown command 'fly': type a square, or undo"),
            "{unknown}"
        );
        assert!(
            unknown.contains("rematch") && !unknown.contains("hint"),
            "{unknown}"
        );
        assert!(
            understood("0", &playing, Duration::ZERO)
                .unwrap_err()
                .contains("1 to 9")
        );
        assert!(
            understood("hint", &playing, Duration::ZERO)
                .unwrap_err()
                .contains("a number from 1 to 9")
        );
        // Waiting for the other player, quitting and help still work; a square waits.
        let waiting = mirror(false, None);
        assert_eq!(understood("quit", &waiting, Duration::ZERO), Ok(None));
        assert!(
            understood("?", &waiting, Duration::ZERO)
                .unwrap_err()
                .starts_with("Type a square")
        );
        assert_eq!(
            understood("5", &waiting, Duration::ZERO),
            Err("The game has not begun: wait for the other player.".to_owned())
        );
        // A line too long for the room is refused whole, not cut.
        let long = format!("say {}", "a".repeat(301));
        assert!(
            understood(&long, &waiting, Duration::ZERO)
                .unwrap_err()
                .contains("at most 300")
        );
        // The clocks, counted on from when they were told; none in a room without.
        assert_eq!(
            understood("clock", &waiting, Duration::ZERO),
            Err(NO_CLOCKS.to_owned())
        );
        let mut timed = playing.clone();
        timed.clocks = Some(ttt_online::protocol::Clocks {
            control: "1+0".to_owned(),
            x: 60_000,
            o: 42_000,
            running: Some("X".to_owned()),
        });
        assert_eq!(
            understood("time", &timed, Duration::from_millis(51_500)),
            Err("Clocks (1+0): X 8.5 (running); O 0:42.".to_owned())
        );
    }
}
