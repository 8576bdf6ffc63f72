//! Speed of the 3x3 game tree, the statistics, valuing every position, the proofs of
//! `ttt solve`, and `count` and `analyze` on 4x4.
//!
//! Each benchmark checks what it computed, so a fast wrong answer cannot pass for speed.
//! Run with `cargo bench -p ttt-solver`.

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::panic,
    reason = "benchmark harness"
)]

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use ttt_core::{Mark, Position, Rules};
use ttt_solver::{GameResult, Progress, ProofLimits, ProofSearch, Solver, count, walk_tree};

fn reachable() -> Vec<Position> {
    ttt_reference::reachable(&Position::default())
}

fn benches(c: &mut Criterion) {
    let rules = Rules::default();
    c.bench_function("a: walk the whole 3x3 game tree node by node", |b| {
        b.iter(|| {
            let tree = walk_tree(black_box(rules)).unwrap();
            assert_eq!(tree.nodes, 549_946);
            assert_eq!(tree.games.total(), 255_168);
        });
    });
    c.bench_function("b: count's statistics for 3x3", |b| {
        b.iter(|| {
            let stats = count(black_box(rules)).unwrap();
            assert_eq!(stats.tree.games.total(), 255_168);
            assert_eq!(
                (stats.positions, stats.positions_up_to_symmetry),
                (5_478, 765)
            );
            assert_eq!(
                (stats.terminal_positions, stats.terminal_up_to_symmetry),
                (958, 138)
            );
            assert_eq!(stats.value.result, GameResult::Draw);
        });
    });
    let positions = reachable();
    assert_eq!(positions.len(), 5_478);
    c.bench_function("c: value all 5,478 positions with a fresh solver", |b| {
        b.iter(|| {
            let mut solver = Solver::new();
            let mut draws = 0;
            for position in &positions {
                if solver.value(black_box(position)).unwrap().result == GameResult::Draw {
                    draws += 1;
                }
            }
            // Drawn under perfect play: the empty board, and many more (with the full boards).
            assert!(draws > 1_000, "{draws}");
            assert_eq!(
                solver.value(&positions[0]).unwrap().result,
                GameResult::Draw
            );
        });
    });
}

/// `ttt solve` from the empty board: the published m,n,k results, timed, by each search.
fn proofs(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    let (stop, progress) = (AtomicBool::new(false), Progress::default());
    for (width, height, k, expected) in [
        (4, 4, 4, GameResult::Draw),
        (5, 4, 4, GameResult::Draw),
        (5, 5, 4, GameResult::Draw),
        (6, 5, 4, GameResult::Win),
        (5, 5, 5, GameResult::Draw),
        (6, 4, 4, GameResult::Draw),
        (6, 6, 4, GameResult::Win),
        (6, 6, 5, GameResult::Draw),
        (7, 6, 5, GameResult::Draw),
        (7, 7, 5, GameResult::Draw),
    ] {
        let rules = Rules::new(width, height, k).unwrap();
        let empty = Position::new(rules, Mark::X);
        for search in ProofSearch::ALL {
            group.bench_function(format!("{search} {width}x{height} k={k}"), |b| {
                b.iter(|| {
                    let limits = ProofLimits {
                        table_bytes: 256 << 20,
                        stop: &stop,
                        progress: &progress,
                        max_nodes: None,
                    };
                    let proof = search.prove(black_box(&empty), limits).unwrap();
                    assert_eq!(proof.result, expected);
                });
            });
        }
    }
    group.finish();
}

/// The 4x4 boards, where the exact solver asks the prover first and folds symmetries:
/// `count`'s statistics and `analyze`'s values of every move from the empty board.
fn four_by_four(c: &mut Criterion) {
    let mut group = c.benchmark_group("4x4");
    group.sample_size(10);
    for (k, expected) in [(3, GameResult::Win), (4, GameResult::Draw)] {
        let rules = Rules::new(4, 4, k).unwrap();
        group.bench_function(format!("count's statistics, k={k}"), |b| {
            b.iter(|| {
                let stats = count(black_box(rules)).unwrap();
                assert_eq!(stats.value.result, expected);
                if k == 4 {
                    assert_eq!(stats.positions, 9_722_011);
                }
            });
        });
        let empty = Position::new(rules, Mark::X);
        group.bench_function(
            format!("every move valued from the empty board, k={k}"),
            |b| {
                b.iter(|| {
                    let moves = Solver::new().move_values(black_box(&empty)).unwrap();
                    assert_eq!(moves.len(), 16);
                    assert_eq!(moves[0].value.result, expected);
                });
            },
        );
    }
    group.finish();
}

criterion_group!(solver, benches, proofs, four_by_four);
criterion_main!(solver);
