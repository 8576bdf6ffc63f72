//! The other side of the Gomocup brain protocol: any Piskvork engine (a `pbrain-*`
//! program, or `ttt brain` itself) run as a player, as a Gomocup manager runs it.
//!
//! [`Engine`] starts the engine's process, tells it the board and the time per move
//! (`INFO timeout_turn`), and for each move sends the whole position with `BOARD` … `DONE`
//! and reads its answer `x,y`. An engine that cannot be started, stops, answers nothing
//! within its time and a grace second, or answers something that is not a free square,
//! fails the move with an [`EngineError`] that says which; the caller decides what that
//! costs (a game lost). Nothing here waits without a bound. Each engine runs in a process
//! group of its own (a Ctrl-C at the terminal is not its to get), and the whole group is
//! ended when the `Engine` is dropped, or by [`end_all`] when the program ends while an
//! engine is still thinking on another thread.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use rand::Rng;
use ttt_core::{Mark, Position, Rules, Square, WinRule};
use ttt_play::{EngineCommand, Launcher};
use ttt_players::{Limits, Player, PlayerError};

/// How long past its time an engine may take to answer before it loses the move.
pub const GRACE: Duration = Duration::from_secs(1);
/// How long an engine may take to answer `START` at the least, whatever its time a move:
/// loading its tables is not part of a turn.
pub const STARTUP: Duration = Duration::from_secs(5);
/// How long an engine told `END` has to exit by itself before it is ended.
const END_GRACE: Duration = Duration::from_millis(200);
/// How long after an engine's move its next command (`BOARD`, or `START` and `END`) is
/// sent at the soonest. Some engines
/// leave their thinking state only after writing the move, and drop a command that comes
/// before: Rapfi (`command/gomocup.cpp`, a flag cleared after the move is sent, read before
/// each command) then takes the position's lines for unknown commands. With both cores
/// kept busy, Rapfi dropped 15 to 25 in 300 `BOARD`s sent at once after its answer, and
/// none in 300 sent 30 or 50 ms after; without load, one game in the 2,300 of the first
/// rung's runs was lost so. The wait is not on the engine's clock, which starts as `BOARD`
/// is sent.
const SETTLE: Duration = Duration::from_millis(50);

/// The process ids of the engines running now (each also its process group's id).
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Ends every engine still running, helpers and all: for the program's way out, where an
/// engine thinking on another thread is never dropped.
pub fn end_all() {
    let running = std::mem::take(&mut *RUNNING.lock().unwrap_or_else(PoisonError::into_inner));
    for id in running {
        end_group(id);
    }
}

/// Ends the process group `id` (an engine and whatever it started).
fn end_group(id: u32) {
    #[cfg(unix)]
    if let Ok(id) = i32::try_from(id) {
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(id),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    #[cfg(not(unix))]
    let _ = id;
}

/// Why an engine could not give a move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The command is empty.
    #[error("no engine command was given")]
    NoCommand,
    /// The program could not be started.
    #[error("cannot start the engine '{command}': {reason}")]
    Start {
        /// The command as given.
        command: String,
        /// What the system said.
        reason: String,
    },
    /// The engine's process ended, or closed its input or output.
    #[error("the engine '{command}' stopped")]
    Stopped {
        /// The command as given.
        command: String,
    },
    /// No answer within the time allowed.
    #[error("the engine '{command}' did not answer {asked} within {} s", .time.as_secs_f64())]
    Silent {
        /// The command as given.
        command: String,
        /// What it was asked.
        asked: String,
        /// The time it had.
        time: Duration,
    },
    /// An answer that is not what the protocol asks for.
    #[error("the engine '{command}' answered '{answer}' to {asked}")]
    Answer {
        /// The command as given.
        command: String,
        /// What it was asked.
        asked: String,
        /// What it said, as shown to people.
        answer: String,
    },
    /// A move on a square that is taken or off the board.
    #[error("the engine '{command}' played {answer}, which is {why}")]
    Illegal {
        /// The command as given.
        command: String,
        /// The move it answered.
        answer: String,
        /// What is wrong with it: "taken", or "off the 15x15, k=5 board".
        why: String,
    },
}

/// How many of an engine's lines wait to be read at most (of 4 KiB at most each).
const QUEUED_LINES: usize = 256;

/// A Piskvork engine as a player: its process, and the board it was told of. Dropping it
/// sends `END` and waits up to 0.2 s for the engine to exit before ending its process
/// group.
#[derive(Debug)]
pub struct Engine {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    limits: Limits,
    rules: Option<Rules>,
    /// When its last move came, for [`SETTLE`].
    moved: Option<Instant>,
    /// How long it took over its last move, from `BOARD` sent to the move read.
    took: Option<Duration>,
}

impl Engine {
    /// Starts the engine `command` (a program and its arguments, split at white space),
    /// to play within `limits`.
    ///
    /// # Errors
    /// [`EngineError::NoCommand`] or [`EngineError::Start`].
    pub fn start(command: &str, limits: Limits) -> Result<Engine, EngineError> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or(EngineError::NoCommand)?;
        let mut starting = Command::new(program);
        starting
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // A group of its own: a Ctrl-C meant for ttt does not end it, and ending the group
        // ends whatever it started too.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut starting, 0);
        let mut child = spawn_when_not_busy(&mut starting).map_err(|error| EngineError::Start {
            command: command.to_owned(),
            reason: error.to_string(),
        })?;
        RUNNING
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(child.id());
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Stopped {
                command: command.to_owned(),
            });
        };
        // A bounded queue: an engine that talks on while nobody asks it anything fills
        // it, then its pipe, and then waits on its own writes; ttt's memory stays flat.
        let (sender, lines) = mpsc::sync_channel(QUEUED_LINES);
        std::thread::spawn(move || {
            // Bounded lines: an engine that writes without end is cut at 4 KiB a line.
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match Read::by_ref(&mut reader)
                    .take(4096)
                    .read_until(b'\n', &mut line)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&line).trim().to_owned();
                        if sender.send(text).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Engine {
            command: command.to_owned(),
            child,
            stdin,
            lines,
            limits,
            rules: None,
            moved: None,
            took: None,
        })
    }

    fn say(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| EngineError::Stopped {
                command: self.command.clone(),
            })
    }

    /// The engine's next answer to `asked` within `within`: messages and debug lines pass
    /// by, and so does `UNKNOWN` (an engine may say it to an `INFO` it does not know),
    /// unless nothing else comes: then that was its answer.
    fn answer(&mut self, asked: &str, within: Duration) -> Result<String, EngineError> {
        let until = Instant::now() + within;
        let mut unknown: Option<String> = None;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(match unknown {
                        Some(answer) => EngineError::Answer {
                            command: self.command.clone(),
                            asked: asked.to_owned(),
                            answer: ttt_core::Shown(&answer).to_string(),
                        },
                        None => EngineError::Silent {
                            command: self.command.clone(),
                            asked: asked.to_owned(),
                            time: within,
                        },
                    });
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(EngineError::Stopped {
                        command: self.command.clone(),
                    });
                }
            };
            let word = line.split_whitespace().next().unwrap_or("");
            match word.to_ascii_uppercase().as_str() {
                "MESSAGE" | "DEBUG" | "" => {}
                "UNKNOWN" => unknown = Some(line),
                _ => return Ok(line),
            }
        }
    }

    /// Tells the engine of a new board (and whether exactly five wins), with the time it has
    /// per move, its memory and its threads.
    fn begin(&mut self, rules: Rules) -> Result<(), EngineError> {
        let think = self.limits.think.as_millis();
        let memory = self.limits.memory;
        self.say(&format!("INFO timeout_turn {think}"))?;
        self.say("INFO timeout_match 0")?;
        self.say(&format!("INFO max_memory {memory}"))?;
        let threads = Limits::clamp_threads(self.limits.threads);
        self.say(&format!("INFO thread_num {threads}"))?;
        // Gomocup's rule: bit 0 set is exactly five.
        self.say(&format!(
            "INFO rule {}",
            u8::from(rules.win_rule() == WinRule::Exact)
        ))?;
        let start = if rules.width() == rules.height() {
            format!("START {}", rules.width())
        } else {
            format!("RECTSTART {},{}", rules.width(), rules.height())
        };
        self.say(&start)?;
        let answer = self.answer(&start, self.limits.think.max(STARTUP) + GRACE)?;
        if answer.eq_ignore_ascii_case("OK") {
            self.rules = Some(rules);
            Ok(())
        } else {
            Err(EngineError::Answer {
                command: self.command.clone(),
                asked: start,
                answer: ttt_core::Shown(&answer).to_string(),
            })
        }
    }

    /// Waits, if need be, until [`SETTLE`] has passed since the engine's last move.
    fn settle(&self) {
        if let Some(moved) = self.moved {
            std::thread::sleep(SETTLE.saturating_sub(moved.elapsed()));
        }
    }

    /// How long the engine took over its last move, from the position sent to the move
    /// read (the wait before sending it, for an engine to settle, left out); `None` before
    /// its first move and after a move it failed.
    #[must_use]
    pub fn last_move_took(&self) -> Option<Duration> {
        self.took
    }

    /// The engine's move in `position`, for the side to move.
    ///
    /// # Errors
    /// Any [`EngineError`] but [`EngineError::NoCommand`] and [`EngineError::Start`].
    pub fn play(&mut self, position: &Position) -> Result<Square, EngineError> {
        self.took = None;
        self.settle();
        let rules = position.rules();
        if self.rules != Some(rules) {
            self.begin(rules)?;
        }
        let own: Mark = position.to_move();
        let asked = Instant::now();
        self.say("BOARD")?;
        for &square in position.history() {
            let field = if position.board().get(square) == Some(own) {
                1
            } else {
                2
            };
            let (x, y) = (rules.column(square), rules.row(square));
            self.say(&format!("{x},{y},{field}"))?;
        }
        self.say("DONE")?;
        let answer = self.answer("BOARD", self.limits.think + GRACE)?;
        self.moved = Some(Instant::now());
        self.took = Some(asked.elapsed());
        let illegal = |why: String| EngineError::Illegal {
            command: self.command.clone(),
            answer: ttt_core::Shown(&answer).to_string(),
            why,
        };
        let (x, y) = answer
            .split_once(',')
            .and_then(|(x, y)| Some((x.trim().parse().ok()?, y.trim().parse().ok()?)))
            .ok_or_else(|| EngineError::Answer {
                command: self.command.clone(),
                asked: "BOARD".to_owned(),
                answer: ttt_core::Shown(&answer).to_string(),
            })?;
        let square = rules
            .square_signed(x, y)
            .ok_or_else(|| illegal(format!("off the {rules} board")))?;
        if position.is_legal(square) {
            Ok(square)
        } else {
            Err(illegal("taken".to_owned()))
        }
    }
}

impl Player for Engine {
    fn choose(&mut self, position: &Position, _rng: &mut dyn Rng) -> Result<Square, PlayerError> {
        if position.is_over() {
            return Err(PlayerError::NoMove);
        }
        self.play(position)
            .map_err(|error| PlayerError::Engine(error.to_string()))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // The protocol's goodbye, and a moment to take it (an engine may save what it
        // learnt): until its output ends, which it does as it exits. The process is not
        // reaped before its group is ended, so the group's id cannot have gone to another.
        self.settle();
        if self.say("END").is_ok() {
            let until = Instant::now() + END_GRACE;
            loop {
                // Lines it still writes pass by; the end of its output, or of the time,
                // ends the wait.
                let left = until.saturating_duration_since(Instant::now());
                if left.is_zero() || self.lines.recv_timeout(left).is_err() {
                    break;
                }
            }
        }
        let id = self.child.id();
        RUNNING
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|&running| running != id);
        end_group(id);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the engines that `brain:` seats name, for the play layer's sessions.
#[derive(Debug, Clone, Copy, Default)]
pub struct EngineLauncher;

impl Launcher for EngineLauncher {
    fn launch(&self, engine: &EngineCommand, limits: Limits) -> Box<dyn Player + Send> {
        Box::new(EngineSeat {
            command: engine.command().to_owned(),
            limits,
            engine: None,
        })
    }
}

/// An engine at a seat: started at its first move, and started afresh after it failed
/// one, so that a crash or a stall costs the game it happened in and no more.
#[derive(Debug)]
struct EngineSeat {
    command: String,
    limits: Limits,
    engine: Option<Engine>,
}

impl Player for EngineSeat {
    fn choose(&mut self, position: &Position, rng: &mut dyn Rng) -> Result<Square, PlayerError> {
        let mut engine = match self.engine.take() {
            Some(engine) => engine,
            None => Engine::start(&self.command, self.limits)
                .map_err(|error| PlayerError::Engine(error.to_string()))?,
        };
        let choice = engine.choose(position, rng);
        if choice.is_ok() {
            self.engine = Some(engine);
        }
        choice
    }
}
/// Starts `command`, trying again for a moment while its program is "busy": a program
/// file just written (an engine unpacked, a script made) cannot be run while any process
/// still holds it open for writing, which a process forked meanwhile briefly does.
fn spawn_when_not_busy(command: &mut Command) -> std::io::Result<std::process::Child> {
    let mut tries = 0;
    loop {
        match command.spawn() {
            Err(error) if error.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 50 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            spawned => return spawned,
        }
    }
}
