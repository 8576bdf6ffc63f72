//! Proving the result of a position (win, draw or loss, not how fast) on boards of up to
//! 64 squares, far beyond what the exhaustive [`Solver`](crate::Solver) can take.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use web_time::Instant;

use ttt_core::{Position, Square};

use crate::geometry::{ALL, Bits, BoardSays, Geometry, MoveOrder};
use crate::hash::{BitsMap, Tally, forget_half, has_room};
use crate::table::ProofTable;
use crate::{GameResult, SolverError};

/// What a proof found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proof {
    /// The result for the side to move with perfect play from both sides.
    pub result: GameResult,
    /// A move that reaches it (`None` when the game is over).
    pub best_move: Option<Square>,
    /// Positions searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// Positions in the transposition table at the end.
    pub table_entries: usize,
    /// Bytes those positions take in the table.
    pub table_bytes: usize,
}

/// Why a proof stopped without a result.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ProofError {
    /// The board is too large for bitboards.
    #[error(transparent)]
    Board(#[from] SolverError),
    /// Stopped from outside (Ctrl-C), or at [`ProofLimits::max_nodes`], after searching
    /// this many positions: before the result was proved, or after it was proved but
    /// before a move that keeps it was.
    #[error("stopped after {nodes} positions and {seconds:.1} s, before a proof")]
    Stopped {
        /// The result, when it was proved before the stop; the best move never is.
        result: Option<GameResult>,
        /// Positions searched.
        nodes: u64,
        /// Seconds spent.
        seconds: f64,
    },
    /// The table given holds another board's positions, or another search's.
    #[error("the table is not for this proof: {0}")]
    Table(String),
}

/// Bounds on a position's value for the side to move, -1 loss, 0 draw, 1 win.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bounds {
    pub(crate) lower: i8,
    pub(crate) upper: i8,
    pub(crate) best: u8,
    /// While `lower` is at least a draw, squares (of the key) outside which the other
    /// side's extra marks still leave it unable to win: see [`Zoned`].
    pub(crate) lower_zone: Bits,
    /// While `upper` is at most a draw, the same for the side to move not winning.
    pub(crate) upper_zone: Bits,
}

impl Bounds {
    /// Bounds read back from a kept table, which keeps no zones.
    pub(crate) const fn kept(lower: i8, upper: i8, best: u8) -> Bounds {
        Bounds {
            lower,
            upper,
            best,
            lower_zone: ALL,
            upper_zone: ALL,
        }
    }

    /// Whether the value is known: the bounds meet.
    pub(crate) const fn is_settled(self) -> bool {
        self.lower == self.upper
    }
}

/// A value with its zone: squares outside which the other side's extra marks change
/// nothing about the claim the value makes, that one side (the *attacker*) cannot win.
/// With `S` any set of free squares off the zone, the attacker holding `S` too (the same
/// side to move) still cannot win, and holds no whole line. Where the attacker is to
/// move, a move off the zone of one of its moves found not to win does not win either:
/// the position after it holds no more of the attacker's marks than the position after
/// the refuted move with that mark added off its zone, and fewer marks of the attacker's
/// never help it (the defender plays as if the missing ones were there). So only the
/// moves inside the zones of the moves refuted so far are searched. The zones compose:
/// - a pairing's zone is its squares (an extra mark breaks no pair); no open line at all,
///   or a full board, none;
/// - the defender's winning move, or its two winning squares, with two free squares of
///   every window still open to the attacker (then no extra marks complete one, or leave
///   it one short);
/// - where the defender is to move: its reply and the reply's zone;
/// - where the attacker is to move: the zones of every move it searched and of the
///   refutation that passed its others over, with the guard above where it had to block.
///
/// Under exactly k an extra mark can turn a winning line into an overline, so there no
/// zone is kept ([`ALL`]).
#[derive(Debug, Clone, Copy)]
struct Zoned {
    value: i8,
    zone: Bits,
}

impl Zoned {
    const fn new(value: i8, zone: Bits) -> Zoned {
        Zoned { value, zone }
    }

    /// A value without a zone: no claim it makes is known to hold off any squares.
    const fn unknown(value: i8) -> Zoned {
        Zoned { value, zone: ALL }
    }
}

/// Moves of the attacker's a look for a win by fours may try (see
/// [`crate::fours`]).
pub(crate) const FOURS_BUDGET: u32 = 64;

/// The bytes one slot of the table takes: the key, the bounds, and the map's control byte.
pub(crate) const ENTRY_BYTES: usize = std::mem::size_of::<((Bits, Bits), Bounds)>() + 1;

/// How a proof may run, and how it reports while it does.
#[derive(Debug, Clone, Copy)]
pub struct ProofLimits<'a> {
    /// The most bytes the transposition table may take, while it grows as well.
    pub table_bytes: usize,
    /// Set from outside to stop the proof early.
    pub stop: &'a AtomicBool,
    /// Where the proof keeps its running figures, for progress lines.
    pub progress: &'a Progress,
    /// Stop, as if told to, after searching this many positions; `None` for no limit.
    pub max_nodes: Option<u64>,
}

/// What a running proof counts and is held to, whichever search it is.
#[derive(Debug)]
pub(crate) struct Run<'a> {
    pub(crate) limits: ProofLimits<'a>,
    /// Positions searched.
    pub(crate) nodes: u64,
    /// Set once told to stop, or past [`ProofLimits::max_nodes`].
    pub(crate) stopped: bool,
    /// The table's entries, settled and open.
    pub(crate) tally: Tally,
}

impl<'a> Run<'a> {
    pub(crate) fn new(limits: ProofLimits<'a>, tally: Tally) -> Run<'a> {
        Run {
            limits,
            nodes: 0,
            stopped: false,
            tally,
        }
    }

    /// Counts a position searched, stopping past [`ProofLimits::max_nodes`]; every 65,536
    /// it looks at [`ProofLimits::stop`] too, and says that the figures are due.
    pub(crate) fn count(&mut self) -> bool {
        self.nodes += 1;
        if self.limits.max_nodes.is_some_and(|most| self.nodes > most) {
            self.stopped = true;
        }
        let due = self.nodes.is_multiple_of(65_536);
        if due && self.limits.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        due
    }
}

/// A running proof's figures, updated every 65,536 positions searched and at the end, for
/// another thread to show: how far the search went, and what its table holds. Each entry
/// of the table is a position (up to symmetry) with bounds on its value: *settled* when
/// they meet (a proved win, draw or loss), *open* while only one side of the question is
/// answered (the side to move cannot lose, say, but may or may not win).
///
/// ```
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use ttt_core::{Mark, Position, Rules};
/// use ttt_solver::{ProofLimits, Progress, prove};
///
/// let (stop, progress) = (AtomicBool::new(false), Progress::default());
/// let limits = ProofLimits { table_bytes: 64 << 20, stop: &stop, progress: &progress, max_nodes: None };
/// let proof = prove(&Position::new(Rules::new(5, 4, 4)?, Mark::X), limits)?;
/// assert_eq!(progress.nodes.load(Ordering::Relaxed), proof.nodes);
/// let held = progress.settled.load(Ordering::Relaxed) + progress.open.load(Ordering::Relaxed);
/// assert_eq!(held as usize, proof.table_entries);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct Progress {
    /// Positions searched.
    pub nodes: AtomicU64,
    /// Positions of the table whose value is proved.
    pub settled: AtomicU64,
    /// Positions of the table with one bound of their value proved, the other open.
    pub open: AtomicU64,
    /// The bytes the table takes.
    pub table_bytes: AtomicU64,
}

/// Which search proves a result. Both ask the same two questions (whether the side to
/// move wins, then whether the other side does) with the same knowledge: pairings, the
/// Erdős–Selfridge weight, relevance zones, the board's symmetries (and the alpha-beta
/// wins by fours as well). Both keep a table, which a long run checkpoints.
///
/// ```
/// use ttt_solver::ProofSearch;
///
/// assert_eq!("df-pn".parse::<ProofSearch>()?, ProofSearch::ProofNumber);
/// assert_eq!(ProofSearch::default().to_string(), "alpha-beta");
/// assert!("minimax".parse::<ProofSearch>().is_err());
/// # Ok::<(), ttt_solver::UnknownSearch>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ProofSearch {
    /// Null-window alpha-beta ([`prove`]): the fastest on every board but the largest.
    #[default]
    AlphaBeta,
    /// Depth-first proof-number search: it always works where the proof is cheapest, and
    /// searches far fewer positions on the largest boards (7x7, k=5: a fifth), each
    /// costing more.
    ProofNumber,
}

impl ProofSearch {
    /// Every search, the default first.
    pub const ALL: [ProofSearch; 2] = [ProofSearch::AlphaBeta, ProofSearch::ProofNumber];

    /// Proves `position` with this search (see [`prove`]).
    ///
    /// # Errors
    /// As [`prove`].
    pub fn prove(self, position: &Position, limits: ProofLimits<'_>) -> Result<Proof, ProofError> {
        self.prove_with(position, limits, &mut ProofTable::new(self))
    }

    /// Proves `position` with this search, going on from `table` (see [`prove_with`]).
    ///
    /// # Errors
    /// As [`prove_with`]: [`ProofError::Table`] when the table is of another board, or
    /// kept by the other search.
    pub fn prove_with(
        self,
        position: &Position,
        limits: ProofLimits<'_>,
        table: &mut ProofTable,
    ) -> Result<Proof, ProofError> {
        match self {
            ProofSearch::AlphaBeta => prove_with(position, limits, table),
            ProofSearch::ProofNumber => crate::pn::prove_with(position, limits, table),
        }
    }
}

impl std::fmt::Display for ProofSearch {
    /// `alpha-beta` or `df-pn`, as `ttt solve --search` takes them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ProofSearch::AlphaBeta => "alpha-beta",
            ProofSearch::ProofNumber => "df-pn",
        })
    }
}

/// A name that is no [`ProofSearch`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a search: alpha-beta or df-pn")]
pub struct UnknownSearch(pub String);

impl std::str::FromStr for ProofSearch {
    type Err = UnknownSearch;

    fn from_str(text: &str) -> Result<ProofSearch, UnknownSearch> {
        ProofSearch::ALL
            .into_iter()
            .find(|search| search.to_string().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownSearch(text.to_owned()))
    }
}

/// Proves the result of `position` with perfect play from both sides, within `limits`:
/// the table stays within its bytes, and the proof stops early (with
/// [`ProofError::Stopped`]) once `limits.stop` is set.
///
/// ```
/// use ttt_core::{Mark, Position, Rules};
/// use ttt_solver::{GameResult, ProofLimits, Progress, prove};
/// use std::sync::atomic::AtomicBool;
///
/// let (stop, progress) = (AtomicBool::new(false), Progress::default());
/// let limits = ProofLimits { table_bytes: 64 << 20, stop: &stop, progress: &progress, max_nodes: None };
/// let proof = prove(&Position::new(Rules::new(6, 5, 4)?, Mark::X), limits)?;
/// assert_eq!(proof.result, GameResult::Win);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ProofError::Board`] above 64 squares, [`ProofError::Stopped`] when stopped.
pub fn prove(position: &Position, limits: ProofLimits<'_>) -> Result<Proof, ProofError> {
    prove_with(position, limits, &mut ProofTable::default())
}

/// [`prove`] with a table kept from earlier proofs of positions on the same board (a
/// checkpoint of an interrupted run, read back with [`ProofTable::from_bytes`]): what they
/// proved is not searched again. The table keeps what this proof proves, even when it is
/// stopped.
///
/// # Errors
/// As [`prove`]; [`ProofError::Table`] too when the table is of another board, or kept by
/// [`ProofSearch::ProofNumber`].
pub fn prove_with(
    position: &Position,
    limits: ProofLimits<'_>,
    table: &mut ProofTable,
) -> Result<Proof, ProofError> {
    let start = Instant::now();
    let geometry = Geometry::new(position.rules())?;
    let entries = table.bounds(position.rules())?;
    let mut prover = Prover::new(&geometry, entries, limits);
    drive(&mut prover, position, start)
}

/// What [`drive`] needs of a search.
pub(crate) trait Proving {
    /// The geometry it searches on.
    fn geometry(&self) -> &Geometry;
    /// Its counts and limits.
    fn run(&self) -> &Run<'_>;
    /// Positions in its table, and the bytes one takes.
    fn table(&self) -> (usize, usize);
    /// The result for the side holding `mine`, to move (the game goes on); anything once
    /// stopped.
    fn result(&mut self, mine: Bits, theirs: Bits) -> GameResult;
    /// A move that keeps `result` (the side to move's, proved), most promising first.
    fn keeping_move(&mut self, mine: Bits, theirs: Bits, result: GameResult) -> Option<u8>;

    /// Shows its running figures to whoever watches [`ProofLimits::progress`].
    fn publish(&self) {
        let run = self.run();
        let (entries, entry_bytes) = self.table();
        run.tally
            .publish(run.limits.progress, run.nodes, entries * entry_bytes);
    }
}

/// Proves `position` with `search`, started at `start`: its result, then a move that keeps
/// it, each only as far as the search was not stopped.
pub(crate) fn drive(
    search: &mut impl Proving,
    position: &Position,
    start: Instant,
) -> Result<Proof, ProofError> {
    let (mine, theirs) = search.geometry().sides(position);
    let stopped = |search: &dyn Proving, result| {
        search.publish();
        ProofError::Stopped {
            result,
            nodes: search.run().nodes,
            seconds: start.elapsed().as_secs_f64(),
        }
    };
    let (result, best_move) = if position.is_over() {
        let result = match position.outcome() {
            Some(ttt_core::Outcome::Draw) => GameResult::Draw,
            _ => GameResult::Loss,
        };
        (result, None)
    } else {
        let result = search.result(mine, theirs);
        if search.run().stopped {
            return Err(stopped(search, None));
        }
        let best = search.keeping_move(mine, theirs, result);
        // A stop while trying moves makes every value after it meaningless: the result
        // stands, but no move was proved to keep it.
        if search.run().stopped {
            return Err(stopped(search, Some(result)));
        }
        (result, best.map(|square| Square::new(usize::from(square))))
    };
    search.publish();
    let (table_entries, entry_bytes) = search.table();
    Ok(Proof {
        result,
        best_move,
        nodes: search.run().nodes,
        elapsed: start.elapsed(),
        table_entries,
        table_bytes: table_entries * entry_bytes,
    })
}

struct Prover<'a> {
    geometry: &'a Geometry,
    table: &'a mut BitsMap<(Bits, Bits), Bounds>,
    /// Its counts and limits; the tally of the entries whose bounds meet, and the others.
    run: Run<'a>,
}

impl<'a> Prover<'a> {
    fn new(
        geometry: &'a Geometry,
        table: &'a mut BitsMap<(Bits, Bits), Bounds>,
        limits: ProofLimits<'a>,
    ) -> Prover<'a> {
        let tally = Tally::of(table.values().map(|bounds| bounds.is_settled()));
        Prover {
            geometry,
            table,
            run: Run::new(limits, tally),
        }
    }

    /// Makes room in a full table by forgetting its deepest positions, about half of
    /// them: those of the most marks, whose proofs were the smallest and are the quickest
    /// to find again. Long proofs stalled on a full table, keeping nothing new; now the
    /// table turns over, and the positions near the root, whose proofs took longest, stay.
    /// Whether there is room now.
    fn forget_deepest(&mut self) -> bool {
        let marks = |key: &(Bits, Bits), _: &Bounds| (key.0 | key.1).count_ones() as usize;
        let room = forget_half(self.table, marks);
        self.run.tally = Tally::of(self.table.values().map(|bounds| bounds.is_settled()));
        room
    }
}

impl Proving for Prover<'_> {
    fn geometry(&self) -> &Geometry {
        self.geometry
    }

    fn result(&mut self, mine: Bits, theirs: Bits) -> GameResult {
        match self.settle(mine, theirs) {
            1 => GameResult::Win,
            0 => GameResult::Draw,
            _ => GameResult::Loss,
        }
    }

    fn keeping_move(&mut self, mine: Bits, theirs: Bits, result: GameResult) -> Option<u8> {
        let value = match result {
            GameResult::Win => 1,
            GameResult::Draw => 0,
            GameResult::Loss => -1,
        };
        self.best_move(mine, theirs, value)
    }

    fn run(&self) -> &Run<'_> {
        &self.run
    }

    fn table(&self) -> (usize, usize) {
        (self.table.len(), ENTRY_BYTES)
    }
}

impl Prover<'_> {
    /// The value for the side holding `mine`, to move, within (`alpha`, `beta`); the game
    /// goes on in this position. With a null window the answer is a claim about one side,
    /// and comes with its zone (see [`Zoned`]): for (0, 1), that the side to move cannot
    /// win when the value is at most 0; for (-1, 0), that the other side cannot win when
    /// the value is at least 0. [`ALL`] otherwise.
    fn value(&mut self, mine: Bits, theirs: Bits, mut alpha: i8, mut beta: i8) -> Zoned {
        if self.run.count() {
            self.publish();
        }
        if self.run.stopped {
            return Zoned::unknown(0);
        }
        // Which claim a zone is for: the side to move not winning (it needs a win to
        // pass `alpha`), or the other side not winning (a draw reaches `beta`).
        let (upper_claim, lower_claim) = (alpha >= 0, beta <= 0);
        let geometry = self.geometry;
        let (free, their_wins, my_live, their_live) = match geometry.board_says(mine, theirs) {
            BoardSays::Full => return Zoned::new(0, 0),
            // The other side cannot win: this one wins first, whatever marks the other
            // gains off the winning square and two of each of its windows.
            BoardSays::Wins(_) if !lower_claim => return Zoned::unknown(1),
            BoardSays::Wins(win) => return self.zoned(1, geometry.guard(theirs, mine, win)),
            BoardSays::Loses(_) if !upper_claim => return Zoned::unknown(-1),
            BoardSays::Loses(wins) => return self.zoned(-1, geometry.guard(mine, theirs, wins)),
            BoardSays::Open {
                free,
                their_win,
                my_live,
                their_live,
            } => (free, their_win, my_live, their_live),
        };
        // A side with no line left open can no longer win; nor can one whose open lines
        // the other side covers with a pairing (it answers each move in its pair): the
        // pairing's squares are the zone.
        // In a null window only one of them can decide: the other bound is already met.
        let lowest_zone = if upper_claim {
            None
        } else {
            geometry.cannot_win(their_live, theirs, mine, false)
        };
        let highest_zone = if lower_claim {
            None
        } else {
            geometry.cannot_win(my_live, mine, theirs, true)
        };
        let lowest = if lowest_zone.is_some() { 0 } else { -1 };
        let highest = if highest_zone.is_some() { 0 } else { 1 };
        // The zone of the claim this window asks about, where a bound above decides it.
        let decided = match (upper_claim, lower_claim) {
            (true, _) => highest_zone,
            (_, true) => lowest_zone,
            _ => None,
        };
        if lowest == highest {
            return self.zoned(lowest, decided.unwrap_or(ALL));
        }
        alpha = alpha.max(lowest);
        beta = beta.min(highest);
        if alpha >= beta {
            return self.zoned(alpha, decided.unwrap_or(ALL));
        }
        let (key, symmetry) = geometry.canonical_with(mine, theirs);
        let stored = self.table.get(&key).copied();
        if let Some(bounds) = stored {
            if bounds.lower >= beta {
                let zone = if lower_claim { bounds.lower_zone } else { ALL };
                return self.zoned(bounds.lower, geometry.from_key(symmetry, zone));
            }
            if bounds.upper <= alpha {
                let zone = if upper_claim { bounds.upper_zone } else { ALL };
                return self.zoned(bounds.upper, geometry.from_key(symmetry, zone));
            }
            alpha = alpha.max(bounds.lower);
            beta = beta.min(bounds.upper);
        }
        // A win by fours, where only a win is asked about (a claim about the other side
        // would need a zone, which such a win does not give).
        if beta > 0
            && !lower_claim
            && stored.is_none()
            && geometry.fours_from(mine, theirs, their_wins, &mut { FOURS_BUDGET })
        {
            return Zoned::unknown(1);
        }
        let (alpha_in, beta_in) = (alpha, beta);
        let forced = their_wins != 0;
        let mut moves = if forced {
            vec![their_wins.trailing_zeros() as u8]
        } else {
            // The side answering a threat of a win looks for the squares that block the
            // most; the side seeking a win, for the lines nearest completion.
            geometry.ordered_moves(mine, theirs, free, MoveOrder::seeking_a_win(!lower_claim))
        };
        // The move that decided last time first: but the table holds one symmetric image of
        // this position, so its move is only known good when no symmetry was applied.
        if let Some(best) = stored.filter(|_| key == (mine, theirs)).map(|b| b.best)
            && let Some(index) = moves.iter().position(|&m| m == best)
        {
            moves[..=index].rotate_right(1);
        }
        let mut best = i8::MIN;
        let mut best_move = moves[0];
        // Once a draw is in hand, only the moves that might still win matter: those in the
        // zone of every move found not to win (see `Zoned`), and in a refutation zone
        // (see `refutation_zone`), worked out once, when first needed.
        let mut allowed = ALL;
        let mut refuted = false;
        // The zone of the claim this search makes, as far as it has got.
        let mut zone: Bits = 0;
        let mut passed_over = false;
        for square in moves {
            // (After the first move: where it wins, no zone is needed.)
            if alpha >= 0 && !forced && best > i8::MIN {
                if !refuted {
                    refuted = true;
                    if let Some(refutation) = geometry.refutation_zone(mine, theirs, free) {
                        allowed &= refutation;
                        zone |= refutation;
                    }
                }
                if allowed >> square & 1 == 0 {
                    passed_over = true;
                    continue;
                }
            }
            let after = mine | 1 << square;
            let child = self.value(theirs, after, -beta, -alpha);
            let score = -child.value;
            if score > best {
                best = score;
                best_move = square;
            }
            if lower_claim {
                if score >= beta {
                    // The other side cannot win after this move, as long as it is free.
                    zone = child.zone | 1 << square;
                }
            } else if score <= 0 {
                // This move does not win, nor does any off its zone (see `Zoned`).
                zone |= child.zone;
                if alpha >= 0 && child.zone != ALL {
                    allowed &= child.zone;
                }
            }
            alpha = alpha.max(score);
            if alpha >= beta || self.run.stopped {
                break;
            }
        }
        if passed_over {
            // The moves passed over are worth at most a draw.
            best = best.max(0);
        }
        if forced && upper_claim {
            // Any other move loses to the other side's win, unless it wins at once: the
            // squares it would need are guarded.
            zone = geometry.guard(mine, theirs, zone | their_wins);
        }
        if self.run.stopped {
            return Zoned::unknown(best);
        }
        let (mut lower, mut upper) = stored.map_or((-1, 1), |b| (b.lower, b.upper));
        let (mut lower_zone, mut upper_zone) =
            stored.map_or((ALL, ALL), |b| (b.lower_zone, b.upper_zone));
        let keyed = geometry.to_key(symmetry, self.geometry.zone_or_all(zone));
        if best <= alpha_in {
            upper = best;
            upper_zone = if upper_claim { keyed } else { ALL };
        } else if best >= beta_in {
            lower = best;
            lower_zone = if lower_claim { keyed } else { ALL };
        } else {
            (lower, upper) = (best, best);
            (lower_zone, upper_zone) = (ALL, ALL);
        }
        let bounds = Bounds {
            lower,
            upper,
            best: best_move,
            lower_zone,
            upper_zone,
        };
        // Overwrite in place: the map's `insert` makes room for one more first, and
        // a full table would double.
        if let Some(slot) = self.table.get_mut(&key) {
            let old = std::mem::replace(slot, bounds);
            self.run
                .tally
                .change(Some(old.is_settled()), bounds.is_settled());
        } else if has_room(self.table, ENTRY_BYTES, self.run.limits.table_bytes)
            || self.forget_deepest()
        {
            self.table.insert(key, bounds);
            self.run.tally.change(None, bounds.is_settled());
        }
        let claim_holds = (upper_claim && best <= alpha_in) || (lower_claim && best >= beta_in);
        if claim_holds {
            self.zoned(best, zone)
        } else {
            Zoned::unknown(best)
        }
    }

    /// The value for the side holding `mine`, to move, asked as two questions of one side
    /// each, where zones work: whether it wins, then whether it avoids losing.
    fn settle(&mut self, mine: Bits, theirs: Bits) -> i8 {
        if self.value(mine, theirs, 0, 1).value > 0 {
            return 1;
        }
        if self.run.stopped {
            return 0;
        }
        self.value(mine, theirs, -1, 0).value.min(0)
    }

    /// `value` with `zone`, where zones may be used at all.
    fn zoned(&self, value: i8, zone: Bits) -> Zoned {
        Zoned::new(value, self.geometry.zone_or_all(zone))
    }

    /// A move that keeps `value`, found by trying each: the proof's first move.
    fn best_move(&mut self, mine: Bits, theirs: Bits, value: i8) -> Option<u8> {
        let free = self.geometry.full() & !(mine | theirs);
        let order = MoveOrder::seeking_a_win(value > 0);
        let moves = self.geometry.ordered_moves(mine, theirs, free, order);
        moves.into_iter().find(|&square| {
            if self.run.stopped {
                return false;
            }
            let after = mine | 1 << square;
            if self.geometry.wins_at(after, usize::from(square)) {
                return value == 1;
            }
            if after | theirs == self.geometry.full() {
                return value == 0;
            }
            // The other side, to move, is held to at most `-value`: one question of one
            // side (the move is worth no more than `value` anyway).
            self.at_most(theirs, after, -value)
        })
    }

    /// Whether the side holding `mine`, to move, is worth at most `bound`: asked as the
    /// one null-window question that settles it.
    fn at_most(&mut self, mine: Bits, theirs: Bits, bound: i8) -> bool {
        match bound {
            ..=-1 => self.value(mine, theirs, -1, 0).value < 0,
            0 => self.value(mine, theirs, 0, 1).value <= 0,
            _ => true,
        }
    }
}

/// What a written proof shows, from its root position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// This side wins, whatever the other does.
    Wins(ttt_core::Mark),
    /// This side cannot win, whatever it does: the other side holds it to a draw or wins.
    CannotWin(ttt_core::Mark),
}

impl std::fmt::Display for Claim {
    /// `X wins` or `X cannot win`, as a proof's `claim` line says it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Claim::Wins(mark) => write!(f, "{mark} wins"),
            Claim::CannotWin(mark) => write!(f, "{mark} cannot win"),
        }
    }
}

/// Writes a proof of `claim` from `position` that code knowing only the rules can check
/// (`ttt verify`): a `claim` line, then one line a position, `ID | POSITION | STEP`, the
/// root first as `0`, each position once however many lines lead to it. A step is one of:
/// `all ID ...` (the side whose moves must all be answered is to move: one child for each
/// legal move, in the order of `Position::legal_moves`), `move SQUARE ID` (the side the
/// claim favours chooses this move), `pairing A-B C-D ...` (for `cannot win`: pairs of
/// free squares, none in two pairs, such that every line still open to the side that
/// cannot win holds a whole pair), `won` (the claimed winner has made a line) or `over`
/// (the game ended without a line of the side that cannot win). Squares are named as
/// letter and row (`c3`).
///
/// # Errors
/// [`ProofError::Board`] above 64 squares; [`ProofError::Stopped`] when stopped, or when
/// the claim is not true (then `result` says what the position is worth).
pub fn write_proof(
    position: &Position,
    claim: Claim,
    limits: ProofLimits<'_>,
) -> Result<String, ProofError> {
    let start = Instant::now();
    let geometry = Geometry::new(position.rules())?;
    let mut table = BitsMap::default();
    let mut writer = ProofWriter {
        prover: Prover::new(&geometry, &mut table, limits),
        claim,
        ids: std::collections::HashMap::new(),
        lines: Vec::new(),
    };
    let written = writer.node(position);
    if writer.prover.run.stopped || written.is_none() {
        return Err(ProofError::Stopped {
            result: None,
            nodes: writer.prover.run.nodes,
            seconds: start.elapsed().as_secs_f64(),
        });
    }
    let mut text = format!("claim {claim}\n");
    for line in writer.lines {
        text.push_str(&line);
        text.push('\n');
    }
    Ok(text)
}

/// Walks the proved positions, writing each once.
struct ProofWriter<'a> {
    prover: Prover<'a>,
    claim: Claim,
    ids: std::collections::HashMap<Position, usize>,
    lines: Vec<String>,
}

impl ProofWriter<'_> {
    /// The id of `position`'s line, written with every line under it; `None` when the
    /// claim does not hold there (or the prover stopped).
    fn node(&mut self, position: &Position) -> Option<usize> {
        if let Some(&id) = self.ids.get(position) {
            return Some(id);
        }
        // Told to stop (a signal, while a long proof is written out): stop here too, not
        // only in the searches that settle each step.
        if self
            .prover
            .run
            .limits
            .stop
            .load(std::sync::atomic::Ordering::Relaxed)
        {
            self.prover.run.stopped = true;
            return None;
        }
        // Its id first, so that its children come after it.
        let id = self.lines.len();
        self.lines.push(String::new());
        self.ids.insert(position.clone(), id);
        let step = self.step(position)?;
        self.lines[id] = format!("{id} | {position} | {step}");
        Some(id)
    }

    /// The step from `position`: a leaf, the favoured side's move, or every reply.
    fn step(&mut self, position: &Position) -> Option<String> {
        let (attacker, wins) = match self.claim {
            Claim::Wins(mark) => (mark, true),
            Claim::CannotWin(mark) => (mark, false),
        };
        if position.is_over() {
            let attacker_won = position.outcome()?.winner() == Some(attacker);
            return match (wins, attacker_won) {
                (true, true) => Some("won".to_owned()),
                (false, false) => Some("over".to_owned()),
                _ => None,
            };
        }
        if !wins && let Some(pairs) = self.pairing(position, attacker) {
            return Some(pairs);
        }
        let chooser = if wins { attacker } else { !attacker };
        if position.to_move() == chooser {
            let square = self.choice(position, attacker, wins)?;
            let child = self.node(&position.after(square).ok()?)?;
            return Some(format!("move {} {child}", self.name(position, square)));
        }
        let mut children = Vec::new();
        for square in position.legal_moves() {
            children.push(self.node(&position.after(square).ok()?)?.to_string());
        }
        Some(format!("all {}", children.join(" ")))
    }

    fn name(&self, position: &Position, square: Square) -> String {
        ttt_core::SquareNaming::Letters.label(square, position.rules())
    }

    /// The `pairing` step for `attacker` in `position`, if the geometry finds one.
    fn pairing(&self, position: &Position, attacker: ttt_core::Mark) -> Option<String> {
        let (x, o) = self.prover.geometry.split(position.board());
        let (mine, theirs) = if attacker == ttt_core::Mark::X {
            (x, o)
        } else {
            (o, x)
        };
        let pairs = self.prover.geometry.pairing(mine, theirs)?;
        let named: Vec<String> = pairs
            .iter()
            .map(|&(a, b)| {
                format!(
                    "{}-{}",
                    self.name(position, Square::new(usize::from(a))),
                    self.name(position, Square::new(usize::from(b)))
                )
            })
            .collect();
        Some(format!("pairing {}", named.join(" ")).trim_end().to_owned())
    }

    /// A move for the side the claim favours that keeps the claim, by the prover.
    fn choice(
        &mut self,
        position: &Position,
        attacker: ttt_core::Mark,
        wins: bool,
    ) -> Option<Square> {
        // The search's own order, most promising first: the first that keeps the claim.
        let geometry = self.prover.geometry;
        let (mine, theirs) = geometry.sides(position);
        let free = geometry.full() & !(mine | theirs);
        // A reply after which a pairing holds the attacker is a leaf at once: most moves
        // of the attacker's are answered so (every one outside the search's refutation
        // zones is).
        if !wins && let Some((square, _)) = geometry.pairing_replies(theirs, mine, free).next() {
            return Some(Square::new(usize::from(square)));
        }
        geometry
            .ordered_moves(mine, theirs, free, MoveOrder::seeking_a_win(wins))
            .into_iter()
            .map(|square| Square::new(usize::from(square)))
            .find(|&square| {
                let Ok(after) = position.after(square) else {
                    return false;
                };
                if after.is_over() {
                    let attacker_won = after.outcome().and_then(|o| o.winner()) == Some(attacker);
                    return attacker_won == wins;
                }
                let (mine, theirs) = self.prover.geometry.sides(&after);
                // After the favoured side's move, the other side is to move: it loses
                // (a win's proof), or cannot win (a draw's).
                let bound = if wins { -1 } else { 0 };
                self.prover.at_most(mine, theirs, bound)
            })
    }
}
