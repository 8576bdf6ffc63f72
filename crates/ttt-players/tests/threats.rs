//! The threat-space search proves what it claims: every forced win it finds on a board
//! small enough for the exact prover is a win the prover confirms, for the side to move
//! (a line of threats it can start) and for the side that has just moved (a threat every
//! reply loses to), under either win rule: under exactly k, a threat that would only make
//! an overline is none.

#![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

use std::sync::atomic::AtomicBool;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use ttt_core::{Position, Rules, WinRule};
use ttt_reference::random_position;
use ttt_solver::{GameResult, Progress, ProofLimits, prove};

/// The exact result for the side to move, unless the proof takes too long.
fn proved(position: &Position) -> Option<GameResult> {
    let (stop, progress) = (AtomicBool::new(false), Progress::default());
    let limits = ProofLimits {
        table_bytes: 64 << 20,
        stop: &stop,
        progress: &progress,
        max_nodes: Some(3_000_000),
    };
    prove(position, limits).ok().map(|proof| proof.result)
}

/// Checks every win the threat-space search claims in 60 random positions of each board
/// (width, height, k) under `win`: (lines of threats the side to move can start, threats
/// just made) checked.
fn check_claims(boards: &[(usize, usize, usize)], win: WinRule, seed: u64) -> (u32, u32) {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut attacks, mut threats) = (0, 0);
    for &(width, height, k) in boards {
        let rules = Rules::new(width, height, k).unwrap().with_win_rule(win);
        for _ in 0..60 {
            let stones = rng.random_range(6..=12);
            let Some(position) = random_position(rules, stones, &mut rng) else {
                continue;
            };
            let me = position.to_move();
            // A line of threats the side to move can start: the prover says it wins.
            if ttt_players::wins_by_threats(&position, me, 200_000)
                && let Some(result) = proved(&position)
            {
                assert_eq!(result, GameResult::Win, "{rules}: {position}");
                attacks += 1;
            }
            // A threat the other side has just made: the side to move loses.
            if ttt_players::wins_by_threats(&position, !me, 200_000)
                && let Some(result) = proved(&position)
            {
                assert_eq!(result, GameResult::Loss, "{rules}: {position}");
                threats += 1;
            }
        }
    }
    (attacks, threats)
}

#[test]
fn every_win_by_threats_is_a_win_the_exact_prover_confirms() {
    let (attacks, threats) = check_claims(
        &[(5, 5, 4), (6, 5, 4), (6, 6, 4), (7, 6, 5)],
        WinRule::Freestyle,
        11,
    );
    // Not vacuous: the search claimed wins both ways, and each was checked.
    // (Seeded: 123 lines of threats and 21 threats just made are checked.)
    assert!(
        attacks >= 60 && threats >= 10,
        "{attacks} attacks, {threats} threats"
    );
}

#[test]
fn under_exactly_k_too_every_win_by_threats_is_confirmed() {
    let (attacks, threats) = check_claims(&[(5, 5, 4), (6, 5, 4), (7, 6, 5)], WinRule::Exact, 12);
    // (Seeded: 85 lines of threats and 17 threats just made are checked.)
    assert!(
        attacks >= 60 && threats >= 10,
        "{attacks} attacks, {threats} threats"
    );
}
