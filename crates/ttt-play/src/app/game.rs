//! The game screen's own state: the cursor, the hint shown, a square name being typed,
//! and when the computer or the next game is due.

use std::time::Duration;

use ttt_core::{Rules, Square, SquareNaming};
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
    /// The name goes on (or was cut back).
    Going,
    /// The name was cancelled.
    Cancelled,
    /// The name is complete: read it.
    Done(String),
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
    /// longer ends by itself, so `5` on 3x3 or `h9` on 15x15 places at once.
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
            Key::Enter => return Typing::Done(self.entry.take().unwrap_or_default()),
            Key::Char(character) if !character.is_control() && entry.len() < MAX_ENTRY => {
                // Column then row on 3x3: the space between them comes by itself.
                let coords = rules.is_tic_tac_toe() && naming == SquareNaming::Coords;
                if coords && character.is_ascii_digit() && entry.len() == 1 {
                    entry.push(' ');
                }
                entry.push(character);
                // A complete name places at once; one that nothing could complete is
                // read at once too, to say what is wrong with it.
                if is_complete(entry, naming, rules) || !could_become_a_name(entry, naming, rules) {
                    return Typing::Done(self.entry.take().unwrap_or_default());
                }
            }
            _ => {}
        }
        Typing::Going
    }
}

/// Whether `text` names a square and no digit typed after it could name another.
fn is_complete(text: &str, naming: SquareNaming, rules: Rules) -> bool {
    naming.read(text, rules).is_ok()
        && ('0'..='9').all(|digit| naming.read(&format!("{text}{digit}"), rules).is_err())
}

/// Whether `text`, or `text` with up to two more digits (or a space and a digit), names
/// a square: no square name is longer than that past its first characters.
fn could_become_a_name(text: &str, naming: SquareNaming, rules: Rules) -> bool {
    let reads = |candidate: &str| naming.read(candidate, rules).is_ok();
    reads(text)
        || ('0'..='9').any(|digit| {
            reads(&format!("{text}{digit}"))
                || reads(&format!("{text} {digit}"))
                || ('0'..='9').any(|second| reads(&format!("{text}{digit}{second}")))
                || ('0'..='9').any(|second| reads(&format!("{text} {digit}{second}")))
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
        assert_eq!(
            typed("5", SquareNaming::Numbers, ttt),
            [Typing::Done("5".to_owned())]
        );
        assert_eq!(
            typed("32", SquareNaming::Coords, ttt),
            [Typing::Going, Typing::Done("3 2".to_owned())]
        );
        let gomoku = Rules::new(15, 15, 5).unwrap_or_default();
        assert_eq!(
            typed("h1", SquareNaming::Letters, gomoku),
            [Typing::Going, Typing::Going],
            "h1 might become h12"
        );
        assert_eq!(
            typed("h8", SquareNaming::Letters, gomoku),
            [Typing::Going, Typing::Done("h8".to_owned())]
        );
        assert_eq!(
            typed("9", SquareNaming::Coords, ttt),
            [Typing::Done("9".to_owned())],
            "no column 9: read at once, to say so"
        );
        assert_eq!(
            typed("z", SquareNaming::Letters, gomoku),
            [Typing::Done("z".to_owned())]
        );
        let connect = Rules::new(7, 6, 4).unwrap_or_default();
        assert_eq!(
            typed("4", SquareNaming::Letters, connect),
            [Typing::Going],
            "square 4 might be the start of square 42"
        );
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
