//! `ttt brain` driven as a Gomocup manager drives an engine: one command, one answer, a
//! whole game to its end (under freestyle and under exactly five), malformed lines, END
//! while it thinks, and a large hash that must cost no turn its time.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use ttt_core::{Mark, Outcome, Position, Rules, WinRule};
use ttt_players::{Player, RulesPlayer};

/// A running `ttt brain` and its answers, read on a thread so that a wait can time out.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    answers: Receiver<String>,
    /// The `MESSAGE` lines read so far.
    said: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// `ttt brain` with these options.
    fn start_with(options: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ttt"))
            .arg("brain")
            .args(options)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, answers) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        Engine {
            child,
            stdin: Some(stdin),
            answers,
            said: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// The next answer, within `wait`; the `MESSAGE` lines before it (what the engine
    /// thought) are kept in `said`.
    fn answer(&mut self, wait: Duration) -> String {
        let until = Instant::now() + wait;
        loop {
            let line = self
                .answers
                .recv_timeout(until.saturating_duration_since(Instant::now()))
                .unwrap_or_else(|_| panic!("no answer within {wait:?}"));
            match line.strip_prefix("MESSAGE ") {
                Some(message) => self.said.push(message.to_owned()),
                None => return line,
            }
        }
    }

    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.answer(Duration::from_secs(10))
    }

    /// Whether the process ended within `wait`, with success.
    fn ended(&mut self, wait: Duration) -> bool {
        let start = Instant::now();
        while start.elapsed() < wait {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.success();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        false
    }
}

fn coordinates(answer: &str) -> (usize, usize) {
    let (x, y) = answer
        .split_once(',')
        .unwrap_or_else(|| panic!("'{answer}' is no move"));
    (x.trim().parse().unwrap(), y.trim().parse().unwrap())
}

/// The rules player (X, the manager's side) against the engine (O) from an empty board
/// of `rules`, for at most `plies` plies or to the end: the position reached and the
/// engine's slowest answer.
fn against_rules(
    engine: &mut Engine,
    rules: Rules,
    seed: u64,
    plies: usize,
) -> (Position, Duration) {
    let mut position = Position::new(rules, Mark::X);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut opponent = RulesPlayer;
    let mut slowest = Duration::ZERO;
    while position.history().len() < plies && !position.is_over() {
        let square = opponent.choose(&position, &mut rng).unwrap();
        position.play(square).unwrap();
        if position.is_over() {
            break;
        }
        let (x, y) = (rules.column(square), rules.row(square));
        let asked = Instant::now();
        let answer = engine.ask(&format!("TURN {x},{y}"));
        slowest = slowest.max(asked.elapsed());
        let (x, y) = coordinates(&answer);
        let reply = rules.square(x, y).unwrap();
        position
            .play(reply)
            .unwrap_or_else(|error| panic!("{answer}: {error}"));
    }
    (position, slowest)
}

/// A whole game on 20x20 under `INFO rule {rule}`, the engine O against the rules player
/// (X), judged by `rules`: the final position, after END has ended the engine.
fn whole_game(rule: u32, rules: Rules) -> Position {
    let mut engine = Engine::start();
    assert_eq!(engine.ask("START 20"), "OK");
    engine.send("INFO timeout_match 300000");
    engine.send("INFO timeout_turn 200");
    engine.send("INFO max_memory 83886080");
    engine.send("INFO game_type 1");
    engine.send(&format!("INFO rule {rule}"));
    assert!(
        engine.ask("ABOUT").starts_with("name=\"ttt\""),
        "no MESSAGE first"
    );
    let (position, slowest) = against_rules(&mut engine, rules, 3, usize::MAX);
    assert!(
        slowest < Duration::from_millis(200 + 100),
        "each answer within the turn's time (slowest {slowest:?})"
    );
    // Each move came after a line saying what the engine thought.
    let moves = position.ply().div_ceil(2);
    assert_eq!(engine.said.len(), moves, "{:?}", engine.said);
    assert!(
        engine
            .said
            .iter()
            .all(|said| said.starts_with("depth ") && said.contains(" nps ")),
        "{:?}",
        engine.said
    );
    engine.send("END");
    assert!(engine.ended(Duration::from_secs(2)));
    position
}

#[test]
fn a_whole_game_under_a_manager_s_commands() {
    let position = whole_game(0, Rules::new(20, 20, 5).unwrap());
    assert_eq!(
        position.outcome(),
        Some(Outcome::Win(Mark::O)),
        "the engine beats the rules player:\n{}",
        position.board()
    );
}

#[test]
fn under_rule_one_the_engine_wins_with_exactly_five() {
    let exact = Rules::new(20, 20, 5).unwrap().with_win_rule(WinRule::Exact);
    let position = whole_game(1, exact);
    assert_eq!(
        position.outcome(),
        Some(Outcome::Win(Mark::O)),
        "the engine beats the rules player:\n{}",
        position.board()
    );
    assert!(
        position.winning_lines().iter().all(|line| line.len() == 5),
        "{}",
        position.board()
    );
}

/// A board for the engine (field 1) and its opponent (field 2), then DONE: the answer, and
/// what the engine said it thought.
fn answer_to_board(
    rule: u32,
    own: &[(usize, usize)],
    opponent: &[(usize, usize)],
) -> (String, Vec<String>) {
    let mut engine = Engine::start();
    engine.send(&format!("INFO rule {rule}"));
    assert_eq!(engine.ask("START 15"), "OK");
    engine.send("INFO timeout_turn 300");
    engine.send("BOARD");
    for (stones, field) in [(own, 1), (opponent, 2)] {
        for (x, y) in stones {
            engine.send(&format!("{x},{y},{field}"));
        }
    }
    let answer = engine.ask("DONE");
    engine.send("END");
    assert!(engine.ended(Duration::from_secs(2)));
    (answer, engine.said)
}

#[test]
fn under_rule_one_six_in_a_row_is_no_win_to_take() {
    // Row 7: the opponent's stone, four of the engine's, a gap, one more of the engine's:
    // the gap makes six. Column 12: four of the opponent's down from row 3, the engine's
    // stone above them, row 7 free: the opponent's five.
    let own = [(3, 7), (4, 7), (5, 7), (6, 7), (8, 7), (12, 2)];
    let opponent = [(2, 7), (12, 3), (12, 4), (12, 5), (12, 6), (0, 14)];
    // Freestyle: the six wins, and the engine says so.
    let (answer, said) = answer_to_board(0, &own, &opponent);
    assert_eq!(answer, "7,7");
    assert!(said.len() == 1 && said[0].ends_with("win in 1"), "{said:?}");
    // Exactly five: the six wins nothing, and the five must be blocked.
    assert_eq!(answer_to_board(1, &own, &opponent).0, "12,7");
}

#[test]
fn a_board_a_takeback_and_malformed_lines() {
    let mut engine = Engine::start();
    assert!(engine.ask("TURN 1,1").starts_with("ERROR"), "no board yet");
    assert!(engine.ask("START 2").starts_with("ERROR"));
    assert!(engine.ask("START fifteen").starts_with("ERROR"));
    assert_eq!(engine.ask("RECTSTART 20,15"), "OK");
    engine.send("INFO timeout_turn 100");
    engine.send("BOARD");
    engine.send("9,7,1");
    engine.send("10,7,1");
    engine.send("11,7,1");
    engine.send("12,7,1");
    engine.send("9,8,2");
    engine.send("10,8,2");
    engine.send("11,8,2");
    engine.send("12,8,2");
    // Four in a row on row 7, open at both ends: the engine completes five.
    let answer = engine.ask("DONE");
    assert!(answer == "8,7" || answer == "13,7", "{answer}");
    assert_eq!(engine.ask("TAKEBACK 12,8"), "OK");
    assert!(engine.ask("TAKEBACK 12,8").starts_with("ERROR"));
    assert!(engine.ask("TURN 25,3").starts_with("ERROR"));
    assert!(engine.ask("TURN 9,7").starts_with("ERROR"), "taken");
    assert!(engine.ask("DANCE").starts_with("UNKNOWN"));
    assert!(engine.ask("TURN").starts_with("ERROR"));
    engine.send("");
    assert!(engine.ask(&"x".repeat(10_000)).starts_with("ERROR"));
    assert!(engine.ask("\u{1b}[31m").starts_with("UNKNOWN"));
    engine.send("END");
    assert!(engine.ended(Duration::from_secs(2)));
}

#[test]
fn end_and_the_clock_are_read_while_it_thinks() {
    let mut engine = Engine::start();
    assert_eq!(engine.ask("START 20"), "OK");
    engine.send("INFO timeout_turn 20000");
    engine.send("BEGIN");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("INFO time_left 15000");
    engine.send("END");
    assert!(
        engine.ended(Duration::from_secs(2)),
        "END during a 20-second think ends it at once"
    );
    // End of input is an end too.
    let mut engine = Engine::start();
    assert_eq!(engine.ask("START 15"), "OK");
    engine.stdin = None;
    assert!(engine.ended(Duration::from_secs(2)));
}

#[test]
fn a_large_hash_costs_no_turn_its_time() {
    // Tables of 3 GB (the machine needs that much memory: the brain refuses a larger
    // `--hash`). Writing them through took longer than a turn (613 ms answers to a 200 ms
    // turn, when the engine was made anew on each move); made of untouched zeroed pages,
    // ready between turns and kept from move to move, they cost no turn its time.
    let mut engine = Engine::start_with(&["--hash", "3000"]);
    assert_eq!(engine.ask("START 15"), "OK");
    engine.send("INFO timeout_turn 200");
    assert!(engine.ask("ABOUT").starts_with("name=\"ttt\""));
    let rules = Rules::new(15, 15, 5).unwrap();
    let (_, slowest) = against_rules(&mut engine, rules, 5, 16);
    assert!(
        slowest < Duration::from_millis(200 + 100),
        "each answer within the turn's time (slowest {slowest:?})"
    );
    engine.send("END");
    assert!(engine.ended(Duration::from_secs(5)));
}
