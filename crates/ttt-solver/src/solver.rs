//! Exact values of positions on small boards, by memoised negamax, with the prover asked
//! first where it saves the work.

use std::sync::atomic::AtomicBool;

use ttt_core::{Outcome, Position, Rules, Square};

use crate::geometry::{Bits, Geometry};
use crate::hash::BitsMap;
use crate::prover::{Progress, ProofLimits, prove_with};
use crate::table::ProofTable;
use crate::value::{Score, WIN_NOW, decode, one_ply_earlier};
use crate::{GameResult, SolverError, Value};

/// The most squares of a board the exact solver takes on: it may visit every reachable
/// position (up to symmetry), which stays within a second and a few tens of megabytes up
/// to 4x4.
pub const MAX_SOLVED_SQUARES: usize = 16;

/// Boards of more squares than this ask the prover first: on smaller ones the exact
/// solver's whole table takes a moment and then answers every question at once.
const PROVER_FROM_SQUARES: usize = 12;

/// The prover's table: the positions it needs on boards the exact solver takes are few,
/// and pairing strategies settle most of them.
const PROOF_TABLE_BYTES: usize = 16 << 20;

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
/// The solver remembers every position it has valued (one entry for all the positions that
/// are the same up to the board's symmetries), so the first question about a board
/// explores it and later ones are answered from the table. It adapts to the rules of each
/// position it is asked about (keeping one board's table at a time).
///
/// On boards of more than 12 squares (4x4) it asks the prover first for win, draw or loss:
/// a draw needs no distance (it lasts until the board is full), and pairing strategies
/// prove draws at once, so only won and lost positions are searched to the end for how
/// long they take.
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

/// The tables of one board shape.
#[derive(Debug)]
struct Tabled {
    geometry: Geometry,
    /// Scores of positions where the game goes on, keyed by the smallest image of (mover's
    /// bits, other's bits) under the board's symmetries.
    scores: BitsMap<(Bits, Bits), Score>,
    /// The prover's table, on boards where it is asked first.
    proofs: Option<ProofTable>,
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
        if let Some(value) = finished(position) {
            return Ok(value);
        }
        let tabled = self.table_for(position.rules())?;
        if tabled.proved_result(position) == Some(GameResult::Draw) {
            let (mine, theirs) = tabled.geometry.sides(position);
            let free = free_squares(&tabled.geometry, mine, theirs);
            return Ok(Value::new(GameResult::Draw, free));
        }
        Ok(tabled.exact(position))
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
        // Where the prover settles every move's result, only the moves of the best result
        // need values: none at all when that is a draw, as all of them are equally good.
        let mut squares = position.legal_moves();
        if let Some(results) = self.proved_results(position)? {
            let best = results.iter().map(|&(_, result)| rank(result)).max();
            squares = results
                .into_iter()
                .filter(|&(_, result)| Some(rank(result)) == best)
                .map(|(square, _)| square)
                .collect();
            if best == Some(rank(GameResult::Draw)) {
                return Ok(squares);
            }
        }
        // The exact search alone: the prover has had its say.
        let tabled = self.table_for(position.rules())?;
        let mut moves = Vec::new();
        for square in squares {
            let mut next = position.clone();
            next.play_unchecked(square);
            moves.push((square, tabled.exact(&next).before()));
        }
        let Some(best) = moves.iter().map(|&(_, value)| value).max() else {
            return Ok(Vec::new());
        };
        Ok(moves
            .into_iter()
            .filter(|&(_, value)| value == best)
            .map(|(square, _)| square)
            .collect())
    }

    /// Every legal move with its result for the mover, as the prover settles them; `None`
    /// on boards where the prover is not asked first, or when it cannot settle one.
    fn proved_results(
        &mut self,
        position: &Position,
    ) -> Result<Option<Vec<(Square, GameResult)>>, SolverError> {
        let tabled = self.table_for(position.rules())?;
        if tabled.proofs.is_none() {
            return Ok(None);
        }
        let mut results = Vec::new();
        for square in position.legal_moves() {
            let mut next = position.clone();
            next.play_unchecked(square);
            let theirs = match finished(&next) {
                Some(value) => value.result,
                None => match tabled.proved_result(&next) {
                    Some(result) => result,
                    None => return Ok(None),
                },
            };
            results.push((square, theirs.for_the_other_side()));
        }
        Ok(Some(results))
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
                proofs: (rules.square_count() > PROVER_FROM_SQUARES).then(ProofTable::default),
            });
        }
        self.board.as_mut().ok_or(SolverError::TooLarge { rules })
    }
}

/// The value of a finished game for the side to move: lost in 0 plies when the other
/// side won, drawn in 0 when drawn; `None` while the game goes on.
fn finished(position: &Position) -> Option<Value> {
    match position.outcome()? {
        Outcome::Win(_) => Some(Value::new(GameResult::Loss, 0)),
        Outcome::Draw => Some(Value::new(GameResult::Draw, 0)),
    }
}

/// Orders results for the mover: a win above a draw above a loss.
const fn rank(result: GameResult) -> i8 {
    match result {
        GameResult::Win => 1,
        GameResult::Draw => 0,
        GameResult::Loss => -1,
    }
}

impl Tabled {
    /// The result of `position` (where the game goes on) for the side to move, as the
    /// prover proves it; `None` where the prover is not asked first, or it stopped.
    fn proved_result(&mut self, position: &Position) -> Option<GameResult> {
        let table = self.proofs.as_mut()?;
        let (stop, progress) = (AtomicBool::new(false), Progress::default());
        let limits = ProofLimits {
            table_bytes: PROOF_TABLE_BYTES,
            stop: &stop,
            progress: &progress,
            max_nodes: None,
        };
        prove_with(position, limits, table)
            .ok()
            .map(|proof| proof.result)
    }

    /// The value of `position` by the exact search alone, distances and all; a finished
    /// game as [`Solver::value`] gives it.
    fn exact(&mut self, position: &Position) -> Value {
        if let Some(value) = finished(position) {
            return value;
        }
        let (mine, theirs) = self.geometry.sides(position);
        let free = free_squares(&self.geometry, mine, theirs);
        decode(self.score(mine, theirs), free)
    }

    /// The score of a position where the game goes on, `mine` to move.
    fn score(&mut self, mine: Bits, theirs: Bits) -> Score {
        let key = self.geometry.canonical(mine, theirs);
        if let Some(&score) = self.scores.get(&key) {
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
        self.scores.insert(key, best);
        best
    }
}

fn free_squares(geometry: &Geometry, mine: Bits, theirs: Bits) -> u32 {
    (geometry.full() & !(mine | theirs)).count_ones()
}
