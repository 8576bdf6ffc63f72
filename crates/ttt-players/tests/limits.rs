//! The thinking players within their limits: any time allowed gives a legal move, and the
//! memory they keep stays within the bound they are given.

#![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::StdRng;
use ttt_core::{Mark, Position, Rules};
use ttt_players::{Limits, Mcts, Player, Search, Strength};

fn gomoku_opening() -> Position {
    let rules = Rules::new(15, 15, 5).unwrap();
    let moves = [112, 113, 97, 127, 98];
    Position::from_moves(rules, Mark::X, &moves.map(ttt_core::Square::new)).unwrap()
}

#[test]
fn the_shortest_think_still_gives_a_legal_move() {
    let positions = [
        Position::default(),
        Position::new(Rules::new(15, 15, 5).unwrap(), Mark::X),
        gomoku_opening(),
        Position::new(Rules::new(19, 19, 5).unwrap(), Mark::O),
    ];
    for strength in [Strength::Search, Strength::Mcts] {
        for position in &positions {
            for seed in 0..20 {
                let limits = Limits {
                    think: Limits::MIN_THINK,
                    ..Limits::default()
                };
                let square = strength
                    .player(limits)
                    .choose(position, &mut StdRng::seed_from_u64(seed))
                    .unwrap_or_else(|error| panic!("{strength} on {position}: {error}"));
                assert!(position.is_legal(square), "{strength} on {position}");
            }
        }
    }
}

#[test]
fn a_think_of_one_nanosecond_still_gives_a_legal_move() {
    let position = gomoku_opening();
    for strength in [Strength::Search, Strength::Mcts] {
        let limits = Limits {
            think: Duration::from_nanos(1),
            ..Limits::default()
        };
        let square = strength
            .player(limits)
            .choose(&position, &mut StdRng::seed_from_u64(3))
            .unwrap();
        assert!(position.is_legal(square));
    }
}

#[test]
fn the_default_limits_are_within_the_documented_range() {
    let limits = Limits::default();
    assert!((Limits::MIN_THINK..=Limits::MAX_THINK).contains(&limits.think));
    assert!((Limits::MIN_MEMORY..=Limits::MAX_MEMORY).contains(&limits.memory));
}

#[test]
fn the_tree_and_the_table_stay_within_their_memory_bound() {
    let position = gomoku_opening();
    let limits = Limits {
        think: Duration::from_millis(500),
        memory: Limits::MIN_MEMORY,
        threads: 1,
    };
    let mut mcts = Mcts::new(limits);
    mcts.choose(&position, &mut StdRng::seed_from_u64(5))
        .unwrap();
    assert!(
        mcts.node_limit() * 100 <= limits.memory,
        "nodes take some room"
    );
    assert_eq!(
        mcts.last_tree(),
        mcts.node_limit(),
        "half a second fills a 1 MiB tree, and it stops there"
    );
    let mut search = Search::new(limits);
    search
        .choose(&position, &mut StdRng::seed_from_u64(5))
        .unwrap();
    assert!(search.table_bytes() <= limits.memory);
    assert!(search.table_bytes() > limits.memory / 2);
}
