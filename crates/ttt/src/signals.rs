//! The signals that ask `ttt` to end: Ctrl-C on a terminal, or `kill` from elsewhere.
//!
//! A program that changes the terminal (the full-screen mode) or keeps a tally must not
//! die where the signal finds it. [`Interrupts::watch`] catches SIGINT, SIGTERM, SIGHUP and
//! SIGQUIT with `signal-hook` on a thread of its own; the modes look at
//! [`Interrupts::received`] where they can stop cleanly, or ask to be told at once with
//! [`Interrupts::on_signal`], then restore what they changed, print the tally and end
//! with [`Signal::exit_code`] (128 + the signal's number, as shells report it).

use std::fmt;
use std::io;
use std::process::ExitCode;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
use signal_hook::iterator::Signals;

/// A signal that asks the program to end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Signal(i32);

impl Signal {
    /// SIGINT: Ctrl-C, whether the terminal sends it or the full-screen mode reads the key.
    pub const INTERRUPT: Signal = Signal(SIGINT);

    /// SIGHUP: the terminal went away. Also what the full-screen mode reports when it
    /// finds its terminal gone without the signal (a parent that ignored it, as `nohup`).
    pub const HANG_UP: Signal = Signal(SIGHUP);

    /// The signals that end the program cleanly; SIGKILL cannot be caught.
    const ENDING: [i32; 4] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT];

    /// The exit code after this signal: 128 plus its number (130 for Ctrl-C).
    pub fn exit_code(self) -> ExitCode {
        ExitCode::from(self.code())
    }

    /// [`Signal::exit_code`] as a number.
    pub fn code(self) -> u8 {
        u8::try_from(128 + self.0).unwrap_or(u8::MAX)
    }
}

impl fmt::Display for Signal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.0 {
            SIGINT => "SIGINT",
            SIGTERM => "SIGTERM",
            SIGHUP => "SIGHUP",
            SIGQUIT => "SIGQUIT",
            _ => return write!(f, "signal {}", self.0),
        };
        f.write_str(name)
    }
}

/// What to do the moment a signal arrives, on the watching thread.
type Listener = Box<dyn Fn(Signal) + Send>;

/// Watches for the signals that end the program, from its creation to the process's end.
///
/// Cloning shares the watch. The first signal is the one [`Interrupts::received`]
/// reports; every signal reaches every listener.
#[derive(Clone)]
pub struct Interrupts {
    received: Arc<AtomicI32>,
    listeners: Arc<Mutex<Vec<Listener>>>,
}

impl fmt::Debug for Interrupts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Interrupts")
            .field("received", &self.received())
            .finish_non_exhaustive()
    }
}

impl Interrupts {
    /// Starts catching SIGINT, SIGTERM, SIGHUP and SIGQUIT: from now on they no longer end
    /// the process by themselves.
    ///
    /// # Errors
    /// When the handlers cannot be installed or the watching thread cannot start.
    pub fn watch() -> io::Result<Interrupts> {
        let interrupts = Interrupts::unwatched();
        let mut signals = Signals::new(Signal::ENDING)?;
        let watcher = interrupts.clone();
        std::thread::Builder::new()
            .name("signals".to_owned())
            .spawn(move || {
                for number in signals.forever() {
                    watcher.raise(Signal(number));
                }
            })?;
        Ok(interrupts)
    }

    /// A watch that no signal reaches: for tests, and for code that raises its own
    /// interrupts (the full-screen mode reads Ctrl-C as a key).
    pub fn unwatched() -> Interrupts {
        Interrupts {
            received: Arc::new(AtomicI32::new(0)),
            listeners: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// The first signal received, if any.
    pub fn received(&self) -> Option<Signal> {
        match self.received.load(Ordering::SeqCst) {
            0 => None,
            number => Some(Signal(number)),
        }
    }

    /// Calls `listener` on the watching thread for every signal from now on, and at once
    /// if one has already arrived.
    pub fn on_signal(&self, listener: impl Fn(Signal) + Send + 'static) {
        if let Some(signal) = self.received() {
            listener(signal);
        }
        self.listeners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Box::new(listener));
    }

    /// Records `signal` as if it had arrived, and tells the listeners.
    pub fn raise(&self, signal: Signal) {
        let _ = self
            .received
            .compare_exchange(0, signal.0, Ordering::SeqCst, Ordering::SeqCst);
        for listener in self
            .listeners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
        {
            listener(signal);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn exit_codes_are_128_plus_the_signal() {
        assert_eq!(Signal::INTERRUPT.code(), 130);
        assert_eq!(Signal(SIGTERM).code(), 143);
        assert_eq!(Signal(SIGHUP).code(), 129);
        assert_eq!(Signal(SIGQUIT).code(), 131);
        assert_eq!(Signal(SIGTERM).to_string(), "SIGTERM");
    }

    #[test]
    fn the_first_signal_is_kept_and_every_one_is_told() {
        let interrupts = Interrupts::unwatched();
        assert_eq!(interrupts.received(), None);
        let (sender, heard) = mpsc::channel();
        interrupts.on_signal(move |signal| {
            let _ = sender.send(signal);
        });
        interrupts.raise(Signal(SIGTERM));
        interrupts.raise(Signal::INTERRUPT);
        assert_eq!(interrupts.received(), Some(Signal(SIGTERM)));
        assert_eq!(
            heard.try_iter().collect::<Vec<_>>(),
            [Signal(SIGTERM), Signal::INTERRUPT]
        );
    }

    #[test]
    fn a_late_listener_hears_of_an_earlier_signal() {
        let interrupts = Interrupts::unwatched();
        interrupts.raise(Signal(SIGHUP));
        let (sender, heard) = mpsc::channel();
        interrupts.on_signal(move |signal| {
            let _ = sender.send(signal);
        });
        assert_eq!(heard.try_iter().collect::<Vec<_>>(), [Signal(SIGHUP)]);
    }
}
