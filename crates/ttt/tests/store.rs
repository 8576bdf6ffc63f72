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
    let (damaged, newer): (Vec<&str>, Vec<&str>) = stderr
        .lines()
        .partition(|line| line.contains("set aside as"));
    assert_eq!(damaged.len(), 2, "{stderr}");
    assert!(
        damaged
            .iter()
            .all(|line| line.starts_with("ttt: a saved game could not be read (")),
        "{stderr}"
    );
    // A newer ttt's game is left where the newer ttt finds it.
    assert!(
        newer[0].contains("format 99, newer than this ttt reads") && newer[0].contains("left"),
        "{stderr}"
    );
    for (name, bytes) in &broken[..2] {
        let aside = games.join(format!("{name}.json.unreadable"));
        assert_eq!(
            &std::fs::read(&aside).unwrap(),
            bytes,
            "{name} kept as it was"
        );
        assert!(!games.join(format!("{name}.json")).exists());
    }
    assert_eq!(
        std::fs::read(games.join("newer.json")).unwrap(),
        broken[2].1
    );
    // The game played, and the one before, are kept; the newer one is said again.
    let (finished, _, said) = kept(&home);
    assert_eq!(finished, 2);
    assert_eq!(said.lines().count(), 1, "{said}");
}

/// Runs `ttt` with `args` in the store at `home`, ended after `limit` if it hangs:
/// (exit code, stderr), or `None` when it had to be ended.
fn within(home: &Path, args: &[&str], limit: Duration) -> Option<(Option<i32>, String)> {
    let mut child = ttt(home)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while started.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            let mut said = String::new();
            std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut said).unwrap();
            return Some((status.code(), said));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

#[test]
fn a_fifo_or_a_device_in_the_store_is_passed_over_in_one_line() {
    let home = common::home();
    let output = random_games(&home, 1).output().unwrap();
    assert!(output.status.success());
    let games = home.join("games");
    let made = Command::new("mkfifo")
        .arg(games.join("fifo.json"))
        .status()
        .unwrap();
    assert!(made.success());
    std::os::unix::fs::symlink("/dev/zero", games.join("zero.json")).unwrap();
    for args in [&["games"][..], &["stats"]] {
        let (code, said) =
            within(&home, args, Duration::from_secs(20)).unwrap_or_else(|| panic!("{args:?} hung"));
        assert_eq!(code, Some(0), "{args:?}: {said}");
        assert_eq!(said.lines().count(), 2, "{args:?}: one line each:\n{said}");
        assert!(said.contains("not a regular file"), "{said}");
    }
}

#[test]
fn files_to_import_replay_or_verify_are_read_only_when_regular_and_not_too_large() {
    let home = common::home();
    std::fs::create_dir_all(&home).unwrap();
    let fifo = home.join("games.sgf");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let zero = home.join("zero.sgf");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let large = home.join("large.sgf");
    std::fs::write(&large, vec![b' '; 65 << 20]).unwrap();
    // A proof may be gigabytes: the large file is too large only for a game file.
    for (file, commands) in [(&fifo, 3), (&zero, 3), (&large, 2)] {
        let file = file.to_str().unwrap();
        let all = [
            &["import", file][..],
            &["replay", file, "--plain"],
            &["verify", file],
        ];
        for args in &all[..commands] {
            let (code, said) = within(&home, args, Duration::from_secs(20))
                .unwrap_or_else(|| panic!("{args:?} hung"));
            assert_eq!(code, Some(2), "{args:?}: {said}");
            assert_eq!(said.lines().count(), 1, "{args:?}: {said}");
        }
    }
}

#[test]
fn temporary_files_whose_writer_is_gone_are_removed_at_the_next_start() {
    let home = common::home();
    let output = random_games(&home, 1).output().unwrap();
    assert!(output.status.success());
    let games = home.join("games");
    // A process that has ended: its pid names no running writer.
    let mut gone = Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    let stale = games.join(format!(".abc.json.{}.tmp", gone.id()));
    std::fs::write(&stale, "half a game").unwrap();
    // This test is running: its temporary file may still be written.
    let live = games.join(format!(".def.json.{}.tmp", std::process::id()));
    std::fs::write(&live, "being written").unwrap();
    let (_, _, said) = kept(&home);
    assert_eq!(said, "");
    assert!(!stale.exists(), "the stale temporary file is removed");
    assert!(live.exists(), "a live writer's file is left alone");
    // A checkpoint's temporary file, from a solve killed while writing it.
    let checkpoint = home.join("ck");
    let stale = home.join(format!(".ck.{}.tmp", gone.id()));
    std::fs::write(&stale, "half a table").unwrap();
    let solved = ttt(&home)
        .args(["solve", "--size", "4x4", "--checkpoint"])
        .arg(&checkpoint)
        .output()
        .unwrap();
    assert!(solved.status.success(), "{solved:?}");
    assert!(
        !stale.exists(),
        "the checkpoint's stale temporary file is removed"
    );
}
