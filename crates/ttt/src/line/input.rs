//! The line mode's input: one line at a time, of bounded length, on a thread of its own.
//!
//! Whatever arrives (invalid UTF-8, a line of gigabytes, an endless stream without a
//! newline) becomes a [`Line`] the game can answer, in memory that stays flat: at most
//! [`MAX_LINE`] bytes are kept of any line. The reading happens on its own thread so that
//! the game can wait for a line and notice a signal at once, without a read to finish.

use std::io::{self, BufRead};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use crate::signals::{Interrupts, Signal};

/// The longest line kept, in bytes; a longer one is refused as a whole.
pub const MAX_LINE: usize = 4096;

/// How often a wait for input looks for a signal.
const LOOK: Duration = Duration::from_millis(50);

/// One line of input, understood as far as the reading goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A line of text, without its line ending.
    Text(String),
    /// A line longer than [`MAX_LINE`] bytes; the rest of it is skipped.
    TooLong,
    /// A line that is not UTF-8.
    NotText,
    /// The end of input.
    End,
}

/// Reads one line from `input`, keeping at most [`MAX_LINE`] bytes of it.
///
/// A line found too long is reported at once, before its end has come (it may never
/// come: `/dev/zero`); `skipping` is then set, and the next call first skips the rest of
/// that line.
///
/// # Errors
/// Errors reading `input`, other than interruptions.
pub fn read_line(input: &mut impl BufRead, skipping: &mut bool) -> io::Result<Line> {
    let mut kept = Vec::new();
    let mut any = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            break;
        }
        let (part, ended) = match buffer.iter().position(|&byte| byte == b'\n') {
            Some(at) => (&buffer[..at], true),
            None => (buffer, false),
        };
        let used = part.len() + usize::from(ended);
        if *skipping {
            *skipping = !ended;
            input.consume(used);
            continue;
        }
        any = true;
        if kept.len() + part.len() > MAX_LINE {
            *skipping = !ended;
            input.consume(used);
            return Ok(Line::TooLong);
        }
        kept.extend_from_slice(part);
        input.consume(used);
        if ended {
            break;
        }
    }
    if !any {
        return Ok(Line::End);
    }
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    Ok(String::from_utf8(kept).map_or(Line::NotText, Line::Text))
}

/// Lines read ahead on a thread of their own, one at a time.
pub struct Input {
    lines: Receiver<io::Result<Line>>,
    interrupts: Interrupts,
    ended: bool,
}

impl Input {
    /// Reads `input` on a new thread; a wait for a line also watches `interrupts`.
    pub fn spawn(mut input: impl BufRead + Send + 'static, interrupts: &Interrupts) -> Input {
        // One line read ahead at most: a fast pipe cannot fill memory.
        let (sender, lines) = mpsc::sync_channel(0);
        std::thread::spawn(move || {
            let mut skipping = false;
            loop {
                let line = read_line(&mut input, &mut skipping);
                let last = !matches!(line, Ok(Line::Text(_) | Line::TooLong | Line::NotText));
                if sender.send(line).is_err() || last {
                    return;
                }
            }
        });
        Input {
            lines,
            interrupts: interrupts.clone(),
            ended: false,
        }
    }

    /// The next line, or the signal that arrived while waiting for it.
    ///
    /// # Errors
    /// The signal, or an error reading input.
    pub fn next(&mut self) -> Result<Line, Interruption> {
        loop {
            if let Some(line) = self.poll(LOOK) {
                return line;
            }
        }
    }

    /// The next line if one comes within `wait`, or the signal that arrived meanwhile;
    /// `None` when neither did, so that the caller can look at other things too.
    pub fn poll(&mut self, wait: Duration) -> Option<Result<Line, Interruption>> {
        if let Some(signal) = self.interrupts.received() {
            return Some(Err(Interruption::Signal(signal)));
        }
        if self.ended {
            return Some(Ok(Line::End));
        }
        match self.lines.recv_timeout(wait) {
            Ok(Ok(line)) => {
                self.ended = line == Line::End;
                Some(Ok(line))
            }
            Ok(Err(error)) => {
                self.ended = true;
                Some(Err(Interruption::Io(error)))
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                self.ended = true;
                Some(Ok(Line::End))
            }
        }
    }
}

/// Why no line came.
#[derive(Debug)]
pub enum Interruption {
    /// A signal asked the program to end.
    Signal(Signal),
    /// Reading failed.
    Io(io::Error),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<Line> {
        let mut input = io::BufReader::with_capacity(7, bytes);
        let mut lines = Vec::new();
        let mut skipping = false;
        loop {
            let line = read_line(&mut input, &mut skipping).unwrap_or(Line::End);
            lines.push(line.clone());
            if line == Line::End {
                return lines;
            }
        }
    }

    /// Input that never comes.
    struct Silent;

    impl io::Read for Silent {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            loop {
                std::thread::park();
            }
        }
    }

    fn text(line: &str) -> Line {
        Line::Text(line.to_owned())
    }

    #[test]
    fn lines_of_every_kind() {
        assert_eq!(lines(b""), [Line::End]);
        assert_eq!(
            lines(b"5\n\xff\n1\n"),
            [text("5"), Line::NotText, text("1"), Line::End]
        );
        assert_eq!(lines(b"a\r\nb"), [text("a"), text("b"), Line::End]);
        assert_eq!(lines(b"\n\n"), [text(""), text(""), Line::End]);
        let long = [vec![b'9'; MAX_LINE + 1], b"\n5\n".to_vec()].concat();
        assert_eq!(lines(&long), [Line::TooLong, text("5"), Line::End]);
        let exact = [vec![b'9'; MAX_LINE], b"\n".to_vec()].concat();
        assert_eq!(lines(&exact), [text(&"9".repeat(MAX_LINE)), Line::End]);
        assert_eq!(lines(&vec![0; 3 * MAX_LINE]), [Line::TooLong, Line::End]);
    }

    #[test]
    fn an_endless_line_is_refused_before_its_end() {
        let mut zeros = io::BufReader::new(io::repeat(0));
        let mut skipping = false;
        assert_eq!(read_line(&mut zeros, &mut skipping).unwrap(), Line::TooLong);
        assert!(skipping, "the rest of it is skipped next");
    }

    #[test]
    fn a_signal_ends_the_wait_for_a_line() {
        let interrupts = Interrupts::unwatched();
        let mut input = Input::spawn(io::BufReader::new(Silent), &interrupts);
        interrupts.raise(Signal::INTERRUPT);
        assert!(matches!(
            input.next(),
            Err(Interruption::Signal(signal)) if signal == Signal::INTERRUPT
        ));
    }
}
