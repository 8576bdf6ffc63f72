//! Colours for marks and the winning line, or none at all.

use std::io::IsTerminal;

use ttt_core::Mark;

/// Whether the person asked for no colours, by setting `NO_COLOR` (to anything but "").
pub fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty())
}

/// How marks are painted: ANSI colours on a terminal, plain text otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    colour: bool,
}

impl Palette {
    /// Colours on, unless `NO_COLOR` is set, `TERM` is `dumb`, or standard output is not a
    /// terminal.
    pub fn detect() -> Palette {
        let dumb = std::env::var("TERM").is_ok_and(|term| term == "dumb");
        Palette {
            colour: !no_color() && !dumb && std::io::stdout().is_terminal(),
        }
    }

    /// No colours.
    pub const fn plain() -> Palette {
        Palette { colour: false }
    }

    /// `text` in the colour of `mark`, brighter and underlined on the winning line.
    pub fn mark(&self, mark: Mark, text: &str, winning: bool) -> String {
        if !self.colour {
            return text.to_owned();
        }
        let colour = match mark {
            Mark::X => "36",
            Mark::O => "33",
        };
        let emphasis = if winning { ";1;7" } else { ";1" };
        format!("\x1b[{colour}{emphasis}m{text}\x1b[0m")
    }

    /// `text` dimmed, for free squares' labels.
    pub fn dim(&self, text: &str) -> String {
        if self.colour {
            format!("\x1b[2m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }
}
