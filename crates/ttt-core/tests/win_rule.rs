//! Freestyle (k or more wins) against exactly k (an overline wins nothing): tables of moves
//! and boards with what each rule makes of them, and random games checked against a
//! win test written here from scratch.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

use proptest::prelude::*;
use ttt_core::{Mark, Outcome, Position, PositionError, Rules, Square, WinRule};

/// The rules of a `width` x `height` board with `k` in a row under `win`.
fn rules(width: usize, height: usize, k: usize, win: WinRule) -> Rules {
    Rules::new(width, height, k).unwrap().with_win_rule(win)
}

/// The square in `column` and `row` of `rules`' board.
fn at(rules: Rules, column: usize, row: usize) -> Square {
    rules.square(column, row).unwrap()
}

/// X to move on a 9x9 board with k=5, and what one move makes under each rule.
struct Case {
    name: &'static str,
    /// The rows, `.` free.
    rows: [&'static str; 9],
    /// The square X plays: column, row.
    play: (usize, usize),
    /// The lengths of the lines it wins with under freestyle, longest first (none: the game
    /// goes on).
    freestyle: &'static [usize],
    /// The same under exactly five.
    exact: &'static [usize],
}

const MOVES: &[Case] = &[
    Case {
        name: "a plain five wins under both",
        rows: [
            "xxxx.....",
            "ooo......",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "o........",
        ],
        play: (4, 0),
        freestyle: &[5],
        exact: &[5],
    },
    Case {
        name: "filling a gap to six: only freestyle wins",
        rows: [
            "xx.xxx...",
            "ooo.o....",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "o........",
        ],
        play: (2, 0),
        freestyle: &[6],
        exact: &[],
    },
    Case {
        name: "filling a gap to seven",
        rows: [
            ".xxx.xxx.",
            ".........",
            "oo.oo....",
            ".........",
            ".........",
            ".........",
            "o........",
            ".........",
            "o........",
        ],
        play: (4, 0),
        freestyle: &[7],
        exact: &[],
    },
    Case {
        name: "an own mark just past the end makes six down a column, not five",
        rows: [
            "x........",
            "x........",
            "x........",
            "x........",
            ".........",
            "x........",
            ".........",
            "oooo.....",
            "..o......",
        ],
        play: (0, 4),
        freestyle: &[6],
        exact: &[],
    },
    Case {
        name: "five with a gap then a mark beyond it wins under both",
        rows: [
            "...xxxx.x",
            ".........",
            "ooo.o....",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "o........",
        ],
        play: (2, 0),
        freestyle: &[5],
        exact: &[5],
    },
    Case {
        name: "five between the other side's marks wins under both",
        rows: [
            "oxxxx.o..",
            ".........",
            ".........",
            ".........",
            "o........",
            ".........",
            "o........",
            ".........",
            ".........",
        ],
        play: (5, 0),
        freestyle: &[5],
        exact: &[5],
    },
    Case {
        name: "a five down the edge wins under both",
        rows: [
            ".........",
            "x........",
            "x........",
            "x........",
            "x........",
            ".........",
            "oooo.....",
            ".........",
            ".........",
        ],
        play: (0, 5),
        freestyle: &[5],
        exact: &[5],
    },
    Case {
        name: "an overline across and an exact five down: the five wins",
        rows: [
            "...x.....",
            "...x.....",
            "...x.....",
            "...x.....",
            ".xx.xxx..",
            ".........",
            "oooo.o...",
            "ooo......",
            "o........",
        ],
        play: (3, 4),
        freestyle: &[6, 5],
        exact: &[5],
    },
    Case {
        name: "an overline on one diagonal and an exact five on the other: the five wins",
        rows: [
            "x.....x..",
            ".x...x...",
            "..x.x....",
            ".........",
            "..x.x....",
            ".....x...",
            ".........",
            "oooo.oooo",
            "o........",
        ],
        play: (3, 3),
        freestyle: &[6, 5],
        exact: &[5],
    },
    Case {
        name: "two overlines at once win nothing under exact",
        rows: [
            ".........",
            "....x....",
            "....x....",
            "....x....",
            ".xxx.xx..",
            "....x....",
            "....x....",
            "oooo.oooo",
            "oo.......",
        ],
        play: (4, 4),
        freestyle: &[6, 6],
        exact: &[],
    },
];

#[test]
fn a_move_wins_by_the_rule_s_own_lengths() {
    for case in MOVES {
        let name = case.name;
        for (win, lengths) in [
            (WinRule::Freestyle, case.freestyle),
            (WinRule::Exact, case.exact),
        ] {
            let rules = rules(9, 9, 5, win);
            let mut position = Position::parse(&case.rows.join("/"), rules, Mark::X)
                .unwrap_or_else(|error| panic!("{name} under {win}: {error}"));
            assert_eq!(
                position.outcome(),
                None,
                "{name} under {win}: before the move"
            );
            let square = at(rules, case.play.0, case.play.1);
            position.play(square).unwrap();
            let mut made: Vec<usize> = position.winning_lines().iter().map(|l| l.len()).collect();
            made.sort_unstable_by(|a, b| b.cmp(a));
            assert_eq!(made, lengths, "{name} under {win}");
            let outcome = (!lengths.is_empty()).then_some(Outcome::Win(Mark::X));
            assert_eq!(position.outcome(), outcome, "{name} under {win}");
            assert!(
                position
                    .winning_lines()
                    .iter()
                    .all(|line| line.contains(square)),
                "{name} under {win}: every line passes through the move"
            );
            assert_eq!(position.is_on_winning_line(square), outcome.is_some());
        }
    }
}

#[test]
fn a_position_keeps_its_rule_through_the_notation() {
    let rows = MOVES[1].rows.join("/");
    let exact = rules(9, 9, 5, WinRule::Exact);
    let position = Position::parse(&rows, exact, Mark::X).unwrap();
    let notation = position.to_string();
    assert!(notation.ends_with(" x k=5 exact"), "{notation}");
    assert_eq!(notation.parse::<Position>().unwrap(), position);
    let freestyle = Position::parse(&rows, exact.with_win_rule(WinRule::Freestyle), Mark::X);
    assert!(freestyle.unwrap().to_string().ends_with(" x k=5"));
}

/// Boards with the mark that moved first, k, and what each rule makes of them: the outcome,
/// or why no game reaches the board.
#[test]
fn boards_are_read_by_their_rule() {
    type Read = Result<Option<Outcome>, PositionError>;
    let cases: [(&str, Mark, usize, Read, Read); 5] = [
        // Both sides have six in a row.
        (
            "xxxxxx./oooooo./......./......./......./......./.......",
            Mark::X,
            5,
            Err(PositionError::BothWon),
            Ok(None),
        ),
        // X's six, made on its last move.
        (
            "xxxxxx./ooo.oo./......./......./......./......./.......",
            Mark::X,
            5,
            Ok(Some(Outcome::Win(Mark::X))),
            Ok(None),
        ),
        // Overlines only, and the board full: a draw under exact.
        (
            "xxxx/oooo/xxxx/oooo",
            Mark::X,
            3,
            Err(PositionError::BothWon),
            Ok(Some(Outcome::Draw)),
        ),
        // An overline of X's and an exact three apart: two lines no one move made under
        // freestyle; under exact one line, made last.
        (
            "xxxx./oo.oo/..xxx/o.o../.....",
            Mark::X,
            3,
            Err(PositionError::PlayAfterWin { winner: Mark::X }),
            Ok(Some(Outcome::Win(Mark::X))),
        ),
        // X's exact five and O's six, X to move: under exact, O played on after X won.
        (
            "xxxxx../oooooo./x....../......./......./......./.......",
            Mark::X,
            5,
            Err(PositionError::BothWon),
            Err(PositionError::PlayAfterWin { winner: Mark::X }),
        ),
    ];
    for (rows, first, k, freestyle, exact) in cases {
        let height = rows.split('/').count();
        let width = rows.split('/').next().unwrap().len();
        for (win, expected) in [(WinRule::Freestyle, freestyle), (WinRule::Exact, exact)] {
            let read = Position::parse(rows, rules(width, height, k, win), first);
            let outcome = read.map(|position| position.outcome());
            assert_eq!(outcome, expected, "{rows} under {win}");
        }
    }
    // The notation says the rule.
    let six = "xxxxxx./ooo.oo./......./......./......./......./....... o k=5";
    let read = |text: &str| text.parse::<Position>().map(|position| position.outcome());
    assert_eq!(read(six), Ok(Some(Outcome::Win(Mark::X))));
    assert_eq!(read(&format!("{six} exact")), Ok(None));
}

#[test]
fn the_notation_s_win_rule_field() {
    let exact: Position = "xxx/oo./... exact".parse().unwrap();
    assert_eq!(
        exact.rules(),
        Rules::default().with_win_rule(WinRule::Exact)
    );
    assert_eq!(exact.to_string(), "xxx/oo./... o k=3 exact");
    assert_eq!(exact.outcome(), Some(Outcome::Win(Mark::X)));
    let freestyle: Position = "xo../..../..../.... o k=4 freestyle".parse().unwrap();
    assert_eq!(freestyle.rules().win_rule(), WinRule::Freestyle);
    assert_eq!(freestyle.to_string(), "xo../..../..../.... o k=4");
    assert_eq!(
        "xo../..../..../.... exact".parse::<Position>(),
        Err(PositionError::MissingK {
            width: 4,
            height: 4
        })
    );
    assert!(matches!(
        "xo../..../..../.... x k=4 exact exact".parse::<Position>(),
        Err(PositionError::Field { .. })
    ));
    assert!(matches!(
        "xo../..../..../.... x k=4 exactly".parse::<Position>(),
        Err(PositionError::Field { .. })
    ));
}

/// The length of the run of `mark` through `square` along (`dx`, `dy`), both ways: written
/// here from scratch, so the test does not check the crate against itself.
fn run_through(position: &Position, square: Square, (dx, dy): (isize, isize)) -> usize {
    let rules = position.rules();
    let mark = position.board().get(square);
    let (column, row) = (rules.column(square) as isize, rules.row(square) as isize);
    let mut length = 1;
    for sign in [-1, 1] {
        let mut step = 1;
        while let Some(next) =
            rules.square_signed(column + sign * dx * step, row + sign * dy * step)
            && position.board().get(next) == mark
        {
            length += 1;
            step += 1;
        }
    }
    length
}

fn any_rules() -> impl Strategy<Value = Rules> {
    (3_usize..=12, 3_usize..=12, 3_usize..=5, any::<bool>()).prop_filter_map(
        "k fits",
        |(width, height, k, exact)| {
            let win = if exact {
                WinRule::Exact
            } else {
                WinRule::Freestyle
            };
            Some(Rules::new(width, height, k).ok()?.with_win_rule(win))
        },
    )
}

proptest! {
    /// Every move of a random game wins exactly when a run through it has a winning length:
    /// k or more under freestyle, as before the rule existed, and exactly k under exact.
    #[test]
    fn every_move_wins_as_the_rule_says(rules in any_rules(), picks in prop::collection::vec(any::<prop::sample::Index>(), 0..120)) {
        let mut position = Position::new(rules, Mark::X);
        for pick in picks {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let square = moves[pick.index(moves.len())];
            let mover = position.to_move();
            position.play(square).unwrap();
            let runs: Vec<usize> = [(1, 0), (0, 1), (1, 1), (1, -1)]
                .into_iter()
                .map(|direction| run_through(&position, square, direction))
                .collect();
            let k = rules.k();
            let winning: Vec<usize> = runs
                .iter()
                .copied()
                .filter(|&length| match rules.win_rule() {
                    WinRule::Freestyle => length >= k,
                    WinRule::Exact => length == k,
                })
                .collect();
            let mut lines: Vec<usize> = position.winning_lines().iter().map(|l| l.len()).collect();
            let mut expected = winning.clone();
            lines.sort_unstable();
            expected.sort_unstable();
            prop_assert_eq!(lines, expected, "{}", position);
            if !winning.is_empty() {
                prop_assert_eq!(position.outcome(), Some(Outcome::Win(mover)));
            } else if position.board().is_full() {
                prop_assert_eq!(position.outcome(), Some(Outcome::Draw));
            } else {
                prop_assert_eq!(position.outcome(), None);
            }
            // The notation keeps the rule, and freestyle's text is what it always was.
            let notation = position.to_string();
            prop_assert_eq!(notation.parse::<Position>().unwrap(), position.clone());
            prop_assert_eq!(notation.ends_with(" exact"), rules.win_rule() == WinRule::Exact);
            if position.is_over() {
                break;
            }
        }
        let text = rules.to_string();
        prop_assert_eq!(text.parse::<Rules>().unwrap(), rules);
        if rules.win_rule() == WinRule::Freestyle {
            prop_assert_eq!(text, format!("{}x{}, k={}", rules.width(), rules.height(), rules.k()));
        }
    }
}
