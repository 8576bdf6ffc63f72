//! `ttt::engine::Engine`, the manager's side of the Gomocup protocol: `ttt brain` itself
//! as an engine, and engines that crash, stall, or answer what is no move.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use tempfile::TempDir;
use ttt::engine::{Engine, EngineError, GRACE};
use ttt_core::{Mark, Position, Rules, WinRule};
use ttt_players::{Limits, Player, PlayerError};

const QUICK: Limits = Limits {
    think: Duration::from_millis(100),
    memory: Limits::MIN_MEMORY * 16,
    threads: 1,
};

fn brain() -> String {
    format!("{} brain --hash 16", env!("CARGO_BIN_EXE_ttt"))
}

/// A new [`common::temporary`] folder.
fn folder() -> TempDir {
    common::temporary("ttt-engine-test-")
}

/// A shell script standing in for an engine, in a [`folder`] of its own, which is removed
/// when this is dropped. It derefs to the script's path.
struct Script {
    path: PathBuf,
    _folder: TempDir,
}

impl std::ops::Deref for Script {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.path
    }
}

/// A [`Script`] named `name` that runs `body`.
fn script(name: &str, body: &str) -> Script {
    let folder = folder();
    let path = folder.path().join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    Script {
        path,
        _folder: folder,
    }
}

/// An engine that answers each move with the column of the last value of `INFO key` it
/// was told (`unset` before any), on the first row.
fn info_echo(key: &str, unset: &str) -> Script {
    script(
        &format!("{key}-echo"),
        &format!(
            r#"value={unset}
while read line; do
  case "$line" in
    "INFO {key} "*) value="${{line#INFO {key} }}" ;;
    START*) echo OK ;;
    DONE) echo "$value,0" ;;
  esac
done"#
        ),
    )
}

#[test]
fn ttt_brain_plays_a_whole_game_against_itself_as_an_engine() {
    for rules in [Rules::new(15, 15, 5).unwrap(), Rules::new(9, 7, 5).unwrap()] {
        let mut x = Engine::start(&brain(), QUICK).unwrap();
        let mut o = Engine::start(&brain(), QUICK).unwrap();
        let mut position = Position::new(rules, Mark::X);
        let mut rng = StdRng::seed_from_u64(1);
        while !position.is_over() {
            let engine = if position.to_move() == Mark::X {
                &mut x
            } else {
                &mut o
            };
            let square = engine.choose(&position, &mut rng).unwrap();
            position.play(square).unwrap();
        }
        assert!(position.history().len() >= 9, "{rules}: {position}");
        // After the end there is nothing to ask.
        assert_eq!(x.choose(&position, &mut rng), Err(PlayerError::NoMove));
    }
}

#[test]
fn an_engine_that_cannot_start_or_ends_at_once_fails_in_words() {
    assert_eq!(
        Engine::start("  ", QUICK).unwrap_err(),
        EngineError::NoCommand
    );
    let missing = Engine::start("/no/such/engine --fast", QUICK).unwrap_err();
    assert!(
        matches!(&missing, EngineError::Start { command, .. } if command == "/no/such/engine --fast"),
        "{missing:?}"
    );
    let position = Position::new(Rules::new(15, 15, 5).unwrap(), Mark::X);
    let mut crashing = Engine::start("false", QUICK).unwrap();
    let error = crashing.play(&position).unwrap_err();
    assert_eq!(
        error,
        EngineError::Stopped {
            command: "false".to_owned()
        }
    );
    assert_eq!(error.to_string(), "the engine 'false' stopped");
}

#[test]
fn an_engine_that_stalls_loses_its_move_after_its_time_and_a_grace_second() {
    let stalling = script(
        "stalling",
        "while read line; do case \"$line\" in START*) echo OK ;; DONE) sleep 30 ;; esac; done",
    );
    let command = stalling.display().to_string();
    let mut engine = Engine::start(&command, QUICK).unwrap();
    let started = Instant::now();
    let error = engine
        .play(&Position::new(Rules::new(15, 15, 5).unwrap(), Mark::X))
        .unwrap_err();
    let waited = started.elapsed();
    assert!(
        matches!(&error, EngineError::Silent { asked, .. } if asked == "BOARD"),
        "{error:?}"
    );
    assert!(
        waited >= QUICK.think + GRACE && waited < QUICK.think + GRACE * 3,
        "{waited:?}"
    );
    // Dropping it ends the process at once, not in 30 s.
    let started = Instant::now();
    drop(engine);
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn an_answer_that_is_no_free_square_is_refused_with_what_was_said() {
    // Says OK to START, then always h8 (7,7), or a greeting when asked on 7x7.
    let stubborn = script(
        "stubborn",
        r#"while read line; do
  case "$line" in
    START\ 7) echo OK; mode=hello ;;
    START*) echo OK ;;
    DONE) if [ "$mode" = hello ]; then echo "hello there"; else echo "MESSAGE thinking"; echo 7,7; fi ;;
  esac
done"#,
    );
    let command = stubborn.display().to_string();
    let rules = Rules::new(15, 15, 5).unwrap();
    let mut engine = Engine::start(&command, QUICK).unwrap();
    let empty = Position::new(rules, Mark::X);
    assert_eq!(
        engine.play(&empty).unwrap().index(),
        7 * 15 + 7,
        "a message before the move is passed over"
    );
    let taken = empty.after(engine.play(&empty).unwrap()).unwrap();
    let error = engine.play(&taken).unwrap_err();
    assert_eq!(
        error,
        EngineError::Illegal {
            command: command.clone(),
            answer: "7,7".to_owned(),
            why: "taken".to_owned(),
        }
    );
    assert!(error.to_string().ends_with("played 7,7, which is taken"));
    // A new board is told of with START; the answer there is no move at all.
    let small = Position::new(Rules::new(7, 7, 5).unwrap(), Mark::X);
    let error = engine.play(&small).unwrap_err();
    assert!(
        matches!(&error, EngineError::Answer { answer, .. } if answer == "hello there"),
        "{error:?}"
    );
}

#[test]
fn the_next_board_waits_until_the_engine_has_settled_after_its_move() {
    // Like Rapfi, which leaves its thinking state only after writing its move and drops a
    // command that comes before: a BOARD within 20 ms of the last answer is not heard, and
    // the lines after it are unknown commands.
    let settling = script(
        "settling",
        r#"last=0; n=0
while read line; do
  case "$line" in
    START*) echo OK ;;
    BOARD) now=$(date +%s%N)
      while read line && [ "$line" != DONE ]; do :; done
      answered=$(date +%s%N)
      if [ $((now - last)) -lt 20000000 ]; then echo "ERROR Unknown command: 7,7,2"
      else echo "$n,0"; n=$((n + 1)); fi
      last=$answered ;;
  esac
done"#,
    );
    let mut engine = Engine::start(&settling.display().to_string(), QUICK).unwrap();
    assert_eq!(engine.last_move_took(), None, "no move yet");
    let mut position = Position::new(Rules::new(15, 15, 5).unwrap(), Mark::X);
    // Each answer is followed at once by the next question, as when the other side's
    // move is a forced block found in a millisecond.
    for (turn, ours) in [7, 8, 9, 10].into_iter().enumerate() {
        let asked = Instant::now();
        let theirs = engine.play(&position).unwrap();
        let call = asked.elapsed();
        assert_eq!(theirs.index(), turn, "the answer to BOARD {}", turn + 1);
        // The engine's own time leaves the wait before the question out.
        let took = engine.last_move_took().unwrap();
        if turn > 0 {
            assert!(
                call.saturating_sub(took) >= Duration::from_millis(30),
                "{call:?} in all, {took:?} the engine's"
            );
        }
        position.play(theirs).unwrap();
        position.play(ttt_core::Square::new(7 * 15 + ours)).unwrap();
    }
}

/// Runs `ttt play ARGS` in the line mode with `stdin`: its output, error output and exit
/// code, and how long it took.
fn play(args: &[&str], stdin: &str) -> (String, String, Option<i32>, Duration) {
    let started = Instant::now();
    let output = assert_cmd::Command::new(assert_cmd::cargo::cargo_bin!("ttt"))
        .env("TERM", "dumb")
        .env("TTT_HOME", &common::home())
        .args(["play", "--plain", "--no-review"])
        .args(args)
        .write_stdin(stdin)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code(),
        started.elapsed(),
    )
}

#[test]
fn play_seats_engines_for_a_gauntlet_with_alternating_first_moves_and_a_tally() {
    let x = format!("brain:{}", brain());
    let (out, err, code, _) = play(
        &[
            "--gomoku",
            "--x",
            &x,
            "--o",
            "search",
            "--games",
            "2",
            "--first",
            "alternate",
            "--think",
            "0.05",
        ],
        "",
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let tally = out.lines().last().unwrap();
    let numbers: Vec<u32> = tally
        .split([',', ':'])
        .filter_map(|word| word.trim().parse().ok())
        .collect();
    assert_eq!(numbers.iter().sum::<u32>(), 2, "{out}");
    assert!(!out.contains("forfeits"), "{out}");
}

#[test]
fn an_engine_that_crashes_stalls_or_plays_no_free_square_loses_each_game_and_play_goes_on() {
    let engines = [
        (
            "crashing",
            "read line; echo OK; read line; exit 3",
            "stopped",
        ),
        (
            "stalling-seat",
            "while read line; do case \"$line\" in START*) echo OK ;; DONE) sleep 30 ;; esac; done",
            "did not answer BOARD within 1.1 s",
        ),
        (
            "offboard",
            "while read line; do case \"$line\" in START*) echo OK ;; DONE) echo 30,2 ;; esac; done",
            "played 30,2, which is off the 15x15, k=5 board",
        ),
    ];
    for (name, body, reason) in engines {
        let stand_in = script(name, body);
        let engine = format!("brain:{}", stand_in.display());
        let (out, err, code, took) = play(
            &[
                "--gomoku", "--x", &engine, "--o", "rules", "--games", "2", "--first", "x",
                "--think", "0.1",
            ],
            "",
        );
        assert_eq!(code, Some(0), "{name}: {out}{err}");
        for game in 1..=2 {
            let line = format!("Game {game}: X forfeits: the engine '");
            let said = out.lines().find(|said| said.starts_with(&line));
            assert!(
                said.is_some_and(|said| said.contains(reason) && said.ends_with("O wins.")),
                "{name}: {out}"
            );
        }
        assert_eq!(
            out.lines().last(),
            Some("X wins: 0, O wins: 2, draws: 0"),
            "{name}"
        );
        assert!(took < Duration::from_secs(10), "{name}: {took:?}");
    }
}

#[test]
fn a_person_against_an_engine_that_crashes_wins_and_is_asked_to_play_again() {
    let crashing = script("crash-later", "read line; echo OK; read line; exit 3");
    let engine = format!("brain:{}", crashing.display());
    let (out, err, code, _) = play(&["--gomoku", "--o", &engine, "--first", "x"], "h8\nno\n");
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("O forfeits: the engine '") && out.contains("stopped. You win!"),
        "{out}"
    );
    assert!(out.contains("Play again?"), "{out}");
    // An engine that plays is named by its program.
    let (out, err, code, _) = play(
        &[
            "--gomoku",
            "--o",
            &format!("brain:{}", brain()),
            "--first",
            "x",
            "--think",
            "0.05",
        ],
        "h8
q
",
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("The engine ttt (O) plays "), "{out}");
}

#[test]
fn an_engine_that_cannot_start_or_cannot_play_the_board_is_refused_before_any_game() {
    let (out, err, code, _) = play(&["--gomoku", "--o", "brain:/no/such/engine"], "");
    assert_eq!(code, Some(2), "{out}");
    assert_eq!(
        err.trim(),
        "ttt: cannot start the engine '/no/such/engine': No such file or directory (os error 2)"
    );
    let (_, err, code, _) = play(&["--o", &format!("brain:{}", brain())], "");
    assert_eq!(code, Some(2));
    assert!(
        err.contains("an outside engine plays five in a row"),
        "{err}"
    );
    let (_, err, code, _) = play(&["--gomoku", "--o", "brain:"], "");
    assert_eq!(code, Some(2));
    assert!(err.contains("is not a player"), "{err}");
}

#[test]
fn the_engine_is_told_the_rule_and_told_again_when_it_changes() {
    // Answers with the column of the last rule it was told: 0 freestyle, 1 exactly five.
    let echo = info_echo("rule", "none");
    let mut engine = Engine::start(&echo.display().to_string(), QUICK).unwrap();
    let gomoku = Rules::new(15, 15, 5).unwrap();
    for (win, column) in [
        (WinRule::Freestyle, 0),
        (WinRule::Exact, 1),
        (WinRule::Freestyle, 0),
    ] {
        let empty = Position::new(gomoku.with_win_rule(win), Mark::X);
        assert_eq!(engine.play(&empty).unwrap().index(), column, "{win}");
    }
}

#[test]
fn the_engine_is_told_its_threads() {
    // Answers with the column of the threads it was told (none: 9).
    let echo = info_echo("thread_num", "9");
    let empty = Position::new(Rules::new(15, 15, 5).unwrap(), Mark::X);
    for threads in [1, 3] {
        let limits = Limits { threads, ..QUICK };
        let mut engine = Engine::start(&echo.display().to_string(), limits).unwrap();
        assert_eq!(engine.play(&empty).unwrap().index(), threads);
    }
}

/// Whether process `id` has ended (gone, or a zombie no one has reaped yet).
fn ended(id: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{id}/stat")).map_or(true, |stat| {
        stat.rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z'))
    })
}

#[test]
fn an_engine_and_whatever_it_started_end_with_it_and_a_slow_start_is_allowed() {
    let folder = folder();
    let pid_file = folder.path().join("helper.pid");
    // Starts a helper of its own, takes 2 s to answer START, then always plays h8.
    let engine = script(
        "with-helper",
        &format!(
            r#"sleep 1000 &
echo $! > {}
while read line; do
  case "$line" in
    START*) sleep 2; echo OK ;;
    DONE) echo 7,7 ;;
  esac
done"#,
            pid_file.display()
        ),
    );
    let mut engine = Engine::start(&engine.display().to_string(), QUICK).unwrap();
    let position = Position::new(Rules::new(15, 15, 5).unwrap(), Mark::X);
    assert_eq!(engine.play(&position).unwrap().index(), 7 * 15 + 7);
    let helper = std::fs::read_to_string(&pid_file).unwrap();
    let helper = helper.trim();
    assert!(!ended(helper), "the helper runs while the engine does");
    drop(engine);
    let started = Instant::now();
    while !ended(helper) && started.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(ended(helper), "the helper ended with its engine");
}

#[test]
fn an_unknown_answer_to_start_is_reported_as_what_it_said() {
    let engine = script(
        "unknown-start",
        "while read line; do case \"$line\" in RECTSTART*) echo UNKNOWN no rectangles ;; esac; done",
    );
    let command = engine.display().to_string();
    let mut engine = Engine::start(&command, QUICK).unwrap();
    let error = engine
        .play(&Position::new(Rules::new(9, 6, 5).unwrap(), Mark::X))
        .unwrap_err();
    assert_eq!(
        error,
        EngineError::Answer {
            command,
            asked: "RECTSTART 9,6".to_owned(),
            answer: "UNKNOWN no rectangles".to_owned(),
        }
    );
}

#[test]
fn an_engine_is_told_to_end_and_given_a_moment_to_do_so() {
    let folder = folder();
    let log = folder.path().join("ending.log");
    let polite = script(
        "polite",
        &format!(
            "while read line; do echo \"$line\" >> {}; case \"$line\" in START*) echo OK ;; DONE) echo 7,7 ;; END) exit 0 ;; esac; done",
            log.display()
        ),
    );
    let mut engine = Engine::start(&polite.display().to_string(), QUICK).unwrap();
    let empty = Position::new(Rules::new(15, 15, 5).unwrap(), Mark::X);
    assert_eq!(engine.play(&empty).unwrap().index(), 7 * 15 + 7);
    drop(engine);
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(said.lines().any(|line| line == "END"), "{said}");
}

/// The resident memory of this test process, in bytes.
fn resident() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|line| line.starts_with("VmRSS:"))
        .unwrap();
    let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

#[test]
fn an_engine_that_never_stops_talking_costs_bounded_memory() {
    // It answers START, then prints messages without end; nobody reads them between
    // turns.
    let chatty = script(
        "chatty",
        "read line; echo OK; exec yes 'MESSAGE pondering, pondering, pondering'",
    );
    let mut engine = Engine::start(chatty.to_str().unwrap(), QUICK).unwrap();
    let position = Position::new(Rules::new(15, 15, 5).unwrap(), Mark::X);
    // No move comes: its turn is lost, and the engine talks on.
    assert!(engine.play(&position).is_err());
    let before = resident();
    std::thread::sleep(Duration::from_secs(2));
    let grown = resident().saturating_sub(before);
    drop(engine);
    assert!(
        grown < 64 << 20,
        "memory grew by {} MB in 2 s of chatter",
        grown >> 20
    );
}
