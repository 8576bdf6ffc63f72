//! What the unit tests of this crate share.

use std::path::PathBuf;

/// A folder named `name`, not there yet, in a new temporary folder (the first of the two),
/// which is removed with everything in it when dropped, also while a failing test's panic
/// unwinds.
#[allow(clippy::unwrap_used, reason = "a test fails by panicking")]
pub(crate) fn temporary_folder(name: &str) -> (tempfile::TempDir, PathBuf) {
    let parent = tempfile::Builder::new()
        .prefix("ttt-unit-")
        .tempdir()
        .unwrap();
    let folder = parent.path().join(name);
    (parent, folder)
}
