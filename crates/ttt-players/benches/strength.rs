//! How strong the computer players are: matches between them on several boards, each
//! player taking both sides, with the search player's longest move against its bound.
//!
//! Run with `cargo bench -p ttt-players --bench strength` (several minutes). It prints a
//! table and fails if the search player ever loses to `random` or `rules`, wins under 95%
//! against `rules` on 15x15 with k=5, or overruns its time bound by more than 10%.

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::panic,
    reason = "benchmark harness"
)]

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use ttt_core::{Mark, Outcome, Position, Rules};
use ttt_players::{Limits, Player, Strength};

/// A player that records how long each of its moves took.
struct Timed {
    player: Box<dyn Player + Send>,
    longest: Duration,
}

impl Timed {
    fn choose(&mut self, position: &Position, rng: &mut StdRng) -> ttt_core::Square {
        let start = Instant::now();
        let square = self.player.choose(position, rng).unwrap();
        self.longest = self.longest.max(start.elapsed());
        square
    }
}

struct Tally {
    wins: u32,
    losses: u32,
    draws: u32,
    longest: Duration,
}

/// `games` games of `a` against `b` on `rules`, `a` taking X in half of them.
fn play(rules: Rules, a: Strength, b: Strength, games: u32, think: Duration) -> Tally {
    let mut tally = Tally {
        wins: 0,
        losses: 0,
        draws: 0,
        longest: Duration::ZERO,
    };
    let mut rng = StdRng::seed_from_u64(2026);
    for game in 0..games {
        let mut first = Timed {
            player: a.player(Limits {
                think,
                ..Limits::default()
            }),
            longest: Duration::ZERO,
        };
        let mut second = Timed {
            player: b.player(Limits {
                think,
                ..Limits::default()
            }),
            longest: Duration::ZERO,
        };
        let a_mark = if game % 2 == 0 { Mark::X } else { Mark::O };
        let mut position = Position::new(rules, Mark::X);
        while !position.is_over() {
            let square = if position.to_move() == a_mark {
                first.choose(&position, &mut rng)
            } else {
                second.choose(&position, &mut rng)
            };
            position.play(square).unwrap();
        }
        match position.outcome() {
            Some(Outcome::Win(mark)) if mark == a_mark => tally.wins += 1,
            Some(Outcome::Win(_)) => tally.losses += 1,
            _ => tally.draws += 1,
        }
        tally.longest = tally.longest.max(first.longest);
    }
    tally
}

fn main() {
    let board = |w, h, k| Rules::new(w, h, k).unwrap();
    let ms = Duration::from_millis;
    // (rules, player, opponent, games, think, the least share of wins it must reach)
    let matches = [
        (
            board(3, 3, 3),
            Strength::Search,
            Strength::Random,
            40,
            ms(50),
            None,
        ),
        (
            board(3, 3, 3),
            Strength::Search,
            Strength::Rules,
            40,
            ms(50),
            None,
        ),
        (
            board(3, 3, 3),
            Strength::Search,
            Strength::Perfect,
            20,
            ms(50),
            None,
        ),
        (
            board(4, 4, 4),
            Strength::Search,
            Strength::Random,
            20,
            ms(100),
            None,
        ),
        (
            board(4, 4, 4),
            Strength::Search,
            Strength::Rules,
            20,
            ms(100),
            None,
        ),
        (
            board(7, 6, 4),
            Strength::Search,
            Strength::Rules,
            20,
            ms(200),
            None,
        ),
        (
            board(15, 15, 5),
            Strength::Search,
            Strength::Random,
            10,
            ms(500),
            None,
        ),
        (
            board(15, 15, 5),
            Strength::Search,
            Strength::Rules,
            20,
            ms(500),
            Some(0.95),
        ),
        (
            board(15, 15, 5),
            Strength::Search,
            Strength::Mcts,
            10,
            ms(500),
            None,
        ),
        (
            board(15, 15, 5),
            Strength::Mcts,
            Strength::Rules,
            10,
            ms(500),
            None,
        ),
        (
            board(19, 19, 5),
            Strength::Search,
            Strength::Rules,
            6,
            ms(500),
            None,
        ),
    ];
    println!(
        "{:<14} {:<8} {:<9} {:>5} {:>4} {:>4} {:>5} {:>8} {:>10}",
        "board", "player", "opponent", "games", "won", "lost", "drawn", "think", "longest"
    );
    let mut failures = Vec::new();
    for (rules, player, opponent, games, think, least) in matches {
        let tally = play(rules, player, opponent, games, think);
        println!(
            "{:<14} {:<8} {:<9} {:>5} {:>4} {:>4} {:>5} {:>7}ms {:>8.0}ms",
            rules.to_string(),
            player.to_string(),
            opponent.to_string(),
            games,
            tally.wins,
            tally.losses,
            tally.draws,
            think.as_millis(),
            tally.longest.as_secs_f64() * 1000.0
        );
        let name = format!("{player} v {opponent} on {rules}");
        if player == Strength::Search
            && matches!(opponent, Strength::Random | Strength::Rules)
            && tally.losses > 0
        {
            failures.push(format!("{name}: lost {} games", tally.losses));
        }
        if least.is_some_and(|least| f64::from(tally.wins) < least * f64::from(games)) {
            failures.push(format!("{name}: won only {} of {games}", tally.wins));
        }
        if player != Strength::Perfect && tally.longest > think.mul_f64(1.1) {
            failures.push(format!(
                "{name}: a move took {:?}, over {:?} + 10%",
                tally.longest, think
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
