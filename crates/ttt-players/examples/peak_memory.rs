//! Peak memory of a thinking player on one 15x15 gomoku move, with its figures printed.
//!
//! ```sh
//! cargo run --release -p ttt-players --example peak_memory -- search 10 64
//! cargo run --release -p ttt-players --example peak_memory -- mcts 10 64
//! cargo run --release -p ttt-players --example peak_memory -- search 10 64 2
//! ```
//!
//! Arguments: the player (`search` or `mcts`), the think time in seconds, the memory
//! bound in MiB and the threads (1 unless given). Prints the process's peak resident
//! memory (VmHWM, Linux) before and after the move, which the bound plus the program's
//! own few megabytes must cover.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "a measuring tool")]

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use ttt_core::{Mark, Position, Rules, Square};
use ttt_players::{Limits, Player, Strength};

/// The process's peak resident memory in MiB, from /proc/self/status.
fn peak_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("Linux /proc");
    let line = status
        .lines()
        .find(|line| line.starts_with("VmHWM:"))
        .expect("VmHWM");
    let kib: f64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib / 1024.0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let strength: Strength = args
        .first()
        .map_or("search", String::as_str)
        .parse()
        .unwrap();
    let seconds: f64 = args.get(1).map_or("10", String::as_str).parse().unwrap();
    let mib: usize = args.get(2).map_or("64", String::as_str).parse().unwrap();
    let limits = Limits {
        think: Duration::from_secs_f64(seconds),
        memory: mib << 20,
        threads: args.get(3).map_or("1", String::as_str).parse().unwrap(),
    };
    let rules = Rules::new(15, 15, 5).unwrap();
    let opening = [112, 113, 97, 127, 98].map(Square::new);
    let position = Position::from_moves(rules, Mark::X, &opening).unwrap();
    let before = peak_mib();
    let mut player = strength.player(limits);
    let start = Instant::now();
    let square = player
        .choose(&position, &mut StdRng::seed_from_u64(1))
        .unwrap();
    let took = start.elapsed();
    let after = peak_mib();
    println!(
        "{strength}: think {seconds} s, bound {mib} MiB: played {} in {:.2} s; peak RSS {before:.1} MiB before the move, {after:.1} MiB after",
        square.index() + 1,
        took.as_secs_f64()
    );
}
