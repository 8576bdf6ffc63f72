//! The full-screen app on arbitrary inputs: every byte becomes a key, a click, a resize or
//! a tick, on a board and with seats the first byte picks. The app never panics, draws at
//! every size, and its game stays legal.

#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;
use ttt_core::{Position, Rules};
use ttt_play::app::{App, Input, Key, Theme};
use ttt_play::{Seat, Seats, Settings};
use ttt_players::{Limits, Strength};

const KEYS: [Key; 14] = [
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
    Key::Char('?'),
    Key::Char('H'),
    Key::Char('é'),
];

fn input(byte: u8, next: u8) -> Input {
    match byte % 8 {
        0 => Input::Tick,
        1 => Input::Click {
            column: u16::from(next) % 130,
            row: u16::from(next / 3) % 45,
        },
        2 => Input::Resize {
            width: 40 + u16::from(next % 100),
            height: 15 + u16::from(next % 31),
        },
        3 => Input::Key(KEYS[usize::from(next) % KEYS.len()]),
        // Printable ASCII: digits, letters, commands, spaces.
        _ => Input::Key(Key::Char(char::from(32 + next % 95))),
    }
}

fuzz_target!(|data: &[u8]| {
    let (&choice, data) = data.split_first().unwrap_or((&0, &[]));
    let rules = match choice % 3 {
        0 => Rules::default(),
        1 => Rules::new(7, 6, 4).unwrap(),
        _ => Rules::new(15, 15, 5).unwrap(),
    };
    let seats = match choice / 3 % 3 {
        0 => Seats::Ask { letter: None },
        1 => Seats::Fixed {
            x: Seat::Human,
            o: Seat::Human,
        },
        _ => Seats::Fixed {
            x: Seat::Computer(Strength::Random),
            o: Seat::Human,
        },
    };
    let quick = Limits {
        think: Duration::from_millis(1),
        memory: Limits::MIN_MEMORY,
    };
    let settings = Settings::new(rules, seats)
        .unwrap()
        .with_seed(Some(1))
        .with_limits(quick);
    let mut area = Rect::new(0, 0, 80, 24);
    let mut now = Duration::ZERO;
    let mut app = App::new(settings, Theme::colour(), area, now);
    for pair in data.chunks(2) {
        let input = input(pair[0], pair.get(1).copied().unwrap_or(0));
        if app.end().is_some() {
            break;
        }
        match input {
            Input::Resize { width, height } => area = Rect::new(0, 0, width, height),
            Input::Tick => now += Duration::from_millis(500),
            _ => {}
        }
        app.handle(input, now);
        if let Some(thinking) = app.take_thinking() {
            app.receive(thinking.think(), now);
        }
        // Hints and reviews on 3x3 only: 4x4's take seconds.
        if let Some(job) = app.take_job()
            && app.rules().is_tic_tac_toe()
        {
            app.finish_job(job.run());
        }
        let mut buffer = Buffer::empty(area);
        (&app).render(area, &mut buffer);
        let game = app.session().position();
        let replayed = Position::from_moves(game.rules(), game.first(), game.history()).unwrap();
        assert_eq!(&replayed, game);
    }
});
