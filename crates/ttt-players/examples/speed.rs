//! How fast and how deep `search` thinks on mid-game gomoku positions (15x15 freestyle),
//! one core, a fixed time a move.
//!
//! ```text
//! cargo run --release -p ttt-players --example speed -- [GAMES] [SECONDS] [MEGABYTES] [THREADS]
//! ```
//!
//! `GAMES` is a file of games, one a line, each its moves as square indices from 0 (row
//! by row) separated by spaces, as the `gauntlet` example of the `ttt` crate records
//! them; the default, `crates/ttt-players/examples/data/midgame.txt`, holds 32 games of
//! `search` against the Gomocup champion. The positions are each game's after its 12th,
//! 20th and 28th move, where the game went on at least six moves more (so it was not
//! decided there). `SECONDS` is the time a move (1 by default), `MEGABYTES` the memory
//! bound of the player's tables (`--hash`; 64 by default), `THREADS` the threads a move
//! (`--threads`; 1 by default: "one core" is then true).
//!
//! Prints a line for each position (depth, nodes of the alpha-beta and of the threat
//! searches, its looks for fours at the horizon among them, time, what it judged), then
//! the averages over the positions the alpha-beta searched (a win by threats found at
//! once, or a forced block, takes milliseconds and is counted apart): the alpha-beta's
//! nodes a second, all nodes a second, depth, and the time used.

use std::io::Write;
use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::StdRng;
use ttt_core::Rules;
use ttt_players::{Limits, Player, Search};

#[path = "support/recorded.rs"]
mod recorded;

/// The moves after which a game's position is taken.
const PLIES: [usize; 3] = [12, 20, 28];
/// Moves the game must have gone on after a position for it to count as undecided.
const GOES_ON: usize = 6;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Written with `?`, so that a closed pipe (`| head`) ends the run with an error, not a
    // panic.
    let mut out = std::io::stdout().lock();
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| recorded::MIDGAME.to_owned());
    let seconds: f64 = args.next().map_or(Ok(1.0), |text| text.parse())?;
    let think = Duration::try_from_secs_f64(seconds)
        .map_err(|why| format!("SECONDS: {why} (got {seconds})"))?;
    let memory = match args.next() {
        Some(text) => {
            Limits::parse_megabytes(&text).map_err(|why| format!("MEGABYTES: {why}"))? << 20
        }
        None => Limits::default().memory,
    };
    let threads = match args.next() {
        Some(text) => Limits::parse_threads(&text).map_err(|why| format!("THREADS: {why}"))?,
        None => 1,
    };
    let rules = Rules::new(15, 15, 5)?;
    let mut positions = Vec::new();
    for (number, game) in recorded::read(&path, rules)?.into_iter().enumerate() {
        // `game` holds the position before the first move and after each.
        let moves = game.len() - 1;
        for plies in PLIES.into_iter().filter(|&plies| moves >= plies + GOES_ON) {
            positions.push((number + 1, plies, game[plies].clone()));
        }
    }
    let mut rng = StdRng::seed_from_u64(1);
    let (mut searched, mut nodes, mut all_nodes, mut depth, mut time) =
        (0u32, 0u64, 0u64, 0u64, Duration::ZERO);
    let (mut at_once, mut longest) = (0u32, Duration::ZERO);
    let mut search = Search::new(Limits {
        think,
        memory,
        threads,
    });
    search.prepare(rules);
    for (game, plies, position) in &positions {
        // Nothing learnt on one position helps the next (see `Search::forget`).
        search.forget();
        search.choose(position, &mut rng)?;
        let thought = search.thought().ok_or("search said nothing")?;
        writeln!(out, "game {game:2}, move {plies:2}: {thought}")?;
        longest = longest.max(thought.time);
        if thought.depth == 0 {
            at_once += 1;
            continue;
        }
        searched += 1;
        nodes += thought.nodes;
        all_nodes += thought.nodes + thought.threat_nodes;
        depth += u64::from(thought.depth);
        time += thought.time;
    }
    let seconds_used = time.as_secs_f64().max(1e-9);
    writeln!(
        out,
        "{searched} positions searched at {:.2} s a move, {at_once} decided at once (a \
         forced block or a win by threats); the longest move took {:.3} s",
        think.as_secs_f64(),
        longest.as_secs_f64()
    )?;
    writeln!(
        out,
        "searched: depth {:.1}, {:.0} k alpha-beta nodes/s, {:.0} k nodes/s of both kinds, \
         {:.3} s a move",
        depth as f64 / f64::from(searched.max(1)),
        nodes as f64 / seconds_used / 1000.0,
        all_nodes as f64 / seconds_used / 1000.0,
        seconds_used / f64::from(searched.max(1)),
    )?;
    Ok(())
}
