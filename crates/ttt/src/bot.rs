//! `ttt bot`: a computer player that plays people online as a client of a server, like
//! any person's client. It hosts a room (listed in the server's lobby with `public`),
//! plays whoever takes the other seat, asks for another game after each, and when its
//! opponent has gone and no game is under way, opens a new room for the next challenger.
//! A built-in strength or an outside engine (`brain:CMD`) thinks for it, on this machine:
//! the server runs nothing of the bot's.

use std::io::Write;
use std::net::TcpStream;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use ttt_core::{Mark, Rules, Shown, ShownLine};
use ttt_online::clock::TimeControl;
use ttt_online::mirror::Mirror;
use ttt_online::protocol::{Happening, ToClient, ToServer};
use ttt_play::Seat;
use ttt_play::session::Launcher;
use ttt_players::{Limits, Player};
use tungstenite::{Message, WebSocket};

use crate::client::{after_bye, come_back, connect, read_told, send, waiting};
use crate::engine::EngineLauncher;
use crate::signals::Interrupts;

/// What the bot plays, where and how.
#[derive(Debug, Clone)]
pub struct Bot {
    /// The server, `HOST:PORT`.
    pub server: String,
    /// Its name, as people see it.
    pub name: String,
    /// Who thinks for it: a built-in computer or an outside engine.
    pub player: Seat,
    /// What its thinking may spend on a move.
    pub limits: Limits,
    /// The board of its rooms.
    pub rules: Rules,
    /// The clock of its rooms' games, if they are timed.
    pub clock: Option<TimeControl>,
    /// Whether its rooms are listed in the server's lobby.
    pub public: bool,
    /// Games to play before it stops; none to play until stopped.
    pub games: Option<u32>,
}

/// How a stay in one room ended.
enum Stay {
    /// The opponent went, with no game under way: a new room for the next one.
    Again,
    /// Done: the games were played, a signal came, or the server is gone.
    Stop(ExitCode),
}

/// Plays until `bot.games` are played, a signal comes in `interrupts`, or the server is
/// gone; what it does is said in lines to `out`.
///
/// # Errors
/// When the server cannot be reached at first, refuses the bot's room, or `out` fails.
pub fn run(bot: &Bot, interrupts: &Interrupts, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    if let Err(error) = bot.player.plays_on(bot.rules) {
        anyhow::bail!("{error}");
    }
    let Some(mut player) = thinker(&bot.player, bot.limits) else {
        anyhow::bail!("a bot is a computer: give --player a strength or brain:COMMAND");
    };
    let mut played = 0;
    loop {
        let socket = connect(&bot.server)?;
        match stay(bot, socket, player.as_mut(), &mut played, interrupts, out)? {
            Stay::Again => {}
            Stay::Stop(code) => return Ok(code),
        }
    }
}

/// The player that thinks for `seat`; none for a person's.
fn thinker(seat: &Seat, limits: Limits) -> Option<Box<dyn Player + Send>> {
    match seat {
        Seat::Computer(strength) => Some(strength.player(limits)),
        Seat::Engine(engine) => Some(EngineLauncher.launch(engine, limits)),
        Seat::Human => None,
    }
}

/// Hosts a room on `socket` and plays there until the opponent has gone between games
/// (or the games are played, or a signal comes).
fn stay(
    bot: &Bot,
    mut socket: WebSocket<TcpStream>,
    player: &mut (dyn Player + Send),
    played: &mut u32,
    interrupts: &Interrupts,
    out: &mut impl Write,
) -> anyhow::Result<Stay> {
    let host = ToServer::Host {
        rules: bot.rules.to_string(),
        name: bot.name.clone(),
        computer: None,
        clock: bot.clock.map(|clock| clock.to_string()),
        public: bot.public,
    };
    send(&mut socket, host.into())?;
    let mut mirror = Mirror::named(&bot.name);
    let mut rng = StdRng::from_rng(&mut rand::rng());
    let mut last_id = 0;
    // Whether its move this turn is sent, so that it moves once a turn (a move taken
    // back, a refusal or a welcome give it the turn again); when it last heard something
    // happen, and last tried to claim the game of an opponent who went.
    let mut moved = false;
    let mut heard = Instant::now();
    let mut claimed = Instant::now();
    loop {
        if let Some(signal) = interrupts.received() {
            let _ = socket.close(None);
            return Ok(Stay::Stop(signal.exit_code()));
        }
        let told = match socket.read() {
            Ok(Message::Text(text)) => read_told(text.as_str())?,
            Ok(_) => continue,
            Err(tungstenite::Error::Io(error)) if waiting(&error) => {
                let under_way = mirror.position.is_some() && !mirror.over;
                if under_way && opponent_away(&mirror) && claimed.elapsed() >= CLAIM_EVERY {
                    // Refused until the server's wait is over: asked again in a while.
                    claimed = Instant::now();
                    last_id += 1;
                    send(&mut socket, mirror.request(last_id, ToServer::Claim))?;
                }
                if mirror.code.is_some() && heard.elapsed() >= IDLE {
                    writeln!(
                        out,
                        "Nothing happened for {} minutes: a new room.",
                        IDLE.as_secs() / 60
                    )?;
                    if under_way {
                        last_id += 1;
                        send(&mut socket, mirror.request(last_id, ToServer::Resign))?;
                    }
                    return leave(socket);
                }
                continue;
            }
            Err(_) => match come_back(&bot.server, &mirror, interrupts, out)? {
                Some(again) => {
                    socket = again;
                    continue;
                }
                None => return Ok(Stay::Stop(ExitCode::FAILURE)),
            },
        };
        if mirror.take(&told).is_err() {
            send(&mut socket, mirror.rejoin().into())?;
            continue;
        }
        let mut asks = Vec::new();
        match &told {
            ToClient::Welcome { code, .. } => {
                moved = false;
                if mirror.position.is_none() {
                    let listed = if bot.public { " (listed)" } else { "" };
                    writeln!(
                        out,
                        "{} waits in room {code}{listed}: play it with ttt join {code}{}",
                        Shown(&bot.name),
                        ttt_online::words::server_flag(&bot.server)
                    )?;
                }
            }
            ToClient::Refused { reason, .. } if mirror.code.is_none() => {
                anyhow::bail!("{}", ShownLine(reason));
            }
            ToClient::Refused { reason, .. } => {
                moved = false;
                writeln!(out, "{}", ShownLine(reason))?;
            }
            ToClient::Bye { reason, again } => {
                match after_bye(
                    reason,
                    *again,
                    socket,
                    &bot.server,
                    &mirror,
                    interrupts,
                    out,
                )? {
                    Some(back) => socket = back,
                    None => return Ok(Stay::Stop(ExitCode::FAILURE)),
                }
                continue;
            }
            ToClient::Happened { happening, .. } => {
                heard = Instant::now();
                match happening {
                    Happening::Entered {
                        name,
                        seat: Some(seat),
                    } if seat.parse().ok() != mirror.seat => {
                        writeln!(out, "{} came to play.", Shown(name))?;
                    }
                    Happening::Undone { .. } => moved = false,
                    // A bot lets a person take a move back.
                    Happening::UndoAsked { by } if by.parse().ok() != mirror.seat => {
                        asks.push(ToServer::AnswerUndo { yes: true });
                    }
                    Happening::Ended { .. } => {
                        *played += 1;
                        if let Some(sentence) = ttt_online::words::told(happening, &mirror) {
                            writeln!(out, "{sentence}")?;
                        }
                        if bot.games.is_some_and(|games| *played >= games) {
                            let _ = socket.close(None);
                            return Ok(Stay::Stop(ExitCode::SUCCESS));
                        }
                        asks.push(ToServer::Rematch);
                    }
                    _ => {}
                }
                // The opponent has gone, or gave the seat up, with no game under way:
                // another room for the next one.
                let between = mirror.position.is_none() || mirror.over;
                let gone = matches!(happening, Happening::Gone { seat: Some(_), .. });
                if between && (opponent_away(&mirror) || gone) && mirror.game > 0 {
                    writeln!(out, "The opponent left: a new room.")?;
                    return leave(socket);
                }
            }
            _ => {}
        }
        // Its move, once a turn.
        match mirror.position.as_ref().filter(|_| mirror.my_turn()) {
            Some(position) if !moved => {
                moved = true;
                match player.choose(position, &mut rng) {
                    Ok(square) => asks.push(ToServer::Play {
                        square: square.index(),
                    }),
                    Err(error) => {
                        writeln!(out, "The bot found no move ({error}): it resigns.")?;
                        asks.push(ToServer::Resign);
                    }
                }
            }
            Some(_) => {}
            // Its move was played (or it is not its turn): the next turn is another.
            None => moved = false,
        }
        for ask in asks {
            last_id += 1;
            send(&mut socket, mirror.request(last_id, ask))?;
        }
        out.flush()?;
    }
}

/// The longest a bot may think on a move: it reads nothing meanwhile, and a server closes
/// a connection silent for 75 s.
pub const MAX_THINK: Duration = Duration::from_secs(60);

/// How often it asks to claim the game of an opponent who lost the connection.
const CLAIM_EVERY: Duration = Duration::from_secs(10);

/// How long it waits with nothing happening before it gives the room up.
const IDLE: Duration = Duration::from_secs(10 * 60);

/// Whether the player in the other seat has lost the connection.
fn opponent_away(mirror: &Mirror) -> bool {
    mirror.members.iter().any(|member| {
        let seat = member
            .seat
            .as_deref()
            .and_then(|seat| seat.parse::<Mark>().ok());
        seat.is_some() && seat != mirror.seat && !member.connected
    })
}

/// Gives its seat up (the room closes if nobody else is in it) and closes the
/// connection, for a new room.
fn leave(mut socket: WebSocket<TcpStream>) -> anyhow::Result<Stay> {
    send(&mut socket, ToServer::Leave.into())?;
    let _ = socket.close(None);
    Ok(Stay::Again)
}
