//! What the tests of the real binary share.

#![allow(dead_code, reason = "each test binary uses a part")]

use std::ffi::OsStr;
use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A folder to keep games in (`TTT_HOME`) for one run of the binary: tests never touch
/// the real home's saved games, nor each other's. It is not there yet (the binary makes
/// it, as it would a person's); it is made in a new temporary folder of its own, which
/// is removed with everything in it when this is dropped, at the end of a test or while
/// a failing test's panic unwinds. It derefs to the folder's path.
///
/// A `Home` not bound to a name goes at the end of the statement that makes it (or at
/// the end of a function it is moved into: only `&Home` is `AsRef<OsStr>`, for
/// `.env("TTT_HOME", &common::home())`). Bind it to a name that lives as long as anything
/// (a spawned child, a command run later) uses the folder.
pub struct Home {
    path: PathBuf,
    _folder: tempfile::TempDir,
}

/// A new temporary folder, its name starting `prefix`, removed with everything in it
/// when dropped (at the end of a test, or while a failing test's panic unwinds).
pub fn temporary(prefix: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(prefix).tempdir().unwrap()
}

/// A new [`Home`].
pub fn home() -> Home {
    let folder = temporary("ttt-test-home-");
    Home {
        path: folder.path().join("home"),
        _folder: folder,
    }
}

impl Deref for Home {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.path
    }
}

// For a reference only: a `Home` given by value to, say, `Command::env` would be
// dropped, and its folder removed, before the command runs.
impl AsRef<Path> for &Home {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<OsStr> for &Home {
    fn as_ref(&self) -> &OsStr {
        self.path.as_os_str()
    }
}
