//! The known results of small m,n,k games, proved from the empty board.

#![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

use std::sync::atomic::{AtomicBool, AtomicU64};

use ttt_core::{Mark, Position, Rules};
use ttt_solver::{GameResult, ProofLimits, prove};

/// (width, height, k, the first player's result), as published for m,n,k games.
const KNOWN: [(usize, usize, usize, GameResult); 7] = [
    (3, 3, 3, GameResult::Draw),
    (4, 3, 3, GameResult::Win),
    (4, 4, 3, GameResult::Win),
    (4, 4, 4, GameResult::Draw),
    (5, 4, 4, GameResult::Draw),
    (5, 5, 4, GameResult::Draw),
    (6, 5, 4, GameResult::Win),
];

#[test]
fn every_known_result_is_proved() {
    let (stop, nodes) = (AtomicBool::new(false), AtomicU64::new(0));
    for (width, height, k, expected) in KNOWN {
        let rules = Rules::new(width, height, k).unwrap();
        let limits = ProofLimits {
            table_bytes: 1 << 30,
            stop: &stop,
            nodes: &nodes,
        };
        let proof = prove(&Position::new(rules, Mark::X), limits).unwrap();
        assert_eq!(proof.result, expected, "{rules}");
        // The move given keeps the result: the position after it is worth the opposite to
        // the other side.
        let square = proof.best_move.unwrap();
        let after = Position::new(rules, Mark::X).after(square).unwrap();
        let reply = prove(&after, limits).unwrap();
        let opposite = match expected {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        };
        assert_eq!(reply.result, opposite, "{rules} after {square:?}");
    }
}

#[test]
fn proofs_agree_with_the_exhaustive_solver_on_every_three_by_three_position() {
    let (stop, nodes) = (AtomicBool::new(false), AtomicU64::new(0));
    let limits = ProofLimits {
        table_bytes: 1 << 24,
        stop: &stop,
        nodes: &nodes,
    };
    let mut solver = ttt_solver::Solver::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![Position::default()];
    while let Some(position) = stack.pop() {
        if !seen.insert(position.to_string()) {
            continue;
        }
        let proof = prove(&position, limits).unwrap();
        assert_eq!(
            proof.result,
            solver.value(&position).unwrap().result,
            "{position}"
        );
        stack.extend(
            position
                .legal_moves()
                .into_iter()
                .map(|s| position.after(s).unwrap()),
        );
    }
    assert_eq!(seen.len(), 5_478);
}

#[test]
fn a_stop_request_ends_the_proof_without_a_result() {
    let (stop, nodes) = (AtomicBool::new(true), AtomicU64::new(0));
    let limits = ProofLimits {
        table_bytes: 1 << 24,
        stop: &stop,
        nodes: &nodes,
    };
    let rules = Rules::new(6, 6, 5).unwrap();
    assert!(matches!(
        prove(&Position::new(rules, Mark::X), limits),
        Err(ttt_solver::ProofError::Stopped { .. })
    ));
}
