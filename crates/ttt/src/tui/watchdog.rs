//! The last resort that keeps a signal or a lost terminal from leaving `ttt` running.
//!
//! The event loop notices a signal within a tick, but it cannot notice anything while it
//! is stuck: crossterm's reader loops for ever on the end of file that a hung-up terminal
//! returns (closing the terminal window sends SIGHUP and hangs the terminal up at once).
//! The watchdog runs beside the loop; when a signal has waited [`GRACE`] unanswered, or
//! the terminal has gone, it restores what it can, prints the last tally and ends the
//! process with 128 + the signal itself.

use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::os::fd::AsFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::DisableMouseCapture;
use ratatui::crossterm::terminal::{self, LeaveAlternateScreen};
use ratatui::crossterm::{cursor, execute};

use crate::signals::{Interrupts, Signal};
use ttt_play::Score;

/// How long the event loop has to answer a signal before the watchdog ends the program.
pub const GRACE: Duration = Duration::from_millis(750);

/// How often the watchdog looks.
const LOOK: Duration = Duration::from_millis(100);

/// The watchdog, from [`Watchdog::start`] until it is dropped.
pub struct Watchdog {
    tally: Arc<Mutex<Score>>,
    done: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    /// Starts watching `interrupts` and the terminal on standard input.
    pub fn start(interrupts: &Interrupts) -> io::Result<Watchdog> {
        let tally = Arc::new(Mutex::new(Score::default()));
        let done = Arc::new(AtomicBool::new(false));
        let (interrupts, last_tally, stop) =
            (interrupts.clone(), Arc::clone(&tally), Arc::clone(&done));
        let thread = std::thread::Builder::new()
            .name("watchdog".to_owned())
            .spawn(move || watch(&interrupts, &last_tally, &stop))?;
        Ok(Watchdog {
            tally,
            done,
            thread: Some(thread),
        })
    }

    /// Keeps the tally the watchdog prints if it has to end the program.
    pub fn record(&self, score: Score) {
        *self.tally.lock().unwrap_or_else(PoisonError::into_inner) = score;
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.done.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}

/// What `ratatui::restore` and the mouse guard undo, then the tally, written to a copy of
/// standard output's descriptor: `io::stdout()` itself may be locked by the stuck thread.
fn restore_and_print(score: Score) -> io::Result<()> {
    let _ = terminal::disable_raw_mode();
    let mut terminal = File::from(io::stdout().as_fd().try_clone_to_owned()?);
    execute!(
        terminal,
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    )?;
    writeln!(terminal, "{score}")
}

fn watch(interrupts: &Interrupts, tally: &Mutex<Score>, done: &AtomicBool) {
    let mut since: Option<Instant> = None;
    while !done.load(Ordering::SeqCst) {
        std::thread::park_timeout(LOOK);
        let signal = interrupts
            .received()
            .or_else(|| (!io::stdin().is_terminal()).then_some(Signal::HANG_UP));
        let Some(signal) = signal else {
            continue;
        };
        let first_seen = *since.get_or_insert_with(Instant::now);
        if first_seen.elapsed() < GRACE || done.load(Ordering::SeqCst) {
            continue;
        }
        let score = *tally.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = restore_and_print(score);
        std::process::exit(i32::from(signal.code()));
    }
}
