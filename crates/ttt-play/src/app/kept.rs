//! A front end's kept games as the app shows them: the one place both front ends (the
//! terminal and the browser) turn what happens in the app into kept games.

use super::{App, Screen};
use crate::records::{GameRecord, KeptGame, Recorder, Stats};

/// The recorder of a front end's games, and what the store holds as the start screen shows
/// it: the record line and the unfinished game offered to resume. Every game the recorder
/// keeps replaces its earlier version here too, so both are always the store's.
#[derive(Debug)]
pub struct KeptGames {
    recorder: Recorder,
    /// Every game kept, by id, as last kept.
    games: Vec<KeptGame>,
    /// The kept game offered on the start screen, as offered.
    offered: Option<KeptGame>,
    /// The ids of kept games open in another window on the same store (another tab of
    /// the page): never offered here, so that two windows do not play one game.
    elsewhere: Vec<String>,
}

impl KeptGames {
    /// Keeps games with `recorder`; `games` (those kept before, by id) make the record
    /// line of `app`'s start screen.
    pub fn new(recorder: Recorder, games: Vec<(String, GameRecord)>, app: &mut App) -> KeptGames {
        let games: Vec<KeptGame> = games
            .into_iter()
            .map(|(id, record)| KeptGame { id, record })
            .collect();
        let kept = KeptGames {
            recorder,
            games,
            offered: None,
            elsewhere: Vec::new(),
        };
        app.set_stats(kept.stats());
        kept
    }

    /// Offers `record`, the unfinished game kept as `id`, on `app`'s start screen.
    pub fn offer(&mut self, app: &mut App, id: &str, record: &GameRecord) {
        self.offered = Some(KeptGame {
            id: id.to_owned(),
            record: record.clone(),
        });
        app.offer(record.clone());
    }

    /// The game `app` has just resumed is the kept game `id`, started at `started`.
    pub fn resumed(&mut self, app: &App, id: &str, started: u64) {
        self.recorder.resumed(app.session(), id, started);
    }

    /// After each step of `app`, at `now`: the offered game taken up is kept as itself,
    /// the game on the board is kept as it changes, and the record line follows the store.
    /// Back on the start screen, the latest unfinished game with a person in it is offered
    /// (a game left for a new one or for the start screen among them).
    ///
    /// # Errors
    /// The store's, in one line.
    pub fn follow(&mut self, app: &mut App, now: u64) -> Result<(), String> {
        if app.take_resumed()
            && let Some(offered) = self.offered.take()
        {
            self.recorder
                .resumed(app.session(), &offered.id, offered.record.started);
        }
        if let Some(kept) = self.recorder.observe(app.session(), now)? {
            self.remember(kept);
            app.set_stats(self.stats());
        }
        if matches!(app.screen(), Screen::Start(_)) {
            self.offer_latest(app);
        }
        Ok(())
    }

    /// The id of the kept game `app` is playing, if it is in a game kept already: the
    /// game this window holds, which no other window should take up.
    pub fn holding(&self, app: &App) -> Option<&str> {
        match app.screen() {
            Screen::Game(_) => self.recorder.current_id(),
            _ => None,
        }
    }

    /// The kept games with these `ids` are open in another window: the start screen offers
    /// none of them (withdrawing the offer of one taken up there meanwhile), and offers
    /// again one let go. Returns whether the offer changed.
    pub fn open_elsewhere(&mut self, app: &mut App, ids: Vec<String>) -> bool {
        if ids == self.elsewhere {
            return false;
        }
        self.elsewhere = ids;
        let before = self.offered.clone();
        if matches!(app.screen(), Screen::Start(_)) {
            self.offer_latest(app);
        }
        before != self.offered
    }

    /// Keeps the game under way, unfinished (see [`Recorder::leave`]).
    ///
    /// # Errors
    /// The store's, in one line.
    pub fn leave(&mut self, app: &App, now: u64) -> Result<bool, String> {
        self.recorder.leave(app.session(), now)
    }

    /// The statistics of the games as kept.
    fn stats(&self) -> Stats {
        let records: Vec<GameRecord> = self.games.iter().map(|kept| kept.record.clone()).collect();
        Stats::of(&records)
    }

    /// `kept` replaces the version of its game known so far.
    fn remember(&mut self, kept: KeptGame) {
        match self.games.iter_mut().find(|known| known.id == kept.id) {
            Some(known) => *known = kept,
            None => self.games.push(kept),
        }
    }

    /// Offers the latest unfinished game a person played and no other window holds, as it
    /// is kept now (a game left and offered, then taken up again by the same choices, has
    /// changed since); withdraws the offer when there is none.
    fn offer_latest(&mut self, app: &mut App) {
        let latest = self
            .games
            .iter()
            .filter(|kept| kept.record.to_offer())
            .filter(|kept| !self.elsewhere.contains(&kept.id))
            .max_by_key(|kept| kept.record.started)
            .cloned();
        match latest {
            Some(latest) if self.offered.as_ref() != Some(&latest) || !app.has_offer() => {
                self.offer(app, &latest.id, &latest.record);
            }
            Some(_) => {}
            None => {
                self.offered = None;
                app.withdraw_offer();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use std::cell::RefCell;
    use std::rc::Rc;
    use std::time::Duration;

    use ratatui::layout::Rect;
    use ttt_core::{Outcome, Rules, Square};
    use ttt_players::Strength;

    use super::KeptGames;
    use crate::app::{App, COMPUTER_PAUSE, Input, Key, Screen, Theme};
    use crate::records::{GameRecord, Keep, Recorder};
    use crate::settings::{FirstPolicy, Seat, Seats, Settings};

    /// A store in memory: the latest version of each game, by id.
    #[derive(Clone, Default)]
    struct Memory(Rc<RefCell<Vec<(String, GameRecord)>>>);

    impl Keep for Memory {
        fn keep(&mut self, id: Option<&str>, record: &GameRecord) -> Result<String, String> {
            let mut kept = self.0.borrow_mut();
            let id = id.map_or_else(|| format!("game{}", kept.len()), str::to_owned);
            match kept.iter_mut().find(|(each, _)| *each == id) {
                Some(slot) => slot.1 = record.clone(),
                None => kept.push((id.clone(), record.clone())),
            }
            Ok(id)
        }
    }

    impl Memory {
        fn games(&self) -> Vec<(String, GameRecord)> {
            self.0.borrow().clone()
        }
    }

    /// A person as X, moving first, against `o`; the start screen asks nothing.
    fn against(o: Seat, memory: &Memory) -> (App, KeptGames) {
        let settings = Settings::new(Rules::default(), Seats::Fixed { x: Seat::Human, o })
            .unwrap()
            .with_first(FirstPolicy::X)
            .with_seed(Some(4));
        let mut app = App::new(
            settings,
            Theme::monochrome(),
            Rect::new(0, 0, 100, 30),
            Duration::ZERO,
        );
        let recorder = Recorder::new(Box::new(memory.clone()));
        let kept = KeptGames::new(recorder, memory.games(), &mut app);
        (app, kept)
    }

    /// One step as the front end takes it: the input, then the game followed.
    fn press(app: &mut App, kept: &mut KeptGames, key: Key) {
        app.handle(Input::Key(key), Duration::ZERO);
        kept.follow(app, 1).unwrap();
    }

    /// The person plays the first free square until the game ends, the computer
    /// answering each move.
    fn play_out(app: &mut App, kept: &mut KeptGames) {
        let mut now = Duration::ZERO;
        while !app.session().is_over() {
            let free = app.position().board().empty_squares().next().unwrap();
            app.place(free, now);
            kept.follow(app, 1).unwrap();
            now += COMPUTER_PAUSE;
            app.handle(Input::Tick, now);
            if let Some(thinking) = app.take_thinking() {
                app.receive(thinking.think(), now);
                kept.follow(app, 1).unwrap();
            }
        }
    }

    #[test]
    fn the_record_line_is_the_store_s_after_an_end_is_taken_back() {
        let memory = Memory::default();
        let (mut app, mut kept) = against(Seat::Computer(Strength::Perfect), &memory);
        play_out(&mut app, &mut kept);
        assert_eq!(
            app.session().outcome(),
            Some(Outcome::Win(ttt_core::Mark::O))
        );
        press(&mut app, &mut kept, Key::Char('u'));
        press(&mut app, &mut kept, Key::Char('m'));
        press(&mut app, &mut kept, Key::Char('y'));
        assert!(matches!(app.screen(), Screen::Start(_)));
        // The store keeps the game unfinished: no loss on record.
        let games = memory.games();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].1.outcome, None);
        assert_eq!(app.record_line(), None);
    }

    #[test]
    fn a_game_lost_again_after_undo_counts_once() {
        let memory = Memory::default();
        let (mut app, mut kept) = against(Seat::Computer(Strength::Perfect), &memory);
        play_out(&mut app, &mut kept);
        press(&mut app, &mut kept, Key::Char('u'));
        play_out(&mut app, &mut kept);
        assert_eq!(
            app.session().outcome(),
            Some(Outcome::Win(ttt_core::Mark::O))
        );
        press(&mut app, &mut kept, Key::Char('m'));
        assert_eq!(memory.games().len(), 1);
        assert_eq!(
            app.record_line().as_deref(),
            Some("Your record against the computer, impossible: 0 won, 1 lost, 0 drawn")
        );
    }

    #[test]
    fn a_game_left_for_a_new_one_or_the_start_screen_is_kept_and_offered() {
        for leave in ['n', 'm'] {
            let memory = Memory::default();
            let (mut app, mut kept) = against(Seat::Computer(Strength::Random), &memory);
            app.place(Square::new(4), Duration::ZERO);
            kept.follow(&mut app, 1).unwrap();
            app.handle(Input::Tick, COMPUTER_PAUSE);
            let thinking = app.take_thinking().unwrap();
            app.receive(thinking.think(), COMPUTER_PAUSE);
            kept.follow(&mut app, 1).unwrap();
            press(&mut app, &mut kept, Key::Char(leave));
            press(&mut app, &mut kept, Key::Char('y'));
            let games = memory.games();
            assert_eq!(games.len(), 1, "leaving with {leave}");
            assert_eq!(games[0].1.moves.len(), 2);
            assert!(games[0].1.can_resume());
            if leave == 'n' {
                // Back at the start screen later, the game left is offered.
                // The new game has no move yet: nothing to lose, so nothing asked.
                press(&mut app, &mut kept, Key::Char('m'));
            }
            assert!(matches!(app.screen(), Screen::Start(_)));
            let offer = app.offer_line().unwrap_or_default();
            assert!(offer.contains("2 moves"), "leaving with {leave}: {offer:?}");
        }
    }

    #[test]
    fn a_game_open_in_another_window_is_not_offered_until_it_is_let_go() {
        let memory = Memory::default();
        let (mut app, mut kept) = against(Seat::Computer(Strength::Random), &memory);
        assert_eq!(kept.holding(&app), None, "nothing kept yet");
        app.place(Square::new(4), Duration::ZERO);
        kept.follow(&mut app, 1).unwrap();
        let id = memory.games()[0].0.clone();
        assert_eq!(
            kept.holding(&app),
            Some(id.as_str()),
            "the game on the board"
        );
        press(&mut app, &mut kept, Key::Char('m'));
        press(&mut app, &mut kept, Key::Char('y'));
        assert_eq!(kept.holding(&app), None, "left for the start screen");
        assert!(app.offer_line().is_some());
        // Taken up in another tab: the offer here goes.
        assert!(kept.open_elsewhere(&mut app, vec![id.clone()]));
        assert_eq!(app.offer_line(), None);
        press(&mut app, &mut kept, Key::Char('r'));
        assert!(
            matches!(app.screen(), Screen::Start(_)),
            "r resumes nothing"
        );
        assert!(!kept.open_elsewhere(&mut app, vec![id]), "nothing new");
        // Let go there: offered here again.
        assert!(kept.open_elsewhere(&mut app, Vec::new()));
        assert!(app.offer_line().is_some());
    }
}
