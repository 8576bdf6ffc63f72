//! What the tests of the real binary share.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

/// A new folder to keep games in (`TTT_HOME`) for one run of the binary: tests never
/// touch the real home's saved games, nor each other's.
pub fn home() -> PathBuf {
    static RUNS: AtomicU32 = AtomicU32::new(0);
    let run = RUNS.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("ttt-test-home-{}-{run}", std::process::id()))
}
