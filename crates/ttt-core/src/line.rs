//! Lines of squares: rows, columns and diagonals, and the runs of marks along them.

use crate::{Rules, Square};

/// The four directions a line can run in: across, down, and the two diagonals, as steps of
/// (column, row).
pub const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A straight run of squares, such as a winning line of marks.
///
/// The squares are kept in reading order (by index), which is also their order along the
/// line.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Line {
    squares: Vec<Square>,
}

impl Line {
    /// The line through the given squares (which must be in a straight run).
    #[must_use]
    pub fn new(mut squares: Vec<Square>) -> Line {
        squares.sort_unstable();
        Line { squares }
    }

    /// The squares of the line, in order from one end.
    #[must_use]
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }

    /// Whether `square` is on the line.
    #[must_use]
    pub fn contains(&self, square: Square) -> bool {
        self.squares.contains(&square)
    }

    /// How many squares long the line is.
    #[must_use]
    pub fn len(&self) -> usize {
        self.squares.len()
    }

    /// Whether the line has no squares.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// The squares just beyond the two ends of the line on the board of `rules`: none, one
    /// or two (a line of fewer than two squares has no direction, and none). A mark of the
    /// line's own side on one makes the line longer: under
    /// [`WinRule::Exact`](crate::WinRule::Exact) a window of k marks wins only with
    /// neither of them holding one.
    ///
    /// ```
    /// use ttt_core::{Rules, windows};
    ///
    /// let rules = Rules::new(6, 6, 4)?;
    /// // The first window is the top row's a1-d1: beyond it is e1 alone (the board ends
    /// // before a1).
    /// let across = &windows(rules)[0];
    /// assert_eq!(across.ends_beyond(rules).iter().map(|s| s.index()).collect::<Vec<_>>(), [4]);
    /// // b2-c3-d4-e5 has a1 and f6 beyond it.
    /// let diagonal = windows(rules)
    ///     .into_iter()
    ///     .find(|line| line.squares()[0].index() == 7 && line.squares()[1].index() == 14)
    ///     .unwrap();
    /// assert_eq!(
    ///     diagonal.ends_beyond(rules).iter().map(|s| s.index()).collect::<Vec<_>>(),
    ///     [0, 35]
    /// );
    /// # Ok::<(), ttt_core::RulesError>(())
    /// ```
    #[must_use]
    pub fn ends_beyond(&self, rules: Rules) -> Vec<Square> {
        let [first, second, .., last] = self.squares.as_slice() else {
            return Vec::new();
        };
        let place = |square: &Square| (rules.column(*square) as isize, rules.row(*square) as isize);
        let ((column, row), (next_column, next_row)) = (place(first), place(second));
        let (dx, dy) = (next_column - column, next_row - row);
        let (last_column, last_row) = place(last);
        [
            rules.square_signed(column - dx, row - dy),
            rules.square_signed(last_column + dx, last_row + dy),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

/// Every window of `k` squares in a row, column or diagonal of the board: the places a
/// line of `k` can be made. Tic-tac-toe has 8.
///
/// ```
/// use ttt_core::{Rules, windows};
///
/// assert_eq!(windows(Rules::default()).len(), 8);
/// assert_eq!(windows(Rules::new(4, 4, 3)?).len(), 24);
/// # Ok::<(), ttt_core::RulesError>(())
/// ```
#[must_use]
pub fn windows(rules: Rules) -> Vec<Line> {
    let k = rules.k() as isize;
    let mut windows = Vec::new();
    for start in rules.squares() {
        let (column, row) = (rules.column(start) as isize, rules.row(start) as isize);
        for (dx, dy) in DIRECTIONS {
            let squares: Option<Vec<Square>> = (0..k)
                .map(|step| rules.square_signed(column + dx * step, row + dy * step))
                .collect();
            if let Some(squares) = squares {
                windows.push(Line::new(squares));
            }
        }
    }
    windows
}
