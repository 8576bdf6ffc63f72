//! Game records in and out of SGF and Piskvork's PSQ: every game written and read back is
//! the same game (property tests over random games on random boards), and files written
//! by hand after the formats' published descriptions read as their moves say, with a
//! clear error naming a bad move.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

use proptest::prelude::*;
use ttt_core::{Mark, Outcome, Position, Rules, Square, WinRule};
use ttt_play::Seat;
use ttt_play::records::{GameRecord, ImportError, psq, sgf};
use ttt_players::Strength;

/// A seat of any kind, engines with awkward commands among them.
fn seat() -> impl Strategy<Value = Seat> {
    prop_oneof![
        Just(Seat::Human),
        Just(Seat::Computer(Strength::Random)),
        Just(Seat::Computer(Strength::Search)),
        "[a-z/\\]\\\\ -]{1,12}"
            .prop_map(|command| { format!("brain:x{command}").parse().unwrap_or(Seat::Human) }),
    ]
}

/// A random game on a random board: moves until it ends or `stop` of them, maybe a
/// forfeit at the end.
fn game() -> impl Strategy<Value = GameRecord> {
    (
        3_usize..=20,
        3_usize..=20,
        3_usize..=6,
        any::<bool>(),
        any::<bool>(),
        seat(),
        seat(),
        proptest::collection::vec(any::<u16>(), 0..60),
        0_u64..4_000_000_000,
        any::<bool>(),
    )
        .prop_filter_map(
            "a board ttt plays",
            |(width, height, k, exact, o_first, x, o, picks, started, forfeit)| {
                let win = if exact {
                    WinRule::Exact
                } else {
                    WinRule::Freestyle
                };
                let rules = Rules::new(width, height, k.min(width.max(height)))
                    .ok()?
                    .with_win_rule(win);
                let first = if o_first { Mark::O } else { Mark::X };
                let mut record = GameRecord::new(rules, x, o, first, started);
                let mut position = Position::new(rules, first);
                for pick in picks {
                    if position.is_over() {
                        break;
                    }
                    let legal = position.legal_moves();
                    let square = legal[usize::from(pick) % legal.len()];
                    position.play(square).unwrap();
                    record.moves.push(square);
                }
                match position.outcome() {
                    Some(outcome) => record.finish(outcome, started + 100),
                    None if forfeit => {
                        let loser = position.to_move();
                        record.finish(Outcome::Win(!loser), started + 100);
                        record.forfeit =
                            Some(format!("the engine '{}' stopped]", record.seat(loser)));
                    }
                    None => {}
                }
                Some(record)
            },
        )
}

/// `record` as a file that keeps dates to the day would give it back.
/// Text made of the pieces of SGF and PSQ files, and any character at all between them
/// (escapes and other control characters too).
fn near_a_game_file() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => prop::sample::select(vec![
            "(", ")", ";", "]", "\\", "GM[4]", "GM[", "SZ[", "SZ[15]", "RU[", "MK[", "PB[",
            "RE[", "B[", "W[", "hh", "ii", "Piskvorky ", "15x15, 11:11, 0\n", "8,8,0\n",
            "-1\n", ",", "\n",
        ])
        .prop_map(str::to_owned),
        1 => any::<char>().prop_map(String::from),
        2 => "[\\x00-\\x1f\\x7f]",
        1 => "[0-9]{1,25}",
    ];
    prop::collection::vec(piece, 0..60).prop_map(|pieces| pieces.concat())
}

fn to_the_day(mut record: GameRecord) -> GameRecord {
    record.started -= record.started % 86_400;
    if record.ended.is_some() {
        record.ended = Some(record.started);
    }
    record
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_game_written_as_sgf_reads_back_the_same(record in game()) {
        let text = sgf::write(&record);
        let back = sgf::read(&text);
        prop_assert_eq!(back, Ok(to_the_day(record)), "{}", text);
    }

    #[test]
    fn every_five_in_a_row_game_written_as_psq_reads_back_the_same(record in game()) {
        let rules = record.rules;
        let written = psq::write(&record);
        if rules.k() != 5 || rules.win_rule() != WinRule::Freestyle {
            prop_assert!(written.is_err());
            return Ok(());
        }
        let back = psq::read(&written.unwrap()).unwrap();
        // What the format keeps: the board, the moves, the players in order of play, and
        // the end the moves reach.
        prop_assert_eq!(back.rules, rules);
        prop_assert_eq!(&back.moves, &record.moves);
        prop_assert_eq!(back.seat(back.first), record.seat(record.first));
        prop_assert_eq!(back.seat(!back.first), record.seat(!record.first));
        let reached = record.position().unwrap().outcome();
        prop_assert_eq!(back.outcome.map(|outcome| outcome.winner().map(|w| w == back.first)),
            reached.map(|outcome| outcome.winner().map(|w| w == record.first)));
    }

    #[test]
    fn any_text_is_read_or_refused_in_words(text in "\\PC{0,200}") {
        // Never a panic: a game, or an error that says what is wrong.
        for read in [sgf::read(&text), psq::read(&text)] {
            if let Err(error) = read {
                prop_assert!(!error.to_string().is_empty());
            }
        }
    }

    #[test]
    fn hostile_files_are_refused_in_one_line_that_acts_on_no_terminal(text in near_a_game_file()) {
        for read in [sgf::read_all(&text), psq::read(&text).map(|game| vec![game])] {
            match read {
                Ok(games) => {
                    for game in games {
                        prop_assert!(game.position().is_ok());
                    }
                }
                Err(error) => {
                    let said = error.to_string();
                    prop_assert!(!said.is_empty());
                    prop_assert!(!said.chars().any(char::is_control), "{said:?}");
                }
            }
        }
    }
}

#[test]
fn a_hand_written_sgf_from_another_program_reads_with_its_result() {
    // As gomoku programs write it: a comment, line breaks, and two variations at the end
    // of the first sequence: the first goes on with the main line, the second is skipped.
    let text = "(;FF[4]GM[4]SZ[15]CA[UTF-8]AP[SomeGomoku:2.1]
        PB[Black player]PW[White player]DT[2024-05-17]RE[B+]C[a game \\] with a bracket]
        ;B[hh];W[ii];B[hg];W[ig];B[hf];W[ih];B[he]
        (;W[if];B[hd])
        (;W[aa];B[hd]))";
    let record = sgf::read(text).unwrap();
    assert_eq!(record.rules, Rules::new(15, 15, 5).unwrap());
    assert_eq!(record.moves.len(), 9);
    assert_eq!(record.moves[0], Square::new(7 * 15 + 7));
    assert_eq!(record.outcome, Some(Outcome::Win(Mark::X)));
    assert_eq!(
        (record.x.clone(), record.o.clone()),
        (Seat::Human, Seat::Human)
    );
    // Another program's players keep their names, and write back under them.
    assert_eq!(record.player(Mark::X), "Black player");
    assert!(sgf::write(&record).contains("PB[Black player]PW[White player]"));
    assert_eq!(
        ttt_play::records::utc_date(record.started),
        "2024-05-17 00:00"
    );
    // A resignation before the end: the loser forfeits.
    let resigned = sgf::read("(;GM[4]SZ[15:13]RE[W+R];B[hh];W[ii])").unwrap();
    assert_eq!((resigned.rules.width(), resigned.rules.height()), (15, 13));
    assert_eq!(resigned.outcome, Some(Outcome::Win(Mark::O)));
    assert_eq!(resigned.forfeit.as_deref(), Some("X resigned"));
    // Written back, a resignation stays one.
    assert!(sgf::write(&resigned).contains("RE[W+R]"));
}

#[test]
fn a_hand_written_psq_reads_with_its_players() {
    let text = "Piskvorky 20x20, 11:11, 0\r\n10,10,1203\r\n11,11,340\r\n10,11,2011\r\npbrain-one.exe\r\npbrain-two.exe\r\n-1\r\n";
    let record = psq::read(text).unwrap();
    assert_eq!(record.rules, Rules::new(20, 20, 5).unwrap());
    assert_eq!(
        record.moves,
        [9 * 20 + 9, 10 * 20 + 10, 10 * 20 + 9].map(Square::new)
    );
    assert_eq!(record.outcome, None);
}

#[test]
fn bad_files_are_refused_naming_what_is_wrong() {
    let cases: [(Result<GameRecord, ImportError>, &str); 9] = [
        (
            sgf::read("(;GM[1]SZ[19];B[pd])"),
            "not a gomoku game (GM[1]",
        ),
        (
            sgf::read("(;GM[4]SZ[15];B[hh];W[hh])"),
            "move 2 (h8) cannot be played",
        ),
        (
            sgf::read("(;GM[4]SZ[15];B[hh];B[ii])"),
            "move 2 (ii) cannot be played: it is B's, and W is to move",
        ),
        (
            sgf::read("(;GM[4]SZ[15];B[zz])"),
            "move 1 (zz) cannot be played: it is not a square",
        ),
        (sgf::read("(;GM[4]SZ[15]AB[hh][ii])"), "setup stones"),
        (sgf::read("(;GM[4]SZ[15];B[hh]"), "not closed"),
        (
            psq::read("Piskvorky 15x15, 11:11, 0\n8,8,0\n99,1,0\n"),
            "move 2 (99,1) cannot be played",
        ),
        (psq::read("hello"), "not a Piskvork game"),
        // Too large to be a number at all: once read as a name, the rest of the game lost.
        (
            psq::read("Piskvorky 15x15, 11:11, 0\n8,8,0\n99999999999999999999,1,0\n9,9,0\n"),
            "move 2 (99999999999999999999,1) cannot be played",
        ),
    ];
    for (read, said) in cases {
        let error = read.unwrap_err().to_string();
        assert!(error.contains(said), "{error:?} does not say {said:?}");
    }
    // Variations nested deeper than anyone writes are refused, not recursed into.
    let deep = format!(
        "{}(;GM[4]SZ[15];B[hh]{}",
        "(".repeat(20_000),
        ")".repeat(20_001)
    );
    let error = sgf::read(&deep).unwrap_err().to_string();
    assert!(error.contains("nested more than"), "{error}");
    // A result the moves contradict.
    let error =
        sgf::read("(;GM[4]SZ[15]RE[W+];B[hh];W[ii];B[hg];W[ig];B[hf];W[ih];B[he];W[if];B[hd])")
            .unwrap_err()
            .to_string();
    assert!(
        error.contains("O won, but the moves end in 'X wins'"),
        "{error}"
    );
}
