//! The reference the tests of `ttt` check the solver, the players and the commands
//! against: a plain minimax over every move, and the positions a game can reach. It is
//! written for obviousness, not speed, and shares nothing with the solver beyond the rules.
//!
//! ```
//! use ttt_core::Position;
//! use ttt_reference::{Minimax, Score};
//!
//! let mut minimax = Minimax::new();
//! // Tic-tac-toe is a draw: nine plies with perfect play.
//! assert_eq!(minimax.value(&Position::default()), (Score::Draw, 9));
//! ```

use std::collections::{HashMap, HashSet};

use rand::RngExt;
use ttt_core::{Outcome, Position, Rules};

/// The result for the side to move under perfect play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Score {
    /// The side to move loses.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins.
    Win,
}

impl Score {
    /// The result for the other side.
    #[must_use]
    pub fn flipped(self) -> Score {
        match self {
            Score::Loss => Score::Win,
            Score::Draw => Score::Draw,
            Score::Win => Score::Loss,
        }
    }
}

/// A memoised minimax: the value of a position for the side to move, and the plies to the
/// end when the winner hurries and the loser delays.
#[derive(Debug, Default)]
pub struct Minimax {
    memo: HashMap<Position, (Score, u32)>,
}

impl Minimax {
    /// A minimax with nothing remembered yet.
    #[must_use]
    pub fn new() -> Minimax {
        Minimax::default()
    }

    /// The value of `position` for the side to move and the plies to the end.
    pub fn value(&mut self, position: &Position) -> (Score, u32) {
        match position.outcome() {
            Some(Outcome::Draw) => return (Score::Draw, 0),
            // The side to move has lost: the other side made the line.
            Some(Outcome::Win(_)) => return (Score::Loss, 0),
            None => {}
        }
        if let Some(&known) = self.memo.get(position) {
            return known;
        }
        let mut best: Option<(Score, u32)> = None;
        for square in position.legal_moves() {
            let mut after = position.clone();
            after.play_unchecked(square);
            let (score, plies) = self.value(&after);
            let candidate = (score.flipped(), plies + 1);
            if best.is_none_or(|best| preference(candidate) > preference(best)) {
                best = Some(candidate);
            }
        }
        // A position that is not over has a free square.
        let best = best.unwrap_or((Score::Draw, 0));
        self.memo.insert(position.clone(), best);
        best
    }

    /// The value of playing `square` in `position`, for the side that plays it.
    pub fn move_value(&mut self, position: &Position, square: ttt_core::Square) -> (Score, u32) {
        let mut after = position.clone();
        after.play_unchecked(square);
        let (score, plies) = self.value(&after);
        (score.flipped(), plies + 1)
    }
}

/// Better results first; among wins the shortest, among draws and losses the longest.
fn preference((score, plies): (Score, u32)) -> (Score, i64) {
    let plies = i64::from(plies);
    (score, if score == Score::Win { -plies } else { plies })
}

/// Every position reachable from `start` (itself included), each once however reached.
#[must_use]
pub fn reachable(start: &Position) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut stack = vec![start.clone()];
    let mut all = Vec::new();
    while let Some(position) = stack.pop() {
        if !seen.insert(position.clone()) {
            continue;
        }
        if !position.is_over() {
            for square in position.legal_moves() {
                let mut after = position.clone();
                after.play_unchecked(square);
                stack.push(after);
            }
        }
        all.push(position);
    }
    all
}

/// A position of `rules` after `stones` random moves from the empty board (X first), if
/// no move of them ended the game: the random positions the exhaustive tests sample
/// where a board is too big to take whole.
pub fn random_position(rules: Rules, stones: usize, rng: &mut impl rand::Rng) -> Option<Position> {
    let mut position = Position::new(rules, ttt_core::Mark::X);
    for _ in 0..stones {
        let moves = position.legal_moves();
        let square = *moves.get(rng.random_range(0..moves.len().max(1)))?;
        position.play_unchecked(square);
        if position.is_over() {
            return None;
        }
    }
    Some(position)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tic_tac_toe_has_its_published_numbers() {
        let all = reachable(&Position::default());
        assert_eq!(all.len(), 5_478, "legal positions");
        assert_eq!(
            all.iter().filter(|position| position.is_over()).count(),
            958,
            "ends"
        );
        let mut minimax = Minimax::new();
        assert_eq!(minimax.value(&Position::default()), (Score::Draw, 9));
        // X at the centre, O on an edge: X wins (in seven plies from here).
        let edge: Position = ".o./.x./...".parse().unwrap_or_default();
        assert_eq!(minimax.value(&edge).0, Score::Win);
    }
}
