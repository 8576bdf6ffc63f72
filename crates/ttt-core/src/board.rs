//! Which mark is on which square.

use std::fmt;

use crate::bitset::Bitset;
use crate::line::DIRECTIONS;
use crate::{Line, Mark, Rules, Square};

/// The marks on a board of a given size, with no notion of turns or legality.
///
/// [`Position`](crate::Position) is what plays moves and checks them; a `Board` is the
/// picture. Its [`Display`](fmt::Display) is the position notation's grid: rows from top to
/// bottom separated by `/`, `x`, `o` or `.` for each square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    rules: Rules,
    x: Bitset,
    o: Bitset,
}

impl Board {
    /// An empty board for these rules.
    #[must_use]
    pub fn empty(rules: Rules) -> Board {
        Board {
            rules,
            x: Bitset::default(),
            o: Bitset::default(),
        }
    }

    /// The rules whose board this is.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The mark on `square`, if any (and `None` off the board).
    #[must_use]
    pub fn get(&self, square: Square) -> Option<Mark> {
        let index = square.index();
        if !self.rules.contains(square) {
            None
        } else if self.x.contains(index) {
            Some(Mark::X)
        } else if self.o.contains(index) {
            Some(Mark::O)
        } else {
            None
        }
    }

    /// Puts `mark` on `square`, or clears it with `None`. Squares off the board are ignored.
    pub fn set(&mut self, square: Square, mark: Option<Mark>) {
        if !self.rules.contains(square) {
            return;
        }
        let index = square.index();
        self.x.remove(index);
        self.o.remove(index);
        match mark {
            Some(Mark::X) => self.x.insert(index),
            Some(Mark::O) => self.o.insert(index),
            None => {}
        }
    }

    /// Whether `square` is on the board and free.
    #[must_use]
    pub fn is_empty_at(&self, square: Square) -> bool {
        self.rules.contains(square) && self.get(square).is_none()
    }

    /// How many squares hold `mark`.
    #[must_use]
    pub fn count(&self, mark: Mark) -> usize {
        match mark {
            Mark::X => self.x.len(),
            Mark::O => self.o.len(),
        }
    }

    /// How many squares hold a mark.
    #[must_use]
    pub fn filled(&self) -> usize {
        self.x.len() + self.o.len()
    }

    /// Whether every square holds a mark.
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.filled() == self.rules.square_count()
    }

    /// The squares holding `mark`, in index order.
    pub fn squares_of(&self, mark: Mark) -> impl Iterator<Item = Square> + '_ {
        let set = match mark {
            Mark::X => &self.x,
            Mark::O => &self.o,
        };
        set.iter().map(Square::new)
    }

    /// The free squares, in index order.
    pub fn empty_squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.rules
            .squares()
            .filter(|&square| self.get(square).is_none())
    }

    /// The winning runs of the mark on `square` that pass through it, one per direction
    /// at most: runs of `k` or more, or of exactly `k` under [`WinRule::Exact`] (where a
    /// longer run, an overline, is none). Empty when the square is free or makes no such
    /// run.
    ///
    /// [`WinRule::Exact`]: crate::WinRule::Exact
    #[must_use]
    pub fn lines_through(&self, square: Square) -> Vec<Line> {
        let Some(mark) = self.get(square) else {
            return Vec::new();
        };
        let rules = self.rules;
        let (column, row) = (rules.column(square) as isize, rules.row(square) as isize);
        let mut lines = Vec::new();
        for (dx, dy) in DIRECTIONS {
            let walk = |sign: isize| {
                (1..)
                    .map(move |step| {
                        rules.square_signed(column + sign * dx * step, row + sign * dy * step)
                    })
                    .map_while(|next| next.filter(|&next| self.get(next) == Some(mark)))
            };
            let mut squares: Vec<Square> = walk(-1).collect();
            squares.reverse();
            squares.push(square);
            squares.extend(walk(1));
            if rules.wins(squares.len()) {
                lines.push(Line::new(squares));
            }
        }
        lines
    }

    /// Every winning run of `mark` on the board (see
    /// [`lines_through`](Board::lines_through)).
    #[must_use]
    pub fn lines_of(&self, mark: Mark) -> Vec<Line> {
        let mut lines: Vec<Line> = Vec::new();
        for square in self.squares_of(mark) {
            for line in self.lines_through(square) {
                if !lines.contains(&line) {
                    lines.push(line);
                }
            }
        }
        lines
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..self.rules.height() {
            if row > 0 {
                f.write_str("/")?;
            }
            for column in 0..self.rules.width() {
                let square = Square::new(row * self.rules.width() + column);
                let cell = self.get(square).map_or('.', Mark::lower_char);
                write!(f, "{cell}")?;
            }
        }
        Ok(())
    }
}
