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

use anyhow::Context;
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

use crate::client::{DEFAULT_SERVER, come_back, connect, send, waiting};
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
    let mut mirror = Mirror::default();
    let mut rng = StdRng::from_rng(&mut rand::rng());
    let mut last_id = 0;
    // The ply it last moved on, so that it moves once a turn; and when it may claim the
    // game of an opponent who lost the connection.
    let mut moved_on: Option<(u32, usize)> = None;
    let mut claim_at: Option<Instant> = None;
    loop {
        if let Some(signal) = interrupts.received() {
            let _ = socket.close(None);
            return Ok(Stay::Stop(signal.exit_code()));
        }
        let told = match socket.read() {
            Ok(Message::Text(text)) => serde_json::from_str::<ToClient>(text.as_str())
                .with_context(|| {
                    format!(
                        "the server said what ttt does not know: {}",
                        Shown(text.as_str())
                    )
                })?,
            Ok(_) => continue,
            Err(tungstenite::Error::Io(error)) if waiting(&error) => {
                if claim_at.is_some_and(|at| Instant::now() >= at) {
                    claim_at = None;
                    last_id += 1;
                    send(&mut socket, mirror.request(last_id, ToServer::Claim))?;
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
            ToClient::Welcome { code, .. } if mirror.position.is_none() => {
                let on = if bot.server == DEFAULT_SERVER {
                    String::new()
                } else {
                    format!(" --server {}", bot.server)
                };
                let listed = if bot.public { " (listed)" } else { "" };
                writeln!(
                    out,
                    "{} waits in room {code}{listed}: play it with ttt join {code}{on}",
                    Shown(&bot.name)
                )?;
            }
            ToClient::Refused { reason, .. } if mirror.code.is_none() => {
                anyhow::bail!("{}", ShownLine(reason));
            }
            ToClient::Refused { reason, .. } => writeln!(out, "{}", ShownLine(reason))?,
            ToClient::Bye { reason, again } => {
                writeln!(out, "{}", ShownLine(reason))?;
                let _ = socket.close(None);
                if !again {
                    return Ok(Stay::Stop(ExitCode::FAILURE));
                }
                match come_back(&bot.server, &mirror, interrupts, out)? {
                    Some(back) => socket = back,
                    None => return Ok(Stay::Stop(ExitCode::FAILURE)),
                }
                continue;
            }
            ToClient::Happened { happening, .. } => {
                let theirs = |seat: &Option<String>| {
                    seat.as_deref().and_then(|seat| seat.parse::<Mark>().ok()) != mirror.seat
                        && seat.is_some()
                };
                match happening {
                    Happening::Entered { name, seat } if theirs(seat) => {
                        writeln!(out, "{} came to play.", Shown(name))?;
                    }
                    Happening::Left { seat, wait, .. } if theirs(seat) => match wait {
                        Some(wait) => {
                            claim_at = Some(Instant::now() + Duration::from_secs(*wait + 1));
                        }
                        None => {
                            writeln!(out, "The opponent left: a new room.")?;
                            let _ = socket.close(None);
                            return Ok(Stay::Again);
                        }
                    },
                    Happening::Returned { seat, .. } if theirs(seat) => claim_at = None,
                    // A bot lets a person take a move back.
                    Happening::UndoAsked { by } if by.parse().ok() != mirror.seat => {
                        asks.push(ToServer::AnswerUndo { yes: true });
                    }
                    Happening::Ended { .. } => {
                        claim_at = None;
                        *played += 1;
                        if let Some(sentence) = ttt_online::words::told(happening, &mirror) {
                            writeln!(out, "{sentence}")?;
                        }
                        if bot.games.is_some_and(|games| *played >= games) {
                            let _ = socket.close(None);
                            return Ok(Stay::Stop(ExitCode::SUCCESS));
                        }
                        // Another game, if the opponent is still here to play it.
                        let away = mirror.members.iter().any(|member| {
                            member.seat.is_some()
                                && member.seat.as_deref().and_then(|seat| seat.parse().ok())
                                    != mirror.seat
                                && !member.connected
                        });
                        if away {
                            writeln!(out, "The opponent left: a new room.")?;
                            let _ = socket.close(None);
                            return Ok(Stay::Again);
                        }
                        asks.push(ToServer::Rematch);
                    }
                    _ => {}
                }
            }
            _ => {}
        }
        // Its move, once a turn.
        if let Some(position) = mirror.position.as_ref().filter(|_| mirror.my_turn()) {
            let turn = (mirror.game, position.ply());
            if moved_on != Some(turn) {
                moved_on = Some(turn);
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
        }
        for ask in asks {
            last_id += 1;
            send(&mut socket, mirror.request(last_id, ask))?;
        }
        out.flush()?;
    }
}
