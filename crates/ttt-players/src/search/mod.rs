//! A strong player for any board: iterative-deepening alpha-beta within a time bound.

pub(crate) mod board;
mod table;
mod vcf;

use std::sync::Arc;
use web_time::Instant;

use rand::Rng;
use ttt_core::{Position, Rules, Square};

use crate::{Limits, Player, PlayerError, pick};
use board::{SearchBoard, Shape, ShapeCache};
use table::{Bound, Entry, Table};

/// A won game's score; wins sooner score higher. Every heuristic value stays below it on
/// every board (see [`board::Shape`]'s weights).
pub(crate) const WIN: i64 = 1 << 60;
/// Moves searched at each node below the root, best first by a quick estimate.
const WIDTH: usize = 12;
/// Attacking moves a search for a victory by continuous fours may try at the root.
const VCF_BUDGET: u64 = 100_000;
/// Root moves checked for allowing the opponent such a win, best first.
const VCF_CHECKED: usize = 24;

/// Plays strongly on any board within a time bound per move.
///
/// It searches deeper and deeper (iterative deepening) with alpha-beta, remembering
/// positions in a transposition table and trying the most promising squares first. It
/// knows threats: it takes a win when it has one, answers a line one short of winning
/// (which must be blocked), and sees that two such lines at once cannot both be blocked.
/// It stops in time: never later than the bound it is given. Its table is allocated once
/// within the memory bound and never grows.
#[derive(Debug)]
pub struct Search {
    limits: Limits,
    shapes: ShapeCache,
    table: Table,
}

/// The search ran out of time.
struct OutOfTime;

impl Search {
    /// A search player within `limits` on every move.
    #[must_use]
    pub fn new(limits: Limits) -> Search {
        Search {
            limits,
            shapes: ShapeCache::default(),
            table: Table::new(limits.memory),
        }
    }

    /// The bytes its transposition table takes: at most [`Limits::memory`].
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    fn shape(&mut self, rules: Rules) -> Arc<Shape> {
        let (shape, new) = self.shapes.get(rules);
        if new {
            // Positions of another board are no use: a fresh table, untouched pages.
            self.table = Table::new(self.limits.memory);
        }
        shape
    }

    /// The best square found, and how deep the last finished iteration went.
    fn best_square(
        &mut self,
        position: &Position,
        rng: &mut dyn Rng,
    ) -> Result<(Square, u32), PlayerError> {
        let start = Instant::now();
        let think = self.limits.think;
        // Leave room for the last check and the answer itself.
        let deadline = start + think.mul_f64(0.9);
        let legal = position.legal_moves();
        if legal.is_empty() {
            return Err(PlayerError::NoMove);
        }
        let shape = self.shape(position.rules());
        let mut board = SearchBoard::new(shape, position);
        let me = board.to_move;
        // Threat knowledge at the root: win now; else block the one square that loses.
        if let Some(&win) = board.winning_squares(me).first() {
            return Ok((Square::new(win), 0));
        }
        let must_block = board.winning_squares(!me);
        if !must_block.is_empty() {
            let square = must_block
                .iter()
                .copied()
                .max_by_key(|&s| board.move_value(s))
                .unwrap_or(must_block[0]);
            return Ok((Square::new(square), 0));
        }
        let mut moves = board.candidates();
        if moves.is_empty() {
            return pick(&legal, rng).map(|square| (square, 0));
        }
        // A forced win by fours, seen far beyond any depth the alpha-beta reaches.
        if let Some(square) = vcf::Vcf::new(VCF_BUDGET).find(&mut board) {
            return Ok((Square::new(square), 0));
        }
        // Moves after which the opponent has a forced win by fours are no moves, unless
        // every move is one.
        let mut threats = vcf::Vcf::new(VCF_BUDGET);
        let safe: Vec<usize> = moves
            .iter()
            .copied()
            .take(VCF_CHECKED)
            .filter(|&square| {
                board.play(square);
                let lost = threats.threatened_by(&mut board, !me);
                board.undo();
                !lost
            })
            .collect();
        if !safe.is_empty() {
            moves = safe;
        }
        let mut best = moves[0];
        let mut finished = 0;
        let mut searcher = Searcher {
            table: &mut self.table,
            deadline,
            nodes: 0,
        };
        let free = legal.len() as u32;
        let budget = think.mul_f64(0.9);
        let mut previous: Option<f64> = None;
        for depth in 1..=free {
            let iteration = Instant::now();
            match searcher.root(&mut board, &moves, depth) {
                Ok((square, score)) => {
                    best = square;
                    finished = depth;
                    // The best move first in the next, deeper iteration.
                    moves.retain(|&m| m != square);
                    moves.insert(0, square);
                    if score.abs() >= WIN - 1_000 {
                        break;
                    }
                }
                Err(OutOfTime) => break,
            }
            // Start the next iteration only if it is expected to end in time: it takes as
            // much longer as the last one did than the one before (2 to 8 times).
            let took = iteration.elapsed().as_secs_f64();
            let growth = previous
                .filter(|&before| before > 0.0)
                .map_or(4.0, |before| (took / before).clamp(2.0, 8.0));
            if start.elapsed().as_secs_f64() + took * growth > budget.as_secs_f64() {
                break;
            }
            previous = Some(took);
        }
        Ok((Square::new(best), finished))
    }
}

/// The first move of a victory by continuous fours for the side to move, if a search of at
/// most `budget` attacking moves finds one: a forced win in which every attacking move
/// makes a line one short of winning.
///
/// ```
/// use ttt_core::{Mark, Position, Rules};
///
/// let rules = Rules::new(15, 15, 5)?;
/// // X to move with three in a row, open at both ends: a four open at both ends wins.
/// let rows = [
///     "...............",
///     "....xxx........",
///     "...............",
///     "..........o.o.o",
/// ];
/// let mut text = rows.map(str::to_owned).to_vec();
/// text.resize(15, ".".repeat(15));
/// let position = Position::parse(&text.join("/"), rules, Mark::X)?;
/// let first = ttt_players::vcf(&position, 10_000).map(|square| square.index());
/// assert!(first == Some(15 + 3) || first == Some(15 + 7), "d2 or h2: {first:?}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn vcf(position: &Position, budget: u64) -> Option<Square> {
    if position.is_over() {
        return None;
    }
    let mut board = SearchBoard::new(Arc::new(board::Shape::new(position.rules())), position);
    vcf::Vcf::new(budget).find(&mut board).map(Square::new)
}

/// Threat knowledge before any search: a win now, else the block of a line one short of
/// winning (the most useful one, when there are several and the game is lost anyway).
pub(crate) fn forced(board: &SearchBoard) -> Option<usize> {
    let me = board.to_move;
    if let Some(&win) = board.winning_squares(me).first() {
        return Some(win);
    }
    board
        .winning_squares(!me)
        .into_iter()
        .max_by_key(|&square| board.move_value(square))
}

struct Searcher<'a> {
    table: &'a mut Table,
    deadline: Instant,
    nodes: u64,
}

impl Searcher<'_> {
    fn root(
        &mut self,
        board: &mut SearchBoard,
        moves: &[usize],
        depth: u32,
    ) -> Result<(usize, i64), OutOfTime> {
        let mut best = (moves[0], -WIN * 2);
        let mut alpha = -WIN * 2;
        for &square in moves {
            board.play(square);
            let score = if board.won {
                WIN
            } else {
                -self.negamax(board, depth - 1, -WIN * 2, -alpha, 1)?
            };
            board.undo();
            if score > best.1 {
                best = (square, score);
            }
            alpha = alpha.max(score);
        }
        Ok(best)
    }

    fn negamax(
        &mut self,
        board: &mut SearchBoard,
        depth: u32,
        mut alpha: i64,
        beta: i64,
        ply: i64,
    ) -> Result<i64, OutOfTime> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(512) && Instant::now() >= self.deadline {
            return Err(OutOfTime);
        }
        let me = board.to_move;
        // Threats decide before any depth: a win now, or a loss to two open lines.
        if !board.winning_squares(me).is_empty() {
            return Ok(WIN - ply);
        }
        if board.is_full() {
            return Ok(0);
        }
        let forced = board.winning_squares(!me);
        if forced.len() > 1 {
            return Ok(-(WIN - ply - 1));
        }
        if depth == 0 && forced.is_empty() {
            return Ok(board.evaluate());
        }
        let original_alpha = alpha;
        let entry = self.table.get(board.hash);
        if let Some(entry) = entry.filter(|e| e.depth >= depth) {
            match entry.bound {
                Bound::Exact => return Ok(entry.score),
                Bound::Lower if entry.score >= beta => return Ok(entry.score),
                Bound::Upper if entry.score <= alpha => return Ok(entry.score),
                _ => {}
            }
        }
        let mut moves = if forced.is_empty() {
            let mut moves = board.candidates();
            moves.truncate(WIDTH);
            moves
        } else {
            forced
        };
        if let Some(best) = entry.and_then(|e| e.best).map(usize::from)
            && let Some(index) = moves.iter().position(|&m| m == best)
        {
            moves.swap(0, index);
        }
        let mut best_score = -WIN * 2;
        let mut best_move = None;
        // A forced block does not use up depth: the line of play is narrow anyway.
        let next_depth = if moves.len() == 1 {
            depth
        } else {
            depth.saturating_sub(1)
        };
        for square in moves {
            board.play(square);
            let score = if board.won {
                WIN - ply
            } else {
                -self.negamax(board, next_depth, -beta, -alpha, ply + 1)?
            };
            board.undo();
            if score > best_score {
                best_score = score;
                best_move = Some(square as u16);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best_score <= original_alpha {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.insert(
            board.hash,
            Entry {
                depth,
                score: best_score,
                bound,
                best: best_move,
            },
        );
        Ok(best_score)
    }
}

impl Player for Search {
    fn choose(&mut self, position: &Position, rng: &mut dyn Rng) -> Result<Square, PlayerError> {
        self.best_square(position, rng).map(|(square, _)| square)
    }
}
