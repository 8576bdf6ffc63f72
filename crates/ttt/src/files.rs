//! Reading the files people name or keep: only regular files, and only up to a size, so
//! that a FIFO, a device (a link to `/dev/zero`) or a file far larger than any `ttt`
//! writes is refused in one line instead of hanging or filling the memory.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
#[cfg(unix)]
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// The most a game record in the store may take: a 20x20 game's is some 2 KB.
pub const MAX_RECORD_BYTES: u64 = 1 << 20;

/// The most an SGF or PSQ file to import or replay may take (thousands of games).
pub const MAX_GAME_FILE_BYTES: u64 = 16 << 20;

/// The most a proof to verify may take (7x7's is some 350 MB).
pub const MAX_PROOF_BYTES: u64 = 4 << 30;

/// The bytes of the regular file at `path`, if it holds at most `limit` of them.
///
/// The file is opened without waiting (a FIFO would wait for a writer for ever), then
/// checked to be a regular file, then read no further than `limit`.
///
/// # Errors
/// Opening or reading it fails, it is no regular file, or it is larger than `limit`;
/// each error says which in words.
pub fn read_bounded(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    options.custom_flags(nix::libc::O_NONBLOCK);
    let file = options.open(path)?;
    check_regular(&file, limit)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(limit));
    }
    Ok(bytes)
}

/// [`read_bounded`], as text.
///
/// # Errors
/// As [`read_bounded`], or the bytes are not UTF-8.
pub fn read_text_bounded(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read_bounded(path, limit)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not text (UTF-8)"))
}

fn check_regular(file: &File, limit: u64) -> io::Result<()> {
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    if metadata.len() > limit {
        return Err(too_large(limit));
    }
    Ok(())
}

fn too_large(limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("larger than {} MB, the most ttt reads of it", limit >> 20),
    )
}

/// Whether the process `pid` is still running: on this platform nothing tells, and
/// every writer is taken to be.
#[cfg(not(unix))]
pub fn is_running(_pid: u32) -> bool {
    // Nothing tells here: every writer is taken to be running.
    true
}

/// Whether the process `pid` is still running (a writer whose temporary file must be
/// left alone).
#[cfg(unix)]
pub fn is_running(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    match nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None) {
        Ok(()) => true,
        // It exists, but is someone else's.
        Err(nix::errno::Errno::EPERM) => true,
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use super::*;

    #[test]
    fn a_regular_file_is_read_within_its_limit_and_nothing_else() {
        let (_parent, folder) = crate::testing::temporary_folder("files");
        std::fs::create_dir_all(&folder).unwrap();
        let folder = folder.as_path();
        let file = folder.join("small");
        std::fs::write(&file, b"0123456789").unwrap();
        assert_eq!(read_bounded(&file, 10).unwrap(), b"0123456789");
        let said = read_bounded(&file, 9).unwrap_err().to_string();
        assert!(said.starts_with("larger than"), "{said}");
        let said = read_bounded(Path::new("/dev/zero"), 10)
            .unwrap_err()
            .to_string();
        assert_eq!(said, "not a regular file");
        assert!(read_bounded(folder, 10).is_err());
    }
}
