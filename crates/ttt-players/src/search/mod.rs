//! A strong player for any board: iterative-deepening alpha-beta within a time bound.
//!
//! [`Search`], what it thinks ([`Thought`], [`Judgement`]) and the one-off looks the tools
//! use ([`vcf`], [`wins_by_threats`], the tuning's features) are here; a move's decision
//! (the threat looks, the iterations, the helper threads, the check of the move chosen)
//! in `root`; the alpha-beta and its pruning in `alpha_beta`; the board that knows its
//! threats in `board`, with its pattern codes in `patterns`; the tables in `table` and,
//! with the threat-space search, in `threats`.

mod alpha_beta;
pub(crate) mod board;
mod fours;
mod move_values;
mod patterns;
mod root;
mod squares;
mod table;
#[cfg(test)]
mod testing;
mod threats;

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use web_time::Instant;

use rand::Rng;
use ttt_core::{Mark, Position, Rules, Square};

use crate::{Limits, Player, PlayerError, pick};
use board::{SearchBoard, Shape, ShapeCache};
pub use patterns::{FEATURE_NAMES, FEATURES, MoveValues, PatternWeights, SHAPES};
use table::Table;
use threats::{Reach, Threats};

/// A won game's score; wins sooner score higher. Every heuristic value stays below it on
/// every board (see [`board::Shape`]'s weights).
pub(crate) const WIN: i64 = 1 << 60;

/// A score at least this far from 0 is a forced win (or loss), `WIN` less the plies to it.
const DECIDED: i64 = WIN - 1_000;

/// The threat search's table takes this part of the memory bound (a quarter).
const THREAT_MEMORY_SHARE: usize = 4;

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

/// Whether `score` is a forced win or loss rather than an estimate.
fn decided(score: i64) -> bool {
    score.abs() >= DECIDED
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
        let free = u32::try_from(legal.len()).unwrap_or(u32::MAX);
        let (square, thought) = root::think(table, threats, board, moves, start, limits, free);
        Ok((Square::new(square), thought))
    }
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
