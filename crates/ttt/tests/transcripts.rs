//! Whole sessions of the real binary: standard input in, standard output compared.
//!
//! Each case is a snapshot under `tests/snapshots/`; `cargo insta review` shows a change.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

mod common;

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

/// `ttt`, keeping games in `home` (a [`common::Home`], which must outlive the run).
fn ttt(home: &Path) -> Command {
    let mut command = Command::new(assert_cmd::cargo::cargo_bin!("ttt"));
    command
        .env_remove("NO_COLOR")
        .env("TERM", "dumb")
        .env("TTT_HOME", home);
    command
}

/// Runs `ttt ARGS` with `stdin`, returning a transcript of what a person would see. The
/// arguments are split at spaces; a no-break space is a space within one.
fn transcript(args: &str, stdin: &str) -> String {
    let output = assert_cmd::Command::from_std(ttt(&common::home()))
        .args(
            args.split(' ')
                .filter(|arg| !arg.is_empty())
                .map(|arg| arg.replace('\u{a0}', " ")),
        )
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
    undo_after_losing_plays_on_and_the_tally_counts_once: "play --x human --o perfect --first x --seed 2 --no-review",
        "2\n4\n8\nundo\n6\n7\nno\n";
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
    // Perfect play made visible.
    hint_on_the_board_and_as_a_list: "play --x human --o human --first x", "1\n5\nhint\nquit\n";
    review_names_the_mistakes: "play --x human --o human --first x", "5\n2\n8\n1\n9\n4\n6\n3\n7\n";
    review_of_a_perfect_game: "play --x human --o human --first x", "1\n5\n9\n2\n8\n7\n3\n6\n4\n";
    review_by_threats_where_perfect_play_is_out_of_reach: "play --gomoku --x human --o human --first x",
        "h8\na1\ni8\na2\nj8\na3\nk8\na4\nl8\nno\n";
    no_review: "play --x human --o human --first x --no-review", "1\n4\n2\n5\n3\n";
    analyze_text: "analyze x.o/.x./..o", "";
    analyze_moves_with_o_first: "analyze --moves 5,1,9 --first o", "";
    analyze_finished_game: "analyze xxx/oo./...", "";
    solve_finished_game_says_who_won: "solve xxx/oo./...", "";
    solve_drawn_game: "solve xox/xoo/oxx", "";
    analyze_json: "analyze x.o/.x./..o --json", "";
    move_perfect: "move x.o/.x./..o --player perfect", "";
    move_rules_blocks: "move --moves 1,5,2 --player rules --seed 1", "";
    move_on_a_finished_game: "move xxx/oo./...", "";
    count_text: "count", "";
    count_json: "count --json", "";
    // Bad positions: one precise message each, exit code 2.
    bad_position_rows: "analyze x.o/.x.", "";
    bad_position_row_length: "analyze x.o/.x/..o", "";
    bad_position_character: "analyze x.o/.y./..o", "";
    bad_position_counts: "analyze xxx/.../...", "";
    bad_position_play_after_win: "analyze xxx/oo./..o", "";
    bad_position_both_won: "move xxx/ooo/x..", "";
    bad_move_list_number: "analyze --moves 5,x", "";
    bad_move_list_taken: "analyze --moves 5,1,5", "";
    bad_move_list_after_win: "move --moves 1,4,2,5,3,6", "";
    position_and_moves_together: "analyze x../.../... --moves 5", "";
    // Bigger boards.
    four_by_four_names_squares_three_ways: "play --size 4x4 --k 4 --x human --o human --first x",
        "a1\n2 1\n3\ne1\n1 5\n17\nz\nhelp\nb2\nd1\nquit\n";
    gomoku_against_the_rules_computer: "play --gomoku --x human --o rules --first x --seed 1", "h8\nh9\nquit\n";
    move_on_gomoku: "move --gomoku --moves h8,h9 --player rules --seed 1", "";
    count_four_by_three: "count --size 4x3", "";
    count_four_by_four_columns_as_wide_as_their_figures: "count --size 4x4 --k 4", "";
    // Exactly k: a longer line wins nothing, and play goes on to an exact line.
    exact_an_overline_wins_nothing: "play --size 7x5 --k 4 --exact --x human --o human --first x",
        "a1\na2\nb1\nb2\nd1\nd2\ne1\ng5\nc1\nc2\nno\n";
    exact_count_four_by_three: "count --size 4x3 --exact", "";
    exact_count_json: "count --size 4x3 --exact --json", "";
    solve_on_a_board_too_large: "solve --gomoku", "";
    analyze_on_a_board_too_large: "analyze --gomoku", "";
    count_on_a_board_too_large: "count --size 5x4 --k 4", "";
    perfect_on_a_board_too_large: "play --gomoku --x perfect", "";
    bad_size: "play --size 2x40", "";
    bad_k: "count --k 25", "";
    bad_think: "move --player search --think 0", "";
    think_above_the_range: "move --player mcts --think 601", "";
    think_not_a_number: "move --player mcts --think NaN", "";
    hash_of_zero: "move --player search --hash 0", "";
    hash_beyond_any_machine: "play --x search --o search --hash 60000000", "";
    threads_of_zero: "move --player search --threads 0", "";
    threads_beyond_the_most: "play --x search --o search --threads 65", "";
    // Flags that make no sense.
    bad_player_flag: "play --x alien", "";
    bad_games_flag: "play --x random --o random --games 0", "";
    bad_move_player_lists_every_player: "move --player bogus", "";
    // Each command takes only the flags it uses.
    flag_board_on_stats: "stats --gomoku", "";
    flag_board_on_games: "games --size 7x7", "";
    flag_size_on_verify: "verify --size 7x7 proof", "";
    flag_k_on_brain: "brain --k 4", "";
    flag_no_save_on_move: "move --no-save", "";
    flag_no_save_on_count: "count --no-save", "";
    flag_data_dir_on_analyze: "analyze --data-dir here", "";
    flag_size_with_resume: "play --resume --size 4x4", "";
    keypad_beyond_three_by_three: "play --squares keypad --size 4x4 --x human --o human", "7\n";
    // A position gives its own board.
    position_whole_notation_quoted: "move --player rules --seed 1 x...o/...../...../...../.....\u{a0}x\u{a0}k=4", "";
    position_whole_notation_unquoted: "move --player rules --seed 1 x...o/...../...../...../..... x k=4", "";
    position_size_from_rows: "analyze ..../..../..../....", "";
    position_rows_against_size: "analyze ..../..../..../.... --size 3x3", "";
    position_notation_against_k: "solve x...o/...../...../...../.....\u{20}x\u{20}k=4 --k 5", "";
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
    let home = common::home();
    let mut child = ttt(&home)
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
fn a_run_that_ends_with_its_game_says_the_score_once_in_the_tally() {
    for args in [
        "play --x rules --o random --first x --seed 8",
        "play --x rules --o random --first x --seed 8 --games 1",
    ] {
        let watched = transcript(args, "");
        assert_eq!(
            watched.matches("X wins: 1, O wins: 0, draws: 0").count(),
            1,
            "{watched}"
        );
        assert!(!watched.contains("Score: "), "{watched}");
    }
    // Where another game may follow, the score comes with the result.
    let declined = transcript("play --x human --o human --first x", "1\n4\n2\n5\n3\nno\n");
    assert!(
        declined.contains("Score: X wins: 1, O wins: 0, draws: 0\n"),
        "{declined}"
    );
}

#[test]
fn many_games_against_each_computer_come_out_as_they_should() {
    let tally = |args: &str| {
        let output = ttt(&common::home())
            .args(args.split_whitespace())
            .output()
            .unwrap();
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

#[test]
fn analyze_json_has_every_field() {
    let output = ttt(&common::home())
        .args(["analyze", "--json", "x.o/.x./..o"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["position"], "x.o/.x./..o");
    assert_eq!(json["to_move"], "x");
    assert_eq!(json["status"], "playing");
    assert_eq!(json["result"], "draw");
    assert_eq!(json["plies"], 5);
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 5);
    assert_eq!(
        moves[0],
        serde_json::json!({"square": 6, "name": "6", "result": "draw", "plies": 5})
    );
    for rated in moves {
        assert!(
            rated["square"]
                .as_u64()
                .is_some_and(|s| (1..=9).contains(&s))
        );
        assert!(["win", "draw", "loss"].contains(&rated["result"].as_str().unwrap()));
        assert!(rated["plies"].as_u64().is_some());
    }
    let over = ttt(&common::home())
        .args(["analyze", "--json", "xxx/oo./..."])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&over.stdout).unwrap();
    assert_eq!(json["status"], "x_won");
    assert!(json["to_move"].is_null() && json["result"].is_null() && json["plies"].is_null());
}

#[test]
fn count_json_has_the_published_figures() {
    let output = ttt(&common::home())
        .args(["count", "--json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["games"]["total"], 255_168);
    assert_eq!(json["nodes"], 549_946);
    assert_eq!(json["positions"], 5_478);
    assert_eq!(json["positions_up_to_symmetry"], 765);
    assert_eq!(json["terminal_positions"], 958);
    assert_eq!(json["terminal_up_to_symmetry"], 138);
    assert_eq!(json["value"]["result"], "draw");
}

#[test]
fn solve_and_analyze_describe_a_finished_game_alike() {
    for (position, status) in [
        ("xxx/oo./...", "x_won"),
        ("ooo/xx./x..", "o_won"),
        ("xox/xoo/oxx", "draw"),
    ] {
        let json = |command: &str| -> serde_json::Value {
            let output = ttt(&common::home())
                .args([command, position, "--json"])
                .output()
                .unwrap();
            assert!(output.status.success(), "{command} {position}");
            serde_json::from_slice(&output.stdout).unwrap()
        };
        let (solve, analyze) = (json("solve"), json("analyze"));
        for field in ["position", "to_move", "status", "result"] {
            assert_eq!(solve[field], analyze[field], "{field} of {position}");
        }
        assert_eq!(solve["status"], status, "{position}");
        assert!(solve["to_move"].is_null() && solve["result"].is_null());
        assert!(solve["best_move"].is_null(), "{position}");
    }
}

#[test]
fn a_memory_bound_beyond_the_machine_is_refused() {
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let total_kb: u64 = meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemTotal:"))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .unwrap_or(0);
    if total_kb == 0 || total_kb >= 64 << 20 {
        eprintln!("this machine's memory is unknown or 64 GiB or more: nothing to refuse");
        return;
    }
    for args in [
        "solve --hash 65536",
        "move --player search --hash 65536",
        "play --x mcts --o mcts --hash 65536",
    ] {
        let output = ttt(&common::home()).args(args.split(' ')).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args}");
        assert!(
            stderr.starts_with("ttt: --hash 65536 is more memory than this machine has (")
                && stderr.lines().count() == 1,
            "{args}: {stderr}"
        );
    }
}

#[test]
fn analyze_json_names_squares_as_the_text_does() {
    let output = ttt(&common::home())
        .args(["analyze", "--json", "--size", "4x3", "--moves", "b2,a1,c2"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let names: Vec<&str> = json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rated| rated["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"a2") && names.contains(&"d2"), "{names:?}");
    assert!(!names.contains(&"b2"), "b2 is taken: {names:?}");
}

#[test]
fn solve_json_has_every_field() {
    let output = ttt(&common::home())
        .args(["solve", "--size", "4x4", "--k", "4", "--json"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["result"], "draw");
    assert!(
        json["best_move"]
            .as_u64()
            .is_some_and(|square| (1..=16).contains(&square))
    );
    assert!(json["nodes"].as_u64().is_some_and(|nodes| nodes > 0));
    assert!(json["seconds"].as_f64().is_some());
    let win = ttt(&common::home())
        .args(["solve", "--size", "4x3", "--json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&win.stdout).unwrap();
    assert_eq!(json["result"], "win");
    let lost = ttt(&common::home())
        .args(["solve", "--size", "4x3", "--json", "--moves", "6,1"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&lost.stdout).unwrap();
    assert_eq!(
        (json["to_move"].as_str(), json["result"].as_str()),
        (Some("x"), Some("win"))
    );
}

/// `ttt ARGS` running with its input and output piped, its output gathered as it comes.
struct Running {
    child: std::process::Child,
    output: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    /// Its kept games, removed when this is dropped.
    _home: common::Home,
}

impl Running {
    fn start(args: &str) -> Running {
        let home = common::home();
        let mut child = ttt(&home)
            .args(args.split_whitespace())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let output = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let (mut stdout, gathered) = (child.stdout.take().unwrap(), output.clone());
        std::thread::spawn(move || {
            let mut buffer = [0; 4096];
            while let Ok(read @ 1..) = stdout.read(&mut buffer) {
                gathered.lock().unwrap().extend_from_slice(&buffer[..read]);
            }
        });
        Running {
            child,
            output,
            _home: home,
        }
    }

    fn output(&self) -> String {
        String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned()
    }

    /// Waits until the output holds `text` `times` times.
    fn wait_for(&self, text: &str, times: usize) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while self.output().matches(text).count() < times {
            assert!(
                std::time::Instant::now() < deadline,
                "waited for {text:?}; the output is:\n{}",
                self.output()
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        use std::io::Write;
        self.child.stdin.as_mut().unwrap().write_all(bytes).unwrap();
    }

    /// The peak resident memory of the process so far, in KiB (Linux).
    fn peak_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// Closes its input and waits for it to end.
    fn finish(mut self) -> (Option<i32>, String) {
        drop(self.child.stdin.take());
        self.wait()
    }

    /// Waits for it to end, its input still open (`Child::wait` would close it).
    fn wait(mut self) -> (Option<i32>, String) {
        let _input = self.child.stdin.take();
        let status = self.child.wait().unwrap();
        // Let the gathering thread see the end of the output.
        std::thread::sleep(std::time::Duration::from_millis(100));
        (status.code(), self.output())
    }
}

const TWO_PEOPLE: &str = "play --plain --x human --o human --first x";

#[test]
fn a_stray_byte_is_one_more_bad_input() {
    let output = assert_cmd::Command::from_std(ttt(&common::home()))
        .args(TWO_PEOPLE.split(' '))
        .write_stdin(&b"5\n\xff\n1\n"[..])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout
            .matches("That line is not text (not UTF-8): type it again.")
            .count(),
        1,
        "{stdout}"
    );
    assert!(
        stdout.contains("O to move: 1\n"),
        "the same prompt comes back:\n{stdout}"
    );
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        output.status.code(),
        Some(1),
        "the game was cut short by the end of input"
    );
}

#[test]
fn an_endless_line_gets_one_message_in_flat_memory() {
    let mut running = Running::start(TWO_PEOPLE);
    running.wait_for("X to move:", 1);
    let chunk = vec![b'9'; 1 << 20];
    for _ in 0..64 {
        running.send(&chunk);
    }
    running.send(b"\n5\n");
    running.wait_for("O to move:", 1);
    let peak = running.peak_kib();
    let (code, stdout) = running.finish();
    assert_eq!(
        stdout
            .matches("That line is longer than 4096 bytes: it was skipped.")
            .count(),
        1,
        "{stdout}"
    );
    assert!(!stdout.contains("9999"), "the line is not echoed back");
    assert_eq!(code, Some(1));
    if let Some(peak) = peak {
        assert!(peak < 32 << 10, "64 MiB of input took {peak} KiB");
    }
}

#[test]
fn what_was_typed_comes_back_escaped_and_as_typed() {
    let output = ttt(&common::home())
        .args(TWO_PEOPLE.split(' '))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"\x1b[31mred\nJUMP\nSaut\xc3\xa9\n\xe2\x80\xaeevil\nquit\n")?;
            child.wait_with_output()
        })
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        !stdout.contains('\u{1b}') && !stdout.contains('\u{202e}'),
        "{stdout:?}"
    );
    for shown in [
        "'\\u{1b}[31mred' is not a number",
        "Unknown command 'JUMP'",
        "Unknown command 'Sauté'",
        "\\u{202e}evil",
    ] {
        assert!(stdout.contains(shown), "{shown:?} in {stdout}");
    }
    let bad = ttt(&common::home())
        .args(["analyze", "x\u{1b}[2J\no/..."])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("'x\\u{1b}[2J\\no/...'"), "{stderr}");
}

#[test]
fn a_signal_ends_the_line_mode_with_the_tally() {
    for (signal, code) in [("TERM", 143), ("HUP", 129), ("INT", 130), ("QUIT", 131)] {
        let mut running = Running::start(TWO_PEOPLE);
        running.wait_for("X to move:", 1);
        for line in ["1\n", "4\n", "2\n", "5\n", "3\n", "yes\n"] {
            running.send(line.as_bytes());
        }
        running.wait_for("X to move:", 4);
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &running.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let (exit, stdout) = running.wait();
        assert_eq!(exit, Some(code), "SIG{signal}:\n{stdout}");
        assert!(
            stdout.ends_with("X to move: \nX wins: 1, O wins: 0, draws: 0\n"),
            "SIG{signal}: the prompt's line is finished, then the tally:\n{stdout}"
        );
    }
}

#[test]
fn a_signal_ends_a_run_of_computer_games() {
    let running = Running::start("play --x search --o search --games 1000 --think 0.2 --gomoku");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let status = Command::new("kill")
        .args(["-TERM", &running.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let (exit, stdout) = running.finish();
    assert_eq!(exit, Some(143), "{stdout}");
    assert!(
        stdout.ends_with("X wins: 0, O wins: 0, draws: 0\n"),
        "{stdout}"
    );
}
