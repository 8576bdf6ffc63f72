//! The parameters of an m,n,k game: board width, height, the length of a winning line and
//! whether longer lines win too.

use std::fmt;
use std::str::FromStr;

use crate::{Square, WinRule};

/// Board size, winning-line length and win rule of an m,n,k game, validated once.
///
/// A line of `k` **or more** marks of one kind, in a row, column or diagonal, wins: the
/// "freestyle" rule, which [`Rules::new`] makes. [`with_win_rule`](Rules::with_win_rule)
/// with [`WinRule::Exact`] makes the rules where only a line of exactly `k` wins. The
/// default is tic-tac-toe: 3x3 with k = 3.
///
/// The text form is `WxH, k=K` for freestyle and `WxH, exactly K` for exact;
/// [`FromStr`] reads both back.
///
/// ```
/// use ttt_core::{Rules, WinRule};
///
/// let gomoku = Rules::new(15, 15, 5)?;
/// assert_eq!(gomoku.square_count(), 225);
/// assert_eq!(gomoku.win_rule(), WinRule::Freestyle);
/// assert_eq!(Rules::default().to_string(), "3x3, k=3");
/// assert!(Rules::new(2, 40, 3).is_err());
///
/// let exactly_five = gomoku.with_win_rule(WinRule::Exact);
/// assert_eq!(exactly_five.to_string(), "15x15, exactly 5");
/// assert_eq!("15x15, exactly 5".parse::<Rules>()?, exactly_five);
/// assert_ne!(exactly_five, gomoku);
/// # Ok::<(), ttt_core::RulesError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    width: u8,
    height: u8,
    k: u8,
    win: WinRule,
}

/// Why a board size or line length was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// A side is outside 3..=20.
    #[error(
        "a board of {width}x{height} is not supported: each side must be from {min} to {max}",
        min = Rules::MIN_SIDE,
        max = Rules::MAX_SIDE
    )]
    Size {
        /// The width asked for.
        width: usize,
        /// The height asked for.
        height: usize,
    },
    /// The line length is outside 3..=the longer side.
    #[error("k={k} does not fit a {width}x{height} board: k must be from 3 to {longest}")]
    LineLength {
        /// The line length asked for.
        k: usize,
        /// The board width.
        width: usize,
        /// The board height.
        height: usize,
        /// The longer side, the largest allowed k.
        longest: usize,
    },
    /// A size written as text is not `WxH`.
    #[error("'{}' is not a board size: write it as WIDTHxHEIGHT, e.g. 3x3 or 15x15", crate::Shown(.0))]
    SizeSyntax(String),
    /// Rules written as text are neither `WxH, k=K` nor `WxH, exactly K`.
    #[error("'{}' are not rules: write them as WxH, k=K or WxH, exactly K, e.g. 15x15, k=5", crate::Shown(.0))]
    Syntax(String),
}

impl Rules {
    /// The smallest side of a board.
    pub const MIN_SIDE: usize = 3;
    /// The largest side of a board.
    pub const MAX_SIDE: usize = 20;
    /// The most squares any board has (20x20, the Gomocup size).
    pub const MAX_SQUARES: usize = Self::MAX_SIDE * Self::MAX_SIDE;

    /// Tic-tac-toe: 3x3, three in a row.
    pub const TIC_TAC_TOE: Rules = Rules {
        width: 3,
        height: 3,
        k: 3,
        win: WinRule::Freestyle,
    };

    /// Checks and builds the rules of a `width` x `height` board where `k` or more in a row
    /// win (freestyle; see [`with_win_rule`](Rules::with_win_rule) for exactly `k`).
    ///
    /// # Errors
    /// [`RulesError::Size`] when a side is outside 3..=20, [`RulesError::LineLength`] when
    /// `k` is below 3 or longer than the longer side.
    pub fn new(width: usize, height: usize, k: usize) -> Result<Rules, RulesError> {
        let side = Self::MIN_SIDE..=Self::MAX_SIDE;
        if !side.contains(&width) || !side.contains(&height) {
            return Err(RulesError::Size { width, height });
        }
        let longest = width.max(height);
        if !(3..=longest).contains(&k) {
            return Err(RulesError::LineLength {
                k,
                width,
                height,
                longest,
            });
        }
        // Every value is at most 19 here, so the narrowing casts are exact.
        Ok(Rules {
            width: width as u8,
            height: height as u8,
            k: k as u8,
            win: WinRule::Freestyle,
        })
    }

    /// The same board and `k` under `win`: [`WinRule::Exact`] for "exactly `k`".
    ///
    /// ```
    /// use ttt_core::{Rules, WinRule};
    ///
    /// let exact = Rules::new(15, 15, 5)?.with_win_rule(WinRule::Exact);
    /// assert_eq!(exact.win_rule(), WinRule::Exact);
    /// assert_eq!((exact.width(), exact.height(), exact.k()), (15, 15, 5));
    /// assert_eq!(exact.with_win_rule(WinRule::Freestyle), Rules::new(15, 15, 5)?);
    /// # Ok::<(), ttt_core::RulesError>(())
    /// ```
    #[must_use]
    pub const fn with_win_rule(self, win: WinRule) -> Rules {
        Rules { win, ..self }
    }

    /// Which lines win: `k` or more, or exactly `k`.
    #[must_use]
    pub const fn win_rule(self) -> WinRule {
        self.win
    }

    /// Whether a run of `length` marks in a row wins under these rules.
    ///
    /// ```
    /// use ttt_core::{Rules, WinRule};
    ///
    /// let gomoku = Rules::new(15, 15, 5)?;
    /// assert!(gomoku.wins(5) && gomoku.wins(6) && !gomoku.wins(4));
    /// let exact = gomoku.with_win_rule(WinRule::Exact);
    /// assert!(exact.wins(5) && !exact.wins(6));
    /// # Ok::<(), ttt_core::RulesError>(())
    /// ```
    #[must_use]
    pub const fn wins(self, length: usize) -> bool {
        self.win.wins(length, self.k())
    }

    /// The number of columns.
    #[must_use]
    pub const fn width(self) -> usize {
        self.width as usize
    }

    /// The number of rows.
    #[must_use]
    pub const fn height(self) -> usize {
        self.height as usize
    }

    /// How many marks in a line win.
    #[must_use]
    pub const fn k(self) -> usize {
        self.k as usize
    }

    /// The number of squares on the board.
    #[must_use]
    pub const fn square_count(self) -> usize {
        self.width() * self.height()
    }

    /// Whether these are the rules of classic 3x3 tic-tac-toe: 3x3 with k=3, under either
    /// win rule (no line on that board is longer than three, so exactly three is the same
    /// game), and named and drawn as tic-tac-toe is.
    ///
    /// ```
    /// use ttt_core::{Rules, WinRule};
    ///
    /// assert!(Rules::default().is_tic_tac_toe());
    /// assert!(Rules::default().with_win_rule(WinRule::Exact).is_tic_tac_toe());
    /// assert!(!Rules::new(4, 3, 3)?.is_tic_tac_toe());
    /// # Ok::<(), ttt_core::RulesError>(())
    /// ```
    #[must_use]
    pub fn is_tic_tac_toe(self) -> bool {
        self.with_win_rule(WinRule::Freestyle) == Self::TIC_TAC_TOE
    }

    /// The game these rules are known as, if they are a known one: tic-tac-toe on 3x3
    /// with three in a row, gomoku with five in a row on its 15x15 and 19x19 boards (under
    /// either win rule).
    ///
    /// ```
    /// use ttt_core::{Rules, WinRule};
    ///
    /// assert_eq!(Rules::default().game_name(), Some("tic-tac-toe"));
    /// let gomoku = Rules::new(15, 15, 5)?;
    /// assert_eq!(gomoku.game_name(), Some("gomoku"));
    /// assert_eq!(gomoku.with_win_rule(WinRule::Exact).game_name(), Some("gomoku"));
    /// assert_eq!(Rules::new(7, 6, 4)?.game_name(), None);
    /// # Ok::<(), ttt_core::RulesError>(())
    /// ```
    #[must_use]
    pub fn game_name(self) -> Option<&'static str> {
        match (self.width, self.height, self.k) {
            (3, 3, 3) => Some("tic-tac-toe"),
            (15, 15, 5) | (19, 19, 5) => Some("gomoku"),
            _ => None,
        }
    }

    /// Every square of the board, row by row from the top left.
    pub fn squares(self) -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (0..self.square_count()).map(Square::new)
    }

    /// The square in `column` and `row`, both counted from 0 at the top left.
    #[must_use]
    pub fn square(self, column: usize, row: usize) -> Option<Square> {
        (column < self.width() && row < self.height())
            .then(|| Square::new(row * self.width() + column))
    }

    /// The square `column` steps across and `row` steps down, or `None` off the board.
    #[must_use]
    pub fn square_signed(self, column: isize, row: isize) -> Option<Square> {
        let column = usize::try_from(column).ok()?;
        let row = usize::try_from(row).ok()?;
        self.square(column, row)
    }

    /// The squares within `steps` of `square` in any direction, diagonals too (a king's
    /// moves in chess, that many times), `square` itself left out; row by row.
    ///
    /// ```
    /// use ttt_core::{Rules, Square};
    ///
    /// let rules = Rules::TIC_TAC_TOE;
    /// let corner: Vec<usize> = rules.around(Square::new(0), 1).map(|s| s.index()).collect();
    /// assert_eq!(corner, [1, 3, 4]);
    /// assert_eq!(rules.around(Square::new(4), 1).count(), 8);
    /// assert_eq!(rules.around(Square::new(4), 2).count(), 8);
    /// ```
    pub fn around(self, square: Square, steps: usize) -> impl Iterator<Item = Square> {
        let (column, row) = (self.column(square), self.row(square));
        let span =
            move |at: usize, side: usize| at.saturating_sub(steps)..=(at + steps).min(side - 1);
        span(row, self.height())
            .flat_map(move |near_row| {
                span(column, self.width()).map(move |near_column| (near_column, near_row))
            })
            .filter(move |&near| near != (column, row))
            .filter_map(move |(near_column, near_row)| self.square(near_column, near_row))
    }

    /// The column of `square`, 0 at the left.
    #[must_use]
    pub const fn column(self, square: Square) -> usize {
        square.index() % self.width()
    }

    /// The row of `square`, 0 at the top.
    #[must_use]
    pub const fn row(self, square: Square) -> usize {
        square.index() / self.width()
    }

    /// Whether `square` lies on this board.
    #[must_use]
    pub const fn contains(self, square: Square) -> bool {
        square.index() < self.square_count()
    }

    /// The square or squares nearest the middle of the board: one on odd-by-odd boards,
    /// two or four where a side is even.
    #[must_use]
    pub fn centre(self) -> Vec<Square> {
        let middle = |side: usize| {
            if side % 2 == 1 {
                vec![side / 2]
            } else {
                vec![side / 2 - 1, side / 2]
            }
        };
        let mut centre = Vec::new();
        for row in middle(self.height()) {
            for column in middle(self.width()) {
                centre.extend(self.square(column, row));
            }
        }
        centre
    }

    /// The four corner squares.
    #[must_use]
    pub fn corners(self) -> [Square; 4] {
        let (right, bottom) = (self.width() - 1, self.height() - 1);
        [(0, 0), (right, 0), (0, bottom), (right, bottom)]
            .map(|(column, row)| Square::new(row * self.width() + column))
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::TIC_TAC_TOE
    }
}

impl fmt::Display for Rules {
    /// `15x15, k=5` under freestyle, `15x15, exactly 5` under exact.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}, ", self.width, self.height)?;
        match self.win {
            WinRule::Freestyle => write!(f, "k={}", self.k),
            WinRule::Exact => write!(f, "exactly {}", self.k),
        }
    }
}

impl FromStr for Rules {
    type Err = RulesError;

    /// Reads what [`Display`](fmt::Display) writes: `WxH, k=K` or `WxH, exactly K`.
    fn from_str(text: &str) -> Result<Rules, RulesError> {
        let syntax = || RulesError::Syntax(text.to_owned());
        let (size, length) = text.split_once(',').ok_or_else(syntax)?;
        let size: BoardSize = size.parse()?;
        let length = length.trim();
        let (k, win) = if let Some(k) = length.strip_prefix("k=") {
            (k, WinRule::Freestyle)
        } else if let Some(k) = length.strip_prefix("exactly ") {
            (k, WinRule::Exact)
        } else {
            return Err(syntax());
        };
        let k = k.trim().parse().map_err(|_| syntax())?;
        Ok(Rules::new(size.width, size.height, k)?.with_win_rule(win))
    }
}

/// A board size, `WxH`, as typed on the command line (`3x3`, `15x15`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardSize {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

impl FromStr for BoardSize {
    type Err = RulesError;

    fn from_str(text: &str) -> Result<BoardSize, RulesError> {
        let syntax = || RulesError::SizeSyntax(text.to_owned());
        let (width, height) = text.trim().split_once(['x', 'X']).ok_or_else(syntax)?;
        let width = width.trim().parse().map_err(|_| syntax())?;
        let height = height.trim().parse().map_err(|_| syntax())?;
        let side = Rules::MIN_SIDE..=Rules::MAX_SIDE;
        if !side.contains(&width) || !side.contains(&height) {
            return Err(RulesError::Size { width, height });
        }
        Ok(BoardSize { width, height })
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_and_line_lengths_are_checked() {
        assert!(Rules::new(3, 3, 3).is_ok());
        assert!(Rules::new(19, 19, 19).is_ok());
        assert!(Rules::new(7, 3, 7).is_ok());
        assert_eq!(
            Rules::new(2, 40, 3),
            Err(RulesError::Size {
                width: 2,
                height: 40
            })
        );
        assert!(matches!(
            Rules::new(4, 4, 5),
            Err(RulesError::LineLength { longest: 4, .. })
        ));
        assert!(matches!(
            Rules::new(4, 4, 2),
            Err(RulesError::LineLength { .. })
        ));
    }

    #[test]
    fn sizes_parse() {
        assert_eq!(
            "15x15".parse(),
            Ok(BoardSize {
                width: 15,
                height: 15
            })
        );
        assert_eq!(
            "4X3".parse(),
            Ok(BoardSize {
                width: 4,
                height: 3
            })
        );
        assert!(matches!(
            "2x40".parse::<BoardSize>(),
            Err(RulesError::Size { .. })
        ));
        assert!(matches!(
            "big".parse::<BoardSize>(),
            Err(RulesError::SizeSyntax(_))
        ));
    }

    #[test]
    fn rules_read_back_what_they_write() {
        for rules in [
            Rules::default(),
            Rules::new(7, 6, 4).unwrap(),
            Rules::new(15, 15, 5).unwrap().with_win_rule(WinRule::Exact),
            Rules::new(3, 19, 19).unwrap().with_win_rule(WinRule::Exact),
        ] {
            assert_eq!(rules.to_string().parse(), Ok(rules), "{rules}");
        }
        assert_eq!(
            " 15X15 ,  exactly  5 ".parse(),
            Ok(Rules::new(15, 15, 5).unwrap().with_win_rule(WinRule::Exact))
        );
        for text in ["15x15", "15x15, k=", "15x15, exact 5", "15x15; k=5", ""] {
            assert!(
                matches!(text.parse::<Rules>(), Err(RulesError::Syntax(_))),
                "{text}"
            );
        }
        assert!(matches!(
            "4x4, k=5".parse::<Rules>(),
            Err(RulesError::LineLength { .. })
        ));
        assert!(matches!(
            "2x2, exactly 2".parse::<Rules>(),
            Err(RulesError::Size { .. })
        ));
    }

    #[test]
    fn centre_and_corners() {
        let rules = Rules::default();
        assert_eq!(rules.centre(), vec![Square::new(4)]);
        assert_eq!(rules.corners().map(Square::index), [0, 2, 6, 8]);
        let even = Rules::new(4, 4, 4).unwrap_or_default();
        assert_eq!(
            even.centre().iter().map(|s| s.index()).collect::<Vec<_>>(),
            vec![5, 6, 9, 10]
        );
    }

    #[test]
    fn the_squares_around_are_those_within_the_steps_each_way() {
        for (width, height) in [(3, 3), (4, 7), (15, 15), (20, 3)] {
            let rules = Rules::new(width, height, 3).unwrap();
            for steps in 0..=3 {
                for square in rules.squares() {
                    let near = |other: Square| {
                        other != square
                            && rules.column(other).abs_diff(rules.column(square)) <= steps
                            && rules.row(other).abs_diff(rules.row(square)) <= steps
                    };
                    let expected: Vec<Square> = rules.squares().filter(|&s| near(s)).collect();
                    assert_eq!(rules.around(square, steps).collect::<Vec<_>>(), expected);
                }
            }
        }
    }
}
