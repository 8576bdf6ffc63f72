//! A quick look for a win by continuous fours at the alpha-beta's horizon: depth first,
//! no table, a few dozen moves at most ([`ttt_solver::fours`], the look the solver's
//! prover makes at its leaves, here on the search board).
//!
//! The threat search ([`super::threats`]) proves wins by fours too, but each of its nodes
//! reads and writes a table kept for the whole game; at the horizon, where the alpha-beta
//! asks the question at every leaf and almost always gets "no", that costs more than the
//! alpha-beta's own work. Here a line of fours is followed straight down: every four leaves
//! the defender one reply, so the tree is narrow, and a budget of moves bounds it. A win
//! found is a win (every reply the defender has is played); "no" proves nothing.

use ttt_solver::fours::{self, FoursBoard, Side, Wins};

use super::board::SearchBoard;

/// Whether the side to move wins by continuous fours, found within `budget` moves tried
/// (the budget is used up by the look); the pattern codes are left as they are while it
/// looks, and the window counts answer it.
pub(crate) fn wins_by_fours(board: &mut SearchBoard, budget: &mut u32) -> bool {
    board.without_codes(|board| fours::wins_by_fours(board, budget))
}

impl FoursBoard for SearchBoard {
    type Squares = Vec<usize>;

    fn wins(&self, side: Side) -> Wins {
        let mark = match side {
            Side::Mover => self.to_move,
            Side::Other => !self.to_move,
        };
        SearchBoard::wins(self, mark)
    }

    fn four_squares(&self) -> Vec<usize> {
        SearchBoard::four_squares(self, self.to_move)
    }

    fn play(&mut self, square: usize) {
        SearchBoard::play(self, square);
    }

    fn undo(&mut self, square: usize) {
        debug_assert_eq!(self.played.last().map(|&s| usize::from(s)), Some(square));
        SearchBoard::undo(self);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use std::sync::Arc;

    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    use ttt_core::{Mark, Position, Rules};

    use super::super::board::Shape;
    use super::super::threats::{Reach, Threats};
    use super::*;

    fn board(rows: &[&str], to_move: Mark) -> SearchBoard {
        let rules = Rules::new(15, 15, 5).unwrap();
        let mut text: Vec<String> = rows.iter().map(|&row| row.to_owned()).collect();
        text.resize(15, ".".repeat(15));
        let position = [Mark::X, Mark::O]
            .into_iter()
            .filter_map(|first| Position::parse(&text.join("/"), rules, first).ok())
            .find(|position| position.to_move() == to_move)
            .unwrap();
        SearchBoard::new(Arc::new(Shape::new(rules)), &position)
    }

    #[test]
    fn an_open_three_wins_by_fours_and_a_closed_one_does_not() {
        // X to move: x at c2..e2 open; playing f2 or b2 makes an open four.
        let mut open = board(
            &["...............", "..xxx..........", "o.o.o.........."],
            Mark::X,
        );
        let before = (open.played.len(), open.hash, open.evaluate());
        assert!(wins_by_fours(&mut open, &mut 100));
        let after = (open.played.len(), open.hash, open.evaluate());
        assert_eq!(after, before, "the board is as it was");
        // A three closed at one end by O, with nothing behind it: its four is blocked.
        let mut lone = board(
            &["oxxx...........", "...............", "o.o.o.........."],
            Mark::X,
        );
        assert!(!wins_by_fours(&mut lone, &mut 100));
    }

    #[test]
    fn every_win_it_finds_on_small_boards_the_exact_prover_confirms() {
        use std::sync::atomic::AtomicBool;
        use ttt_core::WinRule;
        use ttt_solver::{GameResult, Progress, ProofLimits, prove};

        let mut rng = StdRng::seed_from_u64(31);
        let mut confirmed = 0;
        for (width, height, k) in [(6, 6, 4), (7, 6, 5), (7, 7, 5)] {
            for win in WinRule::ALL {
                let rules = Rules::new(width, height, k).unwrap().with_win_rule(win);
                let shape = Arc::new(Shape::new(rules));
                for _ in 0..80 {
                    let stones = rng.random_range(6..=14);
                    let Some(position) = ttt_reference::random_position(rules, stones, &mut rng)
                    else {
                        continue;
                    };
                    let mut board = SearchBoard::new(Arc::clone(&shape), &position);
                    if !board.winning_squares(board.to_move).is_empty()
                        || !wins_by_fours(&mut board, &mut 400)
                    {
                        continue;
                    }
                    let (stop, progress) = (AtomicBool::new(false), Progress::default());
                    let limits = ProofLimits {
                        table_bytes: 16 << 20,
                        stop: &stop,
                        progress: &progress,
                        max_nodes: Some(2_000_000),
                    };
                    if let Ok(proof) = prove(&position, limits) {
                        assert_eq!(proof.result, GameResult::Win, "{rules}: {position}");
                        confirmed += 1;
                    }
                }
            }
        }
        assert!(confirmed >= 20, "only {confirmed} wins confirmed");
    }

    #[test]
    fn no_budget_finds_nothing() {
        let mut open = board(
            &["...............", "..xxx..........", "o.o.o.........."],
            Mark::X,
        );
        assert!(!wins_by_fours(&mut open, &mut 0));
    }

    #[test]
    fn every_win_it_finds_the_threat_search_proves_and_it_finds_most_of_theirs() {
        // Random dense middles of 15x15, the side to move with no square to win on.
        let rules = Rules::new(15, 15, 5).unwrap();
        let shape = Arc::new(Shape::new(rules));
        let mut rng = StdRng::seed_from_u64(30);
        let (mut found, mut proved_count) = (0, 0);
        for _ in 0..600 {
            let mut position = Position::new(rules, Mark::X);
            let stones = rng.random_range(8..30);
            while position.history().len() < stones && !position.is_over() {
                let square = rules
                    .square_signed(
                        rng.random_range(4..11_i64) as isize,
                        rng.random_range(4..11_i64) as isize,
                    )
                    .unwrap();
                if position.board().get(square).is_none() {
                    position.play(square).unwrap();
                }
            }
            if position.is_over() {
                continue;
            }
            let mut quick = SearchBoard::new(Arc::clone(&shape), &position);
            let me = quick.to_move;
            if !quick.winning_squares(me).is_empty() {
                continue;
            }
            let wins = wins_by_fours(&mut quick, &mut 400);
            let mut judge = SearchBoard::new(Arc::clone(&shape), &position);
            let proved = Threats::new(1_000_000, None)
                .find(&mut judge, Reach::Fours)
                .is_some();
            if wins {
                found += 1;
                assert!(proved, "a win the threat search does not see: {position}");
            }
            proved_count += usize::from(proved);
        }
        assert!(found >= 20, "too few wins to tell: {found}");
        assert!(
            found * 10 >= proved_count * 9,
            "{found} found of {proved_count}"
        );
    }
}
