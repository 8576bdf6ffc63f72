//! The full-screen mode: a board to play with arrow keys, mouse and colour.
//!
//! `App` holds the state and takes keys, clicks and time; `ui` draws it; only [`run`]
//! touches the terminal, and it restores it on every way out: quitting, Ctrl-C, a signal
//! (SIGTERM, SIGHUP, SIGQUIT, SIGINT from `kill`), an error or a panic.

mod app;
mod job;
mod layout;
mod theme;
mod ui;
mod watchdog;

use std::io::{self, IsTerminal};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use ratatui::crossterm::{cursor, execute};

pub use app::{App, Choices, Launch, Opponent};
pub use theme::Theme;

use crate::session::{Score, Thought};
use crate::signals::{Interrupts, Signal};
use watchdog::Watchdog;

/// How often the loop wakes with nothing happening, to notice a due computer move.
const TICK: Duration = Duration::from_millis(50);

/// How the full-screen mode ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exit {
    /// The score of every game of the run.
    pub score: Score,
    /// The signal that ended it (Ctrl-C among them), or `None` when the person quit.
    pub signal: Option<Signal>,
}

/// Runs the full-screen mode until the person quits or a signal in `interrupts` arrives,
/// and returns the score.
///
/// # Errors
/// Only errors of the terminal itself; the terminal is restored before returning.
pub fn run(launch: Launch, interrupts: &Interrupts) -> io::Result<Exit> {
    let watchdog = Watchdog::start(interrupts)?;
    let terminal = ratatui::init();
    let guard = MouseGuard::enable();
    let result = guard.and_then(|_guard| event_loop(terminal, launch, interrupts, &watchdog));
    ratatui::restore();
    result
}

/// Mouse capture and a hidden cursor for as long as it lives, undone on drop and on panic
/// (ratatui's own hook restores raw mode and the main screen).
struct MouseGuard;

impl MouseGuard {
    fn enable() -> io::Result<MouseGuard> {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let _ = execute!(io::stdout(), DisableMouseCapture, cursor::Show);
            previous(info);
        }));
        execute!(io::stdout(), EnableMouseCapture)?;
        Ok(MouseGuard)
    }
}

impl Drop for MouseGuard {
    fn drop(&mut self) {
        let _ = execute!(io::stdout(), DisableMouseCapture, cursor::Show);
    }
}

fn event_loop(
    mut terminal: DefaultTerminal,
    launch: Launch,
    interrupts: &Interrupts,
    watchdog: &Watchdog,
) -> io::Result<Exit> {
    let size = terminal.size()?;
    let mut app = App::new(
        launch,
        ratatui::layout::Rect::new(0, 0, size.width, size.height),
        Instant::now(),
    );
    let (sender, thoughts) = mpsc::channel::<Thought>();
    let (job_sender, finished_jobs) = mpsc::channel::<job::Done>();
    loop {
        watchdog.record(app.score());
        if let Some(signal) = interrupts.received() {
            app.interrupt(signal);
        } else if !io::stdin().is_terminal() {
            // The terminal hung up without a SIGHUP reaching us: its input now reads as an
            // endless end of file, which would spin here for ever.
            app.interrupt(Signal::HANG_UP);
        }
        if app.should_quit() {
            return Ok(Exit {
                score: app.score(),
                signal: app.interrupted(),
            });
        }
        terminal.draw(|frame| frame.render_widget(&app, frame.area()))?;
        if let Some(thinking) = app.tick(Instant::now()) {
            let sender = sender.clone();
            std::thread::spawn(move || {
                let _ = sender.send(thinking.think());
            });
        }
        // Hints and reviews too: the screen, keys and Ctrl-C stay live while they work.
        if let Some(job) = app.take_job() {
            let sender = job_sender.clone();
            std::thread::spawn(move || {
                let _ = sender.send(job.run());
            });
        }
        if event::poll(TICK)? {
            let now = Instant::now();
            match event::read()? {
                Event::Key(key) => app.handle_key(key, now),
                Event::Mouse(mouse) => app.handle_mouse(mouse, now),
                Event::Resize(width, height) => app.resize(width, height),
                _ => {}
            }
        }
        while let Ok(thought) = thoughts.try_recv() {
            app.receive(thought, Instant::now());
        }
        while let Ok(done) = finished_jobs.try_recv() {
            app.finish_job(done);
        }
    }
}

#[cfg(test)]
mod tests;
