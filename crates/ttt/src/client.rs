//! `ttt host` and `ttt join CODE`: network play from a terminal, in lines as the line mode
//! plays: the board, what happened, and a prompt on your turn. The server decides
//! everything; the client shows what it is told and sends what is typed.

use std::io::{self, BufRead, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use ttt_core::{Mark, Position, Rules, Shown, Square, SquareNaming};
use ttt_online::protocol::{Happening, ToClient, ToServer};
use ttt_play::matches::Refusal;
use tungstenite::{Message, WebSocket};

use crate::line::board_style::{self, BoardStyle};
use crate::line::input::{Input, Interruption, Line};
use crate::line::palette::Palette;
use crate::line::typed::{self, Typed, TypedError};
use crate::signals::Interrupts;

/// How long a connection may take to open.
const CONNECT: Duration = Duration::from_secs(10);
/// How often the client looks from the socket to the keyboard and back.
const LOOK: Duration = Duration::from_millis(50);

/// How to come into a room.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// Open a room for a game on these rules.
    Host(Rules),
    /// Take the free seat of the room of this code (or watch when both are taken).
    Join(String),
    /// Watch the room of this code.
    Watch(String),
}

/// The game as the client mirrors it from what the server says.
struct Mirror {
    code: String,
    /// The token to come back with after a dropped connection.
    token: String,
    /// Whether the client is on its way (in or back), until the server welcomes it.
    entering: bool,
    seat: Option<Mark>,
    /// The room's board, from the welcome.
    rules: Option<Rules>,
    position: Option<Position>,
    over: bool,
    undo_asked: Option<Mark>,
}

/// Plays online until the person quits, input ends, a signal comes or the connection
/// ends: `server` is `HOST:PORT`, `name` what the others see, lines read from `input`
/// (on a thread of their own, watching `interrupts`), everything said to `out`.
///
/// # Errors
/// When the server cannot be reached, refuses the way in, or answers what is not the
/// protocol.
pub fn run(
    server: &str,
    entry: Entry,
    name: &str,
    input: impl BufRead + Send + 'static,
    interrupts: &Interrupts,
    palette: Palette,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    let mut socket = connect(server)?;
    let mut input = Input::spawn(input, interrupts);
    let hello = match &entry {
        Entry::Host(rules) => ToServer::Host {
            rules: rules.to_string(),
            name: name.to_owned(),
        },
        Entry::Join(code) => ToServer::Join {
            code: code.to_uppercase(),
            name: name.to_owned(),
        },
        Entry::Watch(code) => ToServer::Watch {
            code: code.to_uppercase(),
            name: name.to_owned(),
        },
    };
    send(&mut socket, &hello)?;
    let mut mirror = Mirror {
        code: String::new(),
        token: String::new(),
        entering: true,
        seat: None,
        rules: None,
        position: None,
        over: false,
        undo_asked: None,
    };
    loop {
        // What the server says first, then what is typed.
        match socket.read() {
            Ok(Message::Text(text)) => {
                let told: ToClient = serde_json::from_str(text.as_str()).with_context(|| {
                    format!(
                        "the server said what ttt does not know: {}",
                        Shown(text.as_str())
                    )
                })?;
                if let ToClient::Refused { reason } = &told
                    && mirror.entering
                {
                    // Refused on the way in (or back): there is no room to be in.
                    bail!("{}", Shown(reason));
                }
                show(&told, &mut mirror, palette, out)?;
            }
            Ok(Message::Close(_)) => {
                writeln!(out, "The server closed the connection.")?;
                return Ok(ExitCode::FAILURE);
            }
            Ok(_) => {}
            Err(error) if lost(&error) => {
                // A connection dropped on the way: back to the seat, by the token.
                match come_back(server, &mirror, interrupts, out)? {
                    Some(again) => {
                        socket = again;
                        mirror.entering = true;
                    }
                    None => {
                        let signal = interrupts.received();
                        return Ok(signal.map_or(ExitCode::FAILURE, |signal| signal.exit_code()));
                    }
                }
            }
            // Nothing yet, or a signal came (the keyboard's side looks at it next).
            Err(tungstenite::Error::Io(error))
                if matches!(
                    error.kind(),
                    io::ErrorKind::WouldBlock
                        | io::ErrorKind::TimedOut
                        | io::ErrorKind::Interrupted
                ) => {}
            Err(error) => {
                writeln!(out, "The connection to the server failed: {error}.")?;
                return Ok(ExitCode::FAILURE);
            }
        }
        out.flush()?;
        let line = match input.poll(LOOK) {
            None => continue,
            Some(Ok(Line::Text(line))) => line,
            Some(Ok(Line::TooLong | Line::NotText)) => {
                writeln!(out, "That line is not a move: type a square, or help.")?;
                continue;
            }
            Some(Ok(Line::End)) => {
                let _ = socket.close(None);
                writeln!(out, "Left the room.")?;
                return Ok(ExitCode::SUCCESS);
            }
            Some(Err(Interruption::Signal(signal))) => {
                let _ = socket.close(None);
                return Ok(signal.exit_code());
            }
            Some(Err(Interruption::Io(error))) => return Err(error.into()),
        };
        match understood(&line, &mirror) {
            Ok(Some(message)) => send(&mut socket, &message)?,
            Ok(None) => {
                let _ = socket.close(None);
                writeln!(out, "Left the room.")?;
                return Ok(ExitCode::SUCCESS);
            }
            Err(help) => writeln!(out, "{help}")?,
        }
    }
}

/// Whether `error` is a connection lost on the way (not a refusal, nor a wait).
fn lost(error: &tungstenite::Error) -> bool {
    match error {
        tungstenite::Error::ConnectionClosed
        | tungstenite::Error::AlreadyClosed
        | tungstenite::Error::Protocol(_) => true,
        tungstenite::Error::Io(error) => !matches!(
            error.kind(),
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
        ),
        _ => false,
    }
}

/// The waits between tries to come back to the room, in seconds: about half a minute in
/// all.
const COMING_BACK: [u64; 5] = [1, 2, 4, 8, 15];

/// Comes back to the room after a dropped connection: a new connection, and the room's
/// code with this seat's token. `None` when there is no room to come back to, or no try
/// worked, or a signal came meanwhile.
fn come_back(
    server: &str,
    mirror: &Mirror,
    interrupts: &Interrupts,
    out: &mut impl Write,
) -> io::Result<Option<WebSocket<TcpStream>>> {
    if mirror.token.is_empty() {
        writeln!(out, "The connection to the server ended.")?;
        return Ok(None);
    }
    writeln!(out, "The connection to the server was lost: coming back…")?;
    out.flush()?;
    for wait in COMING_BACK {
        let until = std::time::Instant::now() + Duration::from_secs(wait);
        while std::time::Instant::now() < until {
            if interrupts.received().is_some() {
                return Ok(None);
            }
            std::thread::sleep(LOOK);
        }
        let Ok(mut socket) = connect(server) else {
            continue;
        };
        let rejoin = ToServer::Rejoin {
            code: mirror.code.clone(),
            token: mirror.token.clone(),
        };
        if send(&mut socket, &rejoin).is_ok() {
            return Ok(Some(socket));
        }
    }
    writeln!(out, "Could not get back to room {}.", mirror.code)?;
    Ok(None)
}

/// Connects to `server` (`HOST:PORT`), the socket then looked at every [`LOOK`].
fn connect(server: &str) -> anyhow::Result<WebSocket<TcpStream>> {
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
    let (socket, _) = tungstenite::client(format!("ws://{server}/ws"), stream)
        .with_context(|| format!("{server} does not serve ttt's network play"))?;
    socket.get_ref().set_read_timeout(Some(LOOK))?;
    Ok(socket)
}

fn send(socket: &mut WebSocket<TcpStream>, message: &ToServer) -> anyhow::Result<()> {
    socket
        .send(Message::text(serde_json::to_string(message)?))
        .context("cannot write to the server")
}

/// What a person can type in a room, after the square: for help and for a word not known.
const COMMANDS: &str = "undo, yes or no (to an undo asked), resign, rematch, say and a line \
                        to the room, help or quit";

/// What a typed line asks the server; `None` to leave; the help when it asks nothing.
fn understood(line: &str, mirror: &Mirror) -> Result<Option<ToServer>, String> {
    let words = line.trim();
    let (command, rest) = words.split_once(' ').unwrap_or((words, ""));
    let answer = |yes| match mirror.undo_asked {
        Some(_) => Ok(Some(ToServer::AnswerUndo { yes })),
        None => Err(ttt_play::words::refusal_sentence(&Refusal::NoUndoAsked)),
    };
    match command.to_lowercase().as_str() {
        "" => return Err(String::new()),
        "say" if rest.trim().is_empty() => return Err("Say what? Type say and a line.".to_owned()),
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

/// Shows what the server said and keeps the mirror in step.
fn show(
    told: &ToClient,
    mirror: &mut Mirror,
    palette: Palette,
    out: &mut impl Write,
) -> io::Result<()> {
    match told {
        ToClient::Welcome {
            code,
            token,
            seat,
            snapshot,
            ..
        } => {
            mirror.code.clone_from(code);
            mirror.token.clone_from(token);
            mirror.entering = false;
            mirror.seat = seat.as_deref().and_then(|seat| seat.parse().ok());
            mirror.rules = snapshot.rules.parse().ok();
            let rules = mirror.rules;
            mirror.position = snapshot.first.as_deref().and_then(|first| {
                let rules = rules?;
                let moves: Vec<Square> = snapshot
                    .moves
                    .iter()
                    .map(|&index| Square::new(index))
                    .collect();
                Position::from_moves(rules, first.parse().ok()?, &moves).ok()
            });
            match mirror.seat {
                // The host, waiting: how the friend comes in.
                Some(mark) if mirror.position.is_none() => writeln!(
                    out,
                    "Room {code}: you play {mark}. A friend joins with: ttt join {code}"
                )?,
                Some(mark) => writeln!(out, "Room {code}: you play {mark}.")?,
                None => writeln!(out, "Room {code}: you watch.")?,
            }
            if mirror.position.is_some() {
                board(mirror, palette, out)?;
                prompt(mirror, out)?;
            } else {
                writeln!(out, "Waiting for the other player…")?;
            }
        }
        ToClient::Refused { reason } => writeln!(out, "{}", Shown(reason))?,
        ToClient::Happened { happening, .. } => happened(happening, mirror, palette, out)?,
    }
    Ok(())
}

fn happened(
    happening: &Happening,
    mirror: &mut Mirror,
    palette: Palette,
    out: &mut impl Write,
) -> io::Result<()> {
    let seat = |seat: &Option<String>| match seat {
        Some(mark) => format!("plays {}", Shown(mark)),
        None => "watches".to_owned(),
    };
    match happening {
        Happening::Entered { name, seat: taken } => {
            writeln!(out, "{} came in and {}.", Shown(name), seat(taken))?;
        }
        Happening::Left { name, .. } => writeln!(out, "{} lost the connection.", Shown(name))?,
        Happening::Returned { name, .. } => writeln!(out, "{} is back.", Shown(name))?,
        Happening::GameStarted { first, number } => {
            let first: Mark = first.parse().unwrap_or(Mark::X);
            if let Some(rules) = mirror.rules {
                mirror.position = Some(Position::new(rules, first));
            }
            mirror.over = false;
            writeln!(out, "Game {number}: {first} moves first.")?;
            board(mirror, palette, out)?;
            prompt(mirror, out)?;
        }
        Happening::Played { mark, square } => {
            mirror.undo_asked = None;
            if let Some(position) = &mut mirror.position {
                let _ = position.play(Square::new(*square));
                let rules = position.rules();
                let label = SquareNaming::Numbers
                    .on_board(rules)
                    .label(Square::new(*square), rules);
                writeln!(out, "{} played {label}.", Shown(mark))?;
            }
            board(mirror, palette, out)?;
            prompt(mirror, out)?;
        }
        Happening::UndoAsked { by } => {
            mirror.undo_asked = by.parse().ok();
            if mirror.undo_asked != mirror.seat && mirror.seat.is_some() {
                writeln!(
                    out,
                    "{} asks to take back their move: yes or no?",
                    Shown(by)
                )?;
            } else {
                writeln!(out, "{} asks to take back their move.", Shown(by))?;
            }
        }
        Happening::UndoRefused => {
            mirror.undo_asked = None;
            writeln!(out, "No undo.")?;
        }
        Happening::Undone { squares } => {
            mirror.undo_asked = None;
            mirror.over = false;
            if let Some(position) = &mut mirror.position {
                for _ in squares {
                    position.undo();
                }
            }
            writeln!(
                out,
                "Taken back: {}.",
                ttt_play::words::count(squares.len(), "move")
            )?;
            board(mirror, palette, out)?;
            prompt(mirror, out)?;
        }
        Happening::RematchAsked { by } => writeln!(out, "{} asks for another game.", Shown(by))?,
        Happening::Forfeited { reason, .. } => writeln!(out, "{}.", Shown(reason))?,
        Happening::Ended { outcome } => {
            mirror.over = true;
            writeln!(
                out,
                "{}. Type rematch for another game, or quit.",
                Shown(outcome)
            )?;
        }
        Happening::TableChanged => {}
        Happening::Said { name, text } => writeln!(out, "{}: {}", Shown(name), Shown(text))?,
    }
    Ok(())
}

fn board(mirror: &Mirror, palette: Palette, out: &mut impl Write) -> io::Result<()> {
    let Some(position) = &mirror.position else {
        return Ok(());
    };
    let rules = position.rules();
    let naming = SquareNaming::Numbers.on_board(rules);
    for line in board_style::draw(position, BoardStyle::for_board(rules), naming, palette) {
        writeln!(out, "{line}")?;
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
    if mirror.seat == Some(mark) {
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
        Mirror {
            code: "K7Q2".to_owned(),
            token: "t".to_owned(),
            entering: false,
            seat: Some(Mark::X),
            rules: Some(rules),
            position: in_game.then(|| Position::new(rules, Mark::X)),
            over: false,
            undo_asked,
        }
    }

    #[test]
    fn each_line_typed_in_a_room_is_a_message_or_says_why_not() {
        let playing = mirror(true, None);
        assert_eq!(
            understood("5", &playing),
            Ok(Some(ToServer::Play { square: 4 }))
        );
        assert_eq!(
            understood("Say Good game ", &playing),
            Ok(Some(ToServer::Say {
                text: "Good game".to_owned()
            }))
        );
        assert_eq!(
            understood("say", &playing),
            Err("Say what? Type say and a line.".to_owned())
        );
        assert_eq!(
            understood("yes", &playing),
            Err("Nobody asked you to undo.".to_owned())
        );
        assert_eq!(
            understood("y", &mirror(true, Some(Mark::O))),
            Ok(Some(ToServer::AnswerUndo { yes: true }))
        );
        assert_eq!(understood("REMATCH", &playing), Ok(Some(ToServer::Rematch)));
        let unknown = understood("fly", &playing).unwrap_err();
        assert!(
            unknown.starts_with("Unknown command 'fly': type a square, or undo"),
            "{unknown}"
        );
        assert!(
            unknown.contains("rematch") && !unknown.contains("hint"),
            "{unknown}"
        );
        assert!(understood("0", &playing).unwrap_err().contains("1 to 9"));
        assert!(
            understood("hint", &playing)
                .unwrap_err()
                .contains("a number from 1 to 9")
        );
        // Waiting for the other player, quitting and help still work; a square waits.
        let waiting = mirror(false, None);
        assert_eq!(understood("quit", &waiting), Ok(None));
        assert!(
            understood("?", &waiting)
                .unwrap_err()
                .starts_with("Type a square")
        );
        assert_eq!(
            understood("5", &waiting),
            Err("The game has not begun: wait for the other player.".to_owned())
        );
    }
}
