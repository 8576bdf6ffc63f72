//! One cell of the board, by index.

use std::fmt;

/// One square of a board, numbered from 0 row by row from the top left.
///
/// A square knows only its index; its column and row depend on the board's width, so they
/// come from [`Rules`](crate::Rules). The names people type (`5`, `1 3`, `c2`) are
/// converted by a [`SquareNaming`](crate::SquareNaming).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u16);

impl Square {
    /// The square with this index.
    ///
    /// Indices above what any board holds are kept as they are; whether a square lies on a
    /// board is for [`Rules::contains`](crate::Rules::contains) to say.
    #[must_use]
    pub const fn new(index: usize) -> Square {
        // No board has more than 400 squares; saturate rather than wrap anything larger.
        if index > u16::MAX as usize {
            Square(u16::MAX)
        } else {
            Square(index as u16)
        }
    }

    /// The index, 0 at the top left, counting along each row.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Square {
    /// The square's number as in the default naming: its index plus one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.index() + 1)
    }
}
