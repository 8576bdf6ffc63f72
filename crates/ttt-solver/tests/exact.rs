//! Exactly k, where an overline wins nothing: the solver, the counts and the prover against
//! the reference minimax, which knows wins only through `ttt-core`; and the prover under
//! both rules on boards where its pairing strategies decide.

#![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

mod common;

use std::sync::atomic::AtomicBool;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use ttt_core::{Mark, Position, Rules, WinRule};
use ttt_reference::{Minimax, random_position, reachable};
use ttt_solver::{Progress, ProofLimits, ProofSearch, Solver, count};

fn exact(width: usize, height: usize, k: usize) -> Rules {
    Rules::new(width, height, k)
        .unwrap()
        .with_win_rule(WinRule::Exact)
}

#[test]
fn every_position_of_a_small_board_is_counted_and_valued_as_the_reference_does() {
    let rules = exact(4, 3, 3);
    let positions = reachable(&Position::new(rules, Mark::X));
    let freestyle = reachable(&Position::new(
        rules.with_win_rule(WinRule::Freestyle),
        Mark::X,
    ));
    // Not vacuous: rows of four make overlines here, and the games differ.
    assert!(
        positions.len() > freestyle.len(),
        "{} against {}",
        positions.len(),
        freestyle.len()
    );
    let stats = count(rules).unwrap();
    assert_eq!(stats.positions, positions.len() as u64);
    let ends = positions.iter().filter(|p| p.is_over()).count();
    assert_eq!(stats.terminal_positions, ends as u64);
    let mut minimax = Minimax::new();
    assert_eq!(
        stats.value,
        common::as_value(minimax.value(&Position::new(rules, Mark::X)))
    );
    common::assert_valued_as_minimax_values(&positions);
}

#[test]
fn positions_of_four_by_four_are_valued_as_the_reference_does() {
    let rules = exact(4, 4, 3);
    let mut rng = StdRng::seed_from_u64(5);
    let (mut minimax, mut solver) = (Minimax::new(), Solver::new());
    let mut checked = 0;
    while checked < 40 {
        let stones = rng.random_range(5..=9);
        let Some(position) = random_position(rules, stones, &mut rng) else {
            continue;
        };
        assert_eq!(
            solver.value(&position).unwrap(),
            common::as_value(minimax.value(&position)),
            "{position}"
        );
        checked += 1;
    }
}

#[test]
fn proofs_on_bigger_boards_agree_with_the_reference() {
    let mut rng = StdRng::seed_from_u64(8);
    // Under both rules; among them boards where the prover's pairings decide (every line
    // as long as a side, five in a row on 5x5).
    let boards = [
        ((4, 4, 3), 4..=8),
        ((5, 5, 4), 15..=17),
        ((4, 4, 4), 7..=9),
        ((5, 4, 4), 10..=12),
        ((5, 5, 5), 15..=17),
    ];
    for (((width, height, k), stones), win) in boards
        .into_iter()
        .flat_map(|board| [(board.clone(), WinRule::Exact), (board, WinRule::Freestyle)])
    {
        let rules = Rules::new(width, height, k).unwrap().with_win_rule(win);
        assert_proved_as_the_reference_values(rules, stones, 30, &mut rng);
    }
}

#[test]
fn proofs_from_the_middle_of_the_game_agree_with_the_reference() {
    // Far from the end, where the prover passes moves over by the zones of the moves it
    // refuted: a wrong zone shows as a wrong result here.
    let mut rng = StdRng::seed_from_u64(13);
    let boards = [
        ((4, 4, 3), 6..=7, 400),
        ((5, 4, 4), 9..=10, 30),
        ((5, 5, 4), 15..=16, 30),
        ((6, 4, 4), 14..=15, 30),
    ];
    for ((width, height, k), stones, positions) in boards {
        let rules = Rules::new(width, height, k).unwrap();
        assert_proved_as_the_reference_values(rules, stones, positions, &mut rng);
    }
}

/// Proves `positions` random positions of `rules` with a number of marks in `stones`, by
/// each search: each result, and the position after each best move, as the reference minimax values them.
fn assert_proved_as_the_reference_values(
    rules: Rules,
    stones: std::ops::RangeInclusive<usize>,
    positions: usize,
    rng: &mut StdRng,
) {
    let (stop, progress) = (AtomicBool::new(false), Progress::default());
    let limits = ProofLimits {
        table_bytes: 1 << 24,
        stop: &stop,
        progress: &progress,
        max_nodes: None,
    };
    let mut minimax = Minimax::new();
    let mut results = [0; 3];
    let mut checked = 0;
    while checked < positions {
        let Some(position) = random_position(rules, rng.random_range(stones.clone()), rng) else {
            continue;
        };
        let (score, _) = minimax.value(&position);
        for search in ProofSearch::ALL {
            let proof = search.prove(&position, limits).unwrap();
            assert_eq!(
                proof.result,
                common::as_value((score, 0)).result,
                "{position} by {search}"
            );
            if let Some(square) = proof.best_move {
                let (after, _) = minimax.move_value(&position, square);
                assert_eq!(
                    after, score,
                    "{position} by {search}: the proof's move keeps the result"
                );
            }
        }
        results[score as usize] += 1;
        checked += 1;
    }
    // Not vacuous: wins and losses as well as draws.
    assert!(
        results.iter().filter(|&&n| n > 0).count() >= 2,
        "{rules}: {results:?}"
    );
}
