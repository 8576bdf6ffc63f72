//! Text a person typed, as a message shows it back to them.

use std::fmt;

/// Text a person gave, as a message repeats it: on one line, with control characters
/// (and the invisible ones that reorder or hide text) written as escapes, cut to
/// [`Shown::MAX_CHARS`] characters with an ellipsis, and otherwise exactly as typed.
///
/// ```
/// use ttt_core::Shown;
///
/// assert_eq!(Shown("Héllo").to_string(), "Héllo");
/// assert_eq!(Shown("\u{1b}[31mred\n").to_string(), "\\u{1b}[31mred\\n");
/// assert_eq!(Shown(&"9".repeat(100)).to_string(), format!("{}…", "9".repeat(40)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shown<'a>(pub &'a str);

impl Shown<'_> {
    /// The most characters shown; longer text ends in `…`.
    pub const MAX_CHARS: usize = 40;

    /// Whether `c` would act on the terminal or hide itself rather than show: a control
    /// character, or one that reorders or hides text. [`Shown`] writes it as an escape;
    /// text kept to be shown to others later leaves it out.
    ///
    /// ```
    /// use ttt_core::Shown;
    ///
    /// assert!(Shown::is_invisible('\u{1b}') && Shown::is_invisible('\u{202e}'));
    /// assert!(!Shown::is_invisible('é'));
    /// ```
    pub fn is_invisible(c: char) -> bool {
        c.is_control()
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_shown(f, self.0, Shown::MAX_CHARS)
    }
}

/// A whole line from elsewhere (a server's sentence, a line said in a room), shown as
/// [`Shown`] shows a word: nothing in it acts on the terminal, and it is cut at
/// [`ShownLine::MAX_CHARS`] characters rather than at a word's length.
///
/// ```
/// use ttt_core::ShownLine;
///
/// let said = format!("{} \u{1b}[2J", "a".repeat(60));
/// assert_eq!(ShownLine(&said).to_string(), format!("{} \\u{{1b}}[2J", "a".repeat(60)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShownLine<'a>(pub &'a str);

impl ShownLine<'_> {
    /// The most characters shown; longer text ends in `…`.
    pub const MAX_CHARS: usize = 500;
}

impl fmt::Display for ShownLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_shown(f, self.0, ShownLine::MAX_CHARS)
    }
}

/// Writes `text` with what is invisible escaped, cut at `limit` characters.
fn write_shown(f: &mut fmt::Formatter<'_>, text: &str, limit: usize) -> fmt::Result {
    for (count, c) in text.chars().enumerate() {
        if count == limit {
            return f.write_str("…");
        }
        if Shown::is_invisible(c) {
            write!(f, "{}", c.escape_default())?;
        } else {
            write!(f, "{c}")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_shown_acts_on_the_terminal_or_breaks_the_line() {
        for text in [
            "a\nb",
            "\r",
            "\u{7}",
            "\u{9b}31m",
            "\u{202e}evil",
            "tab\there",
            "\0",
        ] {
            let shown = Shown(text).to_string();
            assert!(
                !shown.chars().any(Shown::is_invisible),
                "{text:?} shown as {shown:?}"
            );
        }
        assert_eq!(Shown("a\nb").to_string(), "a\\nb");
        assert_eq!(Shown("").to_string(), "");
        assert_eq!(Shown(&"é".repeat(40)).to_string(), "é".repeat(40));
    }
}
