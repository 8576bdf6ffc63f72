//! What the tests of the real binary share.

use std::path::PathBuf;

/// A folder of this test run's own to keep games in (`TTT_HOME`): tests never touch the
/// real home's saved games.
pub fn home() -> PathBuf {
    std::env::temp_dir().join(format!("ttt-test-home-{}", std::process::id()))
}
