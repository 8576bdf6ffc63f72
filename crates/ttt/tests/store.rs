//! The kept games survive what can happen to a process and a file: SIGKILL in the middle
//! of writing, two processes writing at once, and files cut short, of noise, or from a
//! newer `ttt`.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn ttt(home: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ttt"));
    command
        .env("TTT_HOME", home)
        .env("TERM", "dumb")
        .stdin(Stdio::null());
    command
}

/// The kept games as `ttt games --json` lists them: (finished, unfinished), and what it
/// said on standard error.
fn kept(home: &Path) -> (usize, usize, String) {
    let output = ttt(home).args(["games", "--json"]).output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let listed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let games = listed["games"].as_array().unwrap();
    let unfinished = games
        .iter()
        .filter(|game| game["result"] == "unfinished")
        .count();
    (
        games.len() - unfinished,
        unfinished,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Random games, one after another, each said ("Game N: ...") only once it is kept.
fn random_games(home: &Path, games: u32) -> Command {
    let mut command = ttt(home);
    command.args([
        "play",
        "--x",
        "random",
        "--o",
        "random",
        "--games",
        &games.to_string(),
        "--plain",
    ]);
    command
}

#[test]
fn sigkill_at_random_moments_never_costs_a_game_reported_kept_nor_the_store() {
    let home = common::home();
    let mut rng = StdRng::seed_from_u64(7);
    let mut reported = 0;
    let mut kills = 0;
    while reported < 1000 {
        let mut child = random_games(&home, 1_000_000)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        // Killed after a random number of games, at a random moment within the next.
        let after = rng.random_range(20..150);
        let mut seen = 0;
        for line in stdout.lines() {
            if line.unwrap().starts_with("Game ") {
                seen += 1;
                if seen == after {
                    break;
                }
            }
        }
        std::thread::sleep(Duration::from_micros(rng.random_range(0..3000)));
        child.kill().unwrap();
        child.wait().unwrap();
        kills += 1;
        reported += seen;
        let (finished, _, said) = kept(&home);
        assert!(
            said.is_empty(),
            "after kill {kills}, the store is whole: {said}"
        );
        assert!(
            finished >= reported,
            "after kill {kills}: {finished} games kept, {reported} reported kept"
        );
    }
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn two_processes_writing_at_once_both_keep_every_game() {
    let home = common::home();
    let children: Vec<_> = (0..2)
        .map(|_| {
            random_games(&home, 500)
                .stdout(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let (finished, unfinished, said) = kept(&home);
    assert_eq!((finished, unfinished), (1000, 0), "{said}");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn unreadable_files_are_said_and_set_aside_and_play_goes_on() {
    let home = common::home();
    let output = random_games(&home, 1).output().unwrap();
    assert!(output.status.success());
    let games = home.join("games");
    let good = std::fs::read_dir(&games)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let text = std::fs::read_to_string(&good).unwrap();
    let broken: [(&str, Vec<u8>); 3] = [
        ("truncated", text.as_bytes()[..text.len() / 3].to_vec()),
        (
            "noise",
            (0..200_u8).map(|byte| byte.wrapping_mul(37)).collect(),
        ),
        (
            "newer",
            text.replace("\"format\":1", "\"format\":99").into_bytes(),
        ),
    ];
    for (name, bytes) in &broken {
        std::fs::write(games.join(format!("{name}.json")), bytes).unwrap();
    }
    let started = Instant::now();
    let output = random_games(&home, 1).output().unwrap();
    assert!(started.elapsed() < Duration::from_secs(30));
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 3, "one line each:\n{stderr}");
    assert!(
        stderr.lines().all(
            |line| line.starts_with("ttt: a saved game could not be read (")
                && line.contains("set aside as")
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("format 99, newer than this ttt reads"),
        "{stderr}"
    );
    for (name, bytes) in &broken {
        let aside = games.join(format!("{name}.json.unreadable"));
        assert_eq!(
            &std::fs::read(&aside).unwrap(),
            bytes,
            "{name} kept as it was"
        );
        assert!(!games.join(format!("{name}.json")).exists());
    }
    // The game played, and the one before, are kept; nothing more to say.
    let (finished, _, said) = kept(&home);
    assert_eq!((finished, said.as_str()), (2, ""));
    let _ = std::fs::remove_dir_all(&home);
}
