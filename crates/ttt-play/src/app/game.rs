//! The game screen's own state: the cursor, the hint shown, a square name being typed,
//! and when the computer or the next game is due.

use std::time::Duration;

use ttt_core::{Rules, Square, SquareError, SquareNaming};
use ttt_solver::MoveValue;

use super::input::Key;

/// The game screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameScreen {
    /// The square under the cursor.
    pub cursor: Square,
    /// The values shown in free squares since `H`, until the next move.
    pub hints: Option<Vec<MoveValue>>,
    /// A square name being typed, shown as typed; `None` when nothing is being typed.
    pub entry: Option<String>,
    /// When the computer to move is due to start thinking.
    pub(super) computer_due: Option<Duration>,
    /// When the next game between two computers is due.
    pub(super) next_game_due: Option<Duration>,
}

/// The longest square name worth typing ("19 19" and a little room).
const MAX_ENTRY: usize = 8;

/// What a key typed into a square name did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Typing {
    /// The name goes on, was cut back, or the key was not one for it.
    Going,
    /// The name was cancelled.
    Cancelled,
    /// The name is complete: this square.
    Done(Square),
    /// The key was refused, and why: the character would make a name of no square
    /// whatever followed it, or Enter ended one that names none. The name stays as it was
    /// before the key, still being typed, so that a slip is mended rather than the next
    /// key taken for a move.
    Refused(SquareError),
}

impl GameScreen {
    /// A screen for a new game on `rules`, the cursor in the middle.
    pub fn new(rules: Rules) -> GameScreen {
        GameScreen {
            cursor: centre(rules),
            hints: None,
            entry: None,
            computer_due: None,
            next_game_due: None,
        }
    }

    /// Moves the cursor by (`dx`, `dy`) squares, staying on the board.
    pub fn move_cursor(&mut self, rules: Rules, dx: isize, dy: isize) {
        let (column, row) = (
            rules.column(self.cursor) as isize,
            rules.row(self.cursor) as isize,
        );
        if let Some(square) = rules.square_signed(column + dx, row + dy) {
            self.cursor = square;
        }
    }

    /// A key while a square name is being typed: characters add to it, Backspace takes
    /// one back, Esc cancels, Enter ends it. A name that nothing typed after it could make
    /// longer ends by itself, so `5` on 3x3 or `h9` on 15x15 places at once. A character
    /// after which nothing could name a square, or Enter on a name of none, is refused and
    /// the name stays open: only a square named or Esc ends it.
    pub fn type_key(&mut self, key: Key, naming: SquareNaming, rules: Rules) -> Typing {
        let Some(entry) = self.entry.as_mut() else {
            return Typing::Cancelled;
        };
        match key {
            Key::Esc => {
                self.entry = None;
                return Typing::Cancelled;
            }
            Key::Backspace => {
                entry.pop();
            }
            Key::Enter => {
                return match naming.read(entry, rules) {
                    Ok(square) => {
                        self.entry = None;
                        Typing::Done(square)
                    }
                    Err(error) => Typing::Refused(error),
                };
            }
            Key::Char(character) if !character.is_control() && entry.len() < MAX_ENTRY => {
                let mut longer = entry.clone();
                // Column then row on 3x3: the space between them comes by itself.
                let coords = rules.is_tic_tac_toe() && naming == SquareNaming::Coords;
                if coords && character.is_ascii_digit() && longer.len() == 1 {
                    longer.push(' ');
                }
                longer.push(character);
                // A complete name places at once; one that nothing could complete is
                // refused at once, to say what is wrong with it.
                match naming.read(&longer, rules) {
                    Ok(square) if !could_go_on(&longer, naming, rules) => {
                        self.entry = None;
                        return Typing::Done(square);
                    }
                    Err(error) if !could_become_a_name(&longer, naming, rules) => {
                        return Typing::Refused(error);
                    }
                    _ => {}
                }
                *entry = longer;
            }
            _ => {}
        }
        Typing::Going
    }
}

/// Whether a digit typed after `text`, or a space and a digit, could name another square
/// (on 7x6, `5` is square 5 or the start of column 5 and a row).
fn could_go_on(text: &str, naming: SquareNaming, rules: Rules) -> bool {
    let reads = |candidate: String| naming.read(&candidate, rules).is_ok();
    ('0'..='9').any(|digit| reads(format!("{text}{digit}")) || reads(format!("{text} {digit}")))
}

/// Whether `text`, or `text` with up to two more digits (or a space and one or two), names
/// a square: no square name is longer than that past its first characters.
fn could_become_a_name(text: &str, naming: SquareNaming, rules: Rules) -> bool {
    let reads = |candidate: &str| naming.read(candidate, rules).is_ok();
    reads(text)
        || could_go_on(text, naming, rules)
        || ('0'..='9').any(|digit| {
            ('0'..='9').any(|second| {
                reads(&format!("{text}{digit}{second}"))
                    || reads(&format!("{text} {digit}{second}"))
            })
        })
}

/// The square the cursor starts on: the centre (or the first of the central squares).
pub fn centre(rules: Rules) -> Square {
    rules.centre().first().copied().unwrap_or(Square::new(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(keys: &str, naming: SquareNaming, rules: Rules) -> Vec<Typing> {
        let mut screen = GameScreen::new(rules);
        screen.entry = Some(String::new());
        keys.chars()
            .map(|character| screen.type_key(Key::Char(character), naming, rules))
            .collect()
    }

    #[test]
    fn a_name_ends_by_itself_once_nothing_could_make_it_longer() {
        let ttt = Rules::default();
        let square = |rules: Rules, column, row| Typing::Done(rules.square(column, row).unwrap());
        assert_eq!(typed("5", SquareNaming::Numbers, ttt), [square(ttt, 1, 1)]);
        assert_eq!(
            typed("32", SquareNaming::Coords, ttt),
            [Typing::Going, square(ttt, 2, 1)]
        );
        let gomoku = Rules::new(15, 15, 5).unwrap_or_default();
        assert_eq!(
            typed("h1", SquareNaming::Letters, gomoku),
            [Typing::Going, Typing::Going],
            "h1 might become h12"
        );
        assert_eq!(
            typed("h8", SquareNaming::Letters, gomoku),
            [Typing::Going, square(gomoku, 7, 7)]
        );
        let connect = Rules::new(7, 6, 4).unwrap_or_default();
        assert_eq!(
            typed("4", SquareNaming::Letters, connect),
            [Typing::Going],
            "square 4 might be the start of square 42"
        );
    }

    #[test]
    fn a_key_that_names_nothing_is_refused_and_the_name_stays_as_it_was() {
        let ttt = Rules::default();
        let gomoku = Rules::new(15, 15, 5).unwrap_or_default();
        let mut screen = GameScreen::new(gomoku);
        screen.entry = Some(String::new());
        let mut type_key = |key| screen.type_key(key, SquareNaming::Letters, gomoku);
        assert!(matches!(type_key(Key::Char('z')), Typing::Refused(_)));
        assert_eq!(type_key(Key::Char('h')), Typing::Going);
        assert!(matches!(type_key(Key::Char('x')), Typing::Refused(_)));
        // Enter on a name of no square is refused too.
        assert!(matches!(type_key(Key::Enter), Typing::Refused(_)));
        assert_eq!(screen.entry.as_deref(), Some("h"), "as before each refusal");
        // No column 9 on 3x3: refused, with nothing typed yet.
        let mut screen = GameScreen::new(ttt);
        screen.entry = Some(String::new());
        assert!(matches!(
            screen.type_key(Key::Char('9'), SquareNaming::Coords, ttt),
            Typing::Refused(SquareError::OffBoard { .. } | SquareError::NotASquare { .. })
        ));
        assert_eq!(screen.entry.as_deref(), Some(""));
        // Column 1, then no row 4: the space put in for the row goes with the 4.
        assert_eq!(
            screen.type_key(Key::Char('1'), SquareNaming::Coords, ttt),
            Typing::Going
        );
        assert!(matches!(
            screen.type_key(Key::Char('4'), SquareNaming::Coords, ttt),
            Typing::Refused(_)
        ));
        assert_eq!(screen.entry.as_deref(), Some("1"));
        // Enter on a number of no square, as the square numbers are typed.
        let mut screen = GameScreen::new(ttt);
        screen.entry = Some(String::new());
        assert!(matches!(
            screen.type_key(Key::Enter, SquareNaming::Numbers, ttt),
            Typing::Refused(SquareError::Empty)
        ));
        assert_eq!(screen.entry.as_deref(), Some(""));
    }

    #[test]
    fn esc_cancels_and_backspace_takes_back() {
        let rules = Rules::new(15, 15, 5).unwrap_or_default();
        let mut screen = GameScreen::new(rules);
        screen.entry = Some("h1".to_owned());
        screen.type_key(Key::Backspace, SquareNaming::Letters, rules);
        assert_eq!(screen.entry.as_deref(), Some("h"));
        assert_eq!(
            screen.type_key(Key::Esc, SquareNaming::Letters, rules),
            Typing::Cancelled
        );
        assert_eq!(screen.entry, None);
    }
}
