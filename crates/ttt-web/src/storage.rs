//! The browser's local storage as the page's store: the same records and remembered
//! choices as on a computer, in the same text, under the keys `ttt.game.<id>` and
//! `ttt.choices`. A value that cannot be read is moved aside under `ttt.unreadable.<id>`,
//! never written over. Each game is one key, written whole by the browser, so two tabs
//! playing at once each keep their own games.
//!
//! A tab playing a kept game holds it under `ttt.open.<id>` (the tab's id and when it last
//! said so), so that another tab does not offer it too: a hold lapses when the tab closes,
//! or a while after it stops renewing it (a tab that crashed).

use ttt_play::records::{GameRecord, Keep, Remembered};
use web_sys::Storage;

/// The prefix of a game's key.
const GAME: &str = "ttt.game.";
/// The key of the remembered choices.
const CHOICES: &str = "ttt.choices";
/// The prefix a value that cannot be read is moved to.
const UNREADABLE: &str = "ttt.unreadable.";
/// The prefix of a hold on a game open in a tab.
const OPEN: &str = "ttt.open.";

/// How often a tab renews its hold, in milliseconds.
pub const HOLD_RENEWED: i32 = 10_000;
/// How long a hold lasts unless renewed, in milliseconds: three renewals missed.
const HOLD_LASTS: f64 = 3.0 * HOLD_RENEWED as f64;

fn storage() -> Option<Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Seconds since 1970, by the browser's clock.
pub fn now() -> u64 {
    (web_sys::js_sys::Date::now() / 1000.0).max(0.0) as u64
}

/// The page's store of games.
#[derive(Debug)]
pub struct LocalStorage;

impl Keep for LocalStorage {
    fn keep(&mut self, id: Option<&str>, record: &GameRecord) -> Result<String, String> {
        let storage = storage().ok_or("this browser keeps nothing here (no local storage)")?;
        let id = match id {
            Some(id) => id.to_owned(),
            None => (1_u32..)
                .map(|n| format!("{}-{n}", record.started))
                .find(|id| matches!(storage.get_item(&format!("{GAME}{id}")), Ok(None)))
                .unwrap_or_default(),
        };
        storage
            .set_item(&format!("{GAME}{id}"), &record.to_text())
            .map_err(|_| "the browser's storage refused the game (is it full?)".to_owned())?;
        Ok(id)
    }
}

/// Every game kept, oldest first, as (id, game); a value that cannot be read is moved
/// aside, and said in the list of lines returned.
pub fn load() -> (Vec<(String, GameRecord)>, Vec<String>) {
    let Some(storage) = storage() else {
        return (Vec::new(), Vec::new());
    };
    let keys: Vec<String> = (0..storage.length().unwrap_or(0))
        .filter_map(|index| storage.key(index).ok().flatten())
        .filter(|key| key.starts_with(GAME))
        .collect();
    let (mut games, mut said) = (Vec::new(), Vec::new());
    for key in keys {
        let id = key[GAME.len()..].to_owned();
        let text = storage.get_item(&key).ok().flatten().unwrap_or_default();
        match GameRecord::from_text(text.trim()) {
            Ok(record) => games.push((id, record)),
            Err(error) => {
                let aside = format!("{UNREADABLE}{id}");
                if storage.set_item(&aside, &text).is_ok() {
                    let _ = storage.remove_item(&key);
                }
                said.push(format!(
                    "A saved game could not be read ({error}); it was set aside as {aside}."
                ));
            }
        }
    }
    games.sort_by(|a, b| (a.1.started, &a.0).cmp(&(b.1.started, &b.0)));
    (games, said)
}

/// The start screen's choices remembered from the last visit, if any can be read.
pub fn choices() -> Option<Remembered> {
    let text = storage()?.get_item(CHOICES).ok().flatten()?;
    Remembered::from_text(text.trim()).ok()
}

/// Remembers the start screen's choices for the next visit.
pub fn keep_choices(remembered: &Remembered) {
    if let Some(storage) = storage() {
        let _ = storage.set_item(CHOICES, &remembered.to_text());
    }
}

/// A new tab's id: random enough that two tabs never share one.
pub fn tab_id() -> String {
    let random = || (web_sys::js_sys::Math::random() * f64::from(u32::MAX)) as u32;
    format!("{:08x}{:08x}", random(), random())
}

/// Holds the kept game `id` for the tab `tab`, or renews its hold.
pub fn hold(tab: &str, id: &str) {
    if let Some(storage) = storage() {
        let _ = storage.set_item(
            &format!("{OPEN}{id}"),
            &format!("{tab} {}", web_sys::js_sys::Date::now()),
        );
    }
}

/// Lets go of the kept game `id`, if the tab `tab` holds it.
pub fn let_go(tab: &str, id: &str) {
    let Some(storage) = storage() else {
        return;
    };
    let key = format!("{OPEN}{id}");
    let held_here = storage
        .get_item(&key)
        .ok()
        .flatten()
        .is_some_and(|value| value.split(' ').next() == Some(tab));
    if held_here {
        let _ = storage.remove_item(&key);
    }
}

/// The ids of the kept games other tabs hold now, in order; a hold that lapsed is removed.
pub fn held_elsewhere(tab: &str) -> Vec<String> {
    let Some(storage) = storage() else {
        return Vec::new();
    };
    let now = web_sys::js_sys::Date::now();
    let keys: Vec<String> = (0..storage.length().unwrap_or(0))
        .filter_map(|index| storage.key(index).ok().flatten())
        .filter(|key| key.starts_with(OPEN))
        .collect();
    let mut held = Vec::new();
    for key in keys {
        let value = storage.get_item(&key).ok().flatten().unwrap_or_default();
        let mut words = value.split(' ');
        let (holder, since) = (
            words.next(),
            words.next().and_then(|at| at.parse::<f64>().ok()),
        );
        match since {
            Some(since) if now - since < HOLD_LASTS => {
                if holder != Some(tab) {
                    held.push(key[OPEN.len()..].to_owned());
                }
            }
            _ => {
                let _ = storage.remove_item(&key);
            }
        }
    }
    held.sort();
    held
}
