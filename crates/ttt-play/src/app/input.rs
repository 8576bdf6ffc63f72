//! What drives the app: its own small input type, so that a terminal, a browser or a test
//! can drive the same app. Time is passed in as well, as the time since the front end
//! started, so the app never reads a clock.

/// One thing that happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// A key was pressed.
    Key(Key),
    /// The main button was pressed at a cell of the screen.
    Click {
        /// The cell's column, from 0 at the left.
        column: u16,
        /// The cell's row, from 0 at the top.
        row: u16,
    },
    /// A cell of the screen was chosen without playing it: a touch screen's first tap on
    /// a small square, which a second tap on it confirms (a [`Click`](Input::Click)). On
    /// the board it moves the cursor there; anywhere else it is a click.
    Select {
        /// The cell's column, from 0 at the left.
        column: u16,
        /// The cell's row, from 0 at the top.
        row: u16,
    },
    /// The screen has a new size, in cells.
    Resize {
        /// Columns.
        width: u16,
        /// Rows.
        height: u16,
    },
    /// Time passed: a front end sends this often (every 50 ms or so), so that a computer's
    /// move or the next game comes when due.
    Tick,
}

/// A key, as the app understands keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A character key (letters keep their case).
    Char(char),
    /// Enter or Return.
    Enter,
    /// Escape.
    Esc,
    /// Backspace.
    Backspace,
    /// Tab.
    Tab,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Home.
    Home,
    /// End.
    End,
    /// Ctrl-C: end at once, as an interrupt would.
    Interrupt,
}
