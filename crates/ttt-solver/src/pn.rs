//! Depth-first proof-number search (df-pn: Nagai 2002, after Allis's proof-number search,
//! 1994) over the same questions, leaves and zones as the [`prover`](crate::prover)'s
//! alpha-beta: whether one side (the *attacker*) can force a win.
//!
//! The question is an AND/OR tree: where the attacker is to move one move must win (an OR
//! node), where the defender is to move every reply must lose (an AND node). Each node
//! carries a proof number (how many more leaves must be proved wins to prove it) and a
//! disproof number (to disprove it); the search always works on the most proving node,
//! the one whose settling costs least, within thresholds that bring it back up only when
//! another branch has become cheaper.
//!
//! The leaves are the prover's, but for its wins by fours: a win on the board, two squares
//! to win on, no line left open to the attacker, an Erdős–Selfridge weight or a pairing of
//! the defender's. So are
//! the relevance zones of a disproof (see `Zoned` in the prover): at an OR node, once one
//! move is disproved, every move off its zone is disproved with it.

use web_time::Instant;

use ttt_core::Position;

use crate::GameResult;
use crate::geometry::{ALL, Bits, BoardSays, Geometry, MoveOrder};
use crate::hash::{BitsMap, Tally, forget_half, has_room};
pub(crate) use crate::proof_numbers::Numbers;
use crate::proof_numbers::{Epsilon, INFINITY, weigh};
use crate::prover::{Proof, ProofError, ProofLimits, Proving, Run, drive};
use crate::table::ProofTable;

/// The 1 + ε trick's ε: the most proving child is searched until its number passes twice
/// the second least (see [`Epsilon::widen`]). On 7x7, k=5: 1,181,044 positions with the
/// plain second least plus one, 793,750 with ε a half, 604,568 with ε = 1, 654,738 with
/// 5/4, 919,875 with 3/2 (587,945 with twice the second least and one more, before the
/// widening was shared with the threat search; 6x6, k=4: 34,677 where that took 24,208,
/// but 5x5 and 6x5 with k=4 a little fewer).
const EPSILON: Epsilon = Epsilon::ONE;

/// Moves of the order that start with the same numbers (see `first_numbers`).
const RANKS_A_STEP: usize = 4;

/// What the table keeps of a node: its numbers, a set of squares, and the work it took.
/// The squares are, for a disproved node, the zone of the disproof; for an OR node still
/// open, its refutation zone (0: not worked out yet); [`ALL`] otherwise. Both in the frame
/// of the table's key.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    pub(crate) numbers: Numbers,
    pub(crate) squares: Bits,
    /// Positions searched for it so far, up to `u32::MAX`.
    pub(crate) work: u32,
}

/// A table key: the position folded by its symmetries (side to move first), and whether
/// the attacker is to move.
pub(crate) type Key = ((Bits, Bits), bool);

/// The bytes one slot of the table takes, with the map's control byte.
const ENTRY_BYTES: usize = std::mem::size_of::<(Key, Entry)>() + 1;

/// Proves the result of `position` as [`prove_with`](crate::prove_with) does, by
/// proof-number search (whether the side to move wins, then whether the other side does),
/// going on from `table` and leaving in it what this proof learnt.
pub(crate) fn prove_with(
    position: &Position,
    limits: ProofLimits<'_>,
    table: &mut ProofTable,
) -> Result<Proof, ProofError> {
    let start = Instant::now();
    let geometry = Geometry::new(position.rules())?;
    let table = table.numbers(position.rules())?;
    let tally = Tally::of(table.values().map(|entry| entry.numbers.is_settled()));
    let mut search = Search {
        geometry: &geometry,
        table,
        run: Run::new(limits, tally),
    };
    drive(&mut search, position, start)
}

struct Search<'a> {
    geometry: &'a Geometry,
    table: &'a mut BitsMap<Key, Entry>,
    /// Its counts and limits; the tally of the entries that are settled (proved or
    /// disproved), and the others.
    run: Run<'a>,
}

/// A move of a node being searched, with what is known of the position after it: its
/// numbers, and the zone of its disproof ([`ALL`] when none is known).
#[derive(Debug, Clone, Copy)]
struct Child {
    square: u8,
    numbers: Numbers,
    zone: Bits,
}

/// A node being searched (one that is no leaf): the side to move's marks and the other's,
/// and its moves.
struct Node {
    mine: Bits,
    theirs: Bits,
    attacker_moves: bool,
    /// The other side's one square to win on, which the side to move must take (then
    /// its only move); 0 when it has none.
    their_win: Bits,
    /// Where the attacker is to move, the squares outside which no move of its can win
    /// (see [`Geometry::refutation_zone`]), once worked out; [`ALL`] where none is known.
    refutation: Option<Bits>,
    children: Vec<Child>,
}

impl Node {
    /// The moves still in play, and the union of the zones of the moves disproved so far.
    /// Where the attacker is to move, once one of its moves is disproved, a move off that
    /// disproof's zone does not win either (see `Zoned` in the prover): only the moves in
    /// the refutation zone and in every such zone are in play.
    fn in_play(&self) -> (Bits, Bits) {
        let mut allowed = self.refutation.unwrap_or(ALL);
        let mut disproved_zones = 0;
        if self.attacker_moves {
            for child in self.children.iter().filter(|c| c.numbers.disproof == 0) {
                disproved_zones |= child.zone;
                if self.their_win == 0 && child.zone != ALL {
                    allowed &= child.zone | 1 << child.square;
                }
            }
        }
        (allowed, disproved_zones)
    }

    /// The zone of this node's disproof, from its children's (see `Zoned` in the prover).
    fn disproof_zone(&self, geometry: &Geometry, disproved_zones: Bits) -> Bits {
        if !self.attacker_moves {
            // The defender's reply that holds, and its zone.
            return self
                .children
                .iter()
                .find(|child| child.numbers.disproof == 0)
                .map_or(ALL, |child| {
                    if child.zone == ALL {
                        ALL
                    } else {
                        child.zone | 1 << child.square
                    }
                });
        }
        let mut zone = disproved_zones;
        if let Some(refutation) = self.refutation
            && refutation != ALL
        {
            zone |= refutation;
        }
        if zone == ALL {
            return ALL;
        }
        if self.their_win != 0 {
            // Any other move loses to the defender's win, unless it wins at once: the
            // squares it would need are guarded.
            zone = geometry.guard(self.mine, self.theirs, zone | self.their_win);
        }
        geometry.zone_or_all(zone)
    }
}

impl Proving for Search<'_> {
    fn geometry(&self) -> &Geometry {
        self.geometry
    }

    /// Two questions of one side each: whether the side to move wins, then whether the
    /// other side does.
    fn result(&mut self, mine: Bits, theirs: Bits) -> GameResult {
        if self.wins(mine, theirs, true) {
            GameResult::Win
        } else if !self.run.stopped && self.wins(mine, theirs, false) {
            GameResult::Loss
        } else {
            GameResult::Draw
        }
    }

    /// A move that keeps `result`, the proved result of the side holding `mine`, to move:
    /// the first of its move order whose position is proved a loss for the other side
    /// (for a win), or disproved a win for it (for a draw); for a loss, the first.
    fn keeping_move(&mut self, mine: Bits, theirs: Bits, result: GameResult) -> Option<u8> {
        let free = self.geometry.full() & !(mine | theirs);
        let win = result == GameResult::Win;
        let order = MoveOrder::seeking_a_win(win);
        let moves = self.geometry.ordered_moves(mine, theirs, free, order);
        if result == GameResult::Loss {
            return moves.first().copied();
        }
        let wins_now = self.geometry.threats(mine, theirs).0 & free;
        if wins_now != 0 {
            return Some(wins_now.trailing_zeros() as u8);
        }
        // The search that settled the root left the move that did it in the table (unless
        // the table forgot it): searching the moves before it to the end could cost more
        // than the proof did.
        let keeps = |numbers: Numbers| {
            if win {
                numbers.proof == 0
            } else {
                numbers.disproof == 0
            }
        };
        let known = moves.iter().copied().find(|&square| {
            let (key, _) = self.geometry.canonical_with(theirs, mine | 1 << square);
            self.table
                .get(&(key, !win))
                .is_some_and(|entry| keeps(entry.numbers))
        });
        if known.is_some() {
            return known;
        }
        moves.into_iter().find(|&square| {
            if self.run.stopped {
                return false;
            }
            let after = mine | 1 << square;
            if self.geometry.wins_at(after, usize::from(square)) {
                return win;
            }
            if after | theirs == self.geometry.full() {
                return !win;
            }
            // After a winning move the other side, to move, is the defender and loses;
            // after a drawing one, it is the attacker and does not win.
            let (child, _) = self.search(theirs, after, !win, INFINITY, INFINITY);
            keeps(child)
        })
    }

    fn run(&self) -> &Run<'_> {
        &self.run
    }

    fn table(&self) -> (usize, usize) {
        (self.table.len(), ENTRY_BYTES)
    }
}

impl Search<'_> {
    /// Whether the attacker wins from the position with `mine` to move: the side to move
    /// when `attacker_moves`, else the other.
    fn wins(&mut self, mine: Bits, theirs: Bits, attacker_moves: bool) -> bool {
        let (numbers, _) = self.search(mine, theirs, attacker_moves, INFINITY, INFINITY);
        !self.run.stopped && numbers.proof == 0
    }

    /// The leaf value of a node seen for the first time, with its zone when disproved:
    /// `None` when it is not a leaf.
    fn leaf(&self, mine: Bits, theirs: Bits, attacker_moves: bool) -> Option<Entry> {
        let geometry = self.geometry;
        let disproved = |zone: Bits| Entry {
            numbers: Numbers::DISPROVED,
            squares: self.geometry.zone_or_all(zone),
            work: 1,
        };
        let proved = Entry {
            numbers: Numbers::PROVED,
            squares: ALL,
            work: 1,
        };
        let (my_live, their_live) = match geometry.board_says(mine, theirs) {
            BoardSays::Full => return Some(disproved(0)),
            BoardSays::Wins(_) if attacker_moves => return Some(proved),
            BoardSays::Wins(win) => return Some(disproved(geometry.guard(theirs, mine, win))),
            BoardSays::Loses(_) if !attacker_moves => return Some(proved),
            BoardSays::Loses(wins) => return Some(disproved(geometry.guard(mine, theirs, wins))),
            BoardSays::Open {
                my_live,
                their_live,
                ..
            } => (my_live, their_live),
        };
        // No look for a win by fours here (the alpha-beta's leaves have one): measured, it
        // sent df-pn after harder wins on 6x6, k=4 (565,920 positions, not 24,209) and
        // saved nothing on 7x7, k=5.
        let cannot_win = if attacker_moves {
            geometry.cannot_win(my_live, mine, theirs, true)
        } else {
            geometry.cannot_win(their_live, theirs, mine, false)
        };
        cannot_win.map(disproved)
    }

    /// A node that is no leaf, with its moves (most promising first, those outside its
    /// refutation zone left out), each with what the table knows of it: a move not in the
    /// table yet starts from numbers that follow the move order. `stored` is what the
    /// table holds of the node: where the attacker is to move and it is open, its
    /// refutation zone (0: not worked out yet).
    fn node(&self, mine: Bits, theirs: Bits, attacker_moves: bool, stored: Option<Bits>) -> Node {
        let geometry = self.geometry;
        let free = geometry.full() & !(mine | theirs);
        let their_win = geometry.threats(theirs, mine).0 & free;
        let forced = their_win != 0;
        let squares = if forced {
            vec![their_win.trailing_zeros() as u8]
        } else {
            let order = MoveOrder::seeking_a_win(attacker_moves);
            geometry.ordered_moves(mine, theirs, free, order)
        };
        let refutation = match stored {
            _ if !attacker_moves || forced => Some(ALL),
            Some(0) | None => None,
            Some(zone) => Some(zone),
        };
        let images = geometry.images(theirs, mine);
        let first = refutation.unwrap_or(ALL);
        let children = squares
            .into_iter()
            .enumerate()
            .filter(|&(_, square)| first >> square & 1 == 1)
            .map(|(rank, square)| {
                let (key, symmetry) = geometry.canonical_adding(&images, usize::from(square));
                let Some(entry) = self.table.get(&(key, !attacker_moves)) else {
                    return Child {
                        square,
                        numbers: first_numbers(rank, attacker_moves),
                        zone: ALL,
                    };
                };
                let zone = if entry.numbers.disproof == 0 {
                    from_key(geometry, symmetry, entry.squares)
                } else {
                    ALL
                };
                Child {
                    square,
                    numbers: entry.numbers,
                    zone,
                }
            })
            .collect();
        Node {
            mine,
            theirs,
            attacker_moves,
            their_win,
            refutation,
            children,
        }
    }

    fn store(&mut self, key: Key, entry: Entry) {
        let settled = entry.numbers.is_settled();
        if let Some(slot) = self.table.get_mut(&key) {
            let old = std::mem::replace(slot, entry);
            self.run
                .tally
                .change(Some(old.numbers.is_settled()), settled);
            return;
        }
        // A full table forgets the half that took the least work to settle or to get
        // where they are (the highest ranks): df-pn comes back to the costly ones again
        // and again. Work ranks by its power of two; among equal work the deepest go
        // first (half a rank a mark), so that no one rank holds most of the table (on
        // 8x8, a work of 1 is most of it).
        let least_work = |key: &Key, entry: &Entry| {
            let marks = ((key.0).0 | (key.0).1).count_ones() as usize;
            entry.work.leading_zeros() as usize + marks / 2
        };
        let room = has_room(self.table, ENTRY_BYTES, self.run.limits.table_bytes) || {
            let room = forget_half(self.table, least_work);
            self.run.tally = Tally::of(self.table.values().map(|e| e.numbers.is_settled()));
            room
        };
        if room {
            self.table.insert(key, entry);
            self.run.tally.change(None, settled);
        }
    }

    /// Searches the node with `mine` to move until its numbers reach a threshold (or it
    /// is settled): the multiple iterative deepening of df-pn. Its numbers, and the zone
    /// of its disproof ([`ALL`] when it is not disproved or has none).
    fn search(
        &mut self,
        mine: Bits,
        theirs: Bits,
        attacker_moves: bool,
        proof_threshold: u32,
        disproof_threshold: u32,
    ) -> (Numbers, Bits) {
        let first_node = self.run.nodes;
        self.count_node();
        let geometry = self.geometry;
        let (folded, symmetry) = geometry.canonical_with(mine, theirs);
        let key = (folded, attacker_moves);
        let stored = self.table.get(&key).copied();
        if let Some(entry) = stored
            && entry.numbers.is_settled()
        {
            return (entry.numbers, from_key(geometry, symmetry, entry.squares));
        }
        if stored.is_none()
            && let Some(entry) = self.leaf(mine, theirs, attacker_moves)
        {
            let squares = to_key(geometry, symmetry, entry.squares);
            self.store(key, Entry { squares, ..entry });
            return (entry.numbers, entry.squares);
        }
        let refutation = stored.map(|entry| from_key(geometry, symmetry, entry.squares));
        let mut node = self.node(mine, theirs, attacker_moves, refutation);
        loop {
            if node.refutation.is_none()
                && node
                    .children
                    .iter()
                    .any(|child| child.numbers.disproof == 0)
            {
                let free = geometry.full() & !(mine | theirs);
                let zone = geometry.refutation_zone(mine, theirs, free);
                node.refutation = Some(zone.unwrap_or(ALL));
            }
            let (allowed, disproved_zones) = node.in_play();
            let in_play = node
                .children
                .iter()
                .enumerate()
                .filter(|(_, child)| allowed >> child.square & 1 == 1)
                .map(|(index, child)| (index, child.numbers));
            let weighed = weigh(in_play, attacker_moves);
            // No move in play: the attacker has none that wins, the defender none that
            // holds.
            let numbers = weighed.map_or(Numbers::without_moves(attacker_moves), |weighed| {
                weighed.numbers
            });
            let limit = Numbers::new(proof_threshold, disproof_threshold);
            if numbers.reached(limit) || self.run.stopped {
                let zone = if numbers.disproof == 0 {
                    node.disproof_zone(geometry, disproved_zones)
                } else {
                    ALL
                };
                if !self.run.stopped {
                    // An open node keeps its refutation zone (0: not worked out yet).
                    let kept = if numbers.disproof == 0 {
                        zone
                    } else {
                        node.refutation.unwrap_or(0)
                    };
                    let searched = u32::try_from(self.run.nodes - first_node).unwrap_or(u32::MAX);
                    let entry = Entry {
                        numbers,
                        squares: to_key(geometry, symmetry, kept),
                        work: stored.map_or(0, |e| e.work).saturating_add(searched),
                    };
                    self.store(key, entry);
                }
                return (numbers, zone);
            }
            // The most proving child, and the thresholds that bring the search back here
            // once another child is cheaper.
            let Some(weighed) = weighed else {
                return (numbers, ALL);
            };
            let best = weighed.best;
            let child = node.children[best];
            let within = weighed.child_limit(limit, EPSILON);
            let after = mine | 1 << child.square;
            let (numbers, zone) = self.search(
                theirs,
                after,
                !attacker_moves,
                within.proof,
                within.disproof,
            );
            node.children[best] = Child {
                numbers,
                zone,
                ..child
            };
        }
    }

    /// Counts a position searched, and looks at the limits now and then.
    fn count_node(&mut self) {
        if self.run.count() {
            self.publish();
        }
    }
}

/// `squares` of a position as the same squares of its key (see [`Geometry::to_key`]),
/// with [`ALL`] and 0 kept as they are.
fn to_key(geometry: &Geometry, symmetry: usize, squares: Bits) -> Bits {
    if squares == ALL {
        ALL
    } else {
        geometry.to_key(symmetry, squares)
    }
}

/// The inverse of [`to_key`].
fn from_key(geometry: &Geometry, symmetry: usize, squares: Bits) -> Bits {
    if squares == ALL {
        ALL
    } else {
        geometry.from_key(symmetry, squares)
    }
}

/// The numbers a move not searched yet starts from: the first few moves of the order as
/// one leaf, later ones as more, so that the search tries the order's favourites first.
fn first_numbers(rank: usize, or_node: bool) -> Numbers {
    let cost = 1 + u32::try_from(rank / RANKS_A_STEP).unwrap_or(INFINITY - 2);
    Numbers::first(cost, or_node)
}
