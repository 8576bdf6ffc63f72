//! A player's online games kept in their own store as they are played, as games at home
//! are: after every move, and at the end, so that `ttt games`, `ttt stats`, `ttt replay`
//! and export show them, marked online, with the opponent's name. No I/O: the front end
//! writes what [`OnlineGames::observe`] hands it, through the store's
//! [`Keep`](ttt_play::records::Keep).
//!
//! ```
//! use ttt_online::keeping::OnlineGames;
//! use ttt_online::mirror::Mirror;
//!
//! // A watcher keeps nothing; nor does anyone before the first move.
//! let mut games = OnlineGames::default();
//! assert!(games.observe(&Mirror::default(), 1_795_421_700).is_none());
//! ```

use ttt_play::records::GameRecord;

use crate::mirror::Mirror;

/// What was kept of the game on the board, to keep it again only when it changed.
#[derive(Debug, Clone, Default)]
pub struct OnlineGames {
    /// The room and number of the game on the board, and when this client first saw it.
    game: Option<(String, u32, u64)>,
    /// The version of it kept last.
    kept: Option<GameRecord>,
}

impl OnlineGames {
    /// Looks at the room after a message, at `now` (seconds since 1970): the game to keep
    /// and its id in the store, when the game on the board changed since it was last
    /// kept (a move, an undo, its end). The id is the room's, the game's number and the
    /// seat's, so a client started again (the terminal closed, the page reloaded) keeps
    /// the same game in the same place, and two players sharing a store do not meet.
    pub fn observe(&mut self, mirror: &Mirror, now: u64) -> Option<(String, GameRecord)> {
        let mut record = mirror.record()?;
        let online = record.online.clone()?;
        let started = match &self.game {
            Some((room, game, started)) if *room == online.room && *game == online.game => *started,
            _ => {
                self.game = Some((online.room.clone(), online.game, now));
                self.kept = None;
                now
            }
        };
        record.started = started;
        if self.kept.as_ref().is_some_and(|kept| {
            kept.moves == record.moves
                && kept.outcome == record.outcome
                && kept.names == record.names
        }) {
            return None;
        }
        record.ended = record.outcome.map(|_| now);
        self.kept = Some(record.clone());
        let id = format!(
            "online-{}-{}-{}",
            online.room,
            online.game,
            online.seat.to_string().to_lowercase()
        );
        Some((id, record))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use ttt_core::{Mark, Outcome, Rules};
    use ttt_play::records::{GameRecord, Stats};

    use super::*;
    use crate::protocol::{Request, ToServer};
    use crate::room::{Fresh, Limits, Lobby, MemberId};

    const ANN: MemberId = MemberId(1);
    const BOB: MemberId = MemberId(2);

    /// Hands `ask` from `id` to the lobby; every member's mirror takes what it is told,
    /// Ann's `games` looking after each message as a client does, every record it
    /// hands out read back as a store reads it.
    fn say_kept(
        lobby: &mut Lobby,
        id: MemberId,
        ask: ToServer,
        mirrors: &mut [Mirror; 2],
        games: &mut OnlineGames,
        kept: &mut Vec<(String, GameRecord)>,
    ) {
        for delivery in lobby.handle(id, Request::from(ask), fresh_for(id)) {
            let ann = delivery.to == ANN;
            let mirror = &mut mirrors[usize::from(!ann)];
            mirror.take(&delivery.message).unwrap();
            if ann && let Some((id, record)) = games.observe(mirror, 100 + kept.len() as u64) {
                let read = GameRecord::from_text(&record.to_text());
                assert_eq!(read.as_ref(), Ok(&record), "as kept after {delivery:?}");
                kept.push((id, record));
            }
        }
    }

    /// What the server gives with a message from `id`.
    fn fresh_for(id: MemberId) -> Fresh {
        Fresh {
            code: "K7QX-2M".parse().unwrap(),
            token: format!("token-{}", id.0),
            coin: Mark::X,
            now: 0,
        }
    }

    /// Hands `ask` from `id` to the lobby; every member's mirror takes what it is told.
    fn say(lobby: &mut Lobby, id: MemberId, ask: ToServer, mirrors: &mut [Mirror; 2]) {
        for delivery in lobby.handle(id, Request::from(ask), fresh_for(id)) {
            let mirror = &mut mirrors[usize::from(delivery.to == BOB)];
            mirror.take(&delivery.message).unwrap();
        }
    }

    #[test]
    fn a_game_against_the_servers_computer_is_kept_with_the_computer_in_its_seat() {
        let mut lobby = Lobby::new(Limits::default());
        let mut mirrors = [Mirror::default(), Mirror::default()];
        let host = ToServer::Host {
            rules: Rules::default().to_string(),
            name: "Ann".into(),
            computer: Some("easy".into()),
            clock: None,
            public: false,
        };
        say(&mut lobby, ANN, host, &mut mirrors);
        say(&mut lobby, ANN, ToServer::Play { square: 4 }, &mut mirrors);
        let record = mirrors[0].record().unwrap();
        assert_eq!(
            (record.x, record.o),
            (
                ttt_play::Seat::Human,
                ttt_play::Seat::Computer(ttt_players::Strength::Random)
            )
        );
        assert_eq!(
            record.names,
            Some(("Ann".to_owned(), "Computer (easy)".to_owned()))
        );
    }

    #[test]
    fn each_player_keeps_the_game_as_it_goes_once_a_change_under_one_id() {
        let mut lobby = Lobby::new(Limits::default());
        let mut mirrors = [Mirror::default(), Mirror::default()];
        let host = ToServer::Host {
            rules: Rules::default().to_string(),
            name: "Ann".into(),
            computer: None,
            clock: None,
            public: false,
        };
        say(&mut lobby, ANN, host, &mut mirrors);
        let join = ToServer::Join {
            code: "K7QX-2M".into(),
            name: "Bob".into(),
            tokens: Vec::new(),
        };
        say(&mut lobby, BOB, join, &mut mirrors);
        let mut ann = OnlineGames::default();
        assert!(ann.observe(&mirrors[0], 100).is_none(), "no move yet");
        let first = mirrors[0].position.as_ref().unwrap().to_move();
        let (mover, other) = if first == Mark::X {
            (ANN, BOB)
        } else {
            (BOB, ANN)
        };
        let mut kept = Vec::new();
        for (who, square) in [(mover, 0), (other, 3), (mover, 1), (other, 4), (mover, 2)] {
            let play = ToServer::Play { square };
            say_kept(&mut lobby, who, play, &mut mirrors, &mut ann, &mut kept);
            assert!(ann.observe(&mirrors[0], 999).is_none(), "nothing new");
        }
        assert_eq!(kept.len(), 5, "after every move");
        assert!(kept.iter().all(|(id, _)| id == "online-K7QX-2M-1-x"));
        let (_, record) = kept.last().unwrap();
        assert_eq!(record.outcome, Some(Outcome::Win(first)));
        assert_eq!((record.started, record.ended), (100, Some(104)));
        assert_eq!(record.player(Mark::O), "Bob");
        assert!(!record.can_resume());
        // As the store reads it back, and as the statistics count it: Ann's own side.
        let read = GameRecord::from_text(&record.to_text()).unwrap();
        assert_eq!(&read, record);
        let stats = Stats::of(&[read]);
        let tally = stats.against("Bob online");
        let won = usize::from(first == Mark::X);
        assert_eq!((tally.wins, tally.losses), (won as u32, 1 - won as u32));
        // Bob keeps his own, under his seat's id; a watcher keeps nothing.
        let (id, _) = OnlineGames::default().observe(&mirrors[1], 100).unwrap();
        assert_eq!(id, "online-K7QX-2M-1-o");
        let mut watcher = mirrors[1].clone();
        watcher.seat = None;
        assert!(OnlineGames::default().observe(&watcher, 100).is_none());
    }
}
