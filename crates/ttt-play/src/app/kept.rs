//! A front end's kept games as the app shows them: the one place both front ends (the
//! terminal and the browser) turn what happens in the app into kept games.

use super::App;
use crate::records::{GameRecord, Recorder, Stats};

/// The recorder of a front end's games, the finished games behind the start screen's
/// record line, and the unfinished game offered to resume.
#[derive(Debug)]
pub struct KeptGames {
    recorder: Recorder,
    games: Vec<GameRecord>,
    /// The kept game offered on the start screen: its id and start.
    offered: Option<(String, u64)>,
}

impl KeptGames {
    /// Keeps games with `recorder`; `games` (those kept before) make the record line of
    /// `app`'s start screen.
    pub fn new(recorder: Recorder, games: Vec<GameRecord>, app: &mut App) -> KeptGames {
        app.set_stats(Stats::of(&games));
        KeptGames {
            recorder,
            games,
            offered: None,
        }
    }

    /// Offers `record`, the unfinished game kept as `id`, on `app`'s start screen.
    pub fn offer(&mut self, app: &mut App, id: &str, record: &GameRecord) {
        self.offered = Some((id.to_owned(), record.started));
        app.offer(record.clone());
    }

    /// The game `app` has just resumed is the kept game `id`, started at `started`.
    pub fn resumed(&mut self, app: &App, id: &str, started: u64) {
        self.recorder.resumed(app.session(), id, started);
    }

    /// After each step of `app`, at `now`: the offered game taken up is kept as itself, and
    /// a game that ended is kept and counted in the record line.
    ///
    /// # Errors
    /// The store's, in one line.
    pub fn follow(&mut self, app: &mut App, now: u64) -> Result<(), String> {
        if app.take_resumed()
            && let Some((id, started)) = self.offered.take()
        {
            self.recorder.resumed(app.session(), &id, started);
        }
        if let Some(finished) = self.recorder.observe(app.session(), now)? {
            self.games.push(finished);
            app.set_stats(Stats::of(&self.games));
        }
        Ok(())
    }

    /// Keeps the game under way, unfinished (see [`Recorder::leave`]).
    ///
    /// # Errors
    /// The store's, in one line.
    pub fn leave(&mut self, app: &App, now: u64) -> Result<bool, String> {
        self.recorder.leave(app.session(), now)
    }
}
