//! Threat-space search: a forced win made of threats, each of which leaves the defender
//! only a few replies.
//!
//! - A *four* makes a line one short of winning: the defender must take the one square
//!   that completes it.
//! - A *three* makes a line that one more mark turns into two squares to win on (an open
//!   or broken three on gomoku): the defender must take one of the few squares that leave
//!   no such move, or make a four of its own.
//!
//! - A *win by fours in waiting* is a quiet move after which the attacker would win by
//!   fours were it to move again: the defender must take a square near that line of
//!   fours, or make a four of its own. A question may let the attacker's first few moves
//!   be such quiet moves (`Threats::find_with_quiet`).
//!
//! A victory by continuous fours (VCF) uses fours alone; a victory by continuous threats
//! (VCT) also threes. The attacker wins when it makes two squares to win on that the
//! defender cannot both take, with no four of the defender's in the way. Every defender
//! reply that could matter is searched (the squares that answer the threat and every four
//! of its own), so a win found is a proof, not a guess; a search that gives up proves
//! nothing. The threats are defined on windows of k squares, so the search works for any
//! k, gomoku's five among them.
//!
//! The tree of threats and replies is an AND/OR tree (the attacker needs one move that
//! wins, the defender's every reply must lose), searched by depth-first proof-number
//! search (df-pn: Nagai 2002, after Allis's proof-number search, 1994): it always works on
//! the most proving node, the one that takes the fewest further wins to settle the
//! question, so long lines of threats with few replies are followed as far as they go
//! while the bushy ones wait. Results are kept in a table of fixed size, so memory stays
//! bounded however long the search runs: where a bucket is full, the node whose search
//! took the fewest nodes gives up its slot, so what took long to learn is kept. The search
//! stops at a node budget or a deadline.
//! A player keeps one search, table and all, from move to move: what was proved stays
//! proved.

use web_time::Instant;

use ttt_core::Mark;
use ttt_solver::fours::Wins;
use ttt_solver::proof_numbers::{Epsilon, INFINITY, Numbers, weigh};

use super::board::SearchBoard;

/// The threats a search may make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reach {
    /// Fours alone: a victory by continuous fours (VCF).
    Fours,
    /// Fours and threes: a victory by continuous threats (VCT).
    Threes,
}

/// The 1 + ε trick's ε (Pawlewicz and Lew 2007): a child is searched until its own
/// side's number passes the second best by half again. Measured on the attack suite
/// (`threat_budget`, 3 M nodes): with a quarter, the 98 proofs took 6.9 s in all and 93
/// came within 0.2 s; with a half, 3.3 s and 95; with the whole again, 100 proofs but 93
/// within 0.2 s.
const EPSILON: Epsilon = Epsilon::HALF;
/// The slots of the table that share a bucket (one cache line).
const BUCKET: usize = 4;
/// The bytes of a slot of the table.
const SLOT_BYTES: usize = std::mem::size_of::<Slot>();
/// The table of a one-off search: 4 MiB.
const ONE_OFF_BYTES: usize = 4 << 20;
/// Nodes a look for the attacker's win by fours may take, where the defender has no
/// three or four to answer.
const VCF_LINE_BUDGET: u64 = 2_000;
/// Nodes the look for the attacker's win by fours may take after each reply that may stop
/// it.
const VCF_CHECK_BUDGET: u64 = 300;
/// Nodes a look for the attacker's win by fours may take after each quiet move that may
/// make one ([`Threats::fours_in_waiting`]).
const WAITING_BUDGET: u64 = 200;
/// Marks a table key by the quiet moves its question allows (times their count).
const QUIET_KEY: u64 = 0x94d0_49bb_1331_11eb;
/// Marks a table key as an attacker-to-move node (else the defender moves).
const ATTACKER_TO_MOVE: u64 = 0x9e37_79b9_7f4a_7c15;
/// Marks a table key as a search for O's win (else X's).
const O_ATTACKS: u64 = 0x5851_f42d_4c95_7f2d;
/// Marks a table key as a search by fours alone.
const FOURS_ONLY: u64 = 0x2545_f491_4f6c_dd1d;

/// The low bits of a slot's key word, which the bucket already tells (a table has at
/// least 2^8 buckets): they hold how much work the node's search took, as a mark that
/// grows with its logarithm ([`work_mark`]), never 0 in a kept slot.
const WORK_BITS: u64 = 0xff;

/// The mark of `work` nodes in a slot: one more than the bits of the count.
fn work_mark(work: u64) -> u64 {
    u64::from(u64::BITS - work.leading_zeros()) + 1
}

/// Whether `slot` keeps the node of `key`.
fn holds(slot: &Slot, key: u64) -> bool {
    slot[0] != 0 && (slot[0] ^ key) & !WORK_BITS == 0
}

/// The numbers as one word of a slot.
const fn packed(numbers: Numbers) -> u64 {
    ((numbers.proof as u64) << 32) | numbers.disproof as u64
}

/// The numbers a slot's word holds.
const fn unpacked(word: u64) -> Numbers {
    Numbers::new((word >> 32) as u32, word as u32)
}

/// A slot of the table: the key of a node (0 where nothing is kept) and its numbers,
/// [`packed`]. Plain words, so that a new table is the operating system's
/// zeroed pages, made at once and touched only as they are used.
type Slot = [u64; 2];

/// A question the search is asked: who attacks, with which threats, and how many of its
/// first moves may be quiet moves that make a win by fours in waiting.
#[derive(Clone, Copy, Debug)]
struct Question {
    attacker: Mark,
    reach: Reach,
    /// The attacker's moves from here on that may be quiet (by threes only): each of
    /// them a move after which it would win by fours were it to move again, a threat the
    /// defender must stop as it stops a three.
    quiet: u8,
}

impl Question {
    /// The table's key for a node: the position (with `hash`), the question, and who is
    /// to move.
    fn key(self, hash: u64, attacker_to_move: bool) -> u64 {
        let mut key = hash;
        if self.attacker == Mark::O {
            key ^= O_ATTACKS;
        }
        if attacker_to_move {
            key ^= ATTACKER_TO_MOVE;
        }
        if self.reach == Reach::Fours {
            key ^= FOURS_ONLY;
        }
        key ^ QUIET_KEY.wrapping_mul(u64::from(self.quiet))
    }

    /// The question the node after an attacker's move is asked: one quiet move fewer.
    fn after(self, attacker_moved: bool) -> Question {
        Question {
            quiet: if attacker_moved {
                self.quiet.saturating_sub(1)
            } else {
                self.quiet
            },
            ..self
        }
    }
}

/// What a node is, before its children are searched.
enum Node {
    Settled(Numbers),
    /// Not known: a look it rests on ran out of nodes. Treated as disproved by the search
    /// that met it, never kept in the table.
    Unknown,
    /// The moves to search, each with whether it makes a four (a reply that leaves the
    /// other side one move).
    Moves(Vec<(usize, bool)>),
}

/// A threat-space search with bounds on its work and memory.
pub(crate) struct Threats {
    /// Buckets of slots; the key is 0 where nothing is kept.
    table: Vec<Slot>,
    /// The buckets less one (their count is a power of two).
    mask: usize,
    /// Nodes expanded so far, against `budget`.
    nodes: u64,
    budget: u64,
    deadline: Option<Instant>,
    /// Set when the budget or the deadline ran out: what was not found may still exist.
    stopped: bool,
}

impl std::fmt::Debug for Threats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Threats")
            .field("slots", &self.table.len())
            .field("nodes", &self.nodes)
            .field("budget", &self.budget)
            .field("stopped", &self.stopped)
            .finish_non_exhaustive()
    }
}

impl Threats {
    /// A one-off search that gives up after `budget` nodes in all, or at `deadline`.
    pub(crate) fn new(budget: u64, deadline: Option<Instant>) -> Threats {
        let mut threats = Threats::within(ONE_OFF_BYTES);
        threats.start(budget, deadline);
        threats
    }

    /// A search whose table takes at most `bytes` (and at least a thousand slots), with
    /// no budget until [`start`](Threats::start) gives one.
    pub(crate) fn within(bytes: usize) -> Threats {
        let buckets = (bytes / SLOT_BYTES / BUCKET).max(1 << 8);
        // The largest power of two that fits.
        let buckets = 1_usize << (usize::BITS - 1 - buckets.leading_zeros());
        Threats {
            table: vec![[0; 2]; buckets * BUCKET],
            mask: buckets - 1,
            nodes: 0,
            budget: 0,
            deadline: None,
            stopped: true,
        }
    }

    /// Empties the table where it is: nothing kept, as when it was made.
    pub(crate) fn clear(&mut self) {
        self.table.fill([0; 2]);
    }

    /// The bytes its table takes.
    pub(crate) fn bytes(&self) -> usize {
        self.table.len() * SLOT_BYTES
    }

    /// Allows `budget` more nodes, until `deadline`, for a new question; the table keeps
    /// what earlier questions proved.
    pub(crate) fn start(&mut self, budget: u64, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.allow(budget);
    }

    /// Nodes expanded so far.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Allows `more` nodes from now on (the deadline stays), for a new question.
    pub(crate) fn allow(&mut self, more: u64) {
        self.budget = self.nodes.saturating_add(more);
        self.stopped = self
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline);
    }

    /// Whether the search ran out of budget or time at some point.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// The first move of a forced win for the side to move by the threats of `reach`, if
    /// one is found within the bounds.
    pub(crate) fn find(&mut self, board: &mut SearchBoard, reach: Reach) -> Option<usize> {
        self.find_asking(board, reach, 0)
    }

    /// [`find`](Threats::find) by threes, where the attacker's first `quiet` moves may
    /// also be quiet moves after which it would win by fours were it to move again (the
    /// defender's every reply that may stop that win is searched).
    pub(crate) fn find_with_quiet(&mut self, board: &mut SearchBoard, quiet: u8) -> Option<usize> {
        self.find_asking(board, Reach::Threes, quiet)
    }

    fn find_asking(&mut self, board: &mut SearchBoard, reach: Reach, quiet: u8) -> Option<usize> {
        let question = Question {
            attacker: board.to_move,
            reach,
            quiet,
        };
        // Every node from the window counts, the root's moves too.
        board.without_codes(|board| self.find_from_counts(board, question))
    }

    fn find_from_counts(&mut self, board: &mut SearchBoard, question: Question) -> Option<usize> {
        if let Some(&win) = board.winning_squares(question.attacker).first() {
            return Some(win);
        }
        if !self.solve(board, question, true) {
            return None;
        }
        // The root is proved: a move whose node is proved wins. The table may have lost
        // it to a later node; then each move is searched again, the likeliest first.
        let Node::Moves(moves) = self.expand(board, question, true) else {
            return None;
        };
        let child = question.after(true);
        let mut moves: Vec<(usize, Numbers)> = moves
            .into_iter()
            .map(|(square, _)| {
                let key = child.key(board.hash_after(square), false);
                (square, self.lookup(key).unwrap_or(Numbers::UNKNOWN))
            })
            .collect();
        moves.sort_by_key(|&(_, numbers)| numbers.proof);
        moves.into_iter().map(|(square, _)| square).find(|&square| {
            board.play(square);
            let won = self.solve(board, child, false);
            board.undo();
            won
        })
    }

    /// Whether `mark`, were it to move now, would have a forced win by the threats of
    /// `reach`: the threat it makes, the other side passing.
    pub(crate) fn threatened_by(
        &mut self,
        board: &mut SearchBoard,
        mark: Mark,
        reach: Reach,
    ) -> bool {
        board.as_mover(mark, |board| self.find(board, reach).is_some())
    }

    /// Whether the side that has just moved (the attacker; the defender is to move) wins
    /// by the threats of `reach`.
    pub(crate) fn proves(&mut self, board: &mut SearchBoard, reach: Reach) -> bool {
        let question = Question {
            attacker: !board.to_move,
            reach,
            quiet: 0,
        };
        board.without_codes(|board| self.solve(board, question, false))
    }

    /// Searches the node until it is settled or the bounds run out: whether it is proved.
    /// Called within [`without_codes`](SearchBoard::without_codes): the threat search
    /// never evaluates, so its moves leave the pattern codes alone, and its questions are
    /// answered from the window counts.
    fn solve(
        &mut self,
        board: &mut SearchBoard,
        question: Question,
        attacker_to_move: bool,
    ) -> bool {
        let limit = Numbers {
            proof: INFINITY - 1,
            disproof: INFINITY - 1,
        };
        loop {
            let numbers = self.search(board, question, attacker_to_move, limit);
            if numbers.is_settled() || self.out_of_bounds() {
                return numbers.proof == 0;
            }
            // Numbers grown to the limit without settling: no further search changes them.
            if numbers.reached(limit) {
                self.stopped = true;
                return false;
            }
        }
    }

    fn out_of_bounds(&mut self) -> bool {
        if self.nodes >= self.budget
            || (self.nodes.is_multiple_of(64)
                && self
                    .deadline
                    .is_some_and(|deadline| Instant::now() >= deadline))
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let first = ((key as usize) & self.mask) * BUCKET;
        first..first + BUCKET
    }

    /// The slot that keeps the node of `key`, if one does.
    fn slot(&self, key: u64) -> Option<&Slot> {
        self.table[self.bucket(key)]
            .iter()
            .find(|slot| holds(slot, key))
    }

    fn lookup(&self, key: u64) -> Option<Numbers> {
        self.slot(key).map(|slot| unpacked(slot[1]))
    }

    /// Keeps a node's numbers, and the nodes its search took (`work`): in its own slot if
    /// it has one, else in place of the node of its bucket whose search took the fewest
    /// (the cheapest to find again), an unsettled one before a settled one. A free slot's
    /// work is 0: it goes first.
    fn keep(&mut self, key: u64, numbers: Numbers, work: u64) {
        let bucket = self.bucket(key);
        let slots = &mut self.table[bucket];
        let own = slots.iter().position(|slot| holds(slot, key));
        let at = own.unwrap_or_else(|| {
            (0..BUCKET)
                .min_by_key(|&at| {
                    let settled = unpacked(slots[at][1]).is_settled();
                    (slots[at][0] & WORK_BITS, settled)
                })
                .unwrap_or(0)
        });
        let mut work = work_mark(work);
        if own.is_some() {
            // The work a node took grows with its searches.
            work = work.max(slots[at][0] & WORK_BITS);
        }
        slots[at] = [(key & !WORK_BITS) | work, packed(numbers)];
    }

    /// A node's moves, or what it is without them. With the attacker to move: its fours
    /// (and threes, by `reach`), or the block of the defender's four; it is proved when it
    /// has a four already. With the defender to move: the replies to the threat just made
    /// (the square that blocks a four; the squares that answer a three, and its own
    /// fours); it is proved when no reply is left, disproved when the defender has a four
    /// (it wins first) or the attacker made no threat.
    fn expand(
        &mut self,
        board: &mut SearchBoard,
        question: Question,
        attacker_to_move: bool,
    ) -> Node {
        let attacker = question.attacker;
        let defender = !attacker;
        if attacker_to_move {
            if board.threatens(attacker) {
                return Node::Settled(Numbers::PROVED);
            }
            let moves = match board.wins(defender) {
                Wins::None => {
                    let fours = board.four_squares(attacker);
                    let mut moves: Vec<(usize, bool)> =
                        fours.iter().map(|&square| (square, true)).collect();
                    if question.reach == Reach::Threes {
                        for square in board.three_squares(attacker) {
                            if !fours.contains(&square) {
                                moves.push((square, false));
                            }
                        }
                        if question.quiet > 0 {
                            let quiet = self.fours_in_waiting(board, attacker, &moves);
                            moves.extend(quiet.into_iter().map(|square| (square, false)));
                        }
                    }
                    moves
                }
                Wins::One(block) => vec![(block, false)],
                Wins::Several => Vec::new(),
            };
            if moves.is_empty() {
                Node::Settled(Numbers::DISPROVED)
            } else {
                Node::Moves(moves)
            }
        } else {
            if board.threatens(defender) {
                // The defender completes a line of its own.
                return Node::Settled(Numbers::DISPROVED);
            }
            match board.wins(attacker) {
                Wins::None => {}
                Wins::One(made) => return Node::Moves(vec![(made, false)]),
                Wins::Several => return Node::Settled(Numbers::PROVED),
            }
            if question.reach == Reach::Fours {
                return Node::Settled(Numbers::DISPROVED);
            }
            // A three to answer; else a win by fours to stop; else the attacker made no
            // threat.
            let replies = match board.defences(attacker) {
                Some(replies) => replies,
                None => match self.vcf_stoppers(board, attacker) {
                    Node::Moves(moves) => moves.into_iter().map(|(square, _)| square).collect(),
                    other => return other,
                },
            };
            let fours = board.four_squares(defender);
            let mut moves: Vec<(usize, bool)> = replies
                .into_iter()
                .map(|square| (square, fours.contains(&square)))
                .collect();
            for square in fours {
                if !moves.iter().any(|&(s, _)| s == square) {
                    moves.push((square, true));
                }
            }
            if moves.is_empty() {
                Node::Settled(Numbers::PROVED)
            } else {
                Node::Moves(moves)
            }
        }
    }

    /// With the defender to move and no four or three of the attacker's to answer: if the
    /// attacker, were it to move, would win by fours, the defender's moves that may stop
    /// that win (its own fours are added by the caller). Only a mark near the line of
    /// fours (on a line through one of its squares, within k of it) can change it; of
    /// those squares, the ones after which a quick look still finds a win by fours for
    /// the attacker are left out: those replies lose.
    fn vcf_stoppers(&mut self, board: &mut SearchBoard, attacker: Mark) -> Node {
        let (line, ran_out) = self.with_budget(VCF_LINE_BUDGET, |threats| {
            board.as_mover(attacker, |board| threats.vcf_line(board))
        });
        let Some(line) = line else {
            // A look that ran out of nodes proves nothing.
            return if ran_out {
                Node::Unknown
            } else {
                Node::Settled(Numbers::DISPROVED)
            };
        };
        let mut zone = Vec::new();
        for &square in &line {
            board.near_lines(square, &mut zone);
        }
        zone.retain(|&square| {
            board.play(square);
            let (still, _) = self.with_budget(VCF_CHECK_BUDGET, |threats| {
                threats.find(board, Reach::Fours).is_some()
            });
            board.undo();
            !still
        });
        Node::Moves(zone.into_iter().map(|square| (square, false)).collect())
    }

    /// The attacker's quiet moves (none of `made`, its fours and threes) after which it
    /// would win by fours were it to move again. Only a mark that makes a new four
    /// possible (in a window k - 3 short) is tried, each with a short look.
    fn fours_in_waiting(
        &mut self,
        board: &mut SearchBoard,
        attacker: Mark,
        made: &[(usize, bool)],
    ) -> Vec<usize> {
        let Some(short) = board.rules().k().checked_sub(3) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        for square in board.growth_squares(attacker, short as u8) {
            if made.iter().any(|&(made, _)| made == square) {
                continue;
            }
            board.play(square);
            let (wins, _) = self.with_budget(WAITING_BUDGET, |threats| {
                threats.threatened_by(board, attacker, Reach::Fours)
            });
            board.undo();
            if wins {
                found.push(square);
            }
            if self.out_of_bounds() {
                break;
            }
        }
        found
    }

    /// The moves of a win by fours for the side to move, the squares it wins on at the end
    /// included, if one is found: a line, since every four leaves one reply.
    fn vcf_line(&mut self, board: &mut SearchBoard) -> Option<Vec<usize>> {
        let question = Question {
            attacker: board.to_move,
            reach: Reach::Fours,
            quiet: 0,
        };
        let mut line = Vec::new();
        let mut played = 0;
        let found = loop {
            // The attacker to move.
            let Some(square) = self.find(board, Reach::Fours) else {
                break false;
            };
            board.play(square);
            played += 1;
            line.push(square);
            if board.won {
                break true;
            }
            match self.expand(board, question, false) {
                Node::Settled(numbers) => {
                    line.extend(board.winning_squares(question.attacker));
                    break numbers.proof == 0;
                }
                // Fours alone never rest on a look of their own.
                Node::Unknown => break false,
                Node::Moves(replies) => {
                    let block = replies[0].0;
                    board.play(block);
                    played += 1;
                    line.push(block);
                }
            }
        };
        for _ in 0..played {
            board.undo();
        }
        found.then_some(line)
    }

    /// Runs `work` with at most `more` further nodes (within the bounds already set), then
    /// puts the bounds back; also whether `work` ran out of them.
    fn with_budget<T>(&mut self, more: u64, work: impl FnOnce(&mut Self) -> T) -> (T, bool) {
        let budget = self.budget;
        self.budget = budget.min(self.nodes.saturating_add(more));
        let result = work(self);
        let ran_out = self.stopped;
        self.budget = budget;
        self.stopped = self.nodes >= budget
            || self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline);
        (result, ran_out)
    }

    /// Depth-first proof-number search of a node, within thresholds of its numbers: its
    /// numbers once they reach a threshold, it is settled, or the bounds run out.
    fn search(
        &mut self,
        board: &mut SearchBoard,
        question: Question,
        attacker_to_move: bool,
        limit: Numbers,
    ) -> Numbers {
        let key = question.key(board.hash, attacker_to_move);
        if let Some(numbers) = self.lookup(key)
            && numbers.reached(limit)
        {
            return numbers;
        }
        let started = self.nodes;
        self.nodes += 1;
        let moves = match self.expand(board, question, attacker_to_move) {
            // A disproof found after the bounds ran out may be a give-up; a look inside the
            // expansion that ran out of its nodes settles the node for this search only,
            // not for the table.
            Node::Settled(numbers) if numbers.disproof == 0 && self.stopped => {
                return Numbers::UNKNOWN;
            }
            Node::Unknown => return Numbers::DISPROVED,
            Node::Settled(numbers) => {
                self.keep(key, numbers, 1);
                return numbers;
            }
            Node::Moves(moves) => moves,
        };
        // A child is an OR node (the attacker picks) when the attacker moves next.
        let child_or = !attacker_to_move;
        // A defender with one reply (the block of a four) has that reply's numbers, found
        // again in one step: the table keeps it as the cheapest node, so that it never
        // takes the slot of one whose search took long. (An attacker with one move, the
        // block of a defender's four, is kept as any other: measured, that made the
        // attack suite's longest proof slower.)
        let forced = !attacker_to_move && moves.len() == 1;
        let next = question.after(attacker_to_move);
        let mut children: Vec<(usize, Numbers)> = moves
            .into_iter()
            .map(|(square, four)| {
                let child = next.key(board.hash_after(square), child_or);
                // Unsearched: a four leaves one reply, other moves several.
                let first = Numbers::first(if four { 1 } else { 2 }, attacker_to_move);
                // What the table knows already, else the first guess; from then on, what
                // the child's own searches return.
                (square, self.lookup(child).unwrap_or(first))
            })
            .collect();
        loop {
            // The node's numbers from its children's, and the most proving child. (A node
            // without moves was settled by its expansion.)
            let with_index = children.iter().map(|&(_, numbers)| numbers).enumerate();
            let Some(weighed) = weigh(with_index, attacker_to_move) else {
                return Numbers::without_moves(attacker_to_move);
            };
            let numbers = weighed.numbers;
            if numbers.reached(limit) || self.out_of_bounds() {
                let work = if forced { 0 } else { self.nodes - started };
                self.keep(key, numbers, work);
                return numbers;
            }
            // The child's thresholds: its own side's up to ε past the second best, the
            // other side's what the node's limit leaves after its other children.
            let best_at = weighed.best;
            let child_limit = weighed.child_limit(limit, EPSILON);
            let square = children[best_at].0;
            board.play(square);
            children[best_at].1 = self.search(board, next, child_or, child_limit);
            board.undo();
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use std::sync::Arc;

    use ttt_core::{Mark, Position, Rules};

    use super::*;
    use crate::search::board::Shape;

    fn board(rows: &[&str], to_move: Mark) -> SearchBoard {
        let rules = Rules::new(15, 15, 5).unwrap();
        let mut text: Vec<String> = rows.iter().map(|row| (*row).to_owned()).collect();
        while text.len() < 15 {
            text.push(".".repeat(15));
        }
        let (x, o) = (
            text.iter()
                .flat_map(|row| row.chars())
                .filter(|&c| c == 'x')
                .count(),
            text.iter()
                .flat_map(|row| row.chars())
                .filter(|&c| c == 'o')
                .count(),
        );
        let first = if x == o { to_move } else { !to_move };
        let position = Position::parse(&text.join("/"), rules, first).unwrap();
        assert_eq!(position.to_move(), to_move);
        SearchBoard::new(Arc::new(Shape::new(rules)), &position)
    }

    #[test]
    fn the_threat_search_leaves_the_pattern_codes_as_it_found_them() {
        use rand::rngs::StdRng;
        use rand::{RngExt, SeedableRng};

        let rules = Rules::new(15, 15, 5).unwrap();
        let shape = Arc::new(Shape::new(rules));
        let mut rng = StdRng::seed_from_u64(11);
        let mut searched = 0;
        for _ in 0..6 {
            let mut position = Position::new(rules, Mark::X);
            while !position.is_over() && position.board().empty_squares().count() > 180 {
                let (column, row) = (rng.random_range(4..11_i64), rng.random_range(4..11_i64));
                let square = rules.square_signed(column as isize, row as isize).unwrap();
                if position.board().get(square).is_some() {
                    continue;
                }
                position.play(square).unwrap();
                let mut board = SearchBoard::new(Arc::clone(&shape), &position);
                for reach in [Reach::Fours, Reach::Threes] {
                    Threats::new(5_000, None).find(&mut board, reach);
                    board.as_mover(!board.to_move, |board| {
                        Threats::new(5_000, None).find(board, reach)
                    });
                }
                let fresh = SearchBoard::new(Arc::clone(&shape), &position);
                assert_eq!(board.evaluate(), fresh.evaluate(), "{position}");
                for mark in Mark::ALL {
                    assert_eq!(
                        (board.four_squares(mark), board.double_squares(mark)),
                        (fresh.four_squares(mark), fresh.double_squares(mark)),
                        "{position}: {mark}'s threats as the codes keep them"
                    );
                }
                for square in position.board().empty_squares() {
                    let square = square.index();
                    assert_eq!(board.classes(square), fresh.classes(square), "{position}");
                    assert_eq!(board.move_value(square), fresh.move_value(square));
                }
                searched += 1;
            }
        }
        assert!(searched > 100, "{searched} positions searched");
    }

    #[test]
    fn fours_that_end_in_two_at_once_are_found_and_a_lone_four_is_not_a_win() {
        // X: a three on row 3 and a three down column g meeting at g3.
        let mut position = board(
            &[
                "...............",
                "...............",
                "..oxxx.........",
                "......x........",
                "......x........",
                "......x........",
                "...............",
                "...............",
                "...............",
                "...............",
                "o...o.o........",
                "..o...o........",
            ],
            Mark::X,
        );
        let first = Threats::new(100_000, None).find(&mut position, Reach::Fours);
        assert!(first.is_some(), "g3 makes two fours at once");
        // g3 itself wins: every reply of O's loses to fours alone.
        position.play(2 * 15 + 6);
        assert!(Threats::new(100_000, None).proves(&mut position, Reach::Fours));
        position.undo();
        // A three closed at one end makes one four, which is blocked: no VCF.
        let mut lone = board(
            &[
                "...............",
                "...............",
                "..oxxx.........",
                "...............",
                "..........o....",
                ".........o.....",
            ],
            Mark::X,
        );
        assert_eq!(
            Threats::new(100_000, None).find(&mut lone, Reach::Fours),
            None
        );
    }

    #[test]
    fn the_defender_s_four_must_be_answered_first() {
        // X could make fours, but O already has four in a row: X must block, and the block
        // is no four, so there is no VCF.
        let mut position = board(
            &[
                "...............",
                ".oooo..........",
                "...............",
                "...xxx.........",
                "......x........",
                "......x........",
                "......x........",
                "...............",
                "...............",
                "o.o............",
            ],
            Mark::X,
        );
        assert_eq!(
            Threats::new(100_000, None).find(&mut position, Reach::Fours),
            None
        );
        // After X's move the board is as it was: the search undid everything.
        assert_eq!(position.to_move, Mark::X);
    }

    #[test]
    fn two_threes_at_once_win_by_threats_where_fours_alone_do_not() {
        // X: two twos, open at both ends, that meet at h7: h7 makes two threes.
        let mut fork = board(
            &[
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                ".....xx........",
                "...............",
                ".......x.......",
                ".......x.......",
                "...............",
                "o.o............",
                "..o............",
                "...............",
                "o..............",
            ],
            Mark::X,
        );
        assert_eq!(
            Threats::new(100_000, None).find(&mut fork, Reach::Fours),
            None,
            "no VCF"
        );
        assert!(
            Threats::new(100_000, None)
                .find(&mut fork, Reach::Threes)
                .is_some()
        );
        // After h7 every reply of O's loses: one three is answered, the other wins.
        fork.play(6 * 15 + 7);
        assert!(Threats::new(100_000, None).proves(&mut fork, Reach::Threes));
        fork.undo();
        // After a quiet move far away, nothing is proved.
        fork.play(14 * 15 + 14);
        assert!(!Threats::new(100_000, None).proves(&mut fork, Reach::Threes));
    }

    #[test]
    fn an_open_three_wins_for_its_side_to_move_and_must_be_answered_otherwise() {
        let rows = [
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "......xxx......",
            "...............",
            "...............",
            "o.o............",
            "...............",
            "..o............",
        ];
        // X to move makes a four open at both ends: f8 or j8.
        let mut three = board(&rows, Mark::X);
        let first = Threats::new(100_000, None).find(&mut three, Reach::Fours);
        assert!(
            first == Some(7 * 15 + 5) || first == Some(7 * 15 + 9),
            "{first:?}"
        );
        // O to move must answer it: X wins if O passes, and a reply far away loses.
        three.to_move = Mark::O;
        assert!(Threats::new(100_000, None).threatened_by(&mut three, Mark::X, Reach::Fours));
        three.play(14 * 15 + 14);
        assert!(
            Threats::new(100_000, None)
                .find(&mut three, Reach::Fours)
                .is_some()
        );
        three.undo();
        // Blocking one end leaves a four at most, which is blocked: no win by fours.
        three.play(7 * 15 + 5);
        assert_eq!(
            Threats::new(100_000, None).find(&mut three, Reach::Fours),
            None
        );
    }

    #[test]
    fn a_four_in_reply_to_a_three_is_searched() {
        // With an open three of O's on the board, far from X's marks, X's fork is no win:
        // O answers any three of X's with a four open at both ends, and X has no four to
        // play first nor a threat that blocks O's three.
        let mut countered = board(
            &[
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                ".....xx........",
                "...............",
                ".......x.......",
                ".......x.......",
                "...............",
                "...............",
                "...ooo.........",
                "...............",
                "o..............",
            ],
            Mark::X,
        );
        assert_eq!(
            Threats::new(100_000, None).find(&mut countered, Reach::Threes),
            None
        );
    }

    #[test]
    fn a_quiet_move_that_makes_a_win_by_fours_in_waiting_is_found_where_threes_find_none() {
        // From a game `search` lost as X against the Gomocup champion: X to move has no
        // win by fours and threes, but i5 (a block three on the diagonal f8-j4, with the
        // block three down column h) leaves X a win by fours were it to move again, and
        // none of O's replies stops every such win.
        let rows = [
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            ".......o.......",
            ".....o.x.......",
            "....oxxxo......",
            ".....oox.......",
            ".........x.....",
        ];
        let mut start = board(&rows, Mark::X);
        let i5 = 10 * 15 + 8;
        assert_eq!(
            Threats::new(200_000, None).find(&mut start, Reach::Threes),
            None,
            "threes alone find no win within the budget"
        );
        assert!(!start.four_squares(Mark::X).contains(&i5));
        assert!(!start.three_squares(Mark::X).contains(&i5));
        let mut threats = Threats::new(200_000, None);
        assert_eq!(threats.find_with_quiet(&mut start, 1), Some(i5));
        // The win checked without quiet moves: after i5, O's every reply that may stop
        // the win by fours in waiting loses to threats.
        start.play(i5);
        assert!(start.as_mover(Mark::X, |board| {
            Threats::new(10_000, None)
                .find(board, Reach::Fours)
                .is_some()
        }));
        assert!(Threats::new(1_000_000, None).proves(&mut start, Reach::Threes));
    }

    #[test]
    fn two_wins_by_fours_in_waiting_cannot_both_be_stopped() {
        // X has no four and no three, but two wins by fours in waiting: f3 (a four that
        // O must block at g3, and an open three f3-f5) then f2 or f6; and the same with
        // m12 (blocked at n12) and m10-m12. O, to move, can stop one of them, not both.
        let rows = [
            "...............",
            "...............",
            ".oxxx..........",
            ".....x.........",
            ".....x.........",
            "...............",
            "...............",
            "...............",
            "...............",
            "............x..",
            "............x..",
            "........oxxx...",
            "...............",
            "..o..o.........",
            "o..o..o..o..o..",
        ];
        let mut waiting = board(&rows, Mark::O);
        assert!(!waiting.threatens(Mark::X) && waiting.defences(Mark::X).is_none());
        assert!(Threats::new(100_000, None).proves(&mut waiting, Reach::Threes));
        // By fours alone nothing is proved: X made no four.
        assert!(!Threats::new(100_000, None).proves(&mut waiting, Reach::Fours));
        // With one of them alone on the board (and O's marks at d4 and e4 in the way of
        // X's other lines), O stops it: at f3 or g3, say.
        let mut one = board(
            &[
                "...............",
                "...............",
                ".oxxx..........",
                "...oox.........",
                ".....x.........",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "o..............",
            ],
            Mark::O,
        );
        assert!(!Threats::new(100_000, None).proves(&mut one, Reach::Threes));
        // And stopping it is what holds: after a reply far away, X wins by fours.
        one.play(14 * 15 + 14);
        assert!(
            Threats::new(100_000, None)
                .find(&mut one, Reach::Fours)
                .is_some()
        );
    }

    #[test]
    fn numbers_come_back_from_a_slot_as_they_went_in() {
        let mut cases = vec![Numbers::PROVED, Numbers::DISPROVED, Numbers::UNKNOWN];
        for proof in [0, 1, 2, 7, 1 << 16, INFINITY - 1, INFINITY] {
            for disproof in [0, 1, 3, 1 << 20, INFINITY - 1, INFINITY] {
                cases.push(Numbers { proof, disproof });
            }
        }
        for numbers in cases {
            assert_eq!(unpacked(packed(numbers)), numbers);
        }
        // An empty slot is all zero words: no key, so never found.
        let mut threats = Threats::within(1 << 16);
        assert!(threats.table.iter().all(|slot| *slot == [0, 0]));
        assert_eq!(threats.lookup(0), None);
        assert_eq!(threats.lookup(12_345), None);
        threats.keep(12_345, Numbers::PROVED, 1);
        assert_eq!(threats.lookup(12_345), Some(Numbers::PROVED));
        threats.clear();
        assert!(threats.table.iter().all(|slot| *slot == [0, 0]));
    }

    #[test]
    fn a_full_bucket_gives_up_the_node_that_took_the_least_work() {
        let mut threats = Threats::within(0);
        // Keys that differ above the bucket's bits only: one bucket for them all.
        let key = |n: u64| (n << 40) | 0x1234;
        let open = Numbers::new(3, 4);
        threats.keep(key(1), open, 50_000);
        threats.keep(key(2), Numbers::PROVED, 10);
        threats.keep(key(3), open, 1);
        threats.keep(key(4), Numbers::DISPROVED, 1);
        for n in 1..=4 {
            assert!(
                threats.lookup(key(n)).is_some(),
                "key {n} kept while the bucket has room"
            );
        }
        // A fifth takes the place of the cheapest, the unsettled one first.
        threats.keep(key(5), open, 2);
        assert_eq!(threats.lookup(key(3)), None);
        // The work a node took grows with its searches, and is not lost to a cheaper one.
        threats.keep(key(4), Numbers::DISPROVED, 1 << 20);
        threats.keep(key(6), open, 100);
        assert_eq!(threats.lookup(key(5)), None, "the cheapest left goes");
        for (n, numbers) in [
            (1, open),
            (2, Numbers::PROVED),
            (4, Numbers::DISPROVED),
            (6, open),
        ] {
            assert_eq!(threats.lookup(key(n)), Some(numbers), "key {n}");
        }
    }

    #[test]
    fn a_defender_with_one_reply_is_kept_as_the_cheapest_node() {
        // X's fours on the first row leave O one block each, and no win.
        let mut start = board(
            &["oxxx...........", "...............", "o.....o........"],
            Mark::X,
        );
        let mut threats = Threats::new(10_000, None);
        assert_eq!(threats.find(&mut start, Reach::Threes), None);
        let question = Question {
            attacker: Mark::X,
            reach: Reach::Threes,
            quiet: 0,
        };
        for four in [4, 5] {
            let key = question.key(start.hash_after(four), false);
            let slot = threats.slot(key).expect("the node after the four is kept");
            assert_eq!(unpacked(slot[1]), Numbers::DISPROVED);
            assert_eq!(
                slot[0] & WORK_BITS,
                work_mark(0),
                "after the four on {four}"
            );
        }
    }
}
