//! Whole sessions of the real binary: standard input in, standard output compared.
//!
//! Each case is a snapshot under `tests/snapshots/`; `cargo insta review` shows a change.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

use std::io::Read;
use std::process::{Command, Stdio};

fn ttt() -> Command {
    let mut command = Command::new(assert_cmd::cargo::cargo_bin!("ttt"));
    command.env_remove("NO_COLOR").env("TERM", "dumb");
    command
}

/// Runs `ttt ARGS` with `stdin`, returning a transcript of what a person would see.
fn transcript(args: &str, stdin: &str) -> String {
    let output = assert_cmd::Command::from_std(ttt())
        .args(args.split_whitespace())
        .write_stdin(stdin)
        .output()
        .unwrap();
    format!(
        "$ ttt {args}\n{}--- stderr\n{}--- exit code {}\n",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
        output
            .status
            .code()
            .map_or("none".to_owned(), |code| code.to_string()),
    )
}

macro_rules! transcripts {
    ($($name:ident: $args:expr, $stdin:expr;)*) => {
        $(
            #[test]
            fn $name() {
                insta::assert_snapshot!(stringify!($name), transcript($args, $stdin));
            }
        )*
    };
}

transcripts! {
    // The classic tutorials' ways of playing.
    seed_000_two_players_coordinates: "play --x human --o human --first x --squares coords --style compact",
        "1 1\n2 1\n1 1\n1 2\n2 2\n1 3\n";
    seed_001_keypad_random_first_play_again: "play --x human --o human --squares keypad --style plain --seed 4",
        "7\n5\n8\n1\n9\nyes\n5\n7\n1\n3\n9\nno\n";
    seed_002_numbers_and_every_kind_of_mistake: "play --x human --o human --first x",
        "five\n10\n0\n\n5\n5\n1\n9\n3\n7\n4\n6\n2\n8\n";
    seed_003_questions_then_the_rules_computer: "play --style plain --seed 7",
        "computer\nmedium\no\n5\n1\n9\nno\n";
    seed_004_centre_opening_in_boxes: "play --x random --o human --first x --open-center --style boxes --seed 2",
        "1\n3\n7\n9\n";
    // Commands during a game.
    help_lists_what_can_be_typed: "play --x human --o perfect --first x --seed 1", "help\nquit\n";
    unknown_command_and_not_a_number: "play --x human --o human --first x", "jump\nx\n5x\n-3\n4.5\nquit\n";
    undo_against_the_computer: "play --x human --o perfect --first x --seed 3",
        "undo\n5\nundo\n1\nquit\n";
    undo_between_two_people: "play --x human --o human --first o", "5\n1\nundo\n9\nquit\n";
    undo_when_the_computer_opened: "play --x perfect --o human --first x --seed 6", "undo\nquit\n";
    quit_at_a_question: "play", "quit\n";
    // End of input at every kind of prompt.
    end_of_input_at_opponent_question: "play", "";
    end_of_input_at_strength_question: "play", "computer\n";
    end_of_input_at_letter_question: "play", "computer\neasy\n";
    end_of_input_at_move_prompt: "play --x human --o human --first x", "5\n";
    end_of_input_at_play_again: "play --x human --o perfect --first o --seed 2", "1\n2\n3\n";
    // Computers only, and the tally.
    one_watched_computer_game: "play --x rules --o random --first x --seed 8", "";
    many_games_print_the_tally: "play --x perfect --o perfect --games 50 --first alternate", "";
    // Flags that make no sense.
    bad_player_flag: "play --x alien", "";
    bad_games_flag: "play --x random --o random --games 0", "";
}

#[test]
fn ctrl_d_at_the_very_start_of_a_bare_ttt_ends_cleanly() {
    let transcript = transcript("", "");
    assert!(
        transcript.contains("End of input: no game was played."),
        "{transcript}"
    );
    assert!(transcript.ends_with("--- exit code 0\n"), "{transcript}");
}

#[test]
fn a_closed_output_pipe_ends_the_program_quietly() {
    // Far more output than a pipe buffers, so writes fail after the reader goes away.
    let mut child = ttt()
        .args(["play", "--x", "human", "--o", "human"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all("help\n".repeat(50_000).as_bytes());
    });
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let _ = writer.join();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(status.success(), "exit {status:?}, stderr {stderr}");
    assert_eq!(stderr, "");
}

#[test]
fn many_games_against_each_computer_come_out_as_they_should() {
    let tally = |args: &str| {
        let output = ttt().args(args.split_whitespace()).output().unwrap();
        assert!(output.status.success());
        let stdout = String::from_utf8(output.stdout).unwrap();
        let last = stdout.lines().last().unwrap().to_owned();
        let numbers: Vec<u32> = last
            .split(", ")
            .map(|part| part.rsplit(' ').next().unwrap().parse().unwrap())
            .collect();
        (last, numbers)
    };
    let (last, _) = tally("play --x perfect --o perfect --games 200");
    assert_eq!(last, "X wins: 0, O wins: 0, draws: 200");
    let (last, numbers) = tally("play --x random --o perfect --games 2000");
    assert_eq!(numbers[0], 0, "{last}");
    let (last, numbers) = tally("play --x rules --o random --games 2000");
    assert!(numbers[0] > 1000, "X wins most games: {last}");
    let (last, numbers) = tally("play --x perfect --o random --games 1000 --open-center");
    assert_eq!(numbers[1], 0, "{last}");
}
