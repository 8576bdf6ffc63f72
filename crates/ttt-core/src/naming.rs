//! The names people type for squares: numbers, keypad digits, coordinates, letters.

use std::fmt;
use std::str::FromStr;

use crate::{Rules, Shown, Square};

/// How a person names a square.
///
/// ```
/// use ttt_core::{Rules, Square, SquareNaming};
///
/// let rules = Rules::default();
/// // The top-left square under each scheme.
/// assert_eq!(SquareNaming::Numbers.parse("1", rules), Ok(Square::new(0)));
/// assert_eq!(SquareNaming::Keypad.parse("7", rules), Ok(Square::new(0)));
/// assert_eq!(SquareNaming::Coords.parse("1 1", rules), Ok(Square::new(0)));
/// assert_eq!(SquareNaming::Letters.parse("a1", rules), Ok(Square::new(0)));
/// assert_eq!(SquareNaming::Keypad.label(Square::new(8), rules), "3");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SquareNaming {
    /// 1 to W·H row by row from the top left (1-9 on 3x3).
    #[default]
    Numbers,
    /// As on a numeric keypad: 7 8 9 is the top row, 1 2 3 the bottom one.
    Keypad,
    /// "column row", both counted from 1 at the top left, e.g. `3 2`.
    Coords,
    /// A column letter and a row number, e.g. `c2`: column c, row 2 from the top.
    Letters,
}

/// Why a typed square name was not understood: what was typed and what is wrong with it.
/// What squares do look like is for the interface to say, in its own words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SquareError {
    /// Nothing was typed.
    #[error("no square was typed")]
    Empty,
    /// A scheme of numbers was given something else.
    #[error("'{}' is not a number", Shown(.text))]
    NotANumber {
        /// What was typed.
        text: String,
    },
    /// The text is not in the form of a square name.
    #[error("'{}' is not a square", Shown(.text))]
    NotASquare {
        /// What was typed.
        text: String,
    },
    /// The text is a well-formed name, but of a square off this board.
    #[error("{} is not on the board", Shown(.text))]
    OffBoard {
        /// What was typed.
        text: String,
    },
}

impl SquareNaming {
    /// Every scheme.
    pub const ALL: [SquareNaming; 4] = [
        SquareNaming::Numbers,
        SquareNaming::Keypad,
        SquareNaming::Coords,
        SquareNaming::Letters,
    ];

    /// The name of `square` under this scheme, e.g. `"5"`, `"2 2"` or `"b2"`.
    #[must_use]
    pub fn label(self, square: Square, rules: Rules) -> String {
        let (column, row) = (rules.column(square), rules.row(square));
        match self {
            SquareNaming::Numbers => (square.index() + 1).to_string(),
            SquareNaming::Keypad => {
                ((rules.height() - 1 - row) * rules.width() + column + 1).to_string()
            }
            SquareNaming::Coords => format!("{} {}", column + 1, row + 1),
            SquareNaming::Letters => format!("{}{}", column_letter(column), row + 1),
        }
    }

    /// The scheme squares are labelled with on this board: the chosen one on 3x3, and
    /// letter+number (`c2`) on every other board.
    #[must_use]
    pub fn on_board(self, rules: Rules) -> SquareNaming {
        if rules.is_tic_tac_toe() {
            self
        } else {
            SquareNaming::Letters
        }
    }

    /// Reads a square typed by a person on this board. On 3x3, as this scheme names
    /// squares; on every other board as a letter and a number (`c2`), as column and row
    /// numbers (`3 2`), or, where a row has at most 9 squares, as a square number counted
    /// row by row.
    ///
    /// ```
    /// use ttt_core::{Rules, Square, SquareNaming};
    ///
    /// let rules = Rules::new(15, 15, 5)?;
    /// let naming = SquareNaming::Numbers;
    /// assert_eq!(naming.read("h8", rules), Ok(Square::new(7 * 15 + 7)));
    /// assert_eq!(naming.read("8 8", rules), Ok(Square::new(7 * 15 + 7)));
    /// assert!(naming.read("113", rules).is_err(), "15 squares a row: no square numbers");
    /// # Ok::<(), ttt_core::RulesError>(())
    /// ```
    ///
    /// # Errors
    /// As [`parse`](SquareNaming::parse); a name in none of the forms is
    /// [`SquareError::NotASquare`].
    pub fn read(self, text: &str, rules: Rules) -> Result<Square, SquareError> {
        if rules.is_tic_tac_toe() {
            return self.parse(text, rules);
        }
        let trimmed = text.trim();
        let scheme = if trimmed.starts_with(|c: char| c.is_ascii_alphabetic()) {
            SquareNaming::Letters
        } else if trimmed.contains([' ', ',', '\t']) || rules.width() > 9 {
            SquareNaming::Coords
        } else {
            SquareNaming::Numbers
        };
        scheme.parse(trimmed, rules).map_err(|error| match error {
            SquareError::NotANumber { text } => SquareError::NotASquare { text },
            other => other,
        })
    }

    /// Reads a square name typed by a person; surrounding spaces and letter case do not matter.
    ///
    /// # Errors
    /// [`SquareError`] saying whether the text is empty, not a name at all, or names a
    /// square off the board, with the text as typed.
    pub fn parse(self, text: &str, rules: Rules) -> Result<Square, SquareError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(SquareError::Empty);
        }
        let not_a_square = || SquareError::NotASquare {
            text: text.to_owned(),
        };
        let off_board = || SquareError::OffBoard {
            text: text.to_owned(),
        };
        match self {
            SquareNaming::Numbers | SquareNaming::Keypad => {
                let not_a_number = || SquareError::NotANumber {
                    text: text.to_owned(),
                };
                // A whole number off the board (negative or too large) is off the board; a
                // number that is not whole is no square's name; anything else is no number.
                // A name is digits only: `+3` is no square's name, though Rust reads it as 3.
                let negative = text.strip_prefix('-').is_some_and(digits_only);
                let number: u64 = Some(text)
                    .filter(|text| digits_only(text))
                    .and_then(|text| text.parse().ok())
                    .ok_or_else(|| {
                        if negative || digits_only(text) {
                            off_board()
                        } else if text.parse::<f64>().is_ok_and(f64::is_finite) {
                            not_a_square()
                        } else {
                            not_a_number()
                        }
                    })?;
                let number = usize::try_from(number).map_err(|_| off_board())?;
                if number == 0 || number > rules.square_count() {
                    return Err(off_board());
                }
                let index = number - 1;
                if self == SquareNaming::Numbers {
                    return Ok(Square::new(index));
                }
                let (column, row_from_bottom) = (index % rules.width(), index / rules.width());
                rules
                    .square(column, rules.height() - 1 - row_from_bottom)
                    .ok_or_else(off_board)
            }
            SquareNaming::Coords => {
                let parts: Vec<&str> = text
                    .split([' ', ',', '\t'])
                    .filter(|part| !part.is_empty())
                    .collect();
                let [column, row] = parts.as_slice() else {
                    return Err(not_a_square());
                };
                let number = |part: &str| -> Result<u64, SquareError> {
                    if !digits_only(part) {
                        return Err(not_a_square());
                    }
                    part.parse().map_err(|_| off_board())
                };
                let (column, row) = (number(column)?, number(row)?);
                let column = usize::try_from(column).map_err(|_| off_board())?;
                let row = usize::try_from(row).map_err(|_| off_board())?;
                if column == 0 || row == 0 {
                    return Err(off_board());
                }
                rules.square(column - 1, row - 1).ok_or_else(off_board)
            }
            SquareNaming::Letters => {
                let lower = text.to_ascii_lowercase();
                let mut chars = lower.chars();
                let letter = chars
                    .next()
                    .filter(char::is_ascii_lowercase)
                    .ok_or_else(not_a_square)?;
                let row = chars.as_str().trim();
                if !digits_only(row) {
                    return Err(not_a_square());
                }
                let row: u64 = row.parse().map_err(|_| off_board())?;
                let row = usize::try_from(row).map_err(|_| off_board())?;
                let column = usize::from(letter as u8 - b'a');
                if row == 0 {
                    return Err(off_board());
                }
                rules.square(column, row - 1).ok_or_else(off_board)
            }
        }
    }
}

/// The letter of a column: a for the first, s for the nineteenth.
#[must_use]
pub fn column_letter(column: usize) -> char {
    u8::try_from(column)
        .ok()
        .filter(|&c| c < 26)
        .map_or('?', |c| char::from(b'a' + c))
}

impl fmt::Display for SquareNaming {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SquareNaming::Numbers => "numbers",
            SquareNaming::Keypad => "keypad",
            SquareNaming::Coords => "coords",
            SquareNaming::Letters => "letters",
        })
    }
}

/// The name is not one of `numbers`, `keypad`, `coords`, `letters`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{}' is not a way of naming squares: use numbers, keypad, coords or letters", Shown(.0))]
pub struct ParseNamingError(pub String);

impl FromStr for SquareNaming {
    type Err = ParseNamingError;

    fn from_str(text: &str) -> Result<SquareNaming, ParseNamingError> {
        SquareNaming::ALL
            .into_iter()
            .find(|naming| naming.to_string().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| ParseNamingError(text.to_owned()))
    }
}

/// Whether `text` is one or more ASCII digits and nothing else.
fn digits_only(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scheme_round_trips_every_square_of_every_board() {
        for width in 3..=20 {
            for height in 3..=20 {
                let Ok(rules) = Rules::new(width, height, 3) else {
                    unreachable!("3..=20 sides are valid")
                };
                for naming in SquareNaming::ALL {
                    for square in rules.squares() {
                        let label = naming.label(square, rules);
                        assert_eq!(
                            naming.parse(&label, rules),
                            Ok(square),
                            "{naming} {label} on {rules}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn bigger_boards_read_letters_coordinates_and_small_numbers() {
        let rules = Rules::new(4, 4, 4).unwrap_or_default();
        for naming in SquareNaming::ALL {
            assert_eq!(naming.read("b3", rules), Ok(Square::new(9)));
            assert_eq!(naming.read("2 3", rules), Ok(Square::new(9)));
            assert_eq!(naming.read("10", rules), Ok(Square::new(9)));
            assert_eq!(naming.on_board(rules), SquareNaming::Letters);
        }
        assert!(matches!(
            SquareNaming::Numbers.read("e1", rules),
            Err(SquareError::OffBoard { .. })
        ));
        assert!(matches!(
            SquareNaming::Numbers.read("17", rules),
            Err(SquareError::OffBoard { .. })
        ));
        assert!(matches!(
            SquareNaming::Numbers.read("?!", rules),
            Err(SquareError::NotASquare { .. })
        ));
        let wide = Rules::new(10, 3, 3).unwrap_or_default();
        assert_eq!(SquareNaming::Numbers.read("a1", wide), Ok(Square::new(0)));
        assert!(
            SquareNaming::Numbers.read("5", wide).is_err(),
            "10 squares a row: no numbers"
        );
    }

    #[test]
    fn keypad_puts_seven_eight_nine_on_top() {
        let rules = Rules::default();
        let labels: Vec<String> = rules
            .squares()
            .map(|s| SquareNaming::Keypad.label(s, rules))
            .collect();
        assert_eq!(labels, ["7", "8", "9", "4", "5", "6", "1", "2", "3"]);
    }

    #[test]
    fn bad_names_say_what_is_wrong() {
        let rules = Rules::default();
        let numbers = SquareNaming::Numbers;
        assert!(matches!(numbers.parse("", rules), Err(SquareError::Empty)));
        assert!(matches!(
            numbers.parse("five", rules),
            Err(SquareError::NotANumber { .. })
        ));
        // A whole number is a number, off the board or not; 1.5 is a number but no square.
        assert!(matches!(
            numbers.parse("-1", rules),
            Err(SquareError::OffBoard { .. })
        ));
        assert!(matches!(
            numbers.parse("1.5", rules),
            Err(SquareError::NotASquare { .. })
        ));
        // A sign is no part of a square's name, though Rust's numbers take one.
        for signed in ["+3", "+ 3"] {
            assert!(matches!(
                numbers.parse(signed, rules),
                Err(SquareError::NotASquare { .. } | SquareError::NotANumber { .. })
            ));
        }
        for (naming, signed) in [
            (SquareNaming::Keypad, "+7"),
            (SquareNaming::Coords, "+1 2"),
            (SquareNaming::Letters, "a+1"),
        ] {
            assert!(
                matches!(
                    naming.parse(signed, rules),
                    Err(SquareError::NotASquare { .. })
                ),
                "{signed}"
            );
        }
        assert!(matches!(
            numbers.parse("0", rules),
            Err(SquareError::OffBoard { .. })
        ));
        assert!(matches!(
            numbers.parse("10", rules),
            Err(SquareError::OffBoard { .. })
        ));
        assert!(matches!(
            numbers.parse(&"9".repeat(50), rules),
            Err(SquareError::OffBoard { .. })
        ));
        let coords = SquareNaming::Coords;
        assert!(matches!(
            coords.parse("1", rules),
            Err(SquareError::NotASquare { .. })
        ));
        assert!(matches!(
            coords.parse("4 1", rules),
            Err(SquareError::OffBoard { .. })
        ));
        assert_eq!(coords.parse(" 3,2 ", rules), Ok(Square::new(5)));
        let letters = SquareNaming::Letters;
        assert!(matches!(
            letters.parse("d1", rules),
            Err(SquareError::OffBoard { .. })
        ));
        assert!(matches!(
            letters.parse("1a", rules),
            Err(SquareError::NotASquare { .. })
        ));
        assert_eq!(letters.parse("C3", rules), Ok(Square::new(8)));
        assert_eq!(
            numbers.parse("12", rules).map_err(|e| e.to_string()),
            Err("12 is not on the board".to_owned())
        );
    }
}
