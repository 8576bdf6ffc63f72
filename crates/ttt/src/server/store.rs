//! The server's store, so that a restart (after Ctrl-C, a crash or SIGKILL) finds every
//! room and every move it acknowledged: the lobby kept whole (`lobby.json`, written
//! atomically, naming its generation) and the journal of every change since
//! (`journal.GENERATION.jsonl`, one [`Entry`] a line, flushed to the disk before anyone is
//! told what it did). Opening the store replays the journal over the kept lobby, drops
//! every connection (nobody is connected to a server that just started), and starts a new
//! generation: the lobby kept again, an empty journal. The journal is kept that way again
//! whenever it grows past [`ServerStore::COMPACT_AT`].

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use ttt_online::journal::{Entry, Kept};
use ttt_online::room::{self, Lobby};

use crate::files;
use crate::store::{private_file, remove_stale_temporaries, write_atomically};

/// The lobby kept whole, as `lobby.json` holds it.
#[derive(Debug, Serialize, Deserialize)]
struct KeptFile {
    /// How its times and its journal's are written: 0 (none said) in seconds since 1970,
    /// [`KEPT_VERSION`] in milliseconds.
    #[serde(default)]
    version: u32,
    /// Which journal follows it.
    generation: u64,
    /// The limits the lobby held to, and its journal was written under.
    limits: room::Limits,
    /// The lobby.
    lobby: Kept,
}

/// The server's store, open.
#[derive(Debug)]
pub struct ServerStore {
    folder: PathBuf,
    /// The folder's lock, held while the store is open: one server a folder.
    _lock: File,
    generation: u64,
    journal: File,
    /// Bytes written to the journal of this generation.
    written: u64,
}

/// The way `lobby.json` and its journal are written now: times in milliseconds.
const KEPT_VERSION: u32 = 1;

/// The most `lobby.json` may take (10,000 rooms of a few KB).
const MAX_KEPT_BYTES: u64 = 256 << 20;

impl ServerStore {
    /// The journal's size past which the lobby is kept whole again.
    pub const COMPACT_AT: u64 = 32 << 20;

    /// Opens the store in `folder` (made if missing): the lobby as the last run left it,
    /// holding to `limits`, with everyone's connection dropped at `now`; and what to tell
    /// the person about it (a journal read only up to a damaged line). A last line cut
    /// short (the server was killed while writing it, before anyone was told) is left out.
    ///
    /// # Errors
    /// When the folder cannot be made, another server holds it, `lobby.json` cannot be
    /// read (it is never overwritten then: the message says so), or the new generation
    /// cannot be written.
    pub fn open(
        folder: &Path,
        limits: room::Limits,
        now: u64,
    ) -> anyhow::Result<(Lobby, ServerStore, Vec<String>)> {
        use anyhow::Context;
        fs::create_dir_all(folder)
            .with_context(|| format!("cannot make the server's folder {}", folder.display()))?;
        // The system lets the lock go when the process ends, however it ends.
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(folder.join("lock"))
            .with_context(|| format!("cannot open the lock of {}", folder.display()))?;
        if let Err(error) = lock.try_lock() {
            return Err(match error {
                fs::TryLockError::WouldBlock => anyhow::anyhow!(
                    "another ttt serve keeps its rooms in {}: stop it, or give --store another \
                     folder",
                    folder.display()
                ),
                fs::TryLockError::Error(error) => {
                    anyhow::Error::new(error).context(format!("cannot lock {}", folder.display()))
                }
            });
        }
        let kept_path = folder.join("lobby.json");
        remove_stale_temporaries(&kept_path);
        let kept = match files::read_text_bounded(&kept_path, MAX_KEPT_BYTES) {
            Ok(text) => serde_json::from_str::<KeptFile>(&text).with_context(|| {
                format!(
                    "{} is not a lobby this server kept: move it away to start with no rooms",
                    kept_path.display()
                )
            })?,
            Err(error) if error.kind() == io::ErrorKind::NotFound => KeptFile {
                version: KEPT_VERSION,
                generation: 0,
                limits,
                lobby: Kept::default(),
            },
            Err(error) => {
                return Err(error).with_context(|| format!("cannot read {}", kept_path.display()));
            }
        };
        // Kept before rooms had clocks, when times counted seconds.
        let seconds = kept.version < KEPT_VERSION;
        let kept_lobby = if seconds {
            kept.lobby.from_seconds()
        } else {
            kept.lobby
        };
        // Replayed under the limits it was written under (a claim's wait, say), then held
        // to this run's.
        let mut lobby = Lobby::restore(kept_lobby, kept.limits).with_context(|| {
            format!(
                "{} holds a room that does not read back: move it away to start with no rooms",
                kept_path.display()
            )
        })?;
        let mut notes = Vec::new();
        let journal_path = journal_path(folder, kept.generation);
        match File::open(&journal_path) {
            Ok(file) => {
                if let Some(line) = replay(&mut lobby, BufReader::new(file), seconds) {
                    let aside = journal_path.with_extension("damaged");
                    fs::rename(&journal_path, &aside)?;
                    notes.push(format!(
                        "The server's journal could not be read from its line {line}: the rooms \
                         are as they were before it, and the journal is kept as {}.",
                        aside.display()
                    ));
                }
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => {}
            Err(error) => {
                return Err(error)
                    .with_context(|| format!("cannot read {}", journal_path.display()));
            }
        }
        lobby.leave_all(now);
        lobby.set_limits(limits);
        let journal = next_generation(folder, kept.generation, lobby.limits(), lobby.keep())
            .with_context(|| format!("cannot keep the lobby in {}", folder.display()))?;
        let store = ServerStore {
            folder: folder.to_owned(),
            _lock: lock,
            generation: kept.generation + 1,
            journal,
            written: 0,
        };
        Ok((lobby, store, notes))
    }

    /// Writes `entries` at the journal's end and flushes them to the disk.
    ///
    /// # Errors
    /// When writing or flushing fails: nothing they did may then be told.
    pub fn append<'a>(&mut self, entries: impl IntoIterator<Item = &'a Entry>) -> io::Result<()> {
        let mut lines = Vec::new();
        for entry in entries {
            serde_json::to_writer(&mut lines, entry).map_err(io::Error::other)?;
            lines.push(b'\n');
        }
        if lines.is_empty() {
            return Ok(());
        }
        self.journal.write_all(&lines)?;
        self.journal.sync_data()?;
        self.written += lines.len() as u64;
        Ok(())
    }

    /// Whether the journal has grown past [`ServerStore::COMPACT_AT`].
    pub fn is_long(&self) -> bool {
        self.written >= ServerStore::COMPACT_AT
    }

    /// Keeps `lobby` (as [`Lobby::keep`] gave it, under `limits`) whole as the next
    /// generation, with an empty journal after it, and removes the journal before it.
    /// Every entry the lobby took must be in the journal already (or in none, at
    /// opening): the kept lobby then holds them all. The lobby is taken as data, so that
    /// the server writes it without holding the lobby itself.
    ///
    /// # Errors
    /// When a file cannot be written or the folder flushed.
    pub fn compact(&mut self, limits: room::Limits, lobby: Kept) -> io::Result<()> {
        self.journal = next_generation(&self.folder, self.generation, limits, lobby)?;
        self.generation += 1;
        self.written = 0;
        Ok(())
    }
}

/// Keeps `lobby` whole in `folder` as the generation after `generation`, with its empty
/// journal (open to append), and removes the journal of `generation`.
fn next_generation(
    folder: &Path,
    generation: u64,
    limits: room::Limits,
    lobby: Kept,
) -> io::Result<File> {
    let next = generation + 1;
    let kept = KeptFile {
        version: KEPT_VERSION,
        generation: next,
        limits,
        lobby,
    };
    let text = serde_json::to_vec(&kept).map_err(io::Error::other)?;
    // The new journal first, empty, so that a crash once the lobby is written finds the
    // journal that follows it.
    // The journal holds the seats' tokens: the server's alone.
    let journal = private_file().open(journal_path(folder, next))?;
    journal.sync_all()?;
    write_atomically(&folder.join("lobby.json"), &text)?;
    match fs::remove_file(journal_path(folder, generation)) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
        _ => Ok(journal),
    }
}

/// The journal of generation `generation` in `folder`.
fn journal_path(folder: &Path, generation: u64) -> PathBuf {
    folder.join(format!("journal.{generation}.jsonl"))
}

/// Replays every entry of `journal` over `lobby` (a journal whose times are in `seconds`,
/// as they were before rooms had clocks, read in milliseconds); the number of a line that
/// could not be read, if one before the last could not (the last may be cut short, and is
/// left out).
fn replay(lobby: &mut Lobby, journal: impl BufRead, seconds: bool) -> Option<usize> {
    let mut lines = journal.split(b'\n').enumerate().peekable();
    while let Some((index, line)) = lines.next() {
        let last = lines.peek().is_none();
        let entry = line
            .ok()
            .and_then(|line| serde_json::from_slice::<Entry>(&line).ok());
        match entry {
            Some(entry) if seconds => lobby.replay(entry.from_seconds()),
            Some(entry) => lobby.replay(entry),
            None if last => return None,
            None => return Some(index + 1),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use ttt_core::Mark;
    use ttt_online::protocol::{Request, ToServer};
    use ttt_online::room::{Fresh, MemberId};

    use super::*;
    use crate::testing::temporary_folder;

    /// Hands `ask` from `id` to the lobby at `now`, and journals it as the server does;
    /// whether it was journaled.
    fn ask_at(
        lobby: &mut Lobby,
        store: &mut ServerStore,
        id: u64,
        ask: ToServer,
        token: &str,
        now: u64,
    ) -> bool {
        let fresh = Fresh {
            code: "K7QX-2M".parse().unwrap(),
            token: token.to_owned(),
            coin: Mark::X,
            now,
        };
        let (_, entry) = lobby.handle_kept(MemberId(id), Request::from(ask), fresh);
        store.append(&entry).unwrap();
        entry.is_some()
    }

    /// As [`ask_at`] at 5 s.
    fn ask(lobby: &mut Lobby, store: &mut ServerStore, id: u64, ask: ToServer, token: &str) {
        ask_at(lobby, store, id, ask, token, 5_000);
    }

    /// Ann (1) hosts a 3x3 room.
    fn ann_hosts(lobby: &mut Lobby, store: &mut ServerStore) {
        let host = ToServer::Host {
            rules: "3x3, k=3".to_owned(),
            name: "Ann".to_owned(),
            computer: None,
            clock: None,
            public: false,
        };
        ask(lobby, store, 1, host, "ann");
    }

    /// Ann (1) hosts a 3x3 room and Bob (2) joins it: the game begins.
    fn ann_and_bob(lobby: &mut Lobby, store: &mut ServerStore) {
        ann_hosts(lobby, store);
        let join = ToServer::Join {
            code: "K7QX-2M".to_owned(),
            name: "Bob".to_owned(),
            tokens: Vec::new(),
        };
        ask(lobby, store, 2, join, "bob");
    }

    #[test]
    fn a_store_opened_again_has_every_room_and_move_with_everyone_gone() {
        let (_parent, folder) = temporary_folder("again");
        let limits = room::Limits::default();
        let (mut lobby, mut store, notes) = ServerStore::open(&folder, limits, 0).unwrap();
        assert!(notes.is_empty() && lobby.is_empty());
        let error = ServerStore::open(&folder, limits, 0).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("another ttt serve keeps its rooms in"),
            "{error}"
        );
        ann_and_bob(&mut lobby, &mut store);
        ask(&mut lobby, &mut store, 1, ToServer::Play { square: 4 }, "");
        ask(&mut lobby, &mut store, 2, ToServer::Play { square: 0 }, "");
        // A refusal changes nothing, and is not journaled.
        ask(&mut lobby, &mut store, 2, ToServer::Play { square: 1 }, "");
        // Killed: nothing else happens. Opened again:
        drop(store);
        let (again, _store, notes) = ServerStore::open(&folder, limits, 100).unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        let code = "K7QX-2M".parse().unwrap();
        let room = again.room(code).unwrap();
        assert_eq!(room.game().snapshot().moves, [4, 0]);
        assert_eq!(
            again.room_of(MemberId(1)),
            None,
            "nobody is connected after a restart"
        );
        // Once more, from the new generation alone.
        drop(_store);
        let (third, _, _) = ServerStore::open(&folder, limits, 200).unwrap();
        assert_eq!(third.keep(), again.keep());
        let files: Vec<String> = fs::read_dir(&folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            files.len(),
            3,
            "the lock, the lobby and one journal: {files:?}"
        );
    }

    #[test]
    fn a_journal_is_replayed_under_the_limits_it_was_written_under() {
        let (_parent, folder) = temporary_folder("limits");
        let quick = room::Limits {
            reconnect_wait: 5,
            ..room::Limits::default()
        };
        let (mut lobby, mut store, _) = ServerStore::open(&folder, quick, 0).unwrap();
        ann_and_bob(&mut lobby, &mut store);
        lobby.disconnect(MemberId(2), 5_000);
        store.append([&Entry::Left { id: 2, now: 5_000 }]).unwrap();
        // Ten seconds on: the claim is granted under the 5 s wait.
        assert!(ask_at(
            &mut lobby,
            &mut store,
            1,
            ToServer::Claim,
            "",
            15_000
        ));
        drop(store);
        // Started again with the default 60 s: the claim still stands.
        let limits = room::Limits::default();
        let (again, _store, _) = ServerStore::open(&folder, limits, 100_000).unwrap();
        let room = again.room("K7QX-2M".parse().unwrap()).unwrap();
        assert!(room.game().forfeit().is_some(), "the claim is replayed");
        assert_eq!(again.limits(), limits, "and this run's limits hold");
        drop(_store);
    }

    #[test]
    fn a_store_kept_when_times_were_in_seconds_reads_them_as_seconds() {
        let (_parent, folder) = temporary_folder("seconds");
        let limits = room::Limits::default();
        let (mut lobby, mut store, _) = ServerStore::open(&folder, limits, 0).unwrap();
        ann_and_bob(&mut lobby, &mut store);
        // Bob drops at 1,000,000 s, as a journal written in seconds says.
        store
            .append([&Entry::Left {
                id: 2,
                now: 1_000_000,
            }])
            .unwrap();
        drop(store);
        // As lobby.json was written before it said its version.
        let path = folder.join("lobby.json");
        let kept = fs::read_to_string(&path).unwrap();
        let old = kept.replace(&format!("\"version\":{KEPT_VERSION},"), "");
        assert_ne!(old, kept);
        fs::write(&path, old).unwrap();
        // Opened 30 s after Bob dropped: Ann, back, waits 30 s more to claim the game.
        let now = 1_000_030_000;
        let (mut again, mut store, _) = ServerStore::open(&folder, limits, now).unwrap();
        let rejoin = ToServer::Rejoin {
            code: "K7QX-2M".to_owned(),
            token: "ann".to_owned(),
            name: None,
        };
        assert!(ask_at(&mut again, &mut store, 3, rejoin, "", now));
        let fresh = Fresh {
            code: "K7QX-2M".parse().unwrap(),
            token: String::new(),
            coin: Mark::X,
            now,
        };
        let claim = again.handle(MemberId(3), ToServer::Claim.into(), fresh);
        assert!(
            matches!(&claim[..], [delivery] if matches!(&delivery.message,
                ttt_online::protocol::ToClient::Refused { reason, .. }
                    if reason.ends_with("you can claim the game in 30 s."))),
            "{claim:?}"
        );
        // Kept again in milliseconds.
        let kept = fs::read_to_string(&path).unwrap();
        assert!(
            kept.contains(&format!("\"version\":{KEPT_VERSION},")),
            "{kept}"
        );
        drop(store);
    }

    #[test]
    fn the_time_a_server_was_down_is_on_nobodys_clock() {
        let (_parent, folder) = temporary_folder("clocks");
        let limits = room::Limits::default();
        let (mut lobby, mut store, _) = ServerStore::open(&folder, limits, 0).unwrap();
        let host = ToServer::Host {
            rules: "3x3, k=3".to_owned(),
            name: "Ann".to_owned(),
            computer: None,
            clock: Some("1+0".to_owned()),
            public: false,
        };
        ask(&mut lobby, &mut store, 1, host, "ann");
        let join = ToServer::Join {
            code: "K7QX-2M".to_owned(),
            name: "Bob".to_owned(),
            tokens: Vec::new(),
        };
        // The game begins at 5 s, X (Ann) to move; the server keeps a tick at 20 s, then
        // is killed, and started again ten minutes later.
        ask(&mut lobby, &mut store, 2, join, "bob");
        let (_, tick) = lobby.tick_kept(20_000, true).unwrap();
        store.append([&tick]).unwrap();
        drop(store);
        let now = 620_000;
        let (again, _store, _) = ServerStore::open(&folder, limits, now).unwrap();
        let room = again.room("K7QX-2M".parse().unwrap()).unwrap();
        assert!(
            !room.game().is_over(),
            "nobody lost on time while the server was down"
        );
        // Ann's minute less the 15 s she had thought before the server stopped.
        let clocks = room.clocks().unwrap();
        assert_eq!(clocks.left(Mark::X, now, Some(Mark::X)), 45_000);
        drop(_store);
    }

    #[test]
    fn a_line_cut_short_is_left_out_and_a_damaged_one_set_aside() {
        let (_parent, folder) = temporary_folder("damaged");
        let limits = room::Limits::default();
        let (mut lobby, mut store, _) = ServerStore::open(&folder, limits, 0).unwrap();
        ann_hosts(&mut lobby, &mut store);
        let journal = journal_path(&folder, store.generation);
        drop(store);
        // Killed while writing a line: the line is cut short.
        let mut file = OpenOptions::new().append(true).open(&journal).unwrap();
        file.write_all(b"{\"entry\":\"left\",\"id\"").unwrap();
        drop(file);
        let (again, store, notes) = ServerStore::open(&folder, limits, 10).unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(again.len(), 1);
        // A line in the middle damaged: the rooms as they were before it, the journal
        // set aside and said.
        let journal = journal_path(&folder, store.generation);
        drop(store);
        fs::write(
            &journal,
            "not an entry\n{\"entry\":\"swept\",\"now\":0,\"idle\":0}\n",
        )
        .unwrap();
        let (again, _, notes) = ServerStore::open(&folder, limits, 20).unwrap();
        assert_eq!(again.len(), 1);
        assert!(notes[0].contains("from its line 1"), "{notes:?}");
        assert!(journal.with_extension("damaged").exists());
        // A lobby that is not one is never overwritten.
        fs::write(folder.join("lobby.json"), "{").unwrap();
        let error = ServerStore::open(&folder, limits, 30).unwrap_err();
        assert!(format!("{error:#}").contains("move it away"), "{error:#}");
        assert_eq!(fs::read_to_string(folder.join("lobby.json")).unwrap(), "{");
    }
}
