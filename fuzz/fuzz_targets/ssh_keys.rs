//! The keys an SSH client sends, as the server reads them: any bytes, cut into chunks
//! where the first byte of each says, become the app's inputs; the reader never panics,
//! keeps little, and the app it drives draws after each chunk.

#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;
use ttt::server::ssh::KeyReader;
use ttt_core::Rules;
use ttt_play::app::{App, Theme};
use ttt_play::{Seats, Settings};

fuzz_target!(|data: &[u8]| {
    let Ok(settings) = Settings::new(Rules::default(), Seats::Ask { letter: None }) else {
        return;
    };
    let area = Rect::new(0, 0, 80, 24);
    let mut app = App::new(settings, Theme::monochrome(), area, Duration::ZERO);
    let mut keys = KeyReader::default();
    let mut rest = data;
    let mut now = Duration::ZERO;
    while let Some((&length, tail)) = rest.split_first() {
        let (chunk, after) = tail.split_at(usize::from(length % 16).min(tail.len()));
        rest = after;
        for input in keys.read(chunk) {
            now += Duration::from_millis(10);
            app.handle(input, now);
        }
        let mut buffer = Buffer::empty(area);
        (&app).render(area, &mut buffer);
    }
});
