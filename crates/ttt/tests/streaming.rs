//! What the line mode prints reaches a pipe as it happens: a watched game's moves one by
//! one, not all at once when the program ends.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `ttt` with `args` and returns how long after the first line containing `first`
/// the last line arrived.
fn spread(args: &[&str], first: &str) -> Duration {
    let home = common::home();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ttt"))
        .args(args)
        .env("TTT_HOME", &home)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (mut first_at, mut last_at) = (None, None);
    for line in BufReader::new(stdout).lines() {
        let line = line.unwrap();
        let now = Instant::now();
        if first_at.is_none() && line.contains(first) {
            first_at = Some(now);
        }
        last_at = Some(now);
    }
    child.wait().unwrap();
    let first_at = first_at.unwrap_or_else(|| panic!("no line with {first:?}"));
    last_at.unwrap().duration_since(first_at)
}

#[test]
fn a_watched_game_shows_each_move_as_it_is_played() {
    // Nine moves of half a second each: played as they come, the first move shows some
    // four seconds before the tally; held back, they would all come at once.
    let spread = spread(
        &[
            "--x",
            "mcts",
            "--o",
            "mcts",
            "--think",
            "0.5",
            "--plain",
            "--no-save",
            "--seed",
            "3",
        ],
        "plays",
    );
    assert!(spread > Duration::from_secs(1), "all at once: {spread:?}");
}

#[test]
fn each_game_of_a_run_shows_as_it_ends() {
    let spread = spread(
        &[
            "--size",
            "5x5",
            "--k",
            "4",
            "--x",
            "mcts",
            "--o",
            "mcts",
            "--think",
            "0.1",
            "--plain",
            "--games",
            "3",
            "--no-save",
            "--seed",
            "3",
        ],
        "Game 1",
    );
    assert!(spread > Duration::from_secs(1), "all at once: {spread:?}");
}
