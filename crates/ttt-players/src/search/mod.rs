//! A strong player for any board: iterative-deepening alpha-beta within a time bound.

pub(crate) mod board;
mod fours;
mod move_values;
mod patterns;
mod squares;
mod table;
mod threats;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use web_time::Instant;

use rand::Rng;
use ttt_core::{Mark, Position, Rules, Square};
use ttt_solver::fours::Wins;

use crate::{Limits, Player, PlayerError, pick};
use board::{SearchBoard, Shape, ShapeCache};
pub use patterns::{FEATURE_NAMES, FEATURES, MoveValues, PatternWeights, SHAPES};
use table::{Bound, Entry, Table};
use threats::{Reach, Threats};

/// A won game's score; wins sooner score higher. Every heuristic value stays below it on
/// every board (see [`board::Shape`]'s weights).
pub(crate) const WIN: i64 = 1 << 60;
/// A score at least this far from 0 is a forced win (or loss), `WIN` less the plies to it.
const DECIDED: i64 = WIN - 1_000;
/// Moves searched at each node below the root, best first by a quick estimate.
const WIDTH: usize = 16;
/// Quiet moves from this one on in a node's order are searched a ply less deep first
/// (late move reductions), and again at full depth only when they beat alpha.
const LATE: usize = 3;
/// A node with this many plies left or fewer may be cut off by its evaluation (see
/// [`futile`]).
const FUTILE_DEPTH: u32 = 3;
/// How far a node's evaluation must beat beta, for each ply left, to cut it off (see
/// [`futile`]).
const FUTILE_MARGIN: i64 = 100;
/// A node with this many plies left or fewer may be cut off below alpha (see [`razored`]).
/// Rapfi razors at its shallowest depths; 2, with [`RAZOR_MARGIN`], is the one setting
/// measured (docs/strength.md), not a tuned one.
const RAZOR_DEPTH: u32 = 2;
/// How far a node's evaluation must fall short of alpha, for each ply left, to be cut off
/// at once (see [`razored`]): smaller than [`FUTILE_MARGIN`], as Rapfi's razoring margins
/// are smaller than its futility margins.
const RAZOR_MARGIN: i64 = 60;
/// Answers to a three this many plies from the root or nearer do not use up depth.
const EXTENDED_PLIES: i64 = 4;
/// Nodes a threat-space search may expand at the root, for each side.
const THREAT_BUDGET: u64 = 2_000_000;
/// The share of the think time by which the search for the side to move's own win by
/// threats ends.
const OWN_SHARE: f64 = 0.2;
/// The share of the think time by which the look for the side to move's own win that
/// lets its first moves be quiet ones ends, when threes alone found none (see
/// [`QUIET_MOVES`]).
const QUIET_SHARE: f64 = 0.3;
/// The share of the think time by which the search for the opponent's threats ends. A
/// smaller share (0.35) leaves the alpha-beta more time where that search runs out, but
/// measured no different: 65-62-1 against this share at 0.1 s a move on equal terms,
/// where two copies of one engine score 60-63-5, and the same moves in the tactical
/// suites at 1 s.
const DEFENCE_SHARE: f64 = 0.5;
/// Moves a look for a win by fours may try at the alpha-beta's horizon. On the `speed`
/// example's positions at 1 s a move (dcc6550, before the time rules of today): 60 gave
/// 245 k nodes a second and depth 7.9; 200, 216 k and 7.8; 1000, 167 k and 7.4 (the old
/// look, the threat search's with a table, 199 k and 7.7 at 200 nodes). On the ladder's
/// first rung (Rapfi at 0.1 s, 128 games on the same openings, 2026-11-27) 60 scored 44-84
/// where 200 scored 37-91 (13 games won that 200 lost, 6 lost that it won), and 20 scored
/// 50-78 (9 won that 60 lost, 3 the other way); `speed` with 20: depth 8.1 and 284 k where
/// 60 gave 7.9 and 244 k the same hour. No look at all scored 47-81 (5 won that 20 lost,
/// 8 the other way), for all its depth (8.2) and speed; 20 run again scored 46-82, so the
/// last steps are within a run's spread.
const LEAF_FOURS_BUDGET: u32 = 20;
/// The plies a win by fours found at the horizon is scored as taking (its length is not
/// counted; a longer line than most).
const LEAF_FOURS_PLIES: i64 = 9;
/// The threat search's table takes this part of the memory bound (a quarter).
const THREAT_MEMORY_SHARE: usize = 4;
/// The alpha-beta reads the clock after this much work (positions visited and moves tried
/// by the looks at its horizon).
const CLOCK_EVERY: u64 = 512;
/// The share of the think time by which the alpha-beta's iterations end.
const ALPHA_BETA_SHARE: f64 = 0.88;
/// The share of the think time by which the last look for the side to move's own win by
/// threats ends: what is left goes to checking the move chosen.
const LOOK_SHARE: f64 = 0.93;
/// The share of the think time by which every search ends: the rest is for the answer.
const END_SHARE: f64 = 0.97;
/// The first moves of a side's line of threats that may be quiet moves making a win by
/// fours in waiting (`Threats::find_with_quiet`), where threes alone found no win: in
/// the root's first look for its own win and in the check of the move chosen against the
/// opponent's (the opponent's threats before the alpha-beta are looked for without).
/// See docs/strength.md for what it was measured at.
const QUIET_MOVES: u8 = 2;
/// Nodes the search for the opponent's threats may expand after each root move checked.
const MOVE_CHECK_BUDGET: u64 = 30_000;
/// Each iteration from the second on first searches a window this far either side of the
/// last one's score (aspiration); a score outside it searches again with that side
/// widened fourfold, and from the third time with that side open.
const ASPIRATION: i64 = 256;
/// A node with this many plies left or more, whose position the table knows no best move
/// for, is searched a ply less deep (internal iterative reduction): without a move known
/// good its order is a guess, and the shallower search leaves one for the next iteration.
/// See docs/strength.md for what it was measured at.
const UNKNOWN_MOVE_DEPTH: u32 = 4;

/// Plays strongly on any board within a time bound per move.
///
/// It searches deeper and deeper (iterative deepening) with alpha-beta, remembering
/// positions in a transposition table and trying the most promising squares first; after
/// the first move of a node, the others are searched with a null window, and the late
/// quiet ones a ply less deep, again in full only when they beat the best; a node the
/// table knows no move for is searched a ply less deep (internal iterative reduction); on
/// five-in-a-row lines a quiet position near the horizon far above what the search needs
/// is taken to hold without a move searched (reverse futility pruning), and one far
/// below it, with no square to block, is scored as at the horizon (razoring). It
/// knows threats: it takes a win when it has one, answers a line one short of winning
/// (which must be blocked), and sees that two such lines at once cannot both be blocked.
/// On five-in-a-row lines it judges positions by pattern codes, as gomoku engines do
/// (weighed by [`PatternWeights`]); on others, by the lines of k each side can still
/// fill. It stops in time: every search ends by 97% of the time it is given (the rest is
/// for the answer), the alpha-beta's deepening by 88%. Given more than one thread
/// ([`Limits::threads`]), the others run the alpha-beta's iterations beside it from the
/// start of the move, sharing its table (Lazy SMP); it takes the deepest iteration any
/// of them finished. Its tables are allocated
/// within the memory bound and never grow; they are made anew only for another bound or
/// another board (see [`set_limits`](Search::set_limits), [`prepare`](Search::prepare)).
#[derive(Debug)]
pub struct Search {
    limits: Limits,
    /// What the evaluation weighs each pattern at.
    weights: PatternWeights,
    shapes: ShapeCache,
    table: Table,
    /// The threat-space search, for both sides, with its table kept from move to move.
    threats: Threats,
    last: Option<Thought>,
}

/// What [`Search`] did for its last move: for benchmarks and curious people (a Gomocup
/// manager's `MESSAGE` line, `ttt move --json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Thought {
    /// How deep the alpha-beta's last iteration went (0 when the move was forced or a win
    /// by threats was found before it). The last iteration is mostly cut short by the
    /// clock: it counts once its first move (the best known then) was searched. On more
    /// threads, a helper's finished iteration where it went deeper and was taken.
    pub depth: u32,
    /// Positions the alpha-beta visited, on every thread (helpers may have searched
    /// before a win by threats was found and the depth is 0).
    pub nodes: u64,
    /// Moves the threat-space searches tried, for both sides: the looks at the root and
    /// the alpha-beta's looks for fours at its horizon, on every thread.
    pub threat_nodes: u64,
    /// How long it took.
    pub time: Duration,
    /// What it made of the position, for the side to move, when it judged it.
    pub judgement: Option<Judgement>,
}

impl Thought {
    /// Positions and threat moves visited a second.
    ///
    /// ```
    /// use std::time::Duration;
    /// use ttt_players::Thought;
    ///
    /// let thought = Thought { nodes: 900, threat_nodes: 100, time: Duration::from_millis(500), ..Thought::default() };
    /// assert_eq!(thought.per_second(), 2_000);
    /// ```
    #[must_use]
    pub fn per_second(&self) -> u64 {
        let seconds = self.time.as_secs_f64();
        if seconds <= 0.0 {
            return 0;
        }
        ((self.nodes + self.threat_nodes) as f64 / seconds) as u64
    }
}

/// What a search made of a position, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judgement {
    /// The evaluation at the end of the line the search expects: above 0 is better for
    /// the side to move.
    Score(i64),
    /// A forced win, in this many plies (its own moves and the replies) when counted: a
    /// win by threats is proved without counting them, and one by fours found at the
    /// search's horizon is counted as nine.
    Win(Option<u32>),
    /// A forced loss against the best defence, in this many plies when counted.
    Loss(Option<u32>),
}

impl Judgement {
    /// The judgement of an alpha-beta score.
    fn of_score(score: i64) -> Judgement {
        let plies = |score: i64| u32::try_from(WIN - score.abs() + 1).ok();
        if score >= DECIDED {
            Judgement::Win(plies(score))
        } else if score <= -DECIDED {
            Judgement::Loss(plies(score))
        } else {
            Judgement::Score(score)
        }
    }
}

impl std::fmt::Display for Judgement {
    /// `+35`, `-120`, `win in 7`, `win`, `loss in 4`, `loss`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Judgement::Score(score) => write!(f, "{score:+}"),
            Judgement::Win(Some(plies)) => write!(f, "win in {plies}"),
            Judgement::Win(None) => f.write_str("win"),
            Judgement::Loss(Some(plies)) => write!(f, "loss in {plies}"),
            Judgement::Loss(None) => f.write_str("loss"),
        }
    }
}

impl std::fmt::Display for Thought {
    /// One line, as a Gomocup engine says what it thinks: `depth 6 nodes 81234 threat
    /// nodes 5120 nps 172708 time 0.50 s score +35`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "depth {} nodes {} threat nodes {} nps {} time {:.2} s",
            self.depth,
            self.nodes,
            self.threat_nodes,
            self.per_second(),
            self.time.as_secs_f64()
        )?;
        match self.judgement {
            Some(Judgement::Score(score)) => write!(f, " score {score:+}"),
            Some(judgement) => write!(f, " {judgement}"),
            None => Ok(()),
        }
    }
}

/// The search ran out of time.
struct OutOfTime;

/// `score`, of a position `ply` plies from the root, as the table keeps it: a win or a
/// loss counted from that position rather than from the root, since a later move's search
/// meets the position nearer its root.
fn to_table(score: i64, ply: i64) -> i64 {
    if decided(score) {
        score + score.signum() * ply
    } else {
        score
    }
}

/// A score the table kept ([`to_table`]) for a position `ply` plies from the root.
fn from_table(score: i64, ply: i64) -> i64 {
    to_table(score, -ply)
}

/// Whether `score` is a forced win or loss rather than an estimate.
fn decided(score: i64) -> bool {
    score.abs() >= DECIDED
}

/// Puts the moves an iteration searched (`scored`, each with its score) first in `moves`,
/// best first (the earlier searched first where they tie), the others after them in their
/// order; `scored` is left best first.
fn searched_first(moves: &mut Vec<usize>, scored: &mut [(usize, i64)]) {
    scored.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
    moves.retain(|square| scored.iter().all(|&(searched, _)| searched != *square));
    moves.splice(..0, scored.iter().map(|&(square, _)| square));
}

/// An aspiration window's side after `score` fell out of it: fourfold twice, then open;
/// open at once for a win or a loss.
fn widened(side: i64, score: i64) -> i64 {
    if side >= ASPIRATION * 16 || decided(score) {
        WIN * 4
    } else {
        side * 4
    }
}

impl Search {
    /// A search player within `limits` on every move.
    #[must_use]
    pub fn new(limits: Limits) -> Search {
        Search::weighed(limits, PatternWeights::default())
    }

    /// A search player whose evaluation weighs patterns by `weights`: for tuning them.
    ///
    /// ```
    /// use ttt_players::{Limits, PatternWeights, Search};
    ///
    /// let mut weights = PatternWeights::default();
    /// weights.own[3] += 1;
    /// let _search = Search::weighed(Limits::default(), weights);
    /// ```
    #[must_use]
    pub fn weighed(limits: Limits, weights: PatternWeights) -> Search {
        let (table, threats) = Search::tables(limits.memory);
        Search {
            limits,
            weights,
            shapes: ShapeCache::default(),
            table,
            threats,
            last: None,
        }
    }

    /// The alpha-beta's table and the threat search's, within `memory` bytes together: a
    /// quarter for the threats, the rest (to the power of two below) for the alpha-beta.
    fn tables(memory: usize) -> (Table, Threats) {
        let threats = Threats::within(memory / THREAT_MEMORY_SHARE);
        (Table::new(memory.saturating_sub(threats.bytes())), threats)
    }

    /// Thinks within `limits` from the next move on. The tables, and what they hold, are
    /// kept when the memory bound stays the same; else they are made anew within it.
    ///
    /// ```
    /// use std::time::Duration;
    /// use ttt_players::{Limits, Search};
    ///
    /// let mut search = Search::new(Limits::default());
    /// let bytes = search.table_bytes();
    /// search.set_limits(Limits { think: Duration::from_millis(50), ..Limits::default() });
    /// assert_eq!(search.table_bytes(), bytes);
    /// search.set_limits(Limits { memory: 4 << 20, ..Limits::default() });
    /// assert!(search.table_bytes() <= 4 << 20);
    /// ```
    pub fn set_limits(&mut self, limits: Limits) {
        let remake = limits.memory != self.limits.memory;
        self.limits = limits;
        if remake {
            self.remake_tables();
        }
    }

    /// Gets ready to play on a board of `rules` before the clock runs: what it works out
    /// once for a board, and fresh tables if they hold another board's positions. A move
    /// on a board it is not ready for does the same within its think time.
    ///
    /// ```
    /// use rand::SeedableRng;
    /// use rand::rngs::StdRng;
    /// use ttt_core::{Mark, Position, Rules};
    /// use ttt_players::{Limits, Player, Search};
    ///
    /// let rules = Rules::new(15, 15, 5)?;
    /// let mut search = Search::new(Limits::default());
    /// search.prepare(rules);
    /// let empty = Position::new(rules, Mark::X);
    /// let square = search.choose(&empty, &mut StdRng::seed_from_u64(1))?;
    /// assert_eq!(square, rules.centre()[0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prepare(&mut self, rules: Rules) {
        self.shape(rules);
    }

    /// Forgets every position it searched, as a player new to the game would: its tables
    /// are emptied where they are (their memory kept, and in use from then on), and the
    /// last move's [`Thought`] with them. The `speed` example starts each position so:
    /// nothing learnt on one helps the next, while the memory is what a game's player has
    /// after its first moves rather than pages the system has yet to give.
    ///
    /// ```
    /// use ttt_players::{Limits, Player, Search};
    ///
    /// let mut search = Search::new(Limits { memory: 1 << 20, ..Limits::default() });
    /// let bytes = search.table_bytes();
    /// search.forget();
    /// assert_eq!((search.table_bytes(), search.thought()), (bytes, None));
    /// ```
    pub fn forget(&mut self) {
        self.table.clear();
        self.threats.clear();
        self.last = None;
    }

    /// Makes the tables anew within the memory bound, dropping the old ones first so that
    /// the bound holds while the new ones are made.
    fn remake_tables(&mut self) {
        (self.table, self.threats) = (Table::new(0), Threats::within(0));
        (self.table, self.threats) = Search::tables(self.limits.memory);
    }

    /// The bytes its tables take (the alpha-beta's and the threat search's): at most
    /// [`Limits::memory`].
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.table.bytes() + self.threats.bytes()
    }

    fn shape(&mut self, rules: Rules) -> Arc<Shape> {
        let (shape, replaced) = self.shapes.weighed(rules, self.weights);
        if replaced {
            // Positions of another board are no use: fresh tables, untouched pages.
            self.remake_tables();
        }
        shape
    }

    /// The best square found, and what the search made of the position.
    fn best_square(
        &mut self,
        position: &Position,
        rng: &mut dyn Rng,
    ) -> Result<(Square, Thought), PlayerError> {
        let start = Instant::now();
        let legal = position.legal_moves();
        if legal.is_empty() {
            return Err(PlayerError::NoMove);
        }
        let shape = self.shape(position.rules());
        let board = SearchBoard::new(shape, position);
        self.table.next_search();
        // Threat knowledge at the root: win now; else block the one square that loses.
        if let Some(square) = forced(&board) {
            let mut thought = Thought::default();
            if board.winning_squares(board.to_move).contains(&square) {
                thought.judgement = Some(Judgement::Win(Some(1)));
            }
            return Ok((Square::new(square), thought));
        }
        let moves = board.candidates(usize::MAX);
        if moves.is_empty() {
            return pick(&legal, rng).map(|square| (square, Thought::default()));
        }
        let Search {
            limits,
            table,
            threats,
            ..
        } = self;
        let alpha_beta_end = start + limits.think.mul_f64(ALPHA_BETA_SHARE);
        let free = u32::try_from(legal.len()).unwrap_or(u32::MAX);
        // The other threads search beside this one from the start (Lazy SMP), while this
        // one first looks for threats: they share what they learn through the table, and
        // stop when this one's alpha-beta ends (or this thread's part ends in any way).
        let (stop, deepest) = (AtomicBool::new(false), Mutex::new(None));
        let shared = Shared {
            table,
            stop: &stop,
            deepest: &deepest,
        };
        std::thread::scope(|scope| {
            let stop_helpers = StopOnDrop(&stop);
            let helpers: Vec<_> = (1..thread_count(limits.threads))
                .filter_map(|helper| {
                    let (mut board, moves) = (board.clone(), moves.clone());
                    std::thread::Builder::new()
                        .name(format!("search helper {helper}"))
                        .spawn_scoped(scope, move || {
                            let first = 1 + u32::from(helper % 2 == 1);
                            help_search(shared, &mut board, moves, alpha_beta_end, first..=free)
                        })
                        // Where threads cannot be made (a browser), this one searches alone.
                        .ok()
                })
                .collect();
            let mut board = board;
            let (square, mut thought) = decide(
                shared,
                threats,
                &mut board,
                moves,
                start,
                limits.think,
                free,
            );
            drop(stop_helpers);
            for helper in helpers {
                // A helper that failed took nothing this one needs.
                if let Ok(work) = helper.join() {
                    thought.nodes += work.nodes;
                    thought.threat_nodes += work.fours_moves;
                }
            }
            Ok((Square::new(square), thought))
        })
    }
}

/// The threads a move thinks on, of the `threads` asked: at least one, at most
/// [`Limits::MAX_THREADS`] and the machine's cores (more would only take turns, each
/// slower than alone; where the cores are not known, one).
fn thread_count(threads: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    Limits::clamp_threads(threads).min(cores)
}

/// Sets its flag when dropped: the helpers stop however the main thread's part ends, a
/// panic included (the scope waits for them before the panic goes on).
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// An alpha-beta iteration finished at the root: its depth, best move and score.
#[derive(Clone, Copy, Debug)]
struct Iteration {
    depth: u32,
    square: usize,
    score: i64,
}

/// What the threads of a move's search share.
#[derive(Clone, Copy)]
struct Shared<'a> {
    table: &'a Table,
    /// Set when the main thread's alpha-beta ends: the helpers' ends too.
    stop: &'a AtomicBool,
    /// The deepest iteration a helper finished.
    deepest: &'a Mutex<Option<Iteration>>,
}

/// The root's search after the forced moves (see [`Search`]): the side to move's own win by
/// threats, the moves that do not lose to the opponent's, the alpha-beta's iterations on
/// them (beside the helpers: their deepest finished iteration is taken where it is deeper
/// than this thread's, unless this thread found the game decided, and its move is still
/// among the moves kept), then a last look for a win by threats and a check of the move
/// chosen. `free` is the count of free squares, the deepest the alpha-beta goes.
fn decide(
    shared: Shared<'_>,
    threats: &mut Threats,
    board: &mut SearchBoard,
    mut moves: Vec<usize>,
    start: Instant,
    think: Duration,
    free: u32,
) -> (usize, Thought) {
    let mut thought = Thought::default();
    let me = board.to_move;
    // Leave room for the answer itself.
    let deadline = start + think.mul_f64(END_SHARE);
    // A forced win by threats, seen far beyond any depth the alpha-beta reaches: by
    // fours first (quick), then by threes too, within a share of the time.
    let counted = threats.nodes();
    threats.start(THREAT_BUDGET, Some(start + think.mul_f64(OWN_SHARE)));
    let mut win = threats.find(board, Reach::Threes);
    if win.is_none() {
        threats.start(THREAT_BUDGET, Some(start + think.mul_f64(QUIET_SHARE)));
        win = threats.find_with_quiet(board, QUIET_MOVES);
    }
    if let Some(square) = win {
        thought.threat_nodes = threats.nodes() - counted;
        thought.judgement = Some(Judgement::Win(None));
        return (square, thought);
    }
    // Moves after which the opponent has a forced win by threats are no moves, unless
    // every move is one.
    threats.start(THREAT_BUDGET, Some(start + think.mul_f64(DEFENCE_SHARE)));
    if threats.threatened_by(board, !me, Reach::Threes) {
        threats.allow(THREAT_BUDGET);
        moves = safe_moves(board, moves, threats, MOVE_CHECK_BUDGET);
    }
    let mut searcher = Searcher::new(shared.table, start + think.mul_f64(ALPHA_BETA_SHARE));
    // The last iteration, cut short by the clock, still tells whether a move beats the
    // best of the one before.
    let mut last = None;
    deepen(
        &mut searcher,
        board,
        &mut moves,
        1..=free,
        |iteration, _| {
            last = Some(iteration);
        },
    );
    // The helpers' work is done with the alpha-beta's; a deeper iteration of theirs on a
    // move still in the running is taken, unless this one found the game decided.
    shared.stop.store(true, Ordering::Relaxed);
    let helped = *shared
        .deepest
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(helped) = helped
        && last.is_none_or(|last| helped.depth > last.depth && !decided(last.score))
        && moves.contains(&helped.square)
    {
        last = Some(helped);
    }
    let mut best = last.map_or(moves[0], |last| last.square);
    if let Some(last) = last {
        thought.depth = last.depth;
        thought.judgement = Some(Judgement::of_score(last.score));
    }
    thought.nodes = searcher.nodes;
    // The threat moves of this move: the root's looks' and the horizon's.
    let horizon = searcher.fours_moves;
    let threat_moves = |threats: &Threats| threats.nodes() - counted + horizon;
    thought.threat_nodes = threat_moves(threats);
    // The rest of the time goes to a longer look for a win by threats (a proof, so
    // better than any move the alpha-beta judged by its horizon); what that leaves, to
    // making sure the move chosen allows the opponent none.
    if Instant::now() < deadline {
        threats.start(THREAT_BUDGET, Some(start + think.mul_f64(LOOK_SHARE)));
        let win = threats.find(board, Reach::Threes);
        thought.threat_nodes = threat_moves(threats);
        if let Some(square) = win {
            thought.judgement = Some(Judgement::Win(None));
            return (square, thought);
        }
        threats.start(THREAT_BUDGET, Some(deadline));
        let chosen = safe_choice(board, best, &moves, threats);
        if chosen != best {
            // The alpha-beta's score was for a move the threats refuted.
            thought.judgement = None;
            best = chosen;
        }
        thought.threat_nodes = threat_moves(threats);
    }
    (best, thought)
}

/// Deeper and deeper over `depths`, from `moves` in their order, until the searcher's
/// time is up or the game is decided: each iteration that has a best move (one cut short
/// by the clock has one once its first move was searched) goes to `searched`, with
/// whether it finished before the time was up. The next, deeper iteration tries the
/// moves searched best first by this one's scores (a move that failed low scored at most
/// what it says; the earlier move first where they tie), then the others in their order.
fn deepen(
    searcher: &mut Searcher<'_>,
    board: &mut SearchBoard,
    moves: &mut Vec<usize>,
    depths: std::ops::RangeInclusive<u32>,
    mut searched: impl FnMut(Iteration, bool),
) {
    let mut last_score = None;
    for depth in depths {
        let Ok(mut scored) = searcher.aspire(board, moves, depth, last_score) else {
            break;
        };
        searched_first(moves, &mut scored);
        let Some(&(square, score)) = scored.first() else {
            break;
        };
        last_score = Some(score);
        let stopped = searcher.stopped();
        searched(
            Iteration {
                depth,
                square,
                score,
            },
            !stopped,
        );
        if decided(score) || stopped {
            break;
        }
    }
}

/// What a helper thread did: the positions it visited and the moves its looks for fours
/// at the horizon tried.
#[derive(Default)]
struct HelperWork {
    nodes: u64,
    fours_moves: u64,
}

/// A helper thread's search (Lazy SMP): the alpha-beta's iterations on the root's `moves`
/// over `depths`, as the main thread's, until `deadline` or the stop, writing what it
/// learns in the shared table, where the main thread finds it, and its deepest finished
/// iteration. (The helpers start at different depths, so that they are not all at the
/// same depth at once.)
fn help_search(
    shared: Shared<'_>,
    board: &mut SearchBoard,
    mut moves: Vec<usize>,
    deadline: Instant,
    depths: std::ops::RangeInclusive<u32>,
) -> HelperWork {
    let mut searcher = Searcher::new(shared.table, deadline);
    searcher.stop = Some(shared.stop);
    if searcher.stopped() {
        return HelperWork::default();
    }
    deepen(
        &mut searcher,
        board,
        &mut moves,
        depths,
        |iteration, finished| {
            if finished {
                let mut deepest = shared
                    .deepest
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                if deepest.is_none_or(|deepest| deepest.depth < iteration.depth) {
                    *deepest = Some(iteration);
                }
            }
        },
    );
    HelperWork {
        nodes: searcher.nodes,
        fours_moves: searcher.fours_moves,
    }
}

/// `best`, unless the opponent has a forced win by threats after it: then the first of
/// `moves` after which it has none, if one is proved so within the search's bounds.
fn safe_choice(
    board: &mut SearchBoard,
    best: usize,
    moves: &[usize],
    theirs: &mut Threats,
) -> usize {
    if loses(board, best, theirs, QUIET_MOVES) != Some(true) {
        return best;
    }
    for &square in moves.iter().filter(|&&square| square != best) {
        match loses(board, square, theirs, QUIET_MOVES) {
            Some(false) => return square,
            Some(true) => {}
            None => break,
        }
    }
    best
}

/// Whether the opponent has a forced win by threats after the side to move plays
/// `square`, as far as `theirs` can tell within its bounds: `None` when it was cut short
/// before a proof.
fn loses(board: &mut SearchBoard, square: usize, theirs: &mut Threats, quiet: u8) -> Option<bool> {
    board.play(square);
    // Threes alone first: the quiet moves' look, more to search, may not get as far.
    let lost = !board.won
        && (theirs.find(board, Reach::Threes).is_some()
            || (quiet > 0 && !theirs.stopped() && theirs.find_with_quiet(board, quiet).is_some()));
    board.undo();
    (lost || !theirs.stopped()).then_some(lost)
}

/// The root moves after which the opponent, to move, has no forced win by threats: the
/// moves that answer its threats and make fours of one's own first, then the rest in
/// order, each with `per_move` nodes, until the clock runs out or a check is cut short
/// (going on after that measured worse: see the README). The moves proved safe, if any;
/// else those not judged; moves proved lost only when every move is.
fn safe_moves(
    board: &mut SearchBoard,
    moves: Vec<usize>,
    theirs: &mut Threats,
    per_move: u64,
) -> Vec<usize> {
    let me = board.to_move;
    let mut order = board.winning_squares(!me);
    order.extend(board.defences(!me).unwrap_or_default());
    order.extend(board.four_squares(me));
    order.extend(board.four_squares(!me));
    order.extend(board.three_squares(!me));
    order.extend(moves.iter().copied());
    let mut seen = Vec::with_capacity(order.len());
    order.retain(|&square| {
        let new = board.is_free(square) && !seen.contains(&square);
        seen.push(square);
        new
    });
    let (mut safe, mut unknown, mut lost) = (Vec::new(), Vec::new(), Vec::new());
    for square in order {
        // The first check cut short ends them: the rest are left to the alpha-beta.
        if theirs.stopped() {
            unknown.push(square);
            continue;
        }
        theirs.allow(per_move);
        match loses(board, square, theirs, 0) {
            Some(true) => lost.push(square),
            Some(false) => safe.push(square),
            None => unknown.push(square),
        }
    }
    // The alpha-beta orders moves by its own estimate: keep its order within each group.
    let rank = |square: &usize| moves.iter().position(|m| m == square).unwrap_or(usize::MAX);
    let mut keep = [safe, unknown, lost]
        .into_iter()
        .find(|group| !group.is_empty())
        .unwrap_or(moves.clone());
    keep.sort_by_key(rank);
    keep
}

/// The first move of a victory by continuous fours for the side to move, if a search of at
/// most `budget` nodes finds one: a forced win in which every attacking move
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
    let mut board = board_of(position);
    Threats::new(budget, None)
        .find(&mut board, Reach::Fours)
        .map(Square::new)
}

/// Whether `mark` has a forced win by threats in `position`, as a proof-number search of
/// at most `budget` nodes proves it: a win made of fours and threes (see [`vcf`]), each
/// leaving the defender only the replies that answer it or make a four of its own, and
/// of wins by fours in waiting, where the defender's only replies are the moves that stop
/// them. With `mark` to move, a line of threats it can start; with the other side to
/// move, the threat `mark` has just made, every reply searched. `false` proves nothing:
/// the win may need other quiet moves, or more work than the budget.
///
/// ```
/// use ttt_core::{Mark, Position, Rules};
///
/// let rules = Rules::new(15, 15, 5)?;
/// // X has just made two threes that meet at h8: one on row 8, one down column h, broken
/// // at h9. O to move cannot answer both, and has no four to gain time with.
/// let mut rows = vec![".".repeat(15); 15];
/// rows[7] = "......xxx......".to_owned();
/// rows[9] = ".......x.......".to_owned();
/// rows[10] = ".......x.......".to_owned();
/// rows[0] = "o.o.o..........".to_owned();
/// rows[2] = "o..............".to_owned();
/// let position = Position::parse(&rows.join("/"), rules, Mark::X)?;
/// assert!(ttt_players::wins_by_threats(&position, Mark::X, 100_000));
/// // O has nothing of the kind.
/// assert!(!ttt_players::wins_by_threats(&position, Mark::O, 100_000));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn wins_by_threats(position: &Position, mark: Mark, budget: u64) -> bool {
    if position.is_over() {
        return position.outcome().and_then(|outcome| outcome.winner()) == Some(mark);
    }
    let mut board = board_of(position);
    let mut search = Threats::new(budget, None);
    if board.to_move == mark {
        search.find(&mut board, Reach::Threes).is_some()
    } else {
        search.proves(&mut board, Reach::Threes)
    }
}

/// The pattern features of `position` for the side to move and for the other side, in
/// that order (see [`FEATURES`]): what the evaluation weighs, for tuning its weights.
/// `None` on boards without pattern codes (k other than 5).
///
/// ```
/// use ttt_core::{Mark, Position, Rules};
/// use ttt_players::{FEATURE_NAMES, pattern_features};
///
/// let rules = Rules::new(15, 15, 5)?;
/// let mut rows = vec![".".repeat(15); 15];
/// rows[7] = "......xxx......".to_owned();
/// rows[0] = "o...o...o......".to_owned();
/// let position = Position::parse(&rows.join("/"), rules, Mark::X)?;
/// assert_eq!(position.to_move(), Mark::X);
/// let [x, _o] = pattern_features(&position).expect("gomoku has pattern codes");
/// // X's open three: two squares make a flex four, two more a block four.
/// let flex4 = FEATURE_NAMES.iter().position(|&name| name == "flex4").unwrap();
/// assert_eq!(x[flex4], 2);
/// // Other lines than five have no pattern codes.
/// assert_eq!(pattern_features(&"x../.o./...".parse()?), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn pattern_features(position: &Position) -> Option<[[u32; FEATURES]; 2]> {
    let board = SearchBoard::new(shared_shape(position.rules()), position);
    board.shape.patterns.as_ref()?;
    let me = usize::from(position.to_move() == Mark::O);
    let mut counts = [[0; FEATURES]; 2];
    for square in position.board().empty_squares() {
        let classes = board.classes(square.index())?;
        patterns::add_features(classes[me], &mut counts[0]);
        patterns::add_features(classes[1 - me], &mut counts[1]);
    }
    Some(counts)
}

/// The squares the search orders by their [`MoveValues`] in a quiet position of gomoku
/// (no five to make, no four of the opponent's to block, no three of its to answer): the
/// free squares within two steps of a mark (the centre on an empty board), each with its
/// shape (see [`SHAPES`]) for the side to move and for the other side, in that order. For
/// fitting the values to the moves a stronger player chose. `None` in other positions and
/// on boards without pattern codes (k other than 5).
///
/// ```
/// use ttt_core::{Mark, Position, Rules};
/// use ttt_players::{MoveValues, move_shapes};
///
/// let rules = Rules::new(15, 15, 5)?;
/// let mut rows = vec![".".repeat(15); 15];
/// rows[7] = "......xx.......".to_owned();
/// rows[8] = ".......o.......".to_owned();
/// let position = Position::parse(&rows.join("/"), rules, Mark::X)?;
/// assert_eq!(position.to_move(), Mark::O);
/// let squares = move_shapes(&position).expect("a quiet gomoku position");
/// // The free squares within two steps of the three marks.
/// assert_eq!(squares.len(), 32);
/// // Right of X's two: for X (the other side), an open three along the row (and a
/// // line O closes at one end).
/// let right = rules.square(8, 7).expect("on the board");
/// let (_, [_mine, theirs]) = squares.iter().find(|(square, _)| *square == right).unwrap();
/// assert_eq!(MoveValues::shape_name(*theirs), "flex3 flex1 flex1 block1");
/// // O plays in a corner and X makes the three: O must answer it, so the order is not
/// // asked for.
/// let corner = rules.square(0, 0).expect("on the board");
/// let answered = position.after(corner)?.after(right)?;
/// assert_eq!(move_shapes(&answered), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn move_shapes(position: &Position) -> Option<Vec<(Square, [usize; 2])>> {
    let mut board = SearchBoard::new(shared_shape(position.rules()), position);
    let me = board.to_move;
    if !board.has_patterns()
        || position.is_over()
        || forced(&board).is_some()
        || board.defences(!me).is_some()
    {
        return None;
    }
    let mover = usize::from(me == Mark::O);
    board
        .candidates(usize::MAX)
        .into_iter()
        .map(|square| {
            let classes = board.classes(square)?;
            let shapes = [mover, 1 - mover].map(|side| patterns::shape(classes[side]));
            Some((Square::new(square), shapes))
        })
        .collect()
}

/// The shape of `rules` with the default weights, kept between calls: the functions that
/// read one position at a time for tuning are called on many of the same board.
fn shared_shape(rules: Rules) -> Arc<Shape> {
    static LAST: Mutex<ShapeCache> = Mutex::new(ShapeCache::new());
    LAST.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(rules)
        .0
}

/// A search board of `position`, with a shape of its own and no pattern codes: for the
/// one-off threat searches, which never evaluate.
fn board_of(position: &Position) -> SearchBoard {
    SearchBoard::new(Arc::new(Shape::unweighed(position.rules())), position)
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

/// The moves worth searching below the root: when the opponent threatens to make two
/// squares to win on (an open three), only the squares that answer it and one's own fours,
/// which gain the tempo back; otherwise the best-ordered candidates and one's own fours,
/// and then the moves are quiet (the second value).
fn threat_aware_moves(board: &mut SearchBoard) -> (Vec<usize>, bool) {
    let me = board.to_move;
    let answers = board.defences(!me);
    let quiet = answers.is_none();
    let mut moves = answers.unwrap_or_else(|| board.candidates(WIDTH));
    for square in board.four_squares(me) {
        if !moves.contains(&square) {
            moves.push(square);
        }
    }
    if quiet {
        return (moves, true);
    }
    if moves.is_empty() {
        // A threat no move answers: the game is lost; any move will do for the search.
        return (board.candidates(1), false);
    }
    moves.sort_by_cached_key(|&square| std::cmp::Reverse(board.move_value(square)));
    (moves, false)
}

/// The evaluation a node is cut off with, unsearched (reverse futility pruning), if it is:
/// on gomoku's lines (the pattern evaluation, whose scale the margin was measured on),
/// off the principal variation (a null window (alpha, beta)), with at most
/// [`FUTILE_DEPTH`] plies left and no threat of the opponent's that the search would score
/// (no square to win on, none making two, no four-three), where the side to move's
/// evaluation beats beta by at least [`FUTILE_MARGIN`] a ply left: with the move its own,
/// it is taken to hold beta.
fn futile(board: &SearchBoard, depth: u32, alpha: i64, beta: i64) -> Option<i64> {
    if !board.has_patterns() || beta - alpha != 1 || depth > FUTILE_DEPTH || decided(beta) {
        return None;
    }
    // The evaluation first: most nodes are nowhere near the margin, and it is two sums.
    let eval = board.evaluate();
    let other = !board.to_move;
    let cut = eval - FUTILE_MARGIN * i64::from(depth) >= beta
        && !board.threatens(other)
        && !board.has_double(other)
        && board.four_threes(other).is_empty();
    cut.then_some(eval)
}

/// Whether a node is cut off below alpha and scored as at the horizon (razoring): on
/// gomoku's lines, off the principal variation (a null window (alpha, beta) about no
/// forced win or loss), with at most [`RAZOR_DEPTH`] plies left and no square for the
/// opponent to win on (a block to search), where the side to move's evaluation falls
/// short of alpha by more than [`RAZOR_MARGIN`] a ply left. A few plies are taken not to
/// make up so much, but for a win by fours, which the horizon still looks for: the side
/// to move's threes are not (as Rapfi razors, with a look for a win by fours alone).
fn razored(board: &SearchBoard, depth: u32, alpha: i64, beta: i64) -> bool {
    board.has_patterns()
        && beta - alpha == 1
        && depth <= RAZOR_DEPTH
        && !decided(alpha)
        && !decided(beta)
        && !board.threatens(!board.to_move)
        && board.evaluate() + RAZOR_MARGIN * i64::from(depth) < alpha
}

struct Searcher<'a> {
    table: &'a Table,
    deadline: Instant,
    /// Set by another thread to end the search as the deadline would.
    stop: Option<&'a AtomicBool>,
    /// Positions visited.
    nodes: u64,
    /// Moves the looks for fours at the horizon tried: threat-space moves, counted with
    /// the threat searches' (as a Gomocup engine counts its VCF search's nodes).
    fours_moves: u64,
    /// The work (positions visited and moves tried by the looks at the horizon) at which
    /// the clock is read next.
    next_clock: u64,
    /// Whether nodes may be cut off by their evaluation ([`futile`], [`razored`]) and
    /// searched less deep where the table knows no move ([`UNKNOWN_MOVE_DEPTH`]): the
    /// scores then depend on the window a node is searched with and on what the table
    /// holds, not on the position alone.
    prune: bool,
}

impl Searcher<'_> {
    /// A search to `deadline` with `table`, reading the clock after its first
    /// [`CLOCK_EVERY`] work, with pruning.
    fn new(table: &Table, deadline: Instant) -> Searcher<'_> {
        Searcher {
            table,
            deadline,
            stop: None,
            nodes: 0,
            fours_moves: 0,
            next_clock: CLOCK_EVERY,
            prune: true,
        }
    }

    /// Whether its time is up: the deadline passed, or another thread stopped it.
    fn stopped(&self) -> bool {
        Instant::now() >= self.deadline
            || self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed))
    }

    /// [`root`](Searcher::root) at `depth` within a window around `last`, the score of
    /// the iteration before, when it was no win or loss (aspiration): searched again with
    /// the side it fell out of widened, until the best move's score lies within. Cut short
    /// by the clock, what the last search found, unless its first move (the best of the
    /// iteration before) fell below the window: then nothing better is known.
    fn aspire(
        &mut self,
        board: &mut SearchBoard,
        moves: &[usize],
        depth: u32,
        last: Option<i64>,
    ) -> Result<Vec<(usize, i64)>, OutOfTime> {
        let whole = (-WIN * 2, WIN * 2);
        let Some(last) = last.filter(|&score| !decided(score)) else {
            return self.root(board, moves, depth, whole);
        };
        let (mut below, mut above) = (ASPIRATION, ASPIRATION);
        let mut moves = moves.to_vec();
        // A move that rose above the window, with its bound: kept in case the clock stops
        // the search again.
        let mut risen = None;
        loop {
            let window = ((last - below).max(whole.0), (last + above).min(whole.1));
            let scored = match self.root(board, &moves, depth, window) {
                Ok(scored) => scored,
                Err(OutOfTime) => return risen.ok_or(OutOfTime),
            };
            let top = scored.iter().max_by_key(|&&(_, score)| score).copied();
            let cut = self.stopped();
            match top {
                Some((_, top)) if top <= window.0 && window.0 > whole.0 => {
                    if cut {
                        return risen.ok_or(OutOfTime);
                    }
                    below = widened(below, top);
                }
                Some((square, top)) if top >= window.1 && window.1 < whole.1 && !cut => {
                    above = widened(above, top);
                    // Searched first next time.
                    if let Some(at) = moves.iter().position(|&m| m == square) {
                        moves[..=at].rotate_right(1);
                    }
                    risen = Some(vec![(square, top)]);
                }
                _ => return Ok(scored),
            }
        }
    }

    /// The root moves searched at `depth` within the window (alpha, beta), in `moves`'
    /// order, each with its score (a move after the first that fails low scores at most
    /// what it says; a move that reaches beta, the last, at least). Out of time after the
    /// first move (the best known: of the last iteration, or one that rose above the
    /// window) was searched, the moves searched so far, and the one being searched again
    /// when it had shown it beats the best, with the bound it showed: a move found better
    /// than that one at this depth is better by this depth's measure.
    fn root(
        &mut self,
        board: &mut SearchBoard,
        moves: &[usize],
        depth: u32,
        (mut alpha, beta): (i64, i64),
    ) -> Result<Vec<(usize, i64)>, OutOfTime> {
        let mut scored = Vec::with_capacity(moves.len());
        for (index, &square) in moves.iter().enumerate() {
            board.play(square);
            let score = if board.won {
                Ok(WIN)
            } else if index == 0 {
                self.principal(board, None, depth - 1, alpha, beta, 1)
            } else {
                // A null window at alpha first: a move that does not beat the best so far
                // scores at most what it says; one that does is searched again with the
                // window from there to beta.
                match self.negamax(board, depth - 1, -alpha - 1, -alpha, 1) {
                    Ok(bound) if -bound <= alpha => Ok(-bound),
                    Ok(bound) => self
                        .negamax(board, depth - 1, -beta, -alpha, 1)
                        .map(|score| -score)
                        // Out of time there, it is kept with the bound it has shown, which
                        // puts it ahead of the best so far.
                        .map_err(|OutOfTime| {
                            scored.push((square, -bound));
                            OutOfTime
                        }),
                    Err(OutOfTime) => Err(OutOfTime),
                }
            };
            board.undo();
            let score = match score {
                Ok(score) => score,
                Err(OutOfTime) if index > 0 => return Ok(scored),
                Err(OutOfTime) => return Err(OutOfTime),
            };
            scored.push((square, score));
            if score >= beta {
                break;
            }
            alpha = alpha.max(score);
        }
        Ok(scored)
    }

    /// The score of the move just played (the opponent now to move), by principal
    /// variation search: the first move of a node (`late` is `None`) with the whole window
    /// (alpha, beta); the others with a null window at alpha, `late` plies less deep, and
    /// again with the whole window and depth only when they beat alpha.
    fn principal(
        &mut self,
        board: &mut SearchBoard,
        late: Option<u32>,
        depth: u32,
        alpha: i64,
        beta: i64,
        ply: i64,
    ) -> Result<i64, OutOfTime> {
        if let Some(reduction) = late {
            let score = -self.negamax(board, depth - reduction, -alpha - 1, -alpha, ply)?;
            if score <= alpha || (reduction == 0 && score >= beta) {
                return Ok(score);
            }
        }
        Ok(-self.negamax(board, depth, -beta, -alpha, ply)?)
    }

    /// The score at the horizon, with the opponent no square to win on: a win by fours,
    /// found by a short look, else the evaluation.
    fn horizon(&mut self, board: &mut SearchBoard, ply: i64) -> i64 {
        debug_assert!(!board.threatens(!board.to_move), "a square to block first");
        let mut budget = LEAF_FOURS_BUDGET;
        let wins = board.can_make_four(board.to_move) && fours::wins_by_fours(board, &mut budget);
        self.fours_moves += u64::from(LEAF_FOURS_BUDGET - budget);
        if wins {
            WIN - ply - LEAF_FOURS_PLIES
        } else {
            board.evaluate()
        }
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
        let work = self.nodes + self.fours_moves;
        if work >= self.next_clock {
            self.next_clock = work + CLOCK_EVERY;
            if self.stopped() {
                return Err(OutOfTime);
            }
        }
        let me = board.to_move;
        // Threats decide before any depth: a win now, or a loss to two open lines.
        if board.threatens(me) {
            return Ok(WIN - ply);
        }
        if board.is_full() {
            return Ok(0);
        }
        // The opponent's squares to win on: one is a forced block, two are lost.
        let block = match board.wins(!me) {
            Wins::Several => return Ok(-(WIN - ply - 1)),
            Wins::One(square) => Some(square),
            Wins::None => None,
        };
        // Two squares to win on next move (an open three made a four) win when the
        // opponent has no four to gain time with; so, two plies later, does a four that
        // makes a flex three on another line (a four-three).
        if block.is_none() && !board.can_make_four(!me) {
            if board.has_double(me) {
                return Ok(WIN - ply - 2);
            }
            if !board.four_threes(me).is_empty() {
                return Ok(WIN - ply - 4);
            }
        }
        if depth == 0 && block.is_none() {
            return Ok(self.horizon(board, ply));
        }
        let original_alpha = alpha;
        let entry = self.table.get(board.hash);
        if let Some(entry) = entry.filter(|e| e.depth >= depth) {
            let score = from_table(entry.score, ply);
            match entry.bound {
                Bound::Exact => return Ok(score),
                Bound::Lower if score >= beta => return Ok(score),
                Bound::Upper if score <= alpha => return Ok(score),
                _ => {}
            }
        }
        if self.prune
            && let Some(eval) = futile(board, depth, alpha, beta)
        {
            return Ok(eval);
        }
        if self.prune && razored(board, depth, alpha, beta) {
            return Ok(self.horizon(board, ply));
        }
        // The table's best move, searched first; none known: a ply less (see
        // [`UNKNOWN_MOVE_DEPTH`]).
        let known = entry.and_then(|e| e.best).map(usize::from);
        let reduced =
            self.prune && depth >= UNKNOWN_MOVE_DEPTH && block.is_none() && known.is_none();
        let depth = depth - u32::from(reduced);
        // Moves not answering a threat are quiet: the late ones are searched less deep
        // first (one's own fours among them; sparing those measured no better).
        let (mut moves, quiet) = match block {
            None => threat_aware_moves(board),
            Some(square) => (vec![square], false),
        };
        if let Some(best) = known
            && let Some(index) = moves.iter().position(|&m| m == best)
        {
            moves.swap(0, index);
        }
        let mut best_score = -WIN * 2;
        let mut best_move = None;
        // A forced block does not use up depth: the line of play is narrow anyway; nor,
        // near the root, does an answer to a three.
        let next_depth = if moves.len() == 1 || (!quiet && ply <= EXTENDED_PLIES) {
            depth
        } else {
            depth.saturating_sub(1)
        };
        for (index, square) in moves.into_iter().enumerate() {
            board.play(square);
            let score = if board.won {
                Ok(WIN - ply)
            } else {
                let reduction = u32::from(quiet && index >= LATE && next_depth >= 2);
                let late = (index > 0).then_some(reduction);
                self.principal(board, late, next_depth, alpha, beta, ply + 1)
            };
            // Undone even when out of time, so the root can use what it has.
            board.undo();
            let score = score?;
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
                score: to_table(best_score, ply),
                bound,
                best: best_move,
            },
        );
        Ok(best_score)
    }
}

impl Player for Search {
    fn choose(&mut self, position: &Position, rng: &mut dyn Rng) -> Result<Square, PlayerError> {
        let start = Instant::now();
        self.last = None;
        let (square, mut thought) = self.best_square(position, rng)?;
        thought.time = start.elapsed();
        self.last = Some(thought);
        Ok(square)
    }

    fn thought(&self) -> Option<Thought> {
        self.last
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use super::*;

    /// A 15x15 freestyle position, X having moved first, with the given rows (index from
    /// the top, 15 squares each) and the rest empty; `to_move` is checked.
    fn gomoku(rows: &[(usize, &str)], to_move: Mark) -> Position {
        let mut board = vec![".".repeat(15); 15];
        for &(row, squares) in rows {
            board[row] = squares.to_owned();
        }
        let rules = Rules::new(15, 15, 5).unwrap();
        let position = Position::parse(&board.join("/"), rules, Mark::X).unwrap();
        assert_eq!(position.to_move(), to_move);
        position
    }

    /// O to move on 15x15 against X's open three on row 8 (g8, h8, i8), which becomes an
    /// open four next move unless O blocks it at f8 or j8.
    fn against_an_open_three() -> Position {
        gomoku(&[(7, "......xxx......"), (0, "o.o............")], Mark::O)
    }

    /// O to move on 15x15 against X's four on row 8 (b8 to e8, a8 O's): O must take f8.
    fn against_a_four() -> Position {
        gomoku(&[(0, "..........o.o.."), (7, "oxxxx..........")], Mark::O)
    }

    /// A board of `position` as the root's is, with pattern codes.
    fn root_board(position: &Position) -> SearchBoard {
        SearchBoard::new(Arc::new(Shape::new(position.rules())), position)
    }

    #[test]
    fn the_horizon_s_looks_for_fours_are_counted_as_threat_moves_not_as_positions() {
        // X to move can make a four on row 8 two ways (e8, f8), each of which O blocks,
        // and no more: the look at the horizon tries both and finds no win.
        let position = gomoku(&[(0, "..........o.o.."), (7, "oxxx...........")], Mark::X);
        let mut board = root_board(&position);
        let eval = board.evaluate();
        let table = Table::new(1 << 20);
        let mut searcher = Searcher::new(&table, Instant::now() + Duration::from_secs(3_600));
        assert_eq!(
            searcher.negamax(&mut board, 0, -WIN, WIN, 1).ok(),
            Some(eval)
        );
        assert_eq!((searcher.nodes, searcher.fours_moves), (1, 2));
        // Two plies deeper, each leaf where X is to move again looks too.
        searcher.negamax(&mut board, 2, -WIN, WIN, 1).ok();
        assert!(searcher.nodes > 2 && searcher.fours_moves > 4);
    }

    /// X to move on 15x15, with twos of its own, O's marks scattered: no threat to answer,
    /// and none to win by at once.
    fn quiet() -> Position {
        let rows = [
            (5, "..........x...."),
            (7, "......x.x......"),
            (10, "..o...o...o...."),
        ];
        gomoku(&rows, Mark::X)
    }

    /// What a move's threads share, made fresh: a table, the stop, no deepest iteration.
    fn shared_parts() -> (Table, AtomicBool, Mutex<Option<Iteration>>) {
        (
            Table::new(1 << 20),
            AtomicBool::new(false),
            Mutex::new(None),
        )
    }

    #[test]
    fn a_helper_stopped_before_it_starts_searches_nothing() {
        let mut board = root_board(&quiet());
        let moves = board.candidates(usize::MAX);
        let (table, stop, deepest) = shared_parts();
        stop.store(true, Ordering::Relaxed);
        let shared = Shared {
            table: &table,
            stop: &stop,
            deepest: &deepest,
        };
        let hour = Instant::now() + Duration::from_secs(3_600);
        let work = help_search(shared, &mut board, moves, hour, 1..=200);
        assert_eq!((work.nodes, work.fours_moves), (0, 0));
        assert!(deepest.lock().unwrap().is_none());
    }

    #[test]
    fn a_helper_keeps_its_deepest_finished_iteration_and_its_work() {
        let mut board = root_board(&quiet());
        let moves = board.candidates(usize::MAX);
        let (table, stop, deepest) = shared_parts();
        let shared = Shared {
            table: &table,
            stop: &stop,
            deepest: &deepest,
        };
        // Depths 2 to 4 only, so that it ends by itself.
        let hour = Instant::now() + Duration::from_secs(3_600);
        let work = help_search(shared, &mut board, moves.clone(), hour, 2..=4);
        let kept = deepest.lock().unwrap().unwrap();
        assert_eq!(kept.depth, 4);
        assert!(moves.contains(&kept.square), "{kept:?}");
        assert!(work.nodes > 0);
        // What it learnt is in the table, for the main thread to find.
        let after = board.hash_after(kept.square);
        assert!(table.get(after).is_some());
    }

    #[test]
    fn the_main_thread_takes_a_deeper_helper_iteration_only_on_a_move_it_kept() {
        let position = quiet();
        let moves = root_board(&position).candidates(usize::MAX);
        let (kept, far) = (moves[3], 14 * 15 + 14);
        assert!(!moves.contains(&far), "o15 is no candidate");
        for (square, taken) in [(kept, true), (far, false)] {
            let mut board = root_board(&position);
            let (table, stop, deepest) = shared_parts();
            *deepest.lock().unwrap() = Some(Iteration {
                depth: 99,
                square,
                score: 7,
            });
            let shared = Shared {
                table: &table,
                stop: &stop,
                deepest: &deepest,
            };
            let mut threats = Threats::within(1 << 20);
            let think = Duration::from_millis(50);
            let moves = moves.clone();
            let (chosen, thought) = decide(
                shared,
                &mut threats,
                &mut board,
                moves,
                Instant::now(),
                think,
                200,
            );
            assert!(stop.load(Ordering::Relaxed), "the helpers are stopped");
            assert_eq!(thought.depth == 99, taken, "{thought:?}");
            assert_eq!(chosen == square, taken);
        }
    }

    #[test]
    fn a_quiet_node_far_above_beta_is_cut_off_and_a_threatened_one_is_not() {
        let position = quiet();
        let mut board = root_board(&position);
        let eval = board.evaluate();
        let (depth, margin) = (2, 2 * FUTILE_MARGIN);
        assert!(futile(&board, depth, eval - margin - 1, eval - margin).is_some());
        assert!(
            futile(&board, depth, eval - margin, eval - margin + 1).is_none(),
            "not far enough"
        );
        assert!(
            futile(&board, depth, eval - margin - 2, eval - margin).is_none(),
            "a whole window"
        );
        let deeper = FUTILE_DEPTH + 1;
        let margin = i64::from(deeper) * FUTILE_MARGIN;
        assert!(
            futile(&board, deeper, eval - margin - 2, eval - margin - 1).is_none(),
            "too deep"
        );
        // The search returns the evaluation there without a move.
        let table = Table::new(1 << 20);
        let mut searcher = Searcher::new(&table, Instant::now() + Duration::from_secs(3_600));
        let beta = eval - 2 * FUTILE_MARGIN;
        assert_eq!(
            searcher.negamax(&mut board, 2, beta - 1, beta, 1).ok(),
            Some(eval)
        );
        assert_eq!(searcher.nodes, 1);
        // O to move against an open three, a four, or a square making a four and a flex
        // three is never cut off, however far above beta.
        let low = -DECIDED + 1;
        let board = root_board(&against_an_open_three());
        assert!(futile(&board, 1, low - 1, low).is_none());
        let board = root_board(&against_a_four());
        assert!(board.threatens(Mark::X) && !board.has_double(Mark::X));
        assert!(futile(&board, 1, low - 1, low).is_none(), "a four");
        let rows = [
            (0, "..........o.o.."),
            (7, "oxxx..........."),
            (5, "....x.........."),
            (6, "....x.........o"),
        ];
        let board = root_board(&gomoku(&rows, Mark::O));
        assert!(!board.threatens(Mark::X) && !board.has_double(Mark::X));
        assert_eq!(board.four_threes(Mark::X).iter().count(), 1, "e8");
        assert!(futile(&board, 1, low - 1, low).is_none(), "a four-three");
        // Nor is a board without the pattern evaluation (k = 4).
        let rules = Rules::new(7, 6, 4).unwrap();
        let board = root_board(&Position::new(rules, Mark::X));
        assert!(!board.has_patterns());
        assert!(futile(&board, 1, low - 1, low).is_none());
    }

    #[test]
    fn a_quiet_node_far_below_alpha_is_scored_at_the_horizon_and_a_forced_one_is_not() {
        let position = quiet();
        let mut board = root_board(&position);
        let eval = board.evaluate();
        let (depth, margin) = (2, 2 * RAZOR_MARGIN);
        assert!(razored(&board, depth, eval + margin + 1, eval + margin + 2));
        assert!(
            !razored(&board, depth, eval + margin, eval + margin + 1),
            "not far enough"
        );
        assert!(
            !razored(&board, depth, eval + margin + 1, eval + margin + 3),
            "a whole window"
        );
        let deeper = RAZOR_DEPTH + 1;
        let margin = i64::from(deeper) * RAZOR_MARGIN;
        assert!(
            !razored(&board, deeper, eval + margin + 1, eval + margin + 2),
            "too deep"
        );
        for alpha in [DECIDED - 1, DECIDED, -DECIDED - 1] {
            assert!(
                !razored(&board, 1, alpha, alpha + 1),
                "a window about a win"
            );
        }
        // The search scores it as at the horizon, without a move.
        let table = Table::new(1 << 20);
        let mut searcher = Searcher::new(&table, Instant::now() + Duration::from_secs(3_600));
        let alpha = eval + 2 * RAZOR_MARGIN + 1;
        assert_eq!(
            searcher.negamax(&mut board, 2, alpha, alpha + 1, 1).ok(),
            Some(eval)
        );
        assert_eq!(searcher.nodes, 1);
        // A win by fours is still seen: X to move makes two fours at f8 (c8 to e8 and f5
        // to f7), scored at every node only where O has no four to make (O's a1 to c1).
        let column = ".....x.........";
        let rows = [
            (0, "ooo...........o"),
            (3, ".....o........."),
            (4, column),
            (5, column),
            (6, column),
            (7, ".oxxx.........."),
        ];
        let mut board = root_board(&gomoku(&rows, Mark::X));
        assert!(board.has_double(Mark::X) && board.can_make_four(Mark::O));
        let alpha = board.evaluate() + RAZOR_MARGIN + 1;
        assert!(razored(&board, 1, alpha, alpha + 1));
        let mut searcher = Searcher::new(&table, Instant::now() + Duration::from_secs(3_600));
        assert_eq!(
            searcher.negamax(&mut board, 1, alpha, alpha + 1, 1).ok(),
            Some(WIN - 1 - LEAF_FOURS_PLIES)
        );
        // Against a four, the block is searched, however low the evaluation: a forced
        // node is never cut off.
        let mut board = root_board(&against_a_four());
        let alpha = board.evaluate() + RAZOR_MARGIN + 1;
        assert!(!razored(&board, 1, alpha, alpha + 1));
        let mut searcher = Searcher::new(&table, Instant::now() + Duration::from_secs(3_600));
        assert!(searcher.negamax(&mut board, 1, alpha, alpha + 1, 1).is_ok());
        assert!(searcher.nodes > 1, "the block was not searched");
        // Nor is a board without the pattern evaluation (k = 4).
        let rules = Rules::new(7, 6, 4).unwrap();
        let board = root_board(&Position::new(rules, Mark::X));
        assert!(!razored(&board, 1, 1, 2));
    }

    #[test]
    fn a_node_the_table_knows_no_move_for_is_searched_a_ply_less_deep() {
        let board = root_board(&quiet());
        // The depth the table keeps after `times` searches of the position to `depth`.
        let kept = |prune: bool, times: usize, depth: u32| {
            let mut board = board.clone();
            let table = Table::new(1 << 20);
            let mut searcher = Searcher {
                prune,
                ..Searcher::new(&table, Instant::now() + Duration::from_secs(3_600))
            };
            for _ in 0..times {
                let searched = searcher.negamax(&mut board, depth, -WIN * 2, WIN * 2, 1);
                assert!(searched.is_ok(), "an hour is enough");
            }
            searcher.table.get(board.hash).map(|entry| entry.depth)
        };
        let depth = UNKNOWN_MOVE_DEPTH;
        // Unknown at first: a ply less; then the move the first search left is known.
        assert_eq!(kept(true, 1, depth), Some(depth - 1));
        assert_eq!(kept(true, 2, depth), Some(depth));
        // The search without pruning takes the depth asked at once.
        assert_eq!(kept(false, 1, depth), Some(depth));
        // Nothing shallower asks for it.
        assert_eq!(kept(true, 1, depth - 1), Some(depth - 1));
    }

    #[test]
    fn the_table_keeps_a_win_counted_from_its_position_whatever_the_ply() {
        // A win 3 plies on from a position met 5 plies from one root, read at 3 plies
        // from the next root (two moves later): 3 plies on from there still.
        let kept = to_table(WIN - 8, 5);
        assert_eq!(from_table(kept, 3), WIN - 6);
        assert_eq!(from_table(to_table(-(WIN - 8), 5), 3), -(WIN - 6));
        for score in [0, 35, -4_000, WIN - 1_001, -(WIN - 1_001)] {
            assert_eq!(
                from_table(to_table(score, 7), 2),
                score,
                "heuristic scores stay"
            );
        }
    }

    #[test]
    fn aspiration_windows_find_the_best_score_the_whole_window_finds() {
        // Mid-game positions of quick random games (each move among the six best
        // candidates); at a fixed depth, a window around any guess, widened as it fails,
        // ends with the best score the whole window gives.
        let rules = Rules::new(15, 15, 5).unwrap();
        let shape = Arc::new(Shape::new(rules));
        let mut state = 11_u64;
        let mut compared = 0;
        for game in 0..48 {
            let mut board = SearchBoard::new(Arc::clone(&shape), &Position::new(rules, Mark::X));
            for _ in 0..8 + game % 6 {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                let near = board.candidates(6);
                board.play(near[(state >> 33) as usize % near.len()]);
            }
            if board.won || board.threatens(Mark::X) || board.threatens(Mark::O) {
                continue;
            }
            let (moves, played) = (board.candidates(8), board.played.clone());
            let far = Instant::now() + Duration::from_secs(3_600);
            let whole = search(&mut board, &moves, None, far).unwrap().1;
            if decided(whole) {
                continue;
            }
            for off in [-5_000, -200, -40, 0, 40, 200, 5_000] {
                let (square, score) = search(&mut board, &moves, Some(whole + off), far).unwrap();
                assert_eq!(score, whole, "{played:?} {off}");
                // The move it gives scores that on its own, with the whole window.
                let alone = search(&mut board, &[square], None, far);
                assert_eq!(
                    alone.map(|(_, score)| score),
                    Some(whole),
                    "{played:?} {off}"
                );
            }
            compared += 1;
        }
        assert!(compared >= 16, "{compared} positions compared");
    }

    #[test]
    fn an_aspiration_search_stopped_at_once_knows_no_move() {
        let position = against_an_open_three();
        let mut board = root_board(&position);
        let moves = board.candidates(8);
        let past = Instant::now();
        assert_eq!(search(&mut board, &moves, Some(35), past), None);
        assert_eq!(board.played.len(), 5, "the board is as it was");
    }

    /// The best of `moves` and its score at depth 3 by [`Searcher::aspire`] around `last`,
    /// without pruning (so the score is the position's, whatever the window),
    /// within the clock `deadline` (read at the first node), with a fresh table; none when
    /// the clock stopped it before it knew one.
    fn search(
        board: &mut SearchBoard,
        moves: &[usize],
        last: Option<i64>,
        deadline: Instant,
    ) -> Option<(usize, i64)> {
        let table = Table::new(1 << 20);
        let mut searcher = Searcher {
            next_clock: 0,
            prune: false,
            ..Searcher::new(&table, deadline)
        };
        let mut scored = searcher.aspire(board, moves, 3, last).ok()?;
        // The first of the best: a later move scoring as much only failed low there.
        searched_first(&mut moves.to_vec(), &mut scored);
        scored.first().copied()
    }

    #[test]
    fn the_moves_searched_come_first_best_first_the_rest_in_their_order() {
        let mut moves = vec![1, 2, 3, 4, 5];
        // Searched in another order than `moves'` (a move that rose above the window
        // first), and not all.
        let mut scored = [(3, 10), (1, 5), (4, 10)];
        searched_first(&mut moves, &mut scored);
        assert_eq!(moves, [3, 4, 1, 2, 5]);
        assert_eq!(scored, [(3, 10), (4, 10), (1, 5)]);
    }

    #[test]
    fn the_root_keeps_the_moves_proved_safe_and_with_no_budget_judges_none() {
        let position = against_an_open_three();
        let (f8, j8) = (7 * 15 + 5, 7 * 15 + 9);
        let mut board = root_board(&position);
        let moves = board.candidates(usize::MAX);
        let mut threats = Threats::new(0, None);
        let kept = safe_moves(&mut board, moves.clone(), &mut threats, 1_000);
        assert_eq!(kept, [f8, j8]);
        // A node a move proves nothing: every move is kept, the alpha-beta's in its order.
        let mut threats = Threats::new(0, None);
        let unjudged = safe_moves(&mut board, moves.clone(), &mut threats, 1);
        assert_eq!(unjudged[..moves.len()], moves);
        assert_eq!(board.played.len(), 5, "the board is as it was");
    }

    #[test]
    fn a_chosen_move_that_allows_a_win_by_threats_gives_way_to_one_that_does_not() {
        let position = against_an_open_three();
        let mut board = root_board(&position);
        let (corner, f8, j8) = (14 * 15 + 14, 7 * 15 + 5, 7 * 15 + 9);
        let moves = [corner, f8, j8];
        let mut threats = Threats::new(100_000, None);
        assert_eq!(safe_choice(&mut board, corner, &moves, &mut threats), f8);
        // A move that blocks is kept; the board is as it was.
        let mut threats = Threats::new(100_000, None);
        assert_eq!(safe_choice(&mut board, j8, &moves, &mut threats), j8);
        assert_eq!(board.played.len(), 5);
        // With no budget, nothing is proved: the choice stands.
        let mut threats = Threats::new(0, None);
        assert_eq!(
            safe_choice(&mut board, corner, &moves, &mut threats),
            corner
        );
    }
}
