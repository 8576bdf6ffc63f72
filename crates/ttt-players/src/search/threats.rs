//! Threat-space search: a forced win made of threats, each of which leaves the defender
//! only a few replies.
//!
//! - A *four* makes a line one short of winning: the defender must take the one square
//!   that completes it.
//! - A *three* makes a line that one more mark turns into two squares to win on (an open
//!   or broken three on gomoku): the defender must take one of the few squares that leave
//!   no such move, or make a four of its own.
//!
//! A victory by continuous fours (VCF) uses fours alone; a victory by continuous threats
//! (VCT) also threes. The attacker wins when it makes two squares to win on that the
//! defender cannot both take, with no four of the defender's in the way. Every defender
//! reply that could matter is searched (the squares that answer the threat and every four
//! of its own), so a win found is a proof, not a guess; a search that gives up proves
//! nothing. The threats are defined on windows of k squares, so the search works for any
//! k, gomoku's five among them.
//!
//! Results are kept in a table of fixed size, so memory stays bounded however long the
//! search runs; the search stops at a node budget or a deadline. A player keeps one
//! search, table and all, from move to move: what was proved stays proved.

use web_time::Instant;

use ttt_core::Mark;

use super::board::SearchBoard;

/// How many fours a line of threats may hold in all (each answered by a forced block).
pub(crate) const MAX_FOURS: u32 = 24;
/// The bytes of a slot of the table of results.
const SLOT_BYTES: usize = std::mem::size_of::<(u64, u32)>();
/// The table of a one-off search: 4 MiB.
const ONE_OFF_BYTES: usize = 4 << 20;
/// Marks a table key as an attacker-to-move node (else the defender moves).
const ATTACKER_TO_MOVE: u64 = 0x9e37_79b9_7f4a_7c15;
/// Marks a table key as a search for O's win (else X's).
const O_ATTACKS: u64 = 0x5851_f42d_4c95_7f2d;

/// The table's key for a node: the position, who attacks, and who is to move.
fn key(board: &SearchBoard, attacker: Mark, attacker_to_move: bool) -> u64 {
    let mut key = board.hash;
    if attacker == Mark::O {
        key ^= O_ATTACKS;
    }
    if attacker_to_move {
        key ^= ATTACKER_TO_MOVE;
    }
    key
}

/// What the table knows of a node.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Known {
    /// The attacker wins from here.
    Won,
    /// No win was found with at most this many threes (and the fours allowed).
    Failed { threes: u32 },
}

impl Known {
    /// What a search with `threes` threes found.
    fn after(won: bool, threes: u32) -> Known {
        if won {
            Known::Won
        } else {
            Known::Failed { threes }
        }
    }
}

/// A threat-space search with bounds on its work and memory.
pub(crate) struct Threats {
    /// (key, packed result) per slot; the key is 0 where nothing is kept.
    table: Vec<(u64, u32)>,
    /// The slots less one (their count is a power of two).
    mask: usize,
    /// Attacking moves tried so far, against `budget`.
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
    /// A one-off search that gives up after `budget` attacking moves in all, or at
    /// `deadline`.
    pub(crate) fn new(budget: u64, deadline: Option<Instant>) -> Threats {
        let mut threats = Threats::within(ONE_OFF_BYTES);
        threats.start(budget, deadline);
        threats
    }

    /// A search whose table takes at most `bytes` (and at least a thousand slots), with
    /// no budget until [`start`](Threats::start) gives one.
    pub(crate) fn within(bytes: usize) -> Threats {
        let slots = (bytes / SLOT_BYTES).max(1 << 10);
        // The largest power of two that fits.
        let slots = 1_usize << (usize::BITS - 1 - slots.leading_zeros());
        Threats {
            table: vec![(0, 0); slots],
            mask: slots - 1,
            nodes: 0,
            budget: 0,
            deadline: None,
            stopped: true,
        }
    }

    /// The bytes its table takes.
    pub(crate) fn bytes(&self) -> usize {
        self.table.len() * SLOT_BYTES
    }

    /// Allows `budget` more attacking moves, until `deadline`, for a new question; the
    /// table keeps what earlier questions proved.
    pub(crate) fn start(&mut self, budget: u64, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.allow(budget);
    }

    /// Attacking moves tried so far.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Allows `more` attacking moves from now on (the deadline stays), for a new question.
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

    /// The first move of a forced win for the side to move with at most `threes` threes
    /// (0: a VCF), shortest lines of threes first, if one is found within the bounds.
    pub(crate) fn find(&mut self, board: &mut SearchBoard, threes: u32) -> Option<usize> {
        let attacker = board.to_move;
        (0..=threes).find_map(|threes| {
            if self.out_of_bounds() {
                return None;
            }
            self.first_move(board, attacker, threes)
        })
    }

    /// Whether `mark`, were it to move now, would have a forced win with at most `threes`
    /// threes: the threat it makes, the other side passing.
    pub(crate) fn threatened_by(
        &mut self,
        board: &mut SearchBoard,
        mark: Mark,
        threes: u32,
    ) -> bool {
        board.as_mover(mark, |board| self.find(board, threes).is_some())
    }

    /// Whether the side that has just moved (the attacker; the defender is to move) wins
    /// by threats with at most `threes` more threes.
    pub(crate) fn proves(&mut self, board: &mut SearchBoard, threes: u32) -> bool {
        let attacker = !board.to_move;
        (0..=threes)
            .any(|threes| !self.out_of_bounds() && self.defend(board, attacker, MAX_FOURS, threes))
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

    fn slot(&self, key: u64) -> usize {
        (key as usize) & self.mask
    }

    fn known(&self, key: u64) -> Option<Known> {
        let (stored, packed) = self.table[self.slot(key)];
        (stored == key && key != 0).then_some(match packed {
            u32::MAX => Known::Won,
            threes => Known::Failed { threes },
        })
    }

    /// What the table says of a node searched with `threes` threes left, if it settles it.
    fn settled(&self, key: u64, threes: u32) -> Option<bool> {
        match self.known(key)? {
            Known::Won => Some(true),
            Known::Failed { threes: failed } => (failed >= threes).then_some(false),
        }
    }

    fn keep(&mut self, key: u64, known: Known) {
        // A result found after the bounds ran out may be a give-up, not a failure.
        if self.stopped && known != Known::Won {
            return;
        }
        let packed = match known {
            Known::Won => u32::MAX,
            Known::Failed { threes } => threes,
        };
        let slot = self.slot(key);
        self.table[slot] = (key, packed);
    }

    /// The attacker to move: the first move of a win, if one is found.
    fn first_move(
        &mut self,
        board: &mut SearchBoard,
        attacker: Mark,
        threes: u32,
    ) -> Option<usize> {
        if let Some(&win) = board.winning_squares(attacker).first() {
            return Some(win);
        }
        self.attacking_moves(board, attacker, threes)
            .into_iter()
            .find(|&square| {
                board.play(square);
                let won = self.after_attack(board, attacker, MAX_FOURS, threes);
                board.undo();
                won
            })
    }

    /// The attacker's candidate moves: the squares of its fours, then of its threes (when
    /// it may still make one); or, when the defender has a four, the square that blocks it.
    fn attacking_moves(
        &mut self,
        board: &mut SearchBoard,
        attacker: Mark,
        threes: u32,
    ) -> Vec<usize> {
        let blocks = board.winning_squares(!attacker);
        match blocks.len() {
            0 => {}
            1 => return blocks,
            _ => return Vec::new(),
        }
        let mut moves = board.four_squares(attacker);
        if threes > 0 {
            for square in board.three_squares(attacker) {
                if !moves.contains(&square) {
                    moves.push(square);
                }
            }
        }
        // Threats near the attacker's last one first: a line of threats builds on itself.
        if let Some(last) = board.last_of(attacker) {
            let rules = board.rules();
            let (column, row) = (rules.column(last), rules.row(last));
            moves.sort_by_key(|&square| {
                let square = ttt_core::Square::new(square);
                rules
                    .column(square)
                    .abs_diff(column)
                    .max(rules.row(square).abs_diff(row))
            });
        }
        moves
    }

    /// The attacker has just moved: does the threat it made win? A move that threatens
    /// nothing (a block that made no threat) fails.
    fn after_attack(
        &mut self,
        board: &mut SearchBoard,
        attacker: Mark,
        fours: u32,
        threes: u32,
    ) -> bool {
        self.nodes += 1;
        // What the move made decides what it costs: a four, or a three.
        let made_four = board.threatens(attacker);
        match (made_four, fours, threes) {
            (true, 0, _) => false,
            (true, fours, threes) => self.defend(board, attacker, fours - 1, threes),
            (false, _, 0) => false,
            (false, fours, threes) => self.defend(board, attacker, fours, threes - 1),
        }
    }

    /// The attacker to move (after the defender's reply): is there a win?
    fn attack(&mut self, board: &mut SearchBoard, attacker: Mark, fours: u32, threes: u32) -> bool {
        if board.threatens(attacker) {
            return true;
        }
        if self.out_of_bounds() {
            return false;
        }
        let key = key(board, attacker, true);
        if let Some(won) = self.settled(key, threes) {
            return won;
        }
        let moves = self.attacking_moves(board, attacker, threes);
        let won = moves.into_iter().any(|square| {
            board.play(square);
            let won = self.after_attack(board, attacker, fours, threes);
            board.undo();
            won
        });
        self.keep(key, Known::after(won, threes));
        won
    }

    /// The defender to move, after the attacker's threat: does every reply lose?
    fn defend(&mut self, board: &mut SearchBoard, attacker: Mark, fours: u32, threes: u32) -> bool {
        let defender = !attacker;
        if board.threatens(defender) {
            // The defender completes a line of its own.
            return false;
        }
        let made = board.winning_squares(attacker);
        if made.len() >= 2 {
            return true;
        }
        if self.out_of_bounds() {
            return false;
        }
        let key = key(board, attacker, false);
        if let Some(won) = self.settled(key, threes) {
            return won;
        }
        let replies = if made.len() == 1 {
            made
        } else {
            let Some(mut replies) = board.defences(attacker) else {
                // No threat to answer: the attacker made none.
                self.keep(
                    key,
                    Known::Failed {
                        threes: u32::MAX - 1,
                    },
                );
                return false;
            };
            for square in board.four_squares(defender) {
                if !replies.contains(&square) {
                    replies.push(square);
                }
            }
            replies
        };
        let won = replies.into_iter().all(|square| {
            board.play(square);
            let won = self.attack(board, attacker, fours, threes);
            board.undo();
            won
        });
        self.keep(key, Known::after(won, threes));
        won
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
        let first = Threats::new(100_000, None).find(&mut position, 0);
        assert!(first.is_some(), "g3 makes two fours at once");
        // g3 itself wins: every reply of O's loses to fours alone.
        position.play(2 * 15 + 6);
        assert!(Threats::new(100_000, None).proves(&mut position, 0));
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
        assert_eq!(Threats::new(100_000, None).find(&mut lone, 0), None);
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
        assert_eq!(Threats::new(100_000, None).find(&mut position, 0), None);
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
            Threats::new(100_000, None).find(&mut fork, 0),
            None,
            "no VCF"
        );
        assert!(Threats::new(100_000, None).find(&mut fork, 3).is_some());
        // After h7 every reply of O's loses: one three is answered, the other wins.
        fork.play(6 * 15 + 7);
        assert!(Threats::new(100_000, None).proves(&mut fork, 1));
        fork.undo();
        // After a quiet move far away, nothing is proved.
        fork.play(14 * 15 + 14);
        assert!(!Threats::new(100_000, None).proves(&mut fork, 3));
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
        let first = Threats::new(100_000, None).find(&mut three, 0);
        assert!(
            first == Some(7 * 15 + 5) || first == Some(7 * 15 + 9),
            "{first:?}"
        );
        // O to move must answer it: X wins if O passes, and a reply far away loses.
        three.to_move = Mark::O;
        assert!(Threats::new(100_000, None).threatened_by(&mut three, Mark::X, 0));
        three.play(14 * 15 + 14);
        assert!(Threats::new(100_000, None).find(&mut three, 0).is_some());
        three.undo();
        // Blocking one end leaves a four at most, which is blocked: no win by fours.
        three.play(7 * 15 + 5);
        assert_eq!(Threats::new(100_000, None).find(&mut three, 0), None);
    }

    #[test]
    fn a_four_in_reply_to_a_three_is_searched() {
        // With an open three of O's on the board, X's fork is no win: O answers any three
        // of X's with a four open at both ends.
        let mut countered = board(
            &[
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                ".....xx........",
                "...ooo.........",
                ".......x.......",
                ".......x.......",
                "...............",
                "...............",
                "...............",
                "...............",
                "o..............",
            ],
            Mark::X,
        );
        assert_eq!(Threats::new(100_000, None).find(&mut countered, 2), None);
    }
}
