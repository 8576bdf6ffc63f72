//! A game in progress: board, rules, whose turn it is, and how it ended.

use std::fmt;
use std::str::FromStr;

use std::hash::{Hash, Hasher};

use crate::{Board, Line, Mark, Outcome, Rules, RulesError, Shown, Square, WinRule};

/// A board together with whose turn it is and the moves played to reach it.
///
/// `Position` is the only thing that plays moves: [`play`](Position::play) checks them,
/// [`undo`](Position::undo) takes them back, and the position always knows its
/// [`outcome`](Position::outcome) and winning lines.
///
/// ```
/// use ttt_core::{Mark, Outcome, Position, Square, WinRule};
///
/// let mut position = Position::default();
/// for index in [4, 0, 2, 6, 3, 5, 1, 7, 8] {
///     position.play(Square::new(index))?;
/// }
/// assert_eq!(position.outcome(), Some(Outcome::Draw));
///
/// let won: Position = "xxx/oo./...".parse()?;
/// assert_eq!(won.outcome(), Some(Outcome::Win(Mark::X)));
/// assert_eq!(won.to_string(), "xxx/oo./...");
///
/// // Equal positions are the same board, rules and side to move, however reached.
/// let mut other_order = Position::default();
/// for index in [2, 6, 4, 0, 3, 5, 1, 7, 8] {
///     other_order.play(Square::new(index))?;
/// }
/// assert_eq!(position, other_order);
///
/// // Beyond 3x3 with X first, the notation adds the side to move and k.
/// let gomoku: Position = "x...o/...../...../...../..... x k=4".parse()?;
/// assert_eq!(gomoku.rules().k(), 4);
/// assert_eq!(gomoku.to_string().parse::<Position>()?, gomoku);
///
/// // Under exactly k, `exact` follows: six in a row is no win there, and play goes on.
/// let six: Position = "xxxxxx./oooooo./......./......./......./......./....... o k=5 exact".parse()?;
/// assert_eq!(six.rules().win_rule(), WinRule::Exact);
/// assert_eq!(six.outcome(), None);
/// assert_eq!(six.to_string().parse::<Position>()?, six);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Position {
    board: Board,
    first: Mark,
    to_move: Mark,
    history: Vec<Square>,
    outcome: Option<Outcome>,
    lines: Vec<Line>,
}

/// Why a move was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game has already ended.
    #[error("the game is over")]
    GameOver,
    /// The square is not on this board.
    #[error("square {0} is not on the board")]
    OffBoard(Square),
    /// The square already holds a mark.
    #[error("square {square} is taken by {mark}")]
    Occupied {
        /// The square asked for.
        square: Square,
        /// The mark already there.
        mark: Mark,
    },
}

/// Why a position written in notation was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The text has a different number of `/`-separated rows than the board.
    #[error("wrong number of rows: expected {expected} rows separated by '/', found {found}")]
    RowCount {
        /// Rows on the board.
        expected: usize,
        /// Rows in the text.
        found: usize,
    },
    /// A row has a different number of cells than the board is wide.
    #[error("wrong row length: row {row} has {found} cells, expected {expected}")]
    RowLength {
        /// The row, counted from 1 at the top.
        row: usize,
        /// The board's width.
        expected: usize,
        /// Cells in that row of the text.
        found: usize,
    },
    /// A cell is not `x`, `o` or `.`.
    #[error("unknown character '{}' in row {row}, column {column}: use x, o or .", .character.escape_debug())]
    Character {
        /// The character found.
        character: char,
        /// Its row, from 1.
        row: usize,
        /// Its column, from 1.
        column: usize,
    },
    /// The numbers of X and O cannot arise from alternating moves.
    #[error(
        "impossible counts: {x} X and {o} O, but with {first} moving first, {first} has as many marks as {second} or one more",
        second = !*first
    )]
    Counts {
        /// Number of X marks.
        x: usize,
        /// Number of O marks.
        o: usize,
        /// The mark that moved first.
        first: Mark,
    },
    /// Both marks have a line.
    #[error("both X and O have a line: a game stops at the first line")]
    BothWon,
    /// A mark has a line, yet moves went on after it was made.
    #[error("play continued after {winner} won: the game stops at the first line")]
    PlayAfterWin {
        /// The mark with the line.
        winner: Mark,
    },
    /// A field after the rows is neither the side to move (`x`, `o`), `k=N` nor the win
    /// rule (`exact`, `freestyle`), or says one of them twice.
    #[error("'{}' is neither the side to move (x or o), k=N nor exact", Shown(.text))]
    Field {
        /// The field as written.
        text: String,
    },
    /// The side to move cannot be: it has more marks than the other side.
    #[error("{to_move} cannot be to move with {x} X and {o} O")]
    SideToMove {
        /// The side written as to move.
        to_move: Mark,
        /// Number of X marks.
        x: usize,
        /// Number of O marks.
        o: usize,
    },
    /// The rows and k make no board.
    #[error("{0}")]
    Rules(#[from] RulesError),
    /// A board other than 3x3 needs its k written.
    #[error("a {width}x{height} board needs its line length: add k=N after the rows")]
    MissingK {
        /// Columns in the text.
        width: usize,
        /// Rows in the text.
        height: usize,
    },
    /// A move in a list of moves was refused.
    #[error("move {number} (square {square}): {error}")]
    Move {
        /// The move's place in the list, from 1.
        number: usize,
        /// The square it named.
        square: Square,
        /// Why it was refused.
        error: PlayError,
    },
}

impl Position {
    /// The empty board of `rules`, with `first` to move.
    #[must_use]
    pub fn new(rules: Rules, first: Mark) -> Position {
        Position {
            board: Board::empty(rules),
            first,
            to_move: first,
            history: Vec::new(),
            outcome: None,
            lines: Vec::new(),
        }
    }

    /// The position after playing `squares` in order from the empty board.
    ///
    /// # Errors
    /// [`PositionError::Move`] naming the first move that could not be played.
    pub fn from_moves(
        rules: Rules,
        first: Mark,
        squares: &[Square],
    ) -> Result<Position, PositionError> {
        let mut position = Position::new(rules, first);
        for (number, &square) in squares.iter().enumerate() {
            position.play(square).map_err(|error| PositionError::Move {
                number: number + 1,
                square,
                error,
            })?;
        }
        Ok(position)
    }

    /// Checks a board and makes it a position: the side to move follows from the counts
    /// (equal counts mean `first` is to move), and a line ends the game.
    ///
    /// The result has no move history, so [`undo`](Position::undo) has nothing to take back.
    ///
    /// # Errors
    /// [`PositionError::Counts`], [`PositionError::BothWon`] or
    /// [`PositionError::PlayAfterWin`] for boards that no game can reach.
    pub fn from_board(board: Board, first: Mark) -> Result<Position, PositionError> {
        let (firsts, seconds) = (board.count(first), board.count(!first));
        let to_move = if firsts == seconds {
            first
        } else if firsts == seconds + 1 {
            !first
        } else {
            return Err(PositionError::Counts {
                x: board.count(Mark::X),
                o: board.count(Mark::O),
                first,
            });
        };
        let x_lines = board.lines_of(Mark::X);
        let o_lines = board.lines_of(Mark::O);
        let (outcome, lines) = match (x_lines.is_empty(), o_lines.is_empty()) {
            (false, false) => return Err(PositionError::BothWon),
            (false, true) => (Some(Outcome::Win(Mark::X)), x_lines),
            (true, false) => (Some(Outcome::Win(Mark::O)), o_lines),
            (true, true) => (board.is_full().then_some(Outcome::Draw), Vec::new()),
        };
        if let Some(Outcome::Win(winner)) = outcome
            && (to_move == winner || !won_on_last_move(&board, winner))
        {
            return Err(PositionError::PlayAfterWin { winner });
        }
        Ok(Position {
            board,
            first,
            to_move,
            history: Vec::new(),
            outcome,
            lines,
        })
    }

    /// Reads the position notation (`x.o/.x./..o`) for a board of `rules`, `first` moving
    /// first.
    ///
    /// # Errors
    /// A [`PositionError`] naming the first thing wrong: rows, row lengths, characters,
    /// counts, or play after a win.
    pub fn parse(text: &str, rules: Rules, first: Mark) -> Result<Position, PositionError> {
        let rows: Vec<&str> = text.trim().split('/').collect();
        if rows.len() != rules.height() {
            return Err(PositionError::RowCount {
                expected: rules.height(),
                found: rows.len(),
            });
        }
        let mut board = Board::empty(rules);
        for (row, cells) in rows.iter().enumerate() {
            let found = cells.chars().count();
            if found != rules.width() {
                return Err(PositionError::RowLength {
                    row: row + 1,
                    expected: rules.width(),
                    found,
                });
            }
            for (column, character) in cells.chars().enumerate() {
                let mark = match character {
                    'x' | 'X' => Some(Mark::X),
                    'o' | 'O' => Some(Mark::O),
                    '.' => None,
                    _ => {
                        return Err(PositionError::Character {
                            character,
                            row: row + 1,
                            column: column + 1,
                        });
                    }
                };
                board.set(Square::new(row * rules.width() + column), mark);
            }
        }
        Position::from_board(board, first)
    }

    /// The rules of the game.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.board.rules()
    }

    /// The marks on the board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The mark that moved first in this game.
    #[must_use]
    pub fn first(&self) -> Mark {
        self.first
    }

    /// The mark whose turn it is (after the game ends: whose turn it would be).
    #[must_use]
    pub fn to_move(&self) -> Mark {
        self.to_move
    }

    /// How the game ended, or `None` while it goes on.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game has ended.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The winner's winning lines (of `k` or more, or of exactly `k` under
    /// [`WinRule::Exact`]): usually one, two when one move completed two.
    #[must_use]
    pub fn winning_lines(&self) -> &[Line] {
        &self.lines
    }

    /// Whether `square` is on a winning line.
    #[must_use]
    pub fn is_on_winning_line(&self, square: Square) -> bool {
        self.lines.iter().any(|line| line.contains(square))
    }

    /// The moves played through this position, oldest first (not those of a parsed board).
    #[must_use]
    pub fn history(&self) -> &[Square] {
        &self.history
    }

    /// The number of marks on the board: the ply, counting from 0 on the empty board.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.board.filled()
    }

    /// The squares the side to move may play: every free square, none once the game is over.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Square> {
        if self.is_over() {
            return Vec::new();
        }
        self.board.empty_squares().collect()
    }

    /// Whether `square` may be played now.
    #[must_use]
    pub fn is_legal(&self, square: Square) -> bool {
        !self.is_over() && self.board.is_empty_at(square)
    }

    /// Plays `square` for the side to move.
    ///
    /// # Errors
    /// [`PlayError`] when the game is over, the square is off the board or taken; the
    /// position is then unchanged.
    pub fn play(&mut self, square: Square) -> Result<(), PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        if !self.rules().contains(square) {
            return Err(PlayError::OffBoard(square));
        }
        if let Some(mark) = self.board.get(square) {
            return Err(PlayError::Occupied { square, mark });
        }
        self.play_unchecked(square);
        Ok(())
    }

    /// Plays `square` without checking it, for search loops that only generate legal moves.
    ///
    /// # Panics
    /// Never; but playing an illegal square leaves the position meaningless.
    pub fn play_unchecked(&mut self, square: Square) {
        let mark = self.to_move;
        self.board.set(square, Some(mark));
        self.history.push(square);
        self.to_move = !mark;
        self.lines = self.board.lines_through(square);
        self.outcome = if !self.lines.is_empty() {
            Some(Outcome::Win(mark))
        } else if self.board.is_full() {
            Some(Outcome::Draw)
        } else {
            None
        };
    }

    /// Takes back the last move played through this position and returns its square, or
    /// `None` when there is no such move.
    pub fn undo(&mut self) -> Option<Square> {
        let square = self.history.pop()?;
        self.board.set(square, None);
        self.to_move = !self.to_move;
        // Every move before the last one left the game going, so nothing has ended now.
        self.outcome = None;
        self.lines.clear();
        Some(square)
    }

    /// The position after `square`, leaving this one as it is.
    ///
    /// # Errors
    /// As [`play`](Position::play).
    pub fn after(&self, square: Square) -> Result<Position, PlayError> {
        let mut next = self.clone();
        next.play(square)?;
        Ok(next)
    }
}

/// Whether some single mark of `winner` is on every one of its lines, so that the last
/// move can have made them all at once.
fn won_on_last_move(board: &Board, winner: Mark) -> bool {
    board.squares_of(winner).any(|square| {
        let mut before = *board;
        before.set(square, None);
        before.lines_of(winner).is_empty()
    })
}

impl Default for Position {
    /// The empty 3x3 board, X to move.
    fn default() -> Position {
        Position::new(Rules::default(), Mark::X)
    }
}

impl PartialEq for Position {
    /// The same rules, board and side to move, whatever moves led there.
    fn eq(&self, other: &Position) -> bool {
        self.rules() == other.rules() && self.to_move == other.to_move && self.board == other.board
    }
}

impl Eq for Position {}

impl Hash for Position {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.rules().hash(state);
        self.to_move.hash(state);
        self.board.hash(state);
    }
}

impl fmt::Display for Position {
    /// The position notation: the rows (`x.o/.x./..o`); then, unless the board is 3x3
    /// with k=3 and X moved first, the side to move and k (`xo../..../..../.... x k=4`),
    /// and `exact` when only a line of exactly k wins. [`FromStr`] reads it back to an
    /// equal position.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.board.fmt(f)?;
        if self.rules() != Rules::default() || self.first != Mark::X {
            write!(
                f,
                " {} k={}",
                self.to_move.to_string().to_lowercase(),
                self.rules().k()
            )?;
        }
        if self.rules().win_rule() == WinRule::Exact {
            write!(f, " {}", WinRule::Exact)?;
        }
        Ok(())
    }
}

impl FromStr for Position {
    type Err = PositionError;

    /// Reads the notation [`Display`](fmt::Display) writes: rows separated by `/` (the
    /// board's size is theirs), then optionally the side to move (`x` or `o`), `k=N` and
    /// the win rule (`exact`; `freestyle` is the default). Without the side to move and k
    /// the board must be 3x3: k is 3 and X moved first.
    fn from_str(text: &str) -> Result<Position, PositionError> {
        let mut fields = text.split_whitespace();
        let rows = fields.next().unwrap_or("");
        let (mut to_move, mut k, mut win) = (None, None, None);
        for field in fields {
            if let Ok(mark) = field.parse::<Mark>()
                && to_move.is_none()
            {
                to_move = Some(mark);
            } else if let Some(Ok(value)) = field
                .strip_prefix("k=")
                .map(str::parse::<usize>)
                .filter(|_| k.is_none())
            {
                k = Some(value);
            } else if let Ok(rule) = field.parse::<WinRule>()
                && win.is_none()
            {
                win = Some(rule);
            } else {
                return Err(PositionError::Field {
                    text: field.to_owned(),
                });
            }
        }
        let height = rows.split('/').count();
        let width = rows.split('/').next().map_or(0, |row| row.chars().count());
        let rules = match k {
            Some(k) => Rules::new(width, height, k)?,
            None if (to_move.is_some() || win.is_some()) && (width, height) != (3, 3) => {
                return Err(PositionError::MissingK { width, height });
            }
            // The short form is a 3x3 board: its errors are about that board.
            None => Rules::default(),
        }
        .with_win_rule(win.unwrap_or_default());
        let Some(to_move) = to_move else {
            return Position::parse(rows, rules, Mark::X);
        };
        // The side to move settles who moved first: the first mover has as many marks as
        // the other side, or one more.
        let board = Position::parse(rows, rules, Mark::X)
            .map(|position| position.board)
            .or_else(|_| Position::parse(rows, rules, Mark::O).map(|position| position.board))?;
        let (x, o) = (board.count(Mark::X), board.count(Mark::O));
        let first = match x.cmp(&o) {
            std::cmp::Ordering::Equal => to_move,
            std::cmp::Ordering::Greater => Mark::X,
            std::cmp::Ordering::Less => Mark::O,
        };
        if x != o && first == to_move {
            return Err(PositionError::SideToMove { to_move, x, o });
        }
        Position::from_board(board, first)
    }
}
