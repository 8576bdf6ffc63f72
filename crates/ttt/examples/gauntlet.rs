//! Today's `search` against another gomoku engine that speaks the Piskvork protocol (a
//! `pbrain-*` program, or `ttt brain` built from an earlier commit), on 15x15 freestyle:
//! fixed balanced openings, each played twice with the colours swapped, at equal time.
//!
//! ```text
//! git worktree add /tmp/ttt-old 17bf2ac && cargo build --release -p ttt --manifest-path /tmp/ttt-old/Cargo.toml
//! cargo run --release -p ttt --example gauntlet -- "/tmp/ttt-old/target/release/ttt brain" 0.2
//! ```
//!
//! The opponent gets the whole position with `BOARD` before each of its moves, and
//! `INFO timeout_turn` for the same time as `search` has. A move it does not answer
//! within its time and a second, an illegal move or a crash loses it the game. Prints each
//! game's result, then the tally from `search`'s side, the average time per move of each
//! engine, and `search`'s average depth and nodes per second.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use ttt_core::{Mark, Position, Rules, Square};
use ttt_players::{Limits, Player, Search};

/// Openings as moves from the centre (column, row offsets), X first, two stones each or
/// two and one: none wins at once, and each is played twice, once with each engine as X,
/// so an edge the opening gives one colour is had by both engines.
const OPENINGS: [&[(i32, i32)]; 16] = [
    &[(0, 0), (1, 0), (0, 2)],
    &[(0, 0), (1, 1), (-1, 2)],
    &[(0, 0), (0, 1), (2, 0)],
    &[(0, 0), (1, -1), (2, 1)],
    &[(0, 0), (2, 0), (1, 2)],
    &[(0, 0), (1, 1), (2, -1)],
    &[(0, 0), (-1, 2), (1, 1), (2, 2)],
    &[(0, 0), (2, 2), (1, -1), (0, 3)],
    &[(0, 0), (1, 0)],
    &[(0, 0), (1, 1)],
    &[(0, 0), (2, 0)],
    &[(0, 0), (2, 1)],
    &[(0, 0), (2, 2)],
    &[(0, 0), (1, 0), (-1, 1), (0, -2)],
    &[(0, 0), (0, 2), (1, 1), (-1, -1)],
    &[(0, 0), (3, 0), (1, 1), (2, -2)],
];

/// The engine on the other side of the protocol.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(command: &str, think: Duration) -> Result<Engine, String> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or("no engine command")?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|why| format!("cannot start '{command}': {why}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
        };
        engine.say(&format!("INFO timeout_turn {}", think.as_millis()))?;
        engine.say("INFO timeout_match 100000000")?;
        engine.say("INFO rule 0")?;
        engine.say("START 15")?;
        match engine.answer(Duration::from_secs(5))?.as_str() {
            "OK" => Ok(engine),
            other => Err(format!("START answered '{other}'")),
        }
    }

    fn say(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|why| format!("the engine stopped reading: {why}"))
    }

    /// The next line that is not a message or a debug line.
    fn answer(&mut self, within: Duration) -> Result<String, String> {
        let until = Instant::now() + within;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .map_err(|_| format!("no answer within {} s", within.as_secs_f64()))?;
            let line = line.trim().to_owned();
            let word = line.split_whitespace().next().unwrap_or("");
            if !matches!(word, "MESSAGE" | "DEBUG" | "UNKNOWN" | "") {
                return Ok(line);
            }
        }
    }

    /// The engine's move in `position`, where its stones are `mark`'s.
    fn play(&mut self, position: &Position, mark: Mark, think: Duration) -> Result<Square, String> {
        let rules = position.rules();
        self.say("BOARD")?;
        for square in position.history() {
            let own = if position.board().get(*square) == Some(mark) {
                1
            } else {
                2
            };
            let (x, y) = (rules.column(*square), rules.row(*square));
            self.say(&format!("{x},{y},{own}"))?;
        }
        self.say("DONE")?;
        let line = self.answer(think + Duration::from_secs(1))?;
        let (x, y) = line
            .split_once(',')
            .and_then(|(x, y)| Some((x.trim().parse().ok()?, y.trim().parse().ok()?)))
            .ok_or_else(|| format!("'{line}' is not a move"))?;
        rules
            .square_signed(x, y)
            .filter(|&square| position.board().get(square).is_none())
            .ok_or_else(|| format!("{x},{y} is not a free square"))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.say("END");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How one game ended, from `search`'s side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Result3 {
    Won,
    Lost,
    Drawn,
}

#[derive(Default)]
struct Totals {
    search_moves: u32,
    search_time: Duration,
    search_depth: u64,
    search_nodes: u64,
    other_moves: u32,
    other_time: Duration,
}

fn game(
    command: &str,
    opening: &[(i32, i32)],
    search_mark: Mark,
    think: Duration,
    totals: &mut Totals,
) -> Result<(Result3, String), String> {
    let rules = Rules::new(15, 15, 5).map_err(|why| why.to_string())?;
    let mut position = Position::new(rules, Mark::X);
    for &(dx, dy) in opening {
        let square = rules
            .square_signed(7 + dx as isize, 7 + dy as isize)
            .ok_or("an opening off the board")?;
        position = position.after(square).map_err(|why| why.to_string())?;
    }
    let mut search = Search::new(Limits {
        think,
        memory: Limits::DEFAULT_MEMORY,
    });
    let mut engine = Engine::start(command, think)?;
    let mut rng = StdRng::seed_from_u64(7);
    while !position.is_over() {
        let mover = position.to_move();
        let started = Instant::now();
        let square = if mover == search_mark {
            let square = search
                .choose(&position, &mut rng)
                .map_err(|why| why.to_string())?;
            totals.search_moves += 1;
            totals.search_time += started.elapsed();
            if let Some(thought) = search.last_thought() {
                totals.search_depth += u64::from(thought.depth);
                totals.search_nodes += thought.nodes;
            }
            square
        } else {
            match engine.play(&position, mover, think) {
                Ok(square) => {
                    totals.other_moves += 1;
                    totals.other_time += started.elapsed();
                    square
                }
                Err(why) => return Ok((Result3::Won, format!("the engine lost by fault: {why}"))),
            }
        };
        position = position.after(square).map_err(|why| why.to_string())?;
    }
    let result = match position.outcome().and_then(|outcome| outcome.winner()) {
        Some(winner) if winner == search_mark => Result3::Won,
        Some(_) => Result3::Lost,
        None => Result3::Drawn,
    };
    Ok((result, format!("{} moves", position.history().len())))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let command = args
        .next()
        .ok_or("give the engine's command, e.g. \"/tmp/ttt-old/target/release/ttt brain\"")?;
    let seconds: f64 = args.next().map_or(Ok(0.2), |text| text.parse())?;
    let think = Duration::from_secs_f64(seconds);
    let (mut won, mut lost, mut drawn) = (0, 0, 0);
    let mut totals = Totals::default();
    for (number, opening) in OPENINGS.iter().enumerate() {
        for search_mark in [Mark::X, Mark::O] {
            let (result, how) = game(&command, opening, search_mark, think, &mut totals)?;
            match result {
                Result3::Won => won += 1,
                Result3::Lost => lost += 1,
                Result3::Drawn => drawn += 1,
            }
            println!(
                "opening {}, search as {search_mark}: {result:?} ({how})",
                number + 1
            );
        }
    }
    let average = |time: Duration, moves: u32| time.as_secs_f64() / f64::from(moves.max(1));
    println!(
        "search won {won}, lost {lost}, drew {drawn} of {} games at {seconds} s a move",
        won + lost + drawn
    );
    println!(
        "time per move: search {:.3} s, the engine {:.3} s; search's depth {:.1} on average, {:.0} k nodes/s",
        average(totals.search_time, totals.search_moves),
        average(totals.other_time, totals.other_moves),
        totals.search_depth as f64 / f64::from(totals.search_moves.max(1)),
        totals.search_nodes as f64 / totals.search_time.as_secs_f64().max(1e-9) / 1000.0,
    );
    Ok(())
}
