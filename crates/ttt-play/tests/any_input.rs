//! The full-screen app under any sequence of keys, clicks, resizes and ticks, on every kind
//! of board and with every kind of opponent: it never panics, it draws at every size, and
//! what it shows stays consistent with the session (a legal game, a tally that only counts
//! finished games).

#![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

use std::time::Duration;

use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ttt_core::{Position, Rules};
use ttt_play::app::{App, Input, Key, Theme};
use ttt_play::{FirstPolicy, Seat, Seats, Settings};
use ttt_players::{Limits, Strength};

fn input() -> impl Strategy<Value = Input> {
    let keys = prop::sample::select(vec![
        Key::Up,
        Key::Down,
        Key::Left,
        Key::Right,
        Key::Enter,
        Key::Esc,
        Key::Backspace,
        Key::Tab,
        Key::Home,
        Key::End,
        Key::Char(' '),
        Key::Char('t'),
        Key::Char('u'),
        Key::Char('n'),
        Key::Char('m'),
        Key::Char('r'),
        Key::Char('H'),
        Key::Char('y'),
        Key::Char('?'),
        Key::Char('h'),
        Key::Char('q'),
        Key::Char('é'),
    ]);
    prop_oneof![
        4 => keys.prop_map(Input::Key),
        3 => (0_u32..10).prop_map(|digit| Input::Key(Key::Char(char::from_digit(digit, 10).unwrap_or('0')))),
        2 => (0_u16..130, 0_u16..45).prop_map(|(column, row)| Input::Click { column, row }),
        1 => (0_u16..130, 0_u16..45).prop_map(|(column, row)| Input::Select { column, row }),
        1 => prop::sample::select(vec![(80, 24), (60, 20), (130, 45), (100, 30)])
            .prop_map(|(width, height)| Input::Resize { width, height }),
        3 => Just(Input::Tick),
    ]
}

fn settings() -> impl Strategy<Value = Settings> {
    let boards = prop::sample::select(vec![(3, 3, 3), (7, 6, 4), (15, 15, 5)]);
    let seats = prop::sample::select(vec![
        None,
        Some((Seat::Human, Seat::Human)),
        Some((Seat::Human, Seat::Computer(Strength::Rules))),
        Some((Seat::Computer(Strength::Search), Seat::Human)),
        Some((
            Seat::Computer(Strength::Random),
            Seat::Computer(Strength::Mcts),
        )),
    ]);
    (boards, seats, any::<bool>(), prop::option::of(1_u32..4)).prop_map(
        |((width, height, k), seats, alternate, games)| {
            let rules = Rules::new(width, height, k).unwrap();
            let seats = seats.map_or(Seats::Ask { letter: None }, |(x, o)| Seats::Fixed { x, o });
            let first = if alternate {
                FirstPolicy::Alternate
            } else {
                FirstPolicy::Random
            };
            let quick = Limits {
                think: Duration::from_millis(1),
                memory: Limits::MIN_MEMORY,
                threads: 1,
            };
            let settings = Settings::new(rules, seats)
                .unwrap()
                .with_first(first)
                .with_seed(Some(7))
                .with_limits(quick);
            match games {
                Some(games) => settings.with_games(games).unwrap(),
                None => settings,
            }
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn any_input_is_handled_and_drawn(settings in settings(), inputs in prop::collection::vec(input(), 0..150)) {
        let mut now = Duration::ZERO;
        let mut area = Rect::new(0, 0, 80, 24);
        let mut app = App::new(settings.clone(), Theme::colour(), area, now);
        for input in inputs {
            if app.end().is_some() {
                break;
            }
            if let Input::Resize { width, height } = input {
                area = Rect::new(0, 0, width, height);
            }
            if input == Input::Tick {
                now += Duration::from_millis(500);
            }
            app.handle(input, now);
            // The slow work a front end would do elsewhere, done here and now: a thought
            // always; a hint or review on 3x3 only (4x4's take seconds).
            if let Some(thinking) = app.take_thinking() {
                app.receive(thinking.think(), now);
            }
            if let Some(job) = app.take_job()
                && app.rules().is_tic_tac_toe()
            {
                app.finish_job(job.run());
            }
            let mut terminal = Terminal::new(TestBackend::new(area.width, area.height)).unwrap();
            terminal.draw(|frame| frame.render_widget(&app, frame.area())).unwrap();

            let session = app.session();
            let game = session.position();
            let replayed = Position::from_moves(game.rules(), game.first(), game.history()).unwrap();
            prop_assert_eq!(&replayed, game);
            let finished = session.score().games();
            if let Some(games) = settings.games() {
                prop_assert!(finished <= games, "{} games of {}", finished, games);
            }
        }
    }
}
