//! The known results of small m,n,k games, proved from the empty board.

#![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

use std::sync::atomic::AtomicBool;

use ttt_core::{Mark, Position, Rules};
use ttt_solver::{GameResult, Progress, ProofError, ProofLimits, ProofSearch};

/// (width, height, k, the first player's result), as published for m,n,k games.
const KNOWN: [(usize, usize, usize, GameResult); 12] = [
    (3, 3, 3, GameResult::Draw),
    (4, 3, 3, GameResult::Win),
    (4, 4, 3, GameResult::Win),
    (4, 4, 4, GameResult::Draw),
    (5, 4, 4, GameResult::Draw),
    (5, 5, 4, GameResult::Draw),
    (6, 5, 4, GameResult::Win),
    // Proved since the prover knows pairing strategies (issue 13's table).
    (5, 5, 5, GameResult::Draw),
    (6, 4, 4, GameResult::Draw),
    (6, 6, 4, GameResult::Win),
    (6, 6, 5, GameResult::Draw),
    (7, 6, 5, GameResult::Draw),
];

#[test]
fn every_known_result_is_proved() {
    let (stop, progress) = (AtomicBool::new(false), Progress::default());
    for (search, (width, height, k, expected)) in every_search(KNOWN) {
        let prove = |position: &Position, limits| search.prove(position, limits);
        let rules = Rules::new(width, height, k).unwrap();
        let limits = limits(1 << 30, &stop, &progress);
        let proof = prove(&Position::new(rules, Mark::X), limits).unwrap();
        assert_eq!(proof.result, expected, "{rules} by {search}");
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
        assert_eq!(
            reply.result, opposite,
            "{rules} after {square:?} by {search}"
        );
    }
}

/// Each of `cases` with each search.
fn every_search<T: Clone>(cases: impl IntoIterator<Item = T>) -> Vec<(ProofSearch, T)> {
    let cases: Vec<T> = cases.into_iter().collect();
    ProofSearch::ALL
        .into_iter()
        .flat_map(|search| cases.iter().map(move |case| (search, case.clone())))
        .collect()
}

/// 7x7 with k = 5 is a draw (Hsu et al., 2020): a few seconds in a release build.
///
/// ```text
/// cargo test --release -p ttt-solver --test known_results -- --ignored
/// ```
#[test]
#[ignore = "seconds in release, minutes in a test build: run with --release -- --ignored"]
fn seven_by_seven_with_five_in_a_row_is_a_draw() {
    let (stop, progress) = (AtomicBool::new(false), Progress::default());
    let limits = limits(1 << 30, &stop, &progress);
    let empty = Position::new(Rules::new(7, 7, 5).unwrap(), Mark::X);
    for search in ProofSearch::ALL {
        let proof = search.prove(&empty, limits).unwrap();
        assert_eq!(proof.result, GameResult::Draw, "{search}");
        // Neither side wins after the move given either.
        let after = empty.after(proof.best_move.unwrap()).unwrap();
        let reply = search.prove(&after, limits).unwrap();
        assert_eq!(reply.result, GameResult::Draw, "{search}");
    }
}

#[test]
fn a_table_far_too_small_turns_over_and_still_proves_in_few_positions() {
    let (stop, progress) = (AtomicBool::new(false), Progress::default());
    for (search, (width, height, k, expected)) in every_search([
        (6, 6, 4, GameResult::Win),
        (5, 5, 4, GameResult::Draw),
        (7, 6, 5, GameResult::Draw),
    ]) {
        let rules = Rules::new(width, height, k).unwrap();
        let empty = Position::new(rules, Mark::X);
        let roomy = prove_within(search, &empty, None).unwrap();
        // Some 16 KiB: a few hundred positions, a small part of what the proof keeps.
        let limits = limits(16 << 10, &stop, &progress);
        let cramped = search.prove(&empty, limits).unwrap();
        assert_eq!(cramped.result, expected, "{rules} by {search}");
        assert!(cramped.table_bytes <= 16 << 10, "{rules} by {search}");
        // A table that kept nothing new once full searched 4 to 10 times more here with
        // alpha-beta. Df-pn comes back to the same positions again and again, and leans on
        // its table more: with about 100 entries it searches 2 to 9 times more (6x6, k=4:
        // 15 times when it forgot its deepest positions rather than its cheapest).
        let allowed = match search {
            ProofSearch::AlphaBeta => 2,
            ProofSearch::ProofNumber => 12,
        };
        assert!(
            cramped.nodes <= allowed * roomy.nodes,
            "{rules} by {search}: {} positions searched with the small table, {} with room",
            cramped.nodes,
            roomy.nodes
        );
    }
}

#[test]
fn proofs_agree_with_the_exhaustive_solver_on_every_three_by_three_position() {
    let (stop, progress) = (AtomicBool::new(false), Progress::default());
    let limits = limits(1 << 24, &stop, &progress);
    let mut solver = ttt_solver::Solver::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![Position::default()];
    while let Some(position) = stack.pop() {
        if !seen.insert(position.clone()) {
            continue;
        }
        for search in ProofSearch::ALL {
            let proof = search.prove(&position, limits).unwrap();
            assert_eq!(
                proof.result,
                solver.value(&position).unwrap().result,
                "{position} by {search}"
            );
        }
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
    let (stop, progress) = (AtomicBool::new(true), Progress::default());
    let limits = limits(1 << 24, &stop, &progress);
    // A board whose proof takes far more than the first look at the stop request.
    let rules = Rules::new(8, 8, 5).unwrap();
    for search in ProofSearch::ALL {
        assert!(matches!(
            search.prove(&Position::new(rules, Mark::X), limits),
            Err(ttt_solver::ProofError::Stopped { .. })
        ));
    }
}

/// Limits of a table of `table_bytes`, with no bound on the positions searched.
fn limits<'a>(table_bytes: usize, stop: &'a AtomicBool, progress: &'a Progress) -> ProofLimits<'a> {
    ProofLimits {
        table_bytes,
        stop,
        progress,
        max_nodes: None,
    }
}

/// `search`'s proof with at most `max_nodes` positions searched.
fn prove_within(
    search: ProofSearch,
    position: &Position,
    max_nodes: Option<u64>,
) -> Result<ttt_solver::Proof, ProofError> {
    let (stop, progress) = (AtomicBool::new(false), Progress::default());
    let limits = ProofLimits {
        max_nodes,
        ..limits(1 << 24, &stop, &progress)
    };
    search.prove(position, limits)
}

#[test]
fn a_proof_stopped_at_any_moment_reports_only_what_it_proved() {
    // Small proofs, stopped after every possible number of positions.
    for (search, (width, height, k)) in every_search([(3, 3, 3), (4, 3, 3), (4, 4, 3)]) {
        let rules = Rules::new(width, height, k).unwrap();
        let empty = Position::new(rules, Mark::X);
        let full = prove_within(search, &empty, None).unwrap();
        let mut value_without_move = 0;
        let mut value_proved_at = None;
        for budget in 0..=full.nodes {
            match prove_within(search, &empty, Some(budget)) {
                Ok(proof) => {
                    let elapsed = proof.elapsed;
                    assert_eq!(
                        proof,
                        ttt_solver::Proof {
                            elapsed,
                            ..full.clone()
                        },
                        "{rules}"
                    );
                }
                Err(ProofError::Stopped {
                    result: Some(result),
                    ..
                }) => {
                    assert_eq!(result, full.result, "{rules} stopped at {budget}");
                    value_proved_at.get_or_insert(budget);
                    value_without_move += 1;
                }
                Err(ProofError::Stopped { result: None, .. }) => {
                    assert!(
                        value_proved_at.is_none(),
                        "{rules}: stopped at {budget} without the value proved at {value_proved_at:?}"
                    );
                }
                Err(error) => panic!("{error}"),
            }
        }
        // Df-pn reads the move that settled the root from its table, searching nothing.
        assert!(
            value_without_move > 0 || search == ProofSearch::ProofNumber,
            "{rules} by {search}: some stops fall while the best move is searched"
        );
    }
}

#[test]
fn boards_with_long_lines_are_searched_without_overflow() {
    // Debug builds (as `cargo test` makes) check every addition and shift.
    for (width, height, k) in [
        (3, 19, 19),
        (19, 3, 19),
        (3, 17, 17),
        (3, 18, 18),
        (4, 16, 16),
    ] {
        let rules = Rules::new(width, height, k).unwrap();
        for search in ProofSearch::ALL {
            let result = prove_within(search, &Position::new(rules, Mark::X), Some(200_000));
            assert!(
                matches!(result, Ok(_) | Err(ProofError::Stopped { .. })),
                "{rules} by {search}: {result:?}"
            );
        }
    }
}
