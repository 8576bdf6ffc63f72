//! What an SSH session shows: the app drawn by ratatui into the bytes a terminal reads
//! (only the cells that changed since the last frame), and the queue that carries them to
//! the client. The queue holds one frame at a time: while the client has not taken the
//! last one, nothing new is drawn, and the next frame, drawn once it has, carries every
//! change since. A slow client gets fewer frames, never a growing buffer, and the session
//! never waits on it.

use std::io;
use std::sync::{Mutex, PoisonError};

use ratatui::backend::{Backend, ClearType, CrosstermBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Rect, Size};
use ratatui::widgets::Widget;
use ratatui::{Terminal, TerminalOptions, Viewport};

/// The largest screen drawn, in cells: a larger window is drawn in its top left corner
/// (ratatui's two screens of cells then take some 1.6 MB, a frame at most some 400 KB).
pub const LARGEST: (u16, u16) = (250, 80);

/// Entering the full screen: the alternate screen, no cursor, mouse presses reported
/// (SGR), pasted text marked, the screen cleared.
pub const ENTER: &[u8] = b"\x1b[?1049h\x1b[?25l\x1b[?1000h\x1b[?1006h\x1b[?2004h\x1b[2J";

/// Clearing the client's screen, colours reset.
const CLEAR: &[u8] = b"\x1b[0m\x1b[2J";

/// Leaving it as the terminal was: no mouse reports, no paste marks, colours reset, the
/// cursor back, the main screen.
pub const LEAVE: &[u8] = b"\x1b[?2004l\x1b[?1006l\x1b[?1000l\x1b[0m\x1b[?25h\x1b[?1049l";

/// The client's terminal as ratatui draws into it: each frame the cells that changed.
pub struct Screen {
    terminal: Terminal<Remote>,
    /// What the terminal wrote, for the frame.
    written: Sink,
    area: Rect,
    /// A new size the client gave, taken when the next frame is drawn.
    resized: bool,
    /// What ratatui writes for a frame in which no cell changed (it resets the colours
    /// and hides the cursor after every frame), learnt by drawing one.
    unchanged: Vec<u8>,
}

/// Bytes written, shared by the terminal that writes them and the screen that takes them.
#[derive(Debug, Clone, Default)]
struct Sink(std::sync::Arc<Mutex<Vec<u8>>>);

impl Sink {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl io::Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut written = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        written.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Screen {
    /// A screen of `width` by `height` cells (bounded by [`LARGEST`]).
    ///
    /// # Errors
    /// Never in practice: writing to memory does not fail.
    pub fn new(width: u16, height: u16) -> io::Result<Screen> {
        let area = area(width, height);
        let options = TerminalOptions {
            viewport: Viewport::Fixed(area),
        };
        let written = Sink::default();
        let backend = Remote {
            inner: CrosstermBackend::new(written.clone()),
            size: area.as_size(),
            cursor: Position::ORIGIN,
        };
        let mut terminal = Terminal::with_options(backend, options)?;
        // The same empty frame twice: the second changes no cell.
        terminal.draw(|_| {})?;
        written.take();
        terminal.draw(|_| {})?;
        let unchanged = written.take();
        // And the client's screen taken as unknown: the first frame is drawn whole.
        terminal.resize(area)?;
        written.take();
        Ok(Screen {
            terminal,
            written,
            area,
            resized: false,
            unchanged,
        })
    }

    /// The screen's area, as the app is told it.
    pub fn area(&self) -> Rect {
        self.area
    }

    /// The terminal has a new size: the next frame is drawn whole, in it. Many sizes
    /// before a frame cost one.
    pub fn resize(&mut self, width: u16, height: u16) {
        self.area = area(width, height);
        self.resized = true;
    }

    /// The bytes that bring the client's screen to `widget`: nothing when nothing changed.
    ///
    /// # Errors
    /// Never in practice.
    pub fn draw(&mut self, widget: impl Widget) -> io::Result<Vec<u8>> {
        let mut cleared = Vec::new();
        if std::mem::take(&mut self.resized) {
            self.terminal.backend_mut().size = self.area.as_size();
            self.terminal.resize(self.area)?;
            self.written.take();
            // The client's screen as a whole: what the old size left is gone.
            cleared.extend_from_slice(CLEAR);
        }
        self.terminal
            .draw(|frame| frame.render_widget(widget, frame.area()))?;
        let frame = self.written.take();
        if !cleared.is_empty() {
            cleared.extend_from_slice(&frame);
            return Ok(cleared);
        }
        // A frame with no cell changed is no frame.
        if frame == self.unchanged {
            return Ok(Vec::new());
        }
        Ok(frame)
    }
}

/// crossterm's backend writing to the client, knowing the client's terminal by what the
/// client said (its size) and what was written (the cursor): the terminal the crossterm
/// backend would ask is the server's own, or none.
struct Remote {
    inner: CrosstermBackend<Sink>,
    size: Size,
    cursor: Position,
}

impl Backend for Remote {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        self.inner.draw(content)
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        Ok(self.cursor)
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        self.cursor = position.into();
        self.inner.set_cursor_position(self.cursor)
    }

    fn clear(&mut self) -> io::Result<()> {
        self.inner.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        self.inner.clear_region(clear_type)
    }

    fn size(&self) -> io::Result<Size> {
        Ok(self.size)
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        Ok(WindowSize {
            columns_rows: self.size,
            pixels: Size::default(),
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        Backend::flush(&mut self.inner)
    }
}

/// The screen's area for a window of `width` by `height`.
fn area(width: u16, height: u16) -> Rect {
    Rect::new(0, 0, width.min(LARGEST.0), height.min(LARGEST.1))
}

/// The frames on their way to the client: at most one waiting, and whether the client's
/// writer is busy with the one before.
#[derive(Debug, Default)]
pub struct Outgoing {
    state: Mutex<State>,
    /// Wakes the writer: a frame waits.
    pub waiting: tokio::sync::Notify,
    /// Wakes the session: the writer is free.
    pub taken: tokio::sync::Notify,
}

#[derive(Debug, Default)]
struct State {
    frame: Vec<u8>,
    sending: bool,
}

impl Outgoing {
    /// Whether the client has what was sent: a new frame may be drawn.
    pub fn ready(&self) -> bool {
        let state = self.lock();
        !state.sending && state.frame.is_empty()
    }

    /// Hands `bytes` to the writer (after whatever waits: the last words of a session).
    pub fn push(&self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        self.lock().frame.extend_from_slice(bytes);
        self.waiting.notify_one();
    }

    /// The writer takes what waits, and is busy until it says [`Outgoing::sent`].
    pub fn take(&self) -> Vec<u8> {
        let mut state = self.lock();
        state.sending = true;
        std::mem::take(&mut state.frame)
    }

    /// The writer sent what it took.
    pub fn sent(&self) {
        self.lock().sending = false;
        self.taken.notify_one();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use super::*;
    use ratatui::widgets::Paragraph;

    #[test]
    fn a_frame_carries_only_what_changed_and_nothing_when_nothing_did() {
        let mut screen = Screen::new(20, 3).unwrap();
        let first = screen.draw(Paragraph::new("hello there")).unwrap();
        assert!(String::from_utf8_lossy(&first).contains("hello"));
        assert!(
            screen
                .draw(Paragraph::new("hello there"))
                .unwrap()
                .is_empty()
        );
        let changed = screen.draw(Paragraph::new("hello where")).unwrap();
        let text = String::from_utf8_lossy(&changed);
        assert!(text.contains('w') && !text.contains("hello"), "{text:?}");
        // After a resize the whole screen again.
        screen.resize(25, 2);
        screen.resize(30, 4);
        assert_eq!(screen.area(), Rect::new(0, 0, 30, 4));
        let whole = screen.draw(Paragraph::new("hello where")).unwrap();
        assert!(whole.starts_with(CLEAR), "the old size's screen cleared");
        assert!(String::from_utf8_lossy(&whole).contains("hello"));
        // A huge window is drawn within bounds.
        screen.resize(u16::MAX, u16::MAX);
        assert_eq!(screen.area(), Rect::new(0, 0, LARGEST.0, LARGEST.1));
    }

    #[test]
    fn one_frame_waits_at_a_time() {
        let outgoing = Outgoing::default();
        assert!(outgoing.ready());
        outgoing.push(b"one");
        assert!(!outgoing.ready());
        outgoing.push(b" two");
        assert_eq!(outgoing.take(), b"one two");
        assert!(!outgoing.ready(), "still being sent");
        outgoing.sent();
        assert!(outgoing.ready());
        outgoing.push(b"");
        assert!(outgoing.ready(), "nothing to send is not a frame");
    }
}
