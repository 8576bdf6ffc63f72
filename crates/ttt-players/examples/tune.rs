//! Tunes the weights of `search`'s pattern evaluation by self-play: `search` plays itself
//! on 15x15 freestyle from random openings, every quiet position of every game is kept
//! with how the game ended for the side to move, and the weights are fitted so that the
//! evaluation foretells the result (logistic regression on the pattern features, as chess
//! engines tune theirs). Each round plays with the weights the last one fitted.
//!
//! ```text
//! cargo run --release -p ttt-players --example tune -- [GAMES] [SECONDS] [ROUNDS]
//! ```
//!
//! Defaults: 400 games a round at 0.02 s a move, 2 rounds. Prints each round's fit (the
//! loss before and after, how often the evaluation's sign foretells the winner) and the
//! weights, as `PatternWeights` takes them.
//!
//! ```text
//! cargo run --release -p ttt-players --example tune -- games [--only NAME,...] [FILE...]
//! ```
//!
//! fits the weights instead to the quiet positions of recorded games (as the `gauntlet`
//! example of the `ttt` crate records them: one game a line, its moves as square indices),
//! such as `search`'s games against a stronger engine (by default the 32 games of
//! `examples/data/midgame.txt`): every fifth game is held out, and the loss on those
//! games, before and after, tells whether the fit carries over to games it did not see.
//! `--only` fits the named features' weights (both sides'), keeping the others as they
//! are: to weigh new features without refitting what self-play already settled.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use ttt_core::{Mark, Position, Rules};
use ttt_players::{
    FEATURE_NAMES, FEATURES, Limits, PatternWeights, Player, Search, pattern_features,
};

#[path = "support/recorded.rs"]
mod recorded;

/// One kept position: the side to move's features, the other's, and the result for the
/// side to move (1 won, 0.5 drawn, 0 lost).
type Sample = ([u32; FEATURES], [u32; FEATURES], f64);

/// A quiet position kept before its game's end is known: its mover, and the features of
/// the mover and of the other side.
type Kept = (Mark, [[u32; FEATURES]; 2]);

/// Evaluation units per unit of the logistic's argument: a weight of `SCALE` moves the
/// foretold odds of winning by a factor of e.
const SCALE: f64 = 400.0;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |at: usize, name: &str, default: f64| -> Result<f64, String> {
        args.get(at).map_or(Ok(default), |text| {
            text.parse::<f64>()
                .map_err(|_| format!("{name}: expected a number, got {text:?}"))
        })
    };
    if args.first().is_some_and(|word| word == "games") {
        return fit_recorded(&args[1..]);
    }
    let games = number(0, "GAMES", 400.0)? as usize;
    let think = Duration::try_from_secs_f64(number(1, "SECONDS", 0.02)?)
        .map_err(|why| format!("SECONDS: {why}"))?;
    let rounds = number(2, "ROUNDS", 2.0)? as usize;
    let mut weights = PatternWeights::default();
    for round in 1..=rounds {
        let samples = play(games, think, weights, round as u64)?;
        println!(
            "round {round}: {} positions from {games} games",
            samples.len()
        );
        if samples.is_empty() {
            return Err("no positions to fit the weights to: play some games".into());
        }
        weights = fit(&samples, weights, &[true; FEATURES]);
        print_weights(&weights);
    }
    Ok(())
}

/// Fits the weights to the recorded games of `paths`, every fifth held out; with
/// `--only NAME,...` first, only those features' weights.
fn fit_recorded(mut paths: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let rules = Rules::new(15, 15, 5)?;
    let mut free = [true; FEATURES];
    if paths.first().is_some_and(|word| word == "--only") {
        let names = paths
            .get(1)
            .ok_or("--only: give the features' names, as 'two-two,four-two'")?;
        free = [false; FEATURES];
        for name in names.split(',') {
            let place = FEATURE_NAMES
                .iter()
                .position(|&known| known == name)
                .ok_or_else(|| {
                    format!(
                        "--only: no feature {name:?}; the features are {}",
                        FEATURE_NAMES.join(", ")
                    )
                })?;
            free[place] = true;
        }
        paths = &paths[2..];
    }
    let (mut fitted_on, mut held_out) = (Vec::new(), Vec::new());
    let mut games = 0;
    let paths = if paths.is_empty() {
        vec![recorded::MIDGAME.to_owned()]
    } else {
        paths.to_vec()
    };
    for path in &paths {
        for positions in recorded::read(path, rules)? {
            let mut kept = Vec::new();
            for position in &positions[..positions.len() - 1] {
                kept.extend(quiet(position)?);
            }
            let end = positions.last().ok_or("a game without a position")?;
            let samples = with_results(kept, end);
            if recorded::held_out(games) {
                held_out.extend(samples);
            } else {
                fitted_on.extend(samples);
            }
            games += 1;
        }
    }
    println!(
        "{games} games: {} positions to fit, {} held out (every fifth game)",
        fitted_on.len(),
        held_out.len()
    );
    if fitted_on.is_empty() || held_out.is_empty() {
        return Err("too few games to fit and to hold out: give more".into());
    }
    let start = PatternWeights::default();
    let weights = fit(&fitted_on, start, &free);
    let (before, right_before) = loss(&held_out, &parameters(&start));
    let (after, right_after) = loss(&held_out, &parameters(&weights));
    println!(
        "held out: loss {before:.4} -> {after:.4}; the evaluation's sign foretells the winner {:.1}% -> {:.1}%",
        100.0 * right_before,
        100.0 * right_after
    );
    print_weights(&weights);
    Ok(())
}

/// The quiet positions of `games` games of `search` against itself, with their results,
/// played on two threads.
fn play(
    games: usize,
    think: Duration,
    weights: PatternWeights,
    seed: u64,
) -> Result<Vec<Sample>, String> {
    let next = AtomicUsize::new(0);
    let worker = || -> Result<Vec<Sample>, String> {
        let limits = Limits {
            think,
            memory: 16 << 20,
            threads: 1,
        };
        let mut search = Search::weighed(limits, weights);
        let mut samples = Vec::new();
        loop {
            let game = next.fetch_add(1, Ordering::Relaxed);
            if game >= games {
                return Ok(samples);
            }
            let mut rng = StdRng::seed_from_u64(seed * 1_000_003 + game as u64);
            let kept = self_play(&mut search, &mut rng)
                .map_err(|why| format!("game {game} of round {seed}: {why}"))?;
            samples.extend(kept);
        }
    };
    thread::scope(|scope| {
        let workers = [scope.spawn(worker), scope.spawn(worker)];
        let mut samples = Vec::new();
        for handle in workers {
            samples.extend(handle.join().map_err(|_| "a game's thread panicked")??);
        }
        Ok(samples)
    })
}

/// One game from a random opening (three to five stones in the centre's 5x5): its quiet
/// positions (no square to win on for either side), each with the result for its mover.
fn self_play(search: &mut Search, rng: &mut StdRng) -> Result<Vec<Sample>, String> {
    let rules = Rules::new(15, 15, 5).map_err(|why| why.to_string())?;
    let mut position = Position::new(rules, Mark::X);
    let stones = rng.random_range(3..=5);
    let placed = |position: &Position| Mark::ALL.map(|mark| position.board().count(mark));
    while placed(&position).iter().sum::<usize>() < stones {
        let (column, row) = (rng.random_range(5..10_i64), rng.random_range(5..10_i64));
        if let Some(square) = rules.square_signed(column as isize, row as isize)
            && let Ok(next) = position.after(square)
        {
            position = next;
        }
    }
    let mut kept: Vec<Kept> = Vec::new();
    while !position.is_over() {
        kept.extend(quiet(&position)?);
        let square = search
            .choose(&position, rng)
            .map_err(|why| why.to_string())?;
        position = position.after(square).map_err(|why| why.to_string())?;
    }
    Ok(with_results(kept, &position))
}

/// The mover and the features of `position` if it is quiet: no square to win on for
/// either side (a square to win on is no evaluation's business: the search takes the
/// win).
fn quiet(position: &Position) -> Result<Option<Kept>, String> {
    let five = FEATURE_NAMES
        .iter()
        .position(|&name| name == "five")
        .ok_or("no five among the features")?;
    Ok(pattern_features(position)
        .filter(|features| features.iter().all(|side| side[five] == 0))
        .map(|features| (position.to_move(), features)))
}

/// The kept positions of a game that ended in `end`, each with the result for its mover.
fn with_results(kept: Vec<Kept>, end: &Position) -> Vec<Sample> {
    let winner = end.outcome().and_then(|outcome| outcome.winner());
    kept.into_iter()
        .map(|(mover, [own, other])| {
            let result = match winner {
                Some(mark) if mark == mover => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            (own, other, result)
        })
        .collect()
}

/// The weights that best foretell the results, by gradient descent from `start` on the
/// mean logistic loss: the weights of the features `free` marks (the others stay as
/// `start` has them).
fn fit(samples: &[Sample], start: PatternWeights, free: &[bool; FEATURES]) -> PatternWeights {
    let mut theta = parameters(&start);
    let loss = |theta: &[f64]| loss(samples, theta);
    let (before, right_before) = loss(&theta);
    // Adam, on the whole set each step, the rate falling to nothing; the best weights
    // met are kept.
    let (mut m, mut v) = (vec![0.0; theta.len()], vec![0.0; theta.len()]);
    let (beta1, beta2) = (0.9, 0.999);
    let steps = 3000;
    let mut best = (before, theta.clone());
    for step in 1..=steps {
        let rate = 0.005 * f64::from(steps - step + 1) / f64::from(steps);
        if step % 100 == 0 {
            let (now, _) = loss(&theta);
            if now < best.0 {
                best = (now, theta.clone());
            }
        }
        let mut gradient = vec![0.0; theta.len()];
        for (own, other, result) in samples {
            let p = 1.0 / (1.0 + (-argument(&theta, own, other)).exp());
            let error = p - result;
            for i in 0..FEATURES {
                gradient[i] += error * f64::from(own[i]);
                gradient[FEATURES + i] -= error * f64::from(other[i]);
            }
        }
        for i in (0..theta.len()).filter(|&i| free[i % FEATURES]) {
            let g = gradient[i] / samples.len() as f64;
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(step));
            let v_hat = v[i] / (1.0 - beta2.powi(step));
            theta[i] -= rate * m_hat / (v_hat.sqrt() + 1e-9);
        }
    }
    let theta = best.1;
    let (after, right_after) = loss(&theta);
    println!(
        "fit: loss {before:.4} -> {after:.4}; the evaluation's sign foretells the winner {:.1}% -> {:.1}%",
        100.0 * right_before,
        100.0 * right_after
    );
    let weight = |t: f64| (t * SCALE).round() as i32;
    let mut fitted = start;
    for i in 0..FEATURES {
        // A five on the board is a win, not an evaluation: kept as it was.
        if FEATURE_NAMES[i] == "five" {
            continue;
        }
        fitted.own[i] = weight(theta[i]);
        fitted.other[i] = weight(theta[FEATURES + i]);
    }
    fitted
}

/// The weights in logistic units: the own weights, then the other's.
fn parameters(weights: &PatternWeights) -> Vec<f64> {
    weights
        .own
        .iter()
        .chain(&weights.other)
        .map(|&w| f64::from(w) / SCALE)
        .collect()
}

/// The mean logistic loss of `theta` on `samples`, and how often the evaluation's sign
/// foretells the winner.
fn loss(samples: &[Sample], theta: &[f64]) -> (f64, f64) {
    let mut total = 0.0;
    let mut right = 0usize;
    for (own, other, result) in samples {
        let z = argument(theta, own, other);
        let p = 1.0 / (1.0 + (-z).exp());
        total -= result * p.max(1e-12).ln() + (1.0 - result) * (1.0 - p).max(1e-12).ln();
        right += usize::from((z > 0.0) == (*result > 0.5));
    }
    let count = samples.len().max(1) as f64;
    (total / count, right as f64 / count)
}

/// The logistic's argument: the evaluation in logistic units.
fn argument(theta: &[f64], own: &[u32; FEATURES], other: &[u32; FEATURES]) -> f64 {
    (0..FEATURES)
        .map(|i| theta[i] * f64::from(own[i]) - theta[FEATURES + i] * f64::from(other[i]))
        .sum()
}

fn print_weights(weights: &PatternWeights) {
    println!(
        "            {}",
        FEATURE_NAMES.map(|n| format!("{n:>6}")).join(" ")
    );
    for (name, row) in [("own:", weights.own), ("other:", weights.other)] {
        println!("{name:<11} {}", row.map(|w| format!("{w:>6}")).join(" "));
    }
    println!("own: {:?},\nother: {:?},", weights.own, weights.other);
}
