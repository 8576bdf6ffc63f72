//! A full-screen app's stay in a room, over any connection: what to say first on each new
//! connection (into the room, then back to the seat by its token), what the server's
//! messages change in the app, and how long to wait before coming back after a drop. The
//! front end (the terminal's full screen, the web page) owns the socket, the timers and
//! where tokens are kept, and does what each [`Reply`] says.
//!
//! ```
//! use ttt_core::Rules;
//! use ttt_online::protocol::ToServer;
//! use ttt_online::visit::Visit;
//!
//! let visit = Visit::host(Rules::default(), "Ann");
//! assert!(matches!(visit.hello().ask, ToServer::Host { .. }));
//! ```

use std::time::Duration;

use ttt_core::Rules;
use ttt_play::app::{App, Ask};
use ttt_play::records::GameRecord;

use crate::clock::TimeControl;
use crate::keeping::OnlineGames;
use crate::mirror::Mirror;
use crate::protocol::{Happening, Request, RoomCode, ToClient, ToServer};

/// Waits before coming back after a dropped connection, one after the other; the last
/// repeats.
pub const BACK_OFF: [u64; 5] = [1, 2, 4, 8, 15];

/// Tries to come back before giving up.
pub const MAX_TRIES: usize = 12;

/// How the visit comes into its room.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Way {
    /// Opens one on `rules`, against the server's computer of the strength `computer`
    /// names if it names one, with a `clock` if one is given.
    Host {
        rules: Rules,
        computer: Option<String>,
        clock: Option<TimeControl>,
        public: bool,
    },
    /// Watches the room of this code.
    Watch(RoomCode),
    /// Takes a seat in the room of this code (back to one of `tokens` if nobody holds
    /// it), or watches; `mine` is a token that is this front end's own seat (a reloaded
    /// page's), taken back even from another connection.
    Join {
        code: RoomCode,
        tokens: Vec<String>,
        mine: Option<String>,
    },
}

/// A stay in a room: the mirror of the room and what the front end needs to come back.
#[derive(Debug, Clone)]
pub struct Visit {
    way: Way,
    name: String,
    mirror: Mirror,
    last_id: u64,
    welcomed: bool,
    tries: usize,
    games: OnlineGames,
}

/// What the front end does after a message ([`Visit::heard`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reply {
    /// Requests to send now, in order (the room again after a missed happening, the way
    /// in again after a token the room no longer knows).
    pub send: Vec<Request>,
    /// The person came into the room (or back): the front end keeps the seat's token
    /// ([`Visit::token`]) and says so in its own words ([`Visit::mirror`] holds the room).
    pub welcomed: bool,
    /// The token of this front end's own seat is unknown to the room: forget it.
    pub forget_mine: bool,
    /// The server closed this connection and asked to come back: in a moment, on a new
    /// one.
    pub come_back: bool,
    /// The room is over for this front end (refused, or closed for good): the app is back
    /// at its start screen, saying why; close the connection.
    pub ended: bool,
}

impl Visit {
    /// A room to open on `rules`, as `name`.
    pub fn host(rules: Rules, name: &str) -> Visit {
        let way = Way::Host {
            rules,
            computer: None,
            clock: None,
            public: false,
        };
        Visit::new(way, name)
    }

    /// A room to open on `rules`, as `name`, against a computer of the server's of the
    /// strength `computer` names (`hard`, `search`…: the server reads it).
    pub fn host_against(rules: Rules, name: &str, computer: &str) -> Visit {
        let way = Way::Host {
            rules,
            computer: Some(computer.to_owned()),
            clock: None,
            public: false,
        };
        Visit::new(way, name)
    }

    /// The same visit, the room it opens (if it opens one) timed by `clock`.
    #[must_use]
    pub fn with_clock(mut self, clock: Option<TimeControl>) -> Visit {
        if let Way::Host { clock: timed, .. } = &mut self.way {
            *timed = clock;
        }
        self
    }

    /// The same visit, the room it opens (if it opens one) listed in the server's lobby
    /// if `public`.
    #[must_use]
    pub fn listed(mut self, public: bool) -> Visit {
        if let Way::Host { public: listed, .. } = &mut self.way {
            *listed = public;
        }
        self
    }

    /// The room `code`, to watch as `name`.
    pub fn watch(code: RoomCode, name: &str) -> Visit {
        Visit::new(Way::Watch(code), name)
    }

    /// The room `code`, as `name`, with the `tokens` of seats taken there before, and
    /// `mine`, the seat this front end held a moment ago (a reload).
    pub fn join(code: RoomCode, name: &str, tokens: Vec<String>, mine: Option<String>) -> Visit {
        Visit::new(Way::Join { code, tokens, mine }, name)
    }

    fn new(way: Way, name: &str) -> Visit {
        Visit {
            way,
            name: name.to_owned(),
            mirror: Mirror::named(name),
            last_id: 0,
            welcomed: false,
            tries: 0,
            games: OnlineGames::default(),
        }
    }

    /// The board expected before the server says which.
    pub fn rules(&self) -> Rules {
        match &self.way {
            Way::Host { rules, .. } => *rules,
            Way::Join { .. } | Way::Watch(_) => self.mirror.rules.unwrap_or_default(),
        }
    }

    /// The room as last told.
    pub fn mirror(&self) -> &Mirror {
        &self.mirror
    }

    /// The first message on a new connection: into the room, or back to the seat.
    pub fn hello(&self) -> Request {
        let ask = match (&self.way, &self.mirror.code) {
            // Welcomed before: back as whoever the token says.
            (_, Some(_)) => self.mirror.rejoin(),
            (
                Way::Host {
                    rules,
                    computer,
                    clock,
                    public,
                },
                None,
            ) => ToServer::Host {
                rules: rules.to_string(),
                name: self.name.clone(),
                computer: computer.clone(),
                clock: clock.map(|clock| clock.to_string()),
                public: *public,
            },
            (Way::Watch(code), None) => ToServer::Watch {
                code: code.to_string(),
                name: self.name.clone(),
            },
            (
                Way::Join {
                    code,
                    mine: Some(token),
                    ..
                },
                None,
            ) => ToServer::Rejoin {
                code: code.to_string(),
                token: token.clone(),
                name: Some(self.name.clone()),
            },
            (Way::Join { code, tokens, .. }, None) => ToServer::Join {
                code: code.to_string(),
                name: self.name.clone(),
                tokens: tokens.clone(),
            },
        };
        ask.into()
    }

    /// The request for what the person asked in the app, numbered and meant for the ply
    /// on the board; none for leaving (the front end closes the connection).
    pub fn request(&mut self, ask: Ask) -> Option<Request> {
        let ask = ToServer::asked(ask, &self.name)?;
        self.last_id += 1;
        Some(self.mirror.request(self.last_id, ask))
    }

    /// The goodbye to send as the person leaves the room on purpose
    /// ([`Mirror::farewell`]), before the front end closes the connection.
    pub fn farewell(&mut self) -> Option<Request> {
        let request = self.mirror.farewell(self.last_id + 1)?;
        self.last_id += 1;
        Some(request)
    }

    /// The word to send as the person steps away keeping their seat ([`Mirror::away`]),
    /// before the front end closes the connection.
    pub fn away(&mut self) -> Option<Request> {
        let request = self.mirror.away(self.last_id + 1)?;
        self.last_id += 1;
        Some(request)
    }

    /// Takes what the server said (`text`, one message), shows it in `app`, and says what
    /// the front end does next.
    pub fn heard(&mut self, text: &str, app: &mut App) -> Reply {
        let mut reply = Reply::default();
        let Ok(told) = serde_json::from_str::<ToClient>(text) else {
            app.online_note(
                "The server said what this ttt does not know: is it a newer one?".to_owned(),
                true,
            );
            return reply;
        };
        match &told {
            ToClient::Refused { reason, .. } if !self.welcomed => {
                if let Way::Join { mine, .. } = &mut self.way
                    && mine.take().is_some()
                    && self.mirror.code.is_none()
                {
                    // A seat's token the room no longer knows: in as anyone would be.
                    reply.forget_mine = true;
                    reply.send.push(self.hello());
                    return reply;
                }
                reply.ended = true;
                app.online_closed(reason.clone());
                return reply;
            }
            ToClient::Bye { reason, again } => {
                self.welcomed = false;
                if *again {
                    app.online_note(reason.clone(), true);
                    reply.come_back = true;
                } else {
                    reply.ended = true;
                    app.online_closed(reason.clone());
                }
                return reply;
            }
            _ => {}
        }
        if self.mirror.take(&told).is_err() {
            // A happening went missing: the whole room again, on this connection.
            reply.send.push(self.mirror.rejoin().into());
            return reply;
        }
        match &told {
            ToClient::Welcome { .. } => {
                self.welcomed = true;
                self.tries = 0;
                reply.welcomed = true;
            }
            ToClient::Happened { happening, .. } => {
                if let Some(sentence) = crate::words::told(happening, &self.mirror) {
                    app.online_note(sentence, false);
                }
                // The other player gone mid-game: the person is told when to claim.
                if let Happening::Left {
                    seat: Some(seat),
                    wait: Some(wait),
                    ..
                } = happening
                    && self
                        .mirror
                        .seat
                        .is_some_and(|mine| mine.to_string() != *seat)
                {
                    app.online_claimable_in(Duration::from_secs(*wait));
                }
            }
            ToClient::Refused { reason, .. } => app.online_note(reason.clone(), true),
            ToClient::Done { .. }
            | ToClient::Pong { .. }
            | ToClient::Rooms { .. }
            | ToClient::Bye { .. } => {}
        }
        app.show_online(self.mirror.table(self.rules()));
        reply
    }

    /// The game on the board to keep in the person's own store, and its id there, when
    /// it changed since it was last kept ([`OnlineGames::observe`]); `now` in seconds
    /// since 1970.
    pub fn to_keep(&mut self, now: u64) -> Option<(String, GameRecord)> {
        self.games.observe(&self.mirror, now)
    }

    /// The seat's token to keep once welcomed, with the room's code: none for a watcher.
    pub fn token(&self) -> Option<(&str, &str)> {
        let code = self.mirror.code.as_deref()?;
        self.mirror.seat.map(|_| (code, self.mirror.token.as_str()))
    }

    /// The connection closed without a goodbye (or could not open): how long to wait
    /// before coming back; none when it never got in (there is no server there) or has
    /// tried long enough, the app then back at its start screen saying why.
    pub fn dropped(&mut self, app: &mut App) -> Option<Duration> {
        self.welcomed = false;
        if self.mirror.code.is_none() && self.tries == 0 {
            app.online_closed(
                "No ttt server answers there: rooms are played on a server that ttt serve (or \
                 ttt host) runs."
                    .to_owned(),
            );
            return None;
        }
        if self.tries >= MAX_TRIES {
            app.online_closed("The server is gone: the room could not be reached.".to_owned());
            return None;
        }
        let wait = BACK_OFF[self.tries.min(BACK_OFF.len() - 1)];
        self.tries += 1;
        app.online_note(
            format!("Lost the connection to the server: trying again in {wait} s…"),
            true,
        );
        Some(Duration::from_secs(wait))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use std::time::Duration;

    use ratatui::layout::Rect;
    use ttt_core::Mark;
    use ttt_play::app::{Screen, Theme};
    use ttt_play::{Seats, Settings};

    use super::*;
    use crate::room::{Fresh, Limits, Lobby, MemberId};

    fn app() -> App {
        let settings = Settings::new(Rules::default(), Seats::Ask { letter: None }).unwrap();
        App::new(
            settings,
            Theme::monochrome(),
            Rect::new(0, 0, 80, 24),
            Duration::ZERO,
        )
        .with_online("Ann")
    }

    fn fresh(token: &str) -> Fresh {
        Fresh {
            code: "K7QX-2M".parse().unwrap(),
            token: token.into(),
            coin: Mark::X,
            now: 0,
        }
    }

    /// Hands `request` from `member` to the lobby, and what it tells `member` to `visit`.
    fn exchange(
        lobby: &mut Lobby,
        member: MemberId,
        request: Request,
        visit: &mut Visit,
        app: &mut App,
        token: &str,
    ) -> Vec<Reply> {
        lobby
            .handle(member, request, fresh(token))
            .into_iter()
            .filter(|delivery| delivery.to == member)
            .map(|delivery| visit.heard(&serde_json::to_string(&delivery.message).unwrap(), app))
            .collect()
    }

    #[test]
    fn a_visit_hosts_plays_and_comes_back_by_its_token() {
        let mut lobby = Lobby::new(Limits::default());
        let (mut ann, mut ann_app) = (Visit::host(Rules::default(), "Ann"), app());
        ann_app.enter_online(Rules::default());
        let replies = exchange(
            &mut lobby,
            MemberId(1),
            ann.hello(),
            &mut ann,
            &mut ann_app,
            "a",
        );
        assert!(replies.iter().any(|reply| reply.welcomed));
        assert_eq!(ann.token(), Some(("K7QX-2M", "a")));
        let code: RoomCode = "K7QX-2M".parse().unwrap();
        let (bob, mut bob_app) = (Visit::join(code, "Bob", vec![], None), app());
        bob_app.enter_online(Rules::default());
        let told = lobby.handle(MemberId(2), bob.hello(), fresh("b"));
        for delivery in told.iter().filter(|delivery| delivery.to == MemberId(1)) {
            ann.heard(
                &serde_json::to_string(&delivery.message).unwrap(),
                &mut ann_app,
            );
        }
        let table = ann_app.table().unwrap();
        assert!(
            table.started && table.my_turn(),
            "the coin gave X the first move"
        );
        let play = ann.request(Ask::Play(ttt_core::Square::new(4))).unwrap();
        assert_eq!(play.ply, Some(0));
        exchange(&mut lobby, MemberId(1), play, &mut ann, &mut ann_app, "");
        assert_eq!(ann_app.position().ply(), 1);
        let say = ann.request(Ask::Say("good luck \u{1b}[2J".into())).unwrap();
        exchange(&mut lobby, MemberId(1), say, &mut ann, &mut ann_app, "");
        // The server leaves out what would act on a terminal.
        let said = vec!["Ann: good luck [2J".to_owned()];
        assert_eq!(ann_app.table().unwrap().said, said);
        // Dropped: back after a wait, with the token, to the same seat and board.
        lobby.disconnect(MemberId(1), 0);
        assert_eq!(ann.dropped(&mut ann_app), Some(Duration::from_secs(1)));
        assert!(matches!(ann.hello().ask, ToServer::Rejoin { ref token, .. } if token == "a"));
        exchange(
            &mut lobby,
            MemberId(3),
            ann.hello(),
            &mut ann,
            &mut ann_app,
            "",
        );
        assert_eq!(ann_app.position().ply(), 1);
        assert_eq!(ann_app.table().unwrap().seat, Some(Mark::X));
        assert_eq!(ann_app.table().unwrap().said, said, "what was said stays");
    }

    #[test]
    fn a_refused_way_in_ends_the_visit_and_an_unknown_token_of_ones_own_tries_again() {
        let mut lobby = Lobby::new(Limits::default());
        let code: RoomCode = "K7QX-2M".parse().unwrap();
        let (mut visit, mut app) = (Visit::join(code, "Bob", vec![], Some("old".into())), app());
        app.enter_online(Rules::default());
        // A reloaded page whose room is gone: its own token is refused, then the code.
        let replies = exchange(
            &mut lobby,
            MemberId(1),
            visit.hello(),
            &mut visit,
            &mut app,
            "",
        );
        assert!(replies[0].forget_mine);
        assert!(matches!(replies[0].send[0].ask, ToServer::Join { .. }));
        let replies = exchange(
            &mut lobby,
            MemberId(1),
            replies[0].send[0].clone(),
            &mut visit,
            &mut app,
            "",
        );
        assert!(replies[0].ended);
        assert!(matches!(app.screen(), Screen::Start(_)));
        assert!(app.status().warning);
    }

    #[test]
    fn a_server_never_reached_is_said_at_once_and_a_lost_one_is_tried_with_waits() {
        let mut app = app();
        app.enter_online(Rules::default());
        let mut never = Visit::host(Rules::default(), "Ann");
        assert_eq!(never.dropped(&mut app), None);
        assert!(matches!(app.screen(), Screen::Start(_)));
        let mut lost = Visit::host(Rules::default(), "Ann");
        let mut app = self::app();
        app.enter_online(Rules::default());
        let welcome = ToClient::Welcome {
            version: crate::protocol::VERSION,
            code: "K7QX-2M".into(),
            token: "a".into(),
            seat: Some("X".into()),
            members: vec![],
            snapshot: Box::new(
                ttt_play::matches::Match::new(
                    ttt_play::session::Table {
                        rules: Rules::default(),
                        x: ttt_play::Seat::Human,
                        o: ttt_play::Seat::Human,
                        first: ttt_play::FirstPolicy::X,
                    },
                    None,
                )
                .unwrap()
                .snapshot(),
            ),
            seq: 0,
            clock: None,
        };
        lost.heard(&serde_json::to_string(&welcome).unwrap(), &mut app);
        let waits: Vec<u64> = std::iter::from_fn(|| lost.dropped(&mut app))
            .map(|wait| wait.as_secs())
            .collect();
        assert_eq!(waits.len(), MAX_TRIES);
        assert_eq!(&waits[..6], &[1, 2, 4, 8, 15, 15]);
        assert!(
            matches!(app.screen(), Screen::Start(_)),
            "given up, and said"
        );
    }
}
