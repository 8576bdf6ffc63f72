//! The numbers of tic-tac-toe, as published, against what the crate computes.

#![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

use ttt_core::Rules;
use ttt_solver::{GameResult, OutcomeCounts, count, walk_tree};

/// Games ending at each ply as (ply, X wins, O wins, draws); every other ply has none.
const BY_PLY: [(usize, u64, u64, u64); 5] = [
    (5, 1_440, 0, 0),
    (6, 0, 5_328, 0),
    (7, 47_952, 0, 0),
    (8, 0, 72_576, 0),
    (9, 81_792, 0, 46_080),
];

fn expected_by_ply() -> Vec<OutcomeCounts> {
    let mut by_ply = vec![OutcomeCounts::default(); 10];
    for (ply, x_wins, o_wins, draws) in BY_PLY {
        by_ply[ply] = OutcomeCounts {
            x_wins,
            o_wins,
            draws,
        };
    }
    by_ply
}

#[test]
fn count_matches_every_published_figure() {
    let stats = count(Rules::default()).unwrap();
    assert_eq!(stats.tree.games.total(), 255_168);
    assert_eq!(
        stats.tree.games,
        OutcomeCounts {
            x_wins: 131_184,
            o_wins: 77_904,
            draws: 46_080
        }
    );
    assert_eq!(stats.tree.by_ply, expected_by_ply());
    assert_eq!(stats.tree.nodes, 549_946);
    assert_eq!(stats.positions, 5_478);
    assert_eq!(stats.positions_up_to_symmetry, 765);
    assert_eq!(stats.terminal_positions, 958);
    assert_eq!(stats.terminal_up_to_symmetry, 138);
    assert_eq!(stats.value.result, GameResult::Draw);
    assert_eq!(stats.value.plies, 9);
}

#[test]
fn walking_every_node_agrees_with_counting_over_positions() {
    let walked = walk_tree(Rules::default()).unwrap();
    assert_eq!(walked, count(Rules::default()).unwrap().tree);
    assert_eq!(walked.by_ply, expected_by_ply());
}

#[test]
fn four_by_three_is_a_first_player_win() {
    // A known m,n,k result; the full game walk is too long for a test, counting is not.
    let rules = Rules::new(4, 3, 3).unwrap();
    assert_eq!(count(rules).unwrap().value.result, GameResult::Win);
    let transposed = Rules::new(3, 4, 3).unwrap();
    assert_eq!(
        count(transposed).unwrap().tree.games,
        count(rules).unwrap().tree.games
    );
}

#[test]
fn four_by_four_with_four_in_a_row_has_the_checkable_counts() {
    let stats = count(Rules::new(4, 4, 4).unwrap()).unwrap();
    assert_eq!(stats.positions, 9_722_011);
    assert_eq!(stats.terminal_positions, 659_392);
    assert_eq!(stats.value.result, GameResult::Draw);
}
