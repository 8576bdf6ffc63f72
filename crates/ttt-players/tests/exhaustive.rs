//! Exhaustive proofs on 3x3: perfect never loses and wins fastest; rules follows its steps.
//! And perfect on random 4x4 positions, where it asks the prover first.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

use std::collections::HashSet;

use rand::SeedableRng;
use rand::rngs::StdRng;
use ttt_core::{Mark, Outcome, Position, Rules, Square};
use ttt_players::{CentreOpening, Perfect, Player, RuleStep, RulesPlayer};
use ttt_reference::Minimax;
use ttt_solver::Solver;

/// The eight lines of tic-tac-toe, written out by hand.
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// Every position reachable from the empty board with `first` to move, the empty one too.
fn reachable(first: Mark) -> Vec<Position> {
    ttt_reference::reachable(&Position::new(Rules::default(), first))
}

/// Plays every game in which `perfect` (playing `mark`) makes any of its perfect choices and
/// the opponent tries every move; no game may end in a loss for `mark`.
struct Prover {
    perfect: Box<dyn Player>,
    centre: bool,
    solver: Solver,
    rng: StdRng,
    games: u64,
}

fn never_loses(position: &Position, mark: Mark, prover: &mut Prover) {
    if let Some(outcome) = position.outcome() {
        assert_ne!(outcome, Outcome::Win(!mark), "perfect lost: {position}");
        prover.games += 1;
        return;
    }
    let choices = if position.to_move() == mark {
        let chosen = prover.perfect.choose(position, &mut prover.rng).unwrap();
        if prover.centre && position.ply() == 0 {
            assert_eq!(chosen, Square::new(4));
            vec![chosen]
        } else {
            let best = prover.solver.best_moves(position).unwrap();
            assert!(
                best.contains(&chosen),
                "{chosen:?} is not a best move in {position}"
            );
            best
        }
    } else {
        position.legal_moves()
    };
    for square in choices {
        never_loses(&position.after(square).unwrap(), mark, prover);
    }
}

#[test]
fn perfect_never_loses_as_either_mark_moving_first_or_second_with_or_without_the_centre_opening() {
    for first in Mark::ALL {
        for mark in Mark::ALL {
            for centre in [false, true] {
                let perfect: Box<dyn Player> = if centre {
                    Box::new(CentreOpening::new(Perfect::new()))
                } else {
                    Box::new(Perfect::new())
                };
                let mut prover = Prover {
                    perfect,
                    centre,
                    solver: Solver::new(),
                    rng: StdRng::seed_from_u64(11),
                    games: 0,
                };
                never_loses(&Position::new(Rules::default(), first), mark, &mut prover);
                assert!(prover.games > 100, "{} games checked", prover.games);
            }
        }
    }
}

#[test]
fn centre_opening_takes_the_centre_only_on_the_empty_board() {
    let mut rng = StdRng::seed_from_u64(3);
    let mut player = CentreOpening::new(Perfect::new());
    assert_eq!(
        player.choose(&Position::default(), &mut rng).unwrap(),
        Square::new(4)
    );
    let position: Position = "x../.../...".parse().unwrap();
    assert_ne!(player.choose(&position, &mut rng).unwrap(), Square::new(0));
}

/// Checks that the move `perfect` chooses in `position` keeps the reference minimax's value
/// (the result, and how soon), and returns that value.
fn assert_perfect(
    perfect: &mut Perfect,
    minimax: &mut Minimax,
    position: &Position,
    rng: &mut StdRng,
) -> (ttt_reference::Score, u32) {
    let best = minimax.value(position);
    let chosen = perfect.choose(position, rng).unwrap();
    assert_eq!(
        minimax.move_value(position, chosen),
        best,
        "{position}: chose {chosen:?}"
    );
    best
}

#[test]
fn perfect_wins_fastest_and_loses_slowest_in_every_position() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut perfect = Perfect::new();
    let mut minimax = Minimax::new();
    let mut checked = 0;
    for position in reachable(Mark::X) {
        if position.is_over() {
            continue;
        }
        assert_perfect(&mut perfect, &mut minimax, &position, &mut rng);
        checked += 1;
    }
    assert_eq!(checked, 4_520);
}

#[test]
fn perfect_on_four_by_four_keeps_the_best_value_where_the_prover_answers_first() {
    use rand::RngExt;
    let mut rng = StdRng::seed_from_u64(9);
    let mut perfect = Perfect::new();
    let mut minimax = Minimax::new();
    let mut results = [0; 3];
    for k in [3, 4] {
        let rules = Rules::new(4, 4, k).unwrap();
        let mut checked = 0;
        while checked < 40 {
            let stones = rng.random_range(5..=9);
            let Some(position) = ttt_reference::random_position(rules, stones, &mut rng) else {
                continue;
            };
            let best = assert_perfect(&mut perfect, &mut minimax, &position, &mut rng);
            results[best.0 as usize] += 1;
            checked += 1;
        }
    }
    // Draws (where the prover alone answers) and wins or losses (where distances count).
    assert!(results.iter().all(|&n| n > 0), "{results:?}");
}

/// The rules player's steps, written out again for 3x3.
fn expected_step(position: &Position) -> (RuleStep, Vec<Square>) {
    let board = position.board();
    let free: Vec<usize> = (0..9)
        .filter(|&i| board.get(Square::new(i)).is_none())
        .collect();
    let completing = |mark: Mark| -> Vec<usize> {
        free.iter()
            .copied()
            .filter(|&i| {
                LINES.iter().any(|line| {
                    line.contains(&i)
                        && line
                            .iter()
                            .all(|&j| j == i || board.get(Square::new(j)) == Some(mark))
                })
            })
            .collect()
    };
    let mover = position.to_move();
    let steps = [
        (RuleStep::Win, completing(mover)),
        (RuleStep::Block, completing(!mover)),
        (
            RuleStep::Corner,
            [0, 2, 6, 8]
                .into_iter()
                .filter(|i| free.contains(i))
                .collect(),
        ),
        (
            RuleStep::Centre,
            [4].into_iter().filter(|i| free.contains(i)).collect(),
        ),
        (
            RuleStep::Side,
            [1, 3, 5, 7]
                .into_iter()
                .filter(|i| free.contains(i))
                .collect(),
        ),
    ];
    let (step, squares) = steps
        .into_iter()
        .find(|(_, squares)| !squares.is_empty())
        .unwrap();
    (step, squares.into_iter().map(Square::new).collect())
}

#[test]
fn rules_follows_its_five_steps_in_order_in_every_position() {
    let mut rng = StdRng::seed_from_u64(9);
    let mut seen_steps = HashSet::new();
    for first in Mark::ALL {
        for position in reachable(first) {
            if position.is_over() {
                assert_eq!(RulesPlayer::candidates(&position), None);
                continue;
            }
            let expected = expected_step(&position);
            assert_eq!(
                RulesPlayer::candidates(&position),
                Some(expected.clone()),
                "{position}"
            );
            for _ in 0..4 {
                let chosen = RulesPlayer.choose(&position, &mut rng).unwrap();
                assert!(expected.1.contains(&chosen), "{position}: {chosen:?}");
            }
            seen_steps.insert(expected.0);
        }
    }
    assert_eq!(seen_steps.len(), 5, "every step is exercised");
}

#[test]
fn random_plays_every_free_square() {
    let mut rng = StdRng::seed_from_u64(1);
    let position: Position = "xo./.../...".parse().unwrap();
    let mut seen = HashSet::new();
    for _ in 0..500 {
        let square = ttt_players::Random.choose(&position, &mut rng).unwrap();
        assert!(position.is_legal(square));
        seen.insert(square);
    }
    assert_eq!(seen.len(), 7);
}
