//! Victory by continuous fours (VCF): a forced win made of fours alone. Every attacking
//! move makes a line one short of k, so the defender's reply is forced (the one square
//! that completes it), until the attacker makes two such lines at once or completes one.
//! The defender's forced replies keep the tree narrow, so it is searched to a depth no
//! alpha-beta reaches; positions proved to have no VCF are remembered.

use std::collections::HashSet;

use ttt_core::Mark;

use super::board::SearchBoard;

/// How many attacking moves a VCF may take (each answered by a forced block).
pub(crate) const MAX_FOURS: u32 = 16;

/// A search for VCFs with a bound on its work.
pub(crate) struct Vcf {
    /// (position hash, fours left) proved to have no VCF.
    failed: HashSet<(u64, u32)>,
    /// Attacking moves tried so far, against `budget`.
    nodes: u64,
    budget: u64,
}

impl Vcf {
    /// A search that gives up after `budget` attacking moves in all.
    pub(crate) fn new(budget: u64) -> Vcf {
        Vcf {
            failed: HashSet::new(),
            nodes: 0,
            budget,
        }
    }

    /// The first move of a VCF for the side to move, if one is found within the bounds.
    pub(crate) fn find(&mut self, board: &mut SearchBoard) -> Option<usize> {
        let attacker = board.to_move;
        self.attack(board, attacker, MAX_FOURS)
    }

    /// Whether `mark`, were it to move now, would have a VCF: the squares that make a
    /// four for it, the opponent's threats notwithstanding, checked by trying them.
    pub(crate) fn threatened_by(&mut self, board: &mut SearchBoard, mark: Mark) -> bool {
        if board.to_move == mark {
            return self.find(board).is_some();
        }
        // Let `mark` move, as if the side to move passed.
        board.to_move = mark;
        let found = self.attack(board, mark, MAX_FOURS).is_some();
        board.to_move = !mark;
        found
    }

    fn attack(&mut self, board: &mut SearchBoard, attacker: Mark, fours: u32) -> Option<usize> {
        let defender = !attacker;
        if let Some(&win) = board.winning_squares(attacker).first() {
            return Some(win);
        }
        if fours == 0 || self.nodes >= self.budget {
            return None;
        }
        if self.failed.contains(&(board.hash, fours)) {
            return None;
        }
        let blocks = board.winning_squares(defender);
        let candidates = match blocks.len() {
            0 => board.four_squares(attacker),
            // The defender's four must be blocked, and the block must be a four itself.
            1 => blocks,
            _ => return None,
        };
        for square in candidates {
            self.nodes += 1;
            board.play(square);
            let made = board.winning_squares(attacker);
            let answer = match made.len() {
                0 => None,
                // Two squares to complete: the defender blocks one, the attacker wins.
                _ if made.len() >= 2 && board.winning_squares(defender).is_empty() => {
                    board.undo();
                    return Some(square);
                }
                _ if !board.winning_squares(defender).is_empty() => None,
                _ => Some(made[0]),
            };
            if let Some(block) = answer {
                board.play(block);
                let next = self.attack(board, attacker, fours - 1);
                board.undo();
                if next.is_some() {
                    board.undo();
                    return Some(square);
                }
            }
            board.undo();
        }
        if self.nodes < self.budget {
            self.failed.insert((board.hash, fours));
        }
        None
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
        let first = Vcf::new(100_000).find(&mut position);
        assert_eq!(first, Some(2 * 15 + 6), "g3 makes two fours at once");
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
        assert_eq!(Vcf::new(100_000).find(&mut lone), None);
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
        assert_eq!(Vcf::new(100_000).find(&mut position), None);
        // After X's move the board is as it was: the search undid everything.
        assert_eq!(position.to_move, Mark::X);
    }
}
