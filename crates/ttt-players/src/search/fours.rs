//! A quick look for a win by continuous fours at the alpha-beta's horizon: depth first,
//! no table, a few hundred moves at most.
//!
//! The threat search ([`super::threats`]) proves wins by fours too, but each of its nodes
//! reads and writes a table kept for the whole game; at the horizon, where the alpha-beta
//! asks the question at every leaf and almost always gets "no", that costs more than the
//! alpha-beta's own work. Here a line of fours is followed straight down: every four leaves
//! the defender one reply, so the tree is narrow, and a budget of moves bounds it. A win
//! found is a win (every reply the defender has is played); "no" proves nothing.

use super::board::SearchBoard;

/// Whether the side to move wins by continuous fours, found within `budget` moves tried
/// (the budget is used up by the look): each of its moves makes a four (or blocks the
/// defender's four with one), the defender takes the one square that stops it, until a
/// move makes two squares to win on, or a five. The side to move has no square to win on
/// when asked (the alpha-beta has taken those); the patterns are left as they are while
/// it looks.
pub(crate) fn wins_by_fours(board: &mut SearchBoard, budget: &mut u32) -> bool {
    board.without_patterns(|board| attack(board, budget))
}

/// The attacker to move, with no square to win on.
fn attack(board: &mut SearchBoard, budget: &mut u32) -> bool {
    let me = board.to_move;
    let theirs = board.winning_squares(!me);
    let moves = match theirs.len() {
        0 => board.four_squares(me),
        // The defender's four is blocked first: by a four of one's own, or not at all.
        1 => theirs,
        _ => return false,
    };
    for square in moves {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        board.play(square);
        let won = board.won || defend(board, budget);
        board.undo();
        if won {
            return true;
        }
    }
    false
}

/// The defender to move, after the attacker's move: whether the attacker wins.
fn defend(board: &mut SearchBoard, budget: &mut u32) -> bool {
    let attacker = !board.to_move;
    if board.threatens(board.to_move) {
        // The defender completes a line of its own first.
        return false;
    }
    let wins = board.winning_squares(attacker);
    match wins.as_slice() {
        // No four: the attacker's move was a quiet block.
        [] => false,
        [block] => {
            board.play(*block);
            let won = !board.won && attack(board, budget);
            board.undo();
            won
        }
        // Two squares to win on: one block cannot stop both.
        _ => true,
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
