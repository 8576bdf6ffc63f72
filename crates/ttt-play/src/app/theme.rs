//! Styles of the full-screen mode: colours, or a monochrome theme that stays readable.

use ratatui::style::{Color, Modifier, Style};
use ttt_core::Mark;
use ttt_solver::GameResult;

/// How marks, the cursor, the winning line and values are shown.
///
/// The monochrome theme uses only bold, dim, underline and reverse video, so marks, the
/// cursor and the winning line stay distinguishable without any colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    colour: bool,
}

impl Theme {
    /// With colours when `colour`, else monochrome (the front end reads `NO_COLOR` or the
    /// browser's preference).
    pub const fn new(colour: bool) -> Theme {
        Theme { colour }
    }

    /// With colours.
    pub const fn colour() -> Theme {
        Theme { colour: true }
    }

    /// Without colours.
    pub const fn monochrome() -> Theme {
        Theme { colour: false }
    }

    /// A mark.
    pub fn mark(self, mark: Mark) -> Style {
        let style = Style::new().add_modifier(Modifier::BOLD);
        match (self.colour, mark) {
            (false, _) => style,
            (true, Mark::X) => style.fg(Color::Cyan),
            (true, Mark::O) => style.fg(Color::Yellow),
        }
    }

    /// A square of the winning line.
    pub fn winning(self) -> Style {
        let style = Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED);
        if self.colour {
            style.fg(Color::Green)
        } else {
            style
        }
    }

    /// The square under the cursor.
    pub fn cursor(self) -> Style {
        let style = Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD);
        if self.colour {
            style.fg(Color::Yellow)
        } else {
            style
        }
    }

    /// The name of a free square, and other quiet text.
    pub fn quiet(self) -> Style {
        Style::new().add_modifier(Modifier::DIM)
    }

    /// The grid lines.
    pub fn grid(self) -> Style {
        if self.colour {
            Style::new().fg(Color::DarkGray)
        } else {
            Style::new()
        }
    }

    /// A hint's value in a free square.
    pub fn value(self, result: GameResult) -> Style {
        match (self.colour, result) {
            (true, GameResult::Win) => Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
            (true, GameResult::Draw) => Style::new().fg(Color::Blue),
            (true, GameResult::Loss) => Style::new().fg(Color::Red),
            (false, GameResult::Win) => Style::new().add_modifier(Modifier::BOLD),
            (false, GameResult::Draw) => Style::new(),
            (false, GameResult::Loss) => Style::new().add_modifier(Modifier::DIM),
        }
    }

    /// Titles and the selected line of a menu.
    pub fn accent(self) -> Style {
        let style = Style::new().add_modifier(Modifier::BOLD);
        if self.colour {
            style.fg(Color::Magenta)
        } else {
            style
        }
    }

    /// Something gone wrong: a refused move.
    pub fn warning(self) -> Style {
        if self.colour {
            Style::new().fg(Color::Red)
        } else {
            Style::new().add_modifier(Modifier::UNDERLINED)
        }
    }
}
