//! The proof's memory bound, measured as the process's peak resident memory (Linux). In a
//! test binary of its own, so that no other test's memory is counted.

#![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

use std::sync::atomic::AtomicBool;

use ttt_core::{Mark, Position, Rules};
use ttt_solver::{GameResult, Progress, ProofLimits, prove};

/// The peak resident memory so far, in bytes, or `None` where /proc does not say.
fn peak_resident() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}

#[test]
fn a_full_table_stays_within_its_bound() {
    let Some(before) = peak_resident() else {
        eprintln!("no /proc/self/status here: nothing to measure");
        return;
    };
    let bound = 6 << 20;
    let (stop, progress) = (AtomicBool::new(false), Progress::default());
    let limits = ProofLimits {
        table_bytes: bound,
        stop: &stop,
        progress: &progress,
        max_nodes: None,
    };
    // 7x7, k=5 would keep some 1,700,000 positions: more than fit in 6 MiB, so the table
    // fills, turns over and is held there. A map that grew as it filled would hold its
    // old and new halves at once at the last growth, some 10 MB.
    let proof = prove(
        &Position::new(Rules::new(7, 7, 5).unwrap(), Mark::X),
        limits,
    )
    .unwrap();
    assert_eq!(proof.result, GameResult::Draw);
    assert!(proof.table_bytes <= bound);
    let grown = peak_resident().unwrap() - before;
    assert!(
        grown <= bound as u64 + (1 << 20),
        "peak memory grew by {} KiB for a table bound of {} KiB",
        grown >> 10,
        bound >> 10
    );
}
