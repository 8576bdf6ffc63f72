//! Speed of the perfect player's move from the empty board: 3x3, and 4x4 with k=4.
//! Run with `cargo bench -p ttt-players`.

#![allow(missing_docs, clippy::unwrap_used, reason = "benchmark harness")]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::StdRng;
use ttt_core::{Mark, Position, Rules};
use ttt_players::{Perfect, Player};

fn benches(c: &mut Criterion) {
    let empty = Position::default();
    let mut rng = StdRng::seed_from_u64(1);
    let mut perfect = Perfect::new();
    // The player keeps its table between moves, as it does during a session.
    perfect.choose(&empty, &mut rng).unwrap();
    c.bench_function("d: perfect move from the empty board (table kept)", |b| {
        b.iter(|| {
            let square = perfect.choose(black_box(&empty), &mut rng).unwrap();
            assert!(empty.is_legal(square));
        });
    });
    c.bench_function(
        "d': perfect move from the empty board (new player each time)",
        |b| {
            b.iter(|| {
                let square = Perfect::new().choose(black_box(&empty), &mut rng).unwrap();
                assert!(empty.is_legal(square));
            });
        },
    );
    for k in [4, 3] {
        let four = Position::new(Rules::new(4, 4, k).unwrap(), Mark::X);
        c.bench_function(
            &format!("e: perfect move from the empty 4x4, k={k} (new player each time)"),
            |b| {
                b.iter(|| {
                    let square = Perfect::new().choose(black_box(&four), &mut rng).unwrap();
                    assert!(four.is_legal(square));
                });
            },
        );
    }
}

criterion_group!(players, benches);
criterion_main!(players);
