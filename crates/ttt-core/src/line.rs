//! Lines of squares: rows, columns and diagonals, and the runs of marks along them.

use crate::{Rules, Square};

/// The four directions a line can run in: across, down, and the two diagonals.
pub(crate) const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

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
