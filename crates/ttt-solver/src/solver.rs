//! Exact values of positions on small boards, by memoised negamax.

use ttt_core::{Outcome, Position, Rules, Square};

use crate::geometry::{Bits, Geometry};
use crate::hash::BitsMap;
use crate::value::{Score, WIN_NOW, decode, one_ply_earlier};
use crate::{GameResult, SolverError, Value};

/// The most squares of a board the exact solver takes on: it visits every reachable
/// position, which stays within a few seconds and a few hundred megabytes up to 4x4.
pub const MAX_SOLVED_SQUARES: usize = 16;

/// One legal move and the value of playing it, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveValue {
    /// The square played.
    pub square: Square,
    /// What playing it is worth to the mover under perfect play from then on.
    pub value: Value,
}

/// Exact values of positions under perfect play from both sides.
///
/// The solver remembers every position it has valued, so the first question about a board
/// explores it and later ones are answered from the table. It adapts to the rules of each
/// position it is asked about (keeping one board's table at a time).
///
/// ```
/// use ttt_core::Position;
/// use ttt_solver::{GameResult, Solver};
///
/// let mut solver = Solver::new();
/// let empty = Position::default();
/// assert_eq!(solver.value(&empty)?.result, GameResult::Draw);
///
/// // X to move can win at once by completing the top row.
/// let position: Position = "xx./oo./...".parse()?;
/// assert_eq!(solver.value(&position)?.to_string(), "win in 1");
/// assert_eq!(solver.best_moves(&position)?, vec![ttt_core::Square::new(2)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct Solver {
    board: Option<Tabled>,
}

/// The table of one board shape.
#[derive(Debug)]
struct Tabled {
    geometry: Geometry,
    /// Scores of positions where the game goes on, keyed by (mover's bits, other's bits).
    scores: BitsMap<(Bits, Bits), Score>,
}

impl Solver {
    /// A solver with an empty table.
    #[must_use]
    pub fn new() -> Solver {
        Solver::default()
    }

    /// The value of `position` for the side to move. A finished game is worth
    /// `Loss` in 0 plies when it was won (by the other side) and `Draw` in 0 when drawn.
    ///
    /// # Errors
    /// [`SolverError::TooLarge`] on boards over [`MAX_SOLVED_SQUARES`] squares.
    pub fn value(&mut self, position: &Position) -> Result<Value, SolverError> {
        match position.outcome() {
            Some(Outcome::Win(_)) => return Ok(Value::new(GameResult::Loss, 0)),
            Some(Outcome::Draw) => return Ok(Value::new(GameResult::Draw, 0)),
            None => {}
        }
        let tabled = self.table_for(position.rules())?;
        let (mine, theirs) = tabled.geometry.sides(position);
        let score = tabled.score(mine, theirs);
        Ok(decode(score, free_squares(&tabled.geometry, mine, theirs)))
    }

    /// Every legal move with its value for the mover, best first (ties by square).
    ///
    /// # Errors
    /// As [`value`](Solver::value).
    pub fn move_values(&mut self, position: &Position) -> Result<Vec<MoveValue>, SolverError> {
        let mut moves = Vec::new();
        for square in position.legal_moves() {
            let mut next = position.clone();
            next.play_unchecked(square);
            let value = self.value(&next)?.before();
            moves.push(MoveValue { square, value });
        }
        moves.sort_by(|a, b| b.value.cmp(&a.value).then(a.square.cmp(&b.square)));
        Ok(moves)
    }

    /// The moves that keep the best value for the mover: every one of them is perfect play.
    ///
    /// # Errors
    /// As [`value`](Solver::value).
    pub fn best_moves(&mut self, position: &Position) -> Result<Vec<Square>, SolverError> {
        let moves = self.move_values(position)?;
        let Some(best) = moves.first().map(|first| first.value) else {
            return Ok(Vec::new());
        };
        Ok(moves
            .iter()
            .take_while(|m| m.value == best)
            .map(|m| m.square)
            .collect())
    }

    fn table_for(&mut self, rules: Rules) -> Result<&mut Tabled, SolverError> {
        if rules.square_count() > MAX_SOLVED_SQUARES {
            return Err(SolverError::TooLarge { rules });
        }
        let stale = self
            .board
            .as_ref()
            .is_none_or(|tabled| tabled.geometry.rules() != rules);
        if stale {
            self.board = Some(Tabled {
                geometry: Geometry::new(rules)?,
                scores: BitsMap::default(),
            });
        }
        self.board.as_mut().ok_or(SolverError::TooLarge { rules })
    }
}

impl Tabled {
    /// The score of a position where the game goes on, `mine` to move.
    fn score(&mut self, mine: Bits, theirs: Bits) -> Score {
        if let Some(&score) = self.scores.get(&(mine, theirs)) {
            return score;
        }
        let mut free = self.geometry.full() & !(mine | theirs);
        let mut best = Score::MIN;
        while free != 0 {
            let square = free.trailing_zeros() as usize;
            free &= free - 1;
            let after = mine | 1 << square;
            let score = if self.geometry.wins_at(after, square) {
                WIN_NOW
            } else if after | theirs == self.geometry.full() {
                0
            } else {
                one_ply_earlier(self.score(theirs, after))
            };
            best = best.max(score);
            if best == WIN_NOW {
                break;
            }
        }
        self.scores.insert((mine, theirs), best);
        best
    }
}

fn free_squares(geometry: &Geometry, mine: Bits, theirs: Bits) -> u32 {
    (geometry.full() & !(mine | theirs)).count_ones()
}
