//! Today's `search` against another gomoku engine that speaks the Piskvork protocol (a
//! `pbrain-*` program, or `ttt brain` built from an earlier commit), on 15x15 freestyle:
//! fixed balanced openings, each played twice with the colours swapped, at equal time.
//!
//! ```text
//! git worktree add /tmp/ttt-old 17bf2ac && cargo build --release -p ttt --manifest-path /tmp/ttt-old/Cargo.toml
//! cargo run --release -p ttt --example gauntlet -- "/tmp/ttt-old/target/release/ttt brain" 0.2 [MORE]
//! ```
//!
//! `MORE` adds that many openings drawn from a fixed seed (three stones, X, O, X, on
//! distinct squares of the centre's 5x5), each played with both colours too: a bigger
//! sample than the 16 fixed ones, the same on every run. A fourth argument gives the
//! engine another time a move than `search`'s (time odds: a rung of a ladder against a
//! stronger engine), e.g. `… pbrain-rapfi 1 0 0.1`. A fifth argument names a file that
//! each game's moves are added to, one game a line (square indices from 0, row by row, as
//! `ttt-players`' `speed` example reads them; a game the engine lost by fault is not
//! recorded; `/dev/null` records nothing). A sixth argument plays that many games at once, each with its own engine
//! process, on threads of their own (default one): results and record keep the games'
//! order. Each side thinks alone only when games are played one at a time; the figures of
//! runs with games at once are comparable with each other, not with those one at a time.
//! A seventh argument gives `search` that many threads a move (`INFO thread_num`; default
//! one); the engine keeps one.
//!
//! The opponent is run by `ttt::engine::Engine`: it gets the whole position with `BOARD`
//! before each of its moves, `INFO timeout_turn` for the time a move and `INFO max_memory`
//! for the memory. `search` thinks what `ttt brain` makes of that limit
//! (`ttt::brain::turn_think`: less a twentieth and 20 ms, for the answer to reach the manager)
//! within the memory the brain takes (half the `max_memory`), so two copies of one engine
//! meet on equal terms (before, `search` had the whole limit and twice the memory, and one
//! engine beat its own copy 70-56-2 at 0.1 s a move). A move the engine does not answer
//! within its time and a second, an illegal move or a crash loses it the game (`Engine`
//! waits 50 ms after a move before the next `BOARD`, for engines such as Rapfi that drop a
//! command that comes sooner). Prints each game's result, then the tally from `search`'s
//! side (the games won by the engine's fault also counted apart), the average time per
//! move of each engine (the engine's from `BOARD` sent to its move read), and `search`'s
//! average depth and nodes per second; then the same for the moves it searched (leaving out forced blocks and wins by threats found at once, which take
//! milliseconds); then the time of the moves searched while the game was undecided (judged
//! by a score, not a win or a loss found; a move whose score the root's last check set
//! aside is not among them), and the longest move.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use ttt::engine::Engine;
use ttt_core::{Mark, Position, Rules};
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

/// How one game ended, from `search`'s side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Won,
    /// Won because the engine failed a move (no answer in time, an illegal move, a crash).
    WonByFault,
    Lost,
    Drawn,
}

#[derive(Default)]
struct Totals {
    search_moves: u32,
    search_time: Duration,
    search_depth: u64,
    /// Moves `search` searched (not forced, not won by threats at once), their time,
    /// depth, and nodes of both kinds.
    searched_moves: u32,
    searched_time: Duration,
    searched_depth: u64,
    searched_nodes: u64,
    /// Moves searched while the game was undecided (the search judged a score, not a
    /// win or a loss), and their time.
    undecided_moves: u32,
    undecided_time: Duration,
    /// The longest move `search` took.
    longest: Duration,
    search_nodes: u64,
    other_moves: u32,
    other_time: Duration,
}

impl Totals {
    /// Adds the figures of `other` (games played apart) to these.
    fn add(&mut self, other: &Totals) {
        // Every field named, so that one added later is not left out of the sum.
        let Totals {
            search_moves,
            search_time,
            search_depth,
            searched_moves,
            searched_time,
            searched_depth,
            searched_nodes,
            undecided_moves,
            undecided_time,
            longest,
            search_nodes,
            other_moves,
            other_time,
        } = other;
        self.search_moves += search_moves;
        self.search_time += *search_time;
        self.search_depth += search_depth;
        self.searched_moves += searched_moves;
        self.searched_time += *searched_time;
        self.searched_depth += searched_depth;
        self.searched_nodes += searched_nodes;
        self.undecided_moves += undecided_moves;
        self.undecided_time += *undecided_time;
        self.longest = self.longest.max(*longest);
        self.search_nodes += search_nodes;
        self.other_moves += other_moves;
        self.other_time += *other_time;
    }
}

fn game(
    command: &str,
    opening: &[(i32, i32)],
    search_mark: Mark,
    (think, their_think): (Duration, Duration),
    threads: usize,
    totals: &mut Totals,
) -> Result<(Verdict, String, String), String> {
    let rules = Rules::new(15, 15, 5).map_err(|why| why.to_string())?;
    let mut position = Position::new(rules, Mark::X);
    for &(dx, dy) in opening {
        let square = rules
            .square_signed(7 + dx as isize, 7 + dy as isize)
            .ok_or("an opening off the board")?;
        position = position.after(square).map_err(|why| why.to_string())?;
    }
    // The engine thinks on one thread; `search` on `threads`.
    let limits = Limits {
        think,
        memory: Limits::DEFAULT_MEMORY,
        threads: 1,
    };
    // The brain thinks its turn's time less a margin for the answer, and its tables take
    // half the manager's `max_memory` (which `Engine` sends as `limits.memory`): so does
    // `search` here.
    let mut search = Search::new(Limits {
        think: ttt::brain::turn_think(think).max(Limits::MIN_THINK),
        memory: ttt::brain::table_memory(limits.memory, Some(limits.memory)),
        threads,
    });
    let theirs = Limits {
        think: their_think,
        ..limits
    };
    let mut engine = Engine::start(command, theirs).map_err(|why| why.to_string())?;
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
            if let Some(thought) = search.thought() {
                totals.search_depth += u64::from(thought.depth);
                totals.longest = totals.longest.max(started.elapsed());
                if thought.depth > 0
                    && matches!(thought.judgement, Some(ttt_players::Judgement::Score(_)))
                {
                    totals.undecided_moves += 1;
                    totals.undecided_time += thought.time;
                }
                if thought.depth > 0 {
                    totals.searched_moves += 1;
                    totals.searched_time += thought.time;
                    totals.searched_depth += u64::from(thought.depth);
                    totals.searched_nodes += thought.nodes + thought.threat_nodes;
                }
                totals.search_nodes += thought.nodes;
            }
            square
        } else {
            match engine.play(&position) {
                Ok(square) => {
                    totals.other_moves += 1;
                    totals.other_time += engine.last_move_took().unwrap_or_default();
                    square
                }
                Err(why) => {
                    let why = format!("the engine lost by fault: {why}");
                    return Ok((Verdict::WonByFault, why, String::new()));
                }
            }
        };
        position = position.after(square).map_err(|why| why.to_string())?;
    }
    let result = match position.outcome().and_then(|outcome| outcome.winner()) {
        Some(winner) if winner == search_mark => Verdict::Won,
        Some(_) => Verdict::Lost,
        None => Verdict::Drawn,
    };
    let moves: Vec<String> = position
        .history()
        .iter()
        .map(|square| square.index().to_string())
        .collect();
    Ok((
        result,
        format!("{} moves", position.history().len()),
        moves.join(" "),
    ))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let command = args
        .next()
        .ok_or("give the engine's command, e.g. \"/tmp/ttt-old/target/release/ttt brain\"")?;
    let seconds: f64 = args.next().map_or(Ok(0.2), |text| text.parse())?;
    let think = Duration::try_from_secs_f64(seconds)
        .map_err(|why| format!("SECONDS: {why} (got {seconds})"))?;
    let more: usize = args.next().map_or(Ok(0), |text| text.parse())?;
    let their_seconds: f64 = args.next().map_or(Ok(seconds), |text| text.parse())?;
    let their_think = Duration::try_from_secs_f64(their_seconds)
        .map_err(|why| format!("the engine's seconds: {why} (got {their_seconds})"))?;
    let mut record = match args.next() {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .map_err(|why| format!("cannot open {path}: {why}"))?,
        ),
        None => None,
    };
    let mut openings: Vec<Vec<(i32, i32)>> =
        OPENINGS.iter().map(|opening| opening.to_vec()).collect();
    let mut draw = StdRng::seed_from_u64(2026);
    while openings.len() < OPENINGS.len() + more {
        let mut stones: Vec<(i32, i32)> = Vec::new();
        while stones.len() < 3 {
            let stone = (draw.random_range(-2..=2), draw.random_range(-2..=2));
            if !stones.contains(&stone) {
                stones.push(stone);
            }
        }
        if !openings.contains(&stones) {
            openings.push(stones);
        }
    }
    let at_once: usize = match args.next() {
        None => 1,
        Some(text) => text
            .parse()
            .ok()
            .filter(|&games| games > 0)
            .ok_or_else(|| format!("GAMES AT ONCE: a whole number from 1 (got {text})"))?,
    };
    let threads: usize = match args.next() {
        None => 1,
        Some(text) => Limits::parse_threads(&text).map_err(|why| format!("THREADS: {why}"))?,
    };
    // Each opening with both colours, in order: the results and the record keep it.
    let games: Vec<(usize, Mark)> = (0..openings.len())
        .flat_map(|number| [Mark::X, Mark::O].map(|mark| (number, mark)))
        .collect();
    let (mut won, mut lost, mut drawn) = (0, 0, 0);
    let mut by_fault = 0;
    let mut totals = Totals::default();
    let next = AtomicUsize::new(0);
    let (results, finished) = mpsc::channel();
    std::thread::scope(|scope| -> Result<(), Box<dyn std::error::Error>> {
        for _ in 0..at_once {
            let results = results.clone();
            let (next, games, openings, command) = (&next, &games, &openings, &command);
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(number, search_mark)) = games.get(index) else {
                        break;
                    };
                    let mut own = Totals::default();
                    let played = game(
                        command,
                        &openings[number],
                        search_mark,
                        (think, their_think),
                        threads,
                        &mut own,
                    );
                    // A game that could not be played starts no more.
                    if played.is_err() {
                        next.store(games.len(), Ordering::Relaxed);
                    }
                    let failed = played.is_err();
                    if results.send((index, played, own)).is_err() || failed {
                        break;
                    }
                }
            });
        }
        drop(results);
        // Printed and recorded in the games' order, each as soon as those before it are;
        // after a game that could not be played, no new game starts, and those played
        // meanwhile are still shown.
        let mut waiting = BTreeMap::new();
        let mut shown = 0;
        let mut failed = None;
        for (index, played, own) in finished {
            waiting.insert(index, (played, own));
            while let Some((played, own)) = waiting.remove(&shown) {
                let (number, search_mark) = games[shown];
                shown += 1;
                let (result, how, moves) = match played {
                    Ok(played) => played,
                    Err(why) => {
                        println!(
                            "opening {}, search as {search_mark}: not played ({why})",
                            number + 1
                        );
                        failed.get_or_insert(why);
                        continue;
                    }
                };
                totals.add(&own);
                if let Some(file) = record.as_mut().filter(|_| !moves.is_empty()) {
                    writeln!(file, "{moves}")?;
                }
                match result {
                    Verdict::Won => won += 1,
                    Verdict::WonByFault => {
                        won += 1;
                        by_fault += 1;
                    }
                    Verdict::Lost => lost += 1,
                    Verdict::Drawn => drawn += 1,
                }
                println!(
                    "opening {}, search as {search_mark}: {result:?} ({how})",
                    number + 1
                );
            }
        }
        match failed {
            Some(why) => Err(why.into()),
            None => Ok(()),
        }
    })?;
    let average = |time: Duration, moves: u32| time.as_secs_f64() / f64::from(moves.max(1));
    println!(
        "search won {won}, lost {lost}, drew {drawn} of {} games at {seconds} s a move \
         (the engine {their_seconds} s); won by the engine's fault: {by_fault}",
        won + lost + drawn
    );
    println!(
        "time per move: search {:.3} s, the engine {:.3} s; search's depth {:.1} on average, {:.0} k nodes/s",
        average(totals.search_time, totals.search_moves),
        average(totals.other_time, totals.other_moves),
        totals.search_depth as f64 / f64::from(totals.search_moves.max(1)),
        totals.search_nodes as f64 / totals.search_time.as_secs_f64().max(1e-9) / 1000.0,
    );
    println!(
        "moves searched (not forced, no win by threats at once): {} of {}, {:.3} s a move, \
         depth {:.1}, {:.0} k nodes/s of both kinds",
        totals.searched_moves,
        totals.search_moves,
        average(totals.searched_time, totals.searched_moves),
        totals.searched_depth as f64 / f64::from(totals.searched_moves.max(1)),
        totals.searched_nodes as f64 / totals.searched_time.as_secs_f64().max(1e-9) / 1000.0,
    );
    println!(
        "while undecided (searched, and judged by a score): {} moves, {:.3} s a move; \
         the longest move of all took {:.3} s",
        totals.undecided_moves,
        average(totals.undecided_time, totals.undecided_moves),
        totals.longest.as_secs_f64(),
    );
    Ok(())
}
