//! Where `ttt` keeps people's games between runs: one small file a game, each written
//! whole or not at all.
//!
//! The folder is the platform's data folder (`~/.local/share/ttt` on Linux, as XDG says),
//! or the one `--data-dir` or the `TTT_HOME` environment variable names. In it,
//! `games/` holds one file a game, `<started>-<process>-<n>.json`, one line of JSON
//! ([`GameRecord::to_text`]) that carries its format's version.
//!
//! Why a file a game: the data is small (a game is a few hundred bytes), each write
//! replaces one whole file (written to a temporary file in the same folder, flushed to the
//! disk, then renamed over the old one, and the folder flushed), and no two processes ever
//! write the same file, since each names its own games. So a power cut or a SIGKILL in
//! the middle of a write leaves the old version or the new one, never half of one; two
//! `ttt`s finishing games at the same moment both keep theirs, with no lock to wait for;
//! and a file that cannot be read costs that one game, not the rest. A file that cannot be
//! read (cut short, not a record, from a newer `ttt`) is renamed aside with
//! `.unreadable` added, never overwritten, and reported in one line.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use ttt_core::Shown;
use ttt_play::app::{App, KeptGames};
use ttt_play::records::{GameRecord, Keep, RecordError, Remembered};

use crate::failure::BadInput;
use crate::files;

/// The environment variable that names the folder instead of the platform's.
pub const HOME_VARIABLE: &str = "TTT_HOME";

/// What the remembered choices are called when they cannot be read.
const CHOICES: &str = "the start screen's remembered choices";

/// The folder of games, opened.
#[derive(Debug, Clone)]
pub struct Store {
    games: PathBuf,
    /// The file of the start screen's remembered choices.
    choices: PathBuf,
    /// How many games this process has named so far.
    named: u32,
}

/// A game read back from the store, with its id (the file's name without `.json`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    /// The game's id in the store.
    pub id: String,
    /// The game.
    pub record: GameRecord,
}

impl Kept {
    /// Sorts `games` as `ttt games` lists and numbers them: in the order they came to be
    /// kept, so an import never renumbers earlier games.
    pub fn in_listing_order(games: &mut [Kept]) {
        // Within one second, a game played comes before a game imported: an import takes
        // the number after the games already there (its process's id, in the game's id,
        // tells nothing of which came first).
        let key = |kept: &Kept| {
            (
                kept.record.kept_since(),
                kept.record.imported.is_some(),
                kept.id.clone(),
            )
        };
        games.sort_by_key(key);
    }

    /// The unfinished game kept last among `kept`, that can be taken up; with `offered`,
    /// only one that may be offered on a start screen (as both front ends choose it).
    pub fn unfinished(kept: &[Kept], offered: bool) -> Option<&Kept> {
        kept.iter()
            .filter(|kept| kept.record.can_resume() && (!offered || kept.record.to_offer()))
            .max_by_key(|kept| kept.record.started)
    }

    /// The kept game `which` names: its number in `ttt games`, `last`, or its id.
    ///
    /// # Errors
    /// [`BadInput`] saying what would name one.
    pub fn find<'a>(kept: &'a [Kept], which: &str) -> Result<&'a Kept, BadInput> {
        let which = which.trim();
        let found = if which.eq_ignore_ascii_case("last") {
            kept.last()
        } else if let Ok(number) = which.parse::<usize>() {
            number.checked_sub(1).and_then(|index| kept.get(index))
        } else {
            kept.iter().find(|game| game.id == which)
        };
        found.ok_or_else(|| match kept.len() {
            0 => BadInput(format!(
                "no kept game '{}': no game is kept yet",
                Shown(which)
            )),
            games => BadInput(format!(
                "no kept game '{}': give its number in `ttt games` (1 to {games}), last, or its id",
                Shown(which)
            )),
        })
    }
}

/// A file set aside because it could not be read: one line for the person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetAside(pub String);

impl std::fmt::Display for SetAside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Store {
    /// The folder `--data-dir` names, else `TTT_HOME`, else the platform's data folder
    /// for `ttt`.
    ///
    /// # Errors
    /// When no folder is named and the platform has none (no home folder).
    pub fn folder(flag: Option<&Path>) -> io::Result<PathBuf> {
        if let Some(folder) = flag {
            return Ok(folder.to_path_buf());
        }
        if let Some(folder) = std::env::var_os(HOME_VARIABLE).filter(|value| !value.is_empty()) {
            return Ok(PathBuf::from(folder));
        }
        directories::ProjectDirs::from("", "", "ttt")
            .map(|dirs| dirs.data_dir().to_path_buf())
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::NotFound,
                    format!("no home folder to keep games in: set {HOME_VARIABLE} or --data-dir"),
                )
            })
    }

    /// The folder of the remembered choices: as [`folder`](Store::folder) when a folder is
    /// named, else the platform's config folder for `ttt` (`~/.config/ttt` on Linux).
    ///
    /// # Errors
    /// As [`folder`](Store::folder).
    pub fn config_folder(flag: Option<&Path>) -> io::Result<PathBuf> {
        let named = flag.is_some()
            || std::env::var_os(HOME_VARIABLE).is_some_and(|value| !value.is_empty());
        match directories::ProjectDirs::from("", "", "ttt") {
            Some(dirs) if !named => Ok(dirs.config_dir().to_path_buf()),
            _ => Store::folder(flag),
        }
    }

    /// Opens the store in `folder` (games) and `config` (remembered choices), making the
    /// folders if they are not there.
    ///
    /// # Errors
    /// When the folders cannot be made.
    pub fn open_in(folder: &Path, config: &Path) -> io::Result<Store> {
        let games = folder.join("games");
        fs::create_dir_all(&games).map_err(|error| in_file(error, "make the folder", &games))?;
        fs::create_dir_all(config).map_err(|error| in_file(error, "make the folder", config))?;
        Ok(Store {
            games,
            choices: config.join("choices.json"),
            named: 0,
        })
    }

    /// Opens the store with everything in `folder`.
    ///
    /// # Errors
    /// When the folders cannot be made.
    pub fn open(folder: &Path) -> io::Result<Store> {
        Store::open_in(folder, folder)
    }

    /// The start screen's choices remembered from the last run, if any; a file that cannot
    /// be read is set aside and said.
    pub fn choices(&self) -> Result<Option<Remembered>, SetAside> {
        let text = match files::read_text_bounded(&self.choices, files::MAX_RECORD_BYTES) {
            Ok(text) => text,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => {
                return Err(self.set_aside(&self.choices, CHOICES, &error.to_string()));
            }
        };
        Remembered::from_text(text.trim())
            .map(Some)
            .map_err(|error| self.set_aside(&self.choices, CHOICES, &error.to_string()))
    }

    /// Remembers the start screen's choices for the next run, atomically.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn keep_choices(&self, remembered: &Remembered) -> io::Result<()> {
        let mut text = remembered.to_text();
        text.push('\n');
        write_atomically(&self.choices, text.as_bytes())
    }

    /// Opens the store in the folder [`folder`](Store::folder) picks, reading nothing yet.
    ///
    /// # Errors
    /// When there is no folder, or it cannot be made.
    pub fn open_flagged(flag: Option<&Path>) -> io::Result<Store> {
        Store::open_in(&Store::folder(flag)?, &Store::config_folder(flag)?)
    }

    /// Opens the store in the folder [`folder`](Store::folder) picks, and reads it.
    ///
    /// # Errors
    /// When there is no folder, it cannot be made, or it cannot be read.
    pub fn open_and_load(flag: Option<&Path>) -> io::Result<(Store, Vec<Kept>, Vec<SetAside>)> {
        let store = Store::open_flagged(flag)?;
        let (kept, set_aside) = store.load()?;
        Ok((store, kept, set_aside))
    }

    /// The folder of game files.
    pub fn games_folder(&self) -> &Path {
        &self.games
    }

    /// Every game kept, oldest first, and the files that could not be read, each set
    /// aside (renamed with `.unreadable` added) so that it is reported once and never
    /// overwritten.
    ///
    /// # Errors
    /// When the folder itself cannot be read.
    pub fn load(&self) -> io::Result<(Vec<Kept>, Vec<SetAside>)> {
        let mut games = Vec::new();
        let mut set_aside = Vec::new();
        let entries =
            fs::read_dir(&self.games).map_err(|error| in_file(error, "read", &self.games))?;
        for entry in entries {
            let path = entry?.path();
            remove_if_stale(&path);
            let Some(id) = game_id(&path) else {
                continue;
            };
            // A file that cannot be opened now (permissions, too many open files) may be
            // fine later, and a FIFO or a device is no game: each is said, and left where
            // it is.
            let bytes = match files::read_bounded(&path, files::MAX_RECORD_BYTES) {
                Ok(bytes) => bytes,
                Err(error) => {
                    set_aside.push(SetAside(format!(
                        "a saved game, {}, could not be read ({error}); it was left as it is",
                        path.display()
                    )));
                    continue;
                }
            };
            let read = String::from_utf8(bytes)
                .map_err(|_| RecordError::Unreadable("not text".to_owned()))
                .and_then(|text| GameRecord::from_text(text.trim()));
            match read {
                Ok(record) => games.push(Kept { id, record }),
                // A newer ttt's game is left where that ttt will find it.
                Err(error @ RecordError::Newer(_)) => set_aside.push(SetAside(format!(
                    "a saved game, {}, could not be read ({error}); it was left as it is for the newer ttt",
                    path.display()
                ))),
                Err(error) => {
                    set_aside.push(self.set_aside(&path, "a saved game", &error.to_string()));
                }
            }
        }
        Kept::in_listing_order(&mut games);
        Ok((games, set_aside))
    }

    /// Renames an unreadable file aside, in its folder, under a name no file has yet.
    fn set_aside(&self, path: &Path, what: &str, reason: &str) -> SetAside {
        let name = path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let folder = path.parent().unwrap_or(&self.games);
        let mut aside = folder.join(format!("{name}.unreadable"));
        let mut n = 1;
        while aside.exists() {
            n += 1;
            aside = folder.join(format!("{name}.unreadable.{n}"));
        }
        let moved = fs::rename(path, &aside);
        let shown = aside.display();
        SetAside(match moved {
            Ok(()) => {
                format!("{what} could not be read ({reason}); it was set aside as {shown}")
            }
            Err(error) => format!(
                "{what}, {}, could not be read ({reason}), nor set aside ({error})",
                path.display()
            ),
        })
    }

    /// Deletes every kept game (for `ttt stats --reset`); files set aside stay. Returns
    /// how many were deleted.
    ///
    /// # Errors
    /// When a file cannot be deleted.
    pub fn delete_all(&self) -> io::Result<usize> {
        let mut deleted = 0;
        for entry in fs::read_dir(&self.games)? {
            let path = entry?.path();
            if game_id(&path).is_some() {
                fs::remove_file(&path).map_err(|error| in_file(error, "delete", &path))?;
                deleted += 1;
            }
        }
        sync_folder(&self.games)?;
        Ok(deleted)
    }

    /// A new id, `<started>-<process>-<n>`, that no game file has.
    fn new_id(&mut self, started: u64) -> String {
        loop {
            self.named += 1;
            let id = format!("{started}-{}-{}", std::process::id(), self.named);
            if !self.path(&id).exists() {
                return id;
            }
        }
    }

    fn path(&self, id: &str) -> PathBuf {
        self.games.join(format!("{id}.json"))
    }

    /// Writes `record` as the game `id` (new when `None`), atomically; returns the id.
    ///
    /// # Errors
    /// When the file cannot be written, or `id` is not a plain file name.
    pub fn write(&mut self, id: Option<&str>, record: &GameRecord) -> io::Result<String> {
        let id = match id {
            Some(id) if is_plain(id) => id.to_owned(),
            Some(id) => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("'{id}' is not a game id"),
                ));
            }
            None => self.new_id(record.kept_since()),
        };
        let mut text = record.to_text();
        text.push('\n');
        write_atomically(&self.path(&id), text.as_bytes())?;
        Ok(id)
    }
}

impl Keep for Store {
    fn keep(&mut self, id: Option<&str>, record: &GameRecord) -> Result<String, String> {
        self.write(id, record)
            .map_err(|error| format!("the game could not be saved: {error}"))
    }
}

/// The id of a game file (`<id>.json`, not hidden), or `None` for any other file.
fn game_id(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let id = name.strip_suffix(".json")?;
    is_plain(id).then(|| id.to_owned())
}

/// Whether `id` can name a file of its own: letters, digits and dashes.
fn is_plain(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The folder `path` is in: a bare file name's parent is the empty path, the current
/// folder.
fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|folder| !folder.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// The name of the temporary file the process `pid` writes `name` through:
/// `.NAME.PID.tmp`, hidden, beside it.
fn temporary_name(name: &str, pid: u32) -> String {
    format!(".{name}.{pid}.tmp")
}

/// The pid in a temporary file's name as [`temporary_name`] makes it, if `name` is one.
fn temporary_writer(name: &str) -> Option<u32> {
    let inner = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (_, pid) = inner.rsplit_once('.')?;
    pid.parse().ok()
}

/// Removes `path` if it is a temporary file [`write_atomically`] left behind, its writer
/// gone (a SIGKILL in the middle of a write).
fn remove_if_stale(path: &Path) {
    let writer = path
        .file_name()
        .and_then(|name| name.to_str())
        .and_then(temporary_writer);
    if let Some(pid) = writer
        && !files::is_running(pid)
    {
        let _ = fs::remove_file(path);
    }
}

/// Removes the temporary files [`write_atomically`] left beside `path` when their writers
/// were killed in the middle of a write (a checkpoint's can take gigabytes).
pub fn remove_stale_temporaries(path: &Path) {
    let folder = folder_of(path);
    let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
        return;
    };
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let entry = entry.path();
        let beside = entry
            .file_name()
            .and_then(|other| other.to_str())
            .is_some_and(|other| other.starts_with(&format!(".{name}.")));
        if beside {
            remove_if_stale(&entry);
        }
    }
}

/// The tokens of the seats a person took online, by server and room, so that `ttt join`
/// takes them back after the client ended (killed, or the machine restarted): a file
/// in the data folder, written atomically, holding the latest [`SeatTokens::MAX`].
#[derive(Debug, Clone)]
pub struct SeatTokens {
    path: PathBuf,
}

/// One seat's token, as kept.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct SeatToken {
    server: String,
    code: String,
    token: String,
}

impl SeatTokens {
    /// Seats remembered at most: the latest.
    pub const MAX: usize = 32;

    /// The tokens kept in `folder` (the data folder).
    pub fn in_folder(folder: &Path) -> SeatTokens {
        SeatTokens {
            path: folder.join("seats.json"),
        }
    }

    /// Every token kept, the latest last; none when the file is missing or unreadable
    /// (a token is only a way back, and the server gives a new seat without it).
    fn read(&self) -> Vec<SeatToken> {
        files::read_text_bounded(&self.path, files::MAX_RECORD_BYTES)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    }

    /// The tokens of the seats taken in room `code` on `server` (two terminals on one
    /// machine may each have taken one), the latest first.
    pub fn get(&self, server: &str, code: &str) -> Vec<String> {
        self.read()
            .into_iter()
            .rev()
            .filter(|seat| seat.server == server && seat.code == code)
            .map(|seat| seat.token)
            .collect()
    }

    /// Keeps `token` for room `code` on `server`.
    ///
    /// # Errors
    /// When the folder or the file cannot be written.
    pub fn keep(&self, server: &str, code: &str, token: &str) -> io::Result<()> {
        let mut seats = self.read();
        seats.retain(|seat| seat.token != token);
        seats.push(SeatToken {
            server: server.to_owned(),
            code: code.to_owned(),
            token: token.to_owned(),
        });
        let over = seats.len().saturating_sub(SeatTokens::MAX);
        seats.drain(..over);
        fs::create_dir_all(folder_of(&self.path))
            .map_err(|error| in_file(error, "make the folder", folder_of(&self.path)))?;
        let text = serde_json::to_string_pretty(&seats).map_err(io::Error::other)?;
        write_atomically(&self.path, text.as_bytes())
    }
}

/// The options that create (or empty) a file to write that only its owner reads: what a
/// person keeps (games, seats' tokens, a server's rooms and journal) is theirs alone.
pub fn private_file() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
}

/// Replaces `path` with `contents` whole: a temporary file in the same folder, flushed to
/// the disk, renamed over `path`, and the folder flushed so the rename lasts.
///
/// # Errors
/// Any step's, naming the file.
pub fn write_atomically(path: &Path, contents: &[u8]) -> io::Result<()> {
    let folder = folder_of(path);
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = folder.join(temporary_name(&name, std::process::id()));
    let written = (|| {
        let mut file = private_file().open(&temporary)?;
        file.write_all(contents)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&temporary, path)?;
        sync_folder(folder)
    })();
    written.map_err(|error| {
        let _ = fs::remove_file(&temporary);
        in_file(error, "write", path)
    })
}

/// Flushes a folder's entries (a rename in it) to the disk, where the platform can.
fn sync_folder(folder: &Path) -> io::Result<()> {
    #[cfg(unix)]
    File::open(folder)?.sync_all()?;
    #[cfg(not(unix))]
    let _ = folder;
    Ok(())
}

fn in_file(error: io::Error, doing: &str, path: &Path) -> io::Error {
    io::Error::new(
        error.kind(),
        format!("cannot {doing} {}: {error}", path.display()),
    )
}

/// Seconds since 1970, as records count time.
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}

/// What a full screen keeps as it is played (the terminal's own, and each SSH session's):
/// the games, the start screen's choices, and what keeping them had to say.
pub struct Keeping {
    /// The games, once the app is there to show them (none with `--no-save`).
    pub kept: Option<KeptGames>,
    /// Where the choices are kept.
    pub store: Option<Store>,
    /// The choices as last kept.
    pub remembered: Option<Remembered>,
    /// The first failure to keep a game, said after the full screen ends.
    pub trouble: Option<String>,
    /// Whether a game under way was kept on the way out.
    pub kept_unfinished: bool,
}

impl Keeping {
    /// Keeps the choices in `store` (none kept yet when `remembered` is `None`); the games
    /// once [`Keeping::kept`] is set, with the app.
    pub fn new(store: Option<Store>, remembered: Option<Remembered>) -> Keeping {
        Keeping {
            kept: None,
            store,
            remembered,
            trouble: None,
            kept_unfinished: false,
        }
    }

    /// Keeps what changed in the app's games since the last look.
    pub fn observe(&mut self, app: &mut App) {
        if let Some(kept) = &mut self.kept
            && let Err(error) = kept.follow(app, now())
        {
            self.trouble.get_or_insert(error);
        }
    }

    /// As the full screen ends: the choices, and the game under way (then
    /// [`Keeping::kept_unfinished`]).
    pub fn leave(&mut self, app: &App) {
        if let (Some(store), Some(choices)) = (&self.store, app.remembered())
            && self.remembered.as_ref() != Some(&choices)
            && let Err(error) = store.keep_choices(&choices)
        {
            self.trouble.get_or_insert(format!(
                "the start screen's choices could not be kept: {error}"
            ));
        }
        if let Some(kept) = &mut self.kept {
            match kept.leave(app, now()) {
                Ok(kept) => self.kept_unfinished = kept,
                Err(error) => {
                    self.trouble.get_or_insert(error);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use super::*;
    use crate::testing::temporary_folder;
    use ttt_core::{Mark, Outcome, Rules, Square};
    use ttt_play::Seat;

    #[test]
    fn temporary_files_name_their_writer() {
        assert_eq!(temporary_writer(".abc.json.1234.tmp"), Some(1234));
        assert_eq!(temporary_writer(".8x8.ckpt.77.tmp"), Some(77));
        assert_eq!(temporary_writer("abc.json"), None);
        assert_eq!(temporary_writer(".abc.json.x.tmp"), None);
        assert_eq!(temporary_writer(&temporary_name("abc.json", 42)), Some(42));
        assert!(files::is_running(std::process::id()));
    }

    #[test]
    fn a_game_imported_in_the_second_a_game_was_played_is_listed_after_it() {
        let mut imported = record(50);
        imported.imported = Some(100);
        let mut games = vec![
            Kept {
                id: "100-1-1".to_owned(),
                record: imported,
            },
            Kept {
                id: "100-900-1".to_owned(),
                record: record(100),
            },
            Kept {
                id: "99-5-1".to_owned(),
                record: record(99),
            },
        ];
        Kept::in_listing_order(&mut games);
        let ids: Vec<&str> = games.iter().map(|kept| kept.id.as_str()).collect();
        assert_eq!(ids, ["99-5-1", "100-900-1", "100-1-1"]);
    }

    fn record(started: u64) -> GameRecord {
        let mut game =
            GameRecord::new(Rules::default(), Seat::Human, Seat::Human, Mark::X, started);
        game.moves = [0, 3, 1, 4, 2].map(Square::new).to_vec();
        game.finish(Outcome::Win(Mark::X), started + 5);
        game
    }

    #[test]
    fn seat_tokens_are_kept_by_server_and_room_the_latest_few() {
        let (_parent, folder) = temporary_folder("seats");
        let seats = SeatTokens::in_folder(&folder);
        assert!(seats.get("a:1", "K7QX-2M").is_empty());
        seats.keep("a:1", "K7QX-2M", "t1").unwrap();
        seats.keep("b:1", "K7QX-2M", "t2").unwrap();
        seats.keep("a:1", "K7QX-2M", "t3").unwrap();
        seats.keep("a:1", "K7QX-2M", "t1").unwrap();
        assert_eq!(seats.get("a:1", "K7QX-2M"), ["t1", "t3"]);
        assert_eq!(seats.get("b:1", "K7QX-2M"), ["t2"]);
        for room in 0..SeatTokens::MAX {
            seats
                .keep("c:1", &room.to_string(), &format!("c{room}"))
                .unwrap();
        }
        assert!(seats.get("a:1", "K7QX-2M").is_empty(), "the oldest went");
        assert_eq!(seats.read().len(), SeatTokens::MAX);
        fs::write(folder.join("seats.json"), "not json").unwrap();
        assert!(seats.get("c:1", "0").is_empty());
        seats.keep("c:1", "0", "t").unwrap();
        assert_eq!(seats.get("c:1", "0"), ["t"]);
    }

    #[test]
    fn games_are_kept_replaced_in_place_and_read_back_in_order() {
        let (_parent, folder) = temporary_folder("kept");
        let mut store = Store::open(&folder).unwrap();
        let first = store.write(None, &record(20)).unwrap();
        let second = store.write(None, &record(10)).unwrap();
        assert_ne!(first, second);
        // The same game again replaces its file.
        let mut changed = record(20);
        changed.forfeit = Some("it stopped".to_owned());
        assert_eq!(store.write(Some(&first), &changed).unwrap(), first);
        let (games, set_aside) = store.load().unwrap();
        assert!(set_aside.is_empty());
        let ids: Vec<&str> = games.iter().map(|kept| kept.id.as_str()).collect();
        assert_eq!(ids, [second.as_str(), first.as_str()]);
        assert_eq!(games[1].record, changed);
        // No temporary file is left behind.
        assert_eq!(fs::read_dir(store.games_folder()).unwrap().count(), 2);
        assert!(store.write(Some("../escape"), &record(1)).is_err());
    }

    #[test]
    fn unreadable_files_are_set_aside_once_and_never_overwritten() {
        let (_parent, folder) = temporary_folder("aside");
        let mut store = Store::open(&folder).unwrap();
        let good = store.write(None, &record(5)).unwrap();
        let text = record(6).to_text();
        let bad = [
            ("cut", text.as_bytes()[..text.len() / 2].to_vec()),
            ("noise", vec![0xff, 0x00, 0x13, 0x37, 0xfe]),
            (
                "newer",
                text.replace("\"format\":1", "\"format\":99").into_bytes(),
            ),
        ];
        for (name, bytes) in &bad {
            fs::write(store.games_folder().join(format!("{name}.json")), bytes).unwrap();
        }
        // An earlier file set aside under the same name stays as it was.
        fs::write(store.games_folder().join("cut.json.unreadable"), b"older").unwrap();
        let (games, set_aside) = store.load().unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].id, good);
        assert_eq!(set_aside.len(), 3);
        let said: Vec<String> = set_aside.iter().map(ToString::to_string).collect();
        assert!(
            said.iter().any(|line| line.contains("format 99")),
            "{said:?}"
        );
        // What a newer ttt wrote is left for it, under its own name; the others set aside.
        assert!(
            said.iter()
                .all(|line| line.contains("set aside as") != line.contains("left as it is")),
            "{said:?}"
        );
        assert!(store.games_folder().join("newer.json").exists());
        assert_eq!(
            fs::read(store.games_folder().join("cut.json.unreadable")).unwrap(),
            b"older"
        );
        assert_eq!(
            fs::read(store.games_folder().join("cut.json.unreadable.2")).unwrap(),
            bad[0].1
        );
        // Read again: nothing more to set aside, the newer game said again, the good game
        // still there.
        let (games, set_aside) = store.load().unwrap();
        assert_eq!((games.len(), set_aside.len()), (1, 1));
    }
}
