//! The server's SSH host key: made once, on the first start with `--ssh`, and kept in the
//! server's folder, so that a client that trusted it once trusts it after every restart.
//! A key file that cannot be read is said, never replaced.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use rand::RngExt;
use rand::rngs::StdRng;
use russh::keys::ssh_key::LineEnding;
use russh::keys::ssh_key::private::{Ed25519Keypair, KeypairData};
use russh::keys::{HashAlg, PrivateKey};

use crate::store;

/// The host key's file in the server's folder.
pub const FILE: &str = "ssh_host_ed25519_key";

/// The host key in `folder`, made and kept there first if there is none: the key, and
/// whether it was made now.
///
/// # Errors
/// When the folder or the key's file cannot be made or read, or the file holds no OpenSSH
/// private key (it is left as it is: a new key would make every client warn).
pub fn load_or_make(folder: &Path) -> io::Result<(PrivateKey, bool)> {
    let path = folder.join(FILE);
    if !path.exists() {
        fs::create_dir_all(folder)?;
        make(&path)?;
        return read(&path).map(|key| (key, true));
    }
    read(&path).map(|key| (key, false))
}

/// The key's fingerprint as OpenSSH shows it (`SHA256:...`).
pub fn fingerprint(key: &PrivateKey) -> String {
    key.public_key().fingerprint(HashAlg::Sha256).to_string()
}

/// Reads the key at `path`.
fn read(path: &Path) -> io::Result<PrivateKey> {
    // A key file is a few hundred bytes.
    let text = crate::files::read_text_bounded(path, 64 * 1024)?;
    PrivateKey::from_openssh(text.as_bytes()).map_err(|error| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{} is not an OpenSSH private key ({error}): move it away and a new one is made",
                path.display()
            ),
        )
    })
}

/// Writes a new Ed25519 key to `path`, readable by its owner alone, unless a key got
/// there first (another server starting at the same moment): never over one.
fn make(path: &Path) -> io::Result<()> {
    let mut rng: StdRng = rand::make_rng();
    let seed: [u8; 32] = rng.random();
    let key = PrivateKey::new(
        KeypairData::Ed25519(Ed25519Keypair::from_seed(&seed)),
        "ttt serve --ssh",
    )
    .map_err(io::Error::other)?;
    let text = key.to_openssh(LineEnding::LF).map_err(io::Error::other)?;
    let written = temporary(path);
    store::write_atomically(&written, text.as_bytes())?;
    // A link fails if the name is taken: the key there stays, ours goes.
    let linked = fs::hard_link(&written, path);
    let _ = fs::remove_file(&written);
    match linked {
        Err(error) if error.kind() != io::ErrorKind::AlreadyExists => Err(error),
        _ => Ok(()),
    }
}

/// A name beside `path` for the new key before it takes its name.
fn temporary(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".new.{}", std::process::id()));
    PathBuf::from(name)
}

/// A seeded key for tests, whatever their folder.
#[cfg(test)]
fn seeded(seed: u64) -> PrivateKey {
    let mut rng = <StdRng as rand::SeedableRng>::seed_from_u64(seed);
    let seed: [u8; 32] = rng.random();
    #[allow(clippy::unwrap_used, reason = "a test fails by panicking")]
    PrivateKey::new(KeypairData::Ed25519(Ed25519Keypair::from_seed(&seed)), "").unwrap()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use super::*;
    use crate::testing::temporary_folder;

    #[test]
    fn the_key_is_made_once_and_the_same_ever_after() {
        let (_parent, folder) = temporary_folder("made-once");
        let (first, made) = load_or_make(&folder).unwrap();
        assert!(made);
        let (again, made) = load_or_make(&folder).unwrap();
        assert!(!made);
        assert_eq!(fingerprint(&first), fingerprint(&again));
        assert!(fingerprint(&first).starts_with("SHA256:"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(folder.join(FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o077, 0, "readable by its owner alone");
        }
        // Nothing left beside it.
        assert_eq!(fs::read_dir(&folder).unwrap().count(), 1);
        assert_ne!(fingerprint(&first), fingerprint(&seeded(1)));
    }

    #[test]
    fn a_key_file_that_cannot_be_read_is_said_and_left_alone() {
        let (_parent, folder) = temporary_folder("unreadable");
        fs::create_dir_all(&folder).unwrap();
        fs::write(folder.join(FILE), "not a key").unwrap();
        let error = load_or_make(&folder).unwrap_err();
        assert!(
            error.to_string().contains("is not an OpenSSH private key"),
            "{error}"
        );
        assert_eq!(fs::read_to_string(folder.join(FILE)).unwrap(), "not a key");
    }
}
