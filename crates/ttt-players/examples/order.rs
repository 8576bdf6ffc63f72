//! Fits `search`'s move order to the moves a stronger player chose: in every quiet
//! position of recorded games (no five to make, no four or open three to answer), the
//! squares the search orders (see `ttt_players::move_shapes`) are scored by the
//! [`MoveValues`] of their shapes, and the values are fitted so that the move played
//! scores highest (a softmax over the squares, its log-loss brought down by gradient
//! descent from the values before, which a small pull toward them keeps rare shapes at).
//!
//! ```text
//! cargo run --release -p ttt-players --example order -- [--out PATH] FILE...
//! ```
//!
//! The files hold games as the `gauntlet` example of the `ttt` crate records them (one
//! game a line, its moves as square indices), such as the Gomocup champion's games
//! against itself: every move is learnt from but the first five (the opening). A line
//! that begins with `x:` or `o:` is learnt from for that side's moves alone (the
//! champion's in its games against `search`). Every fifth game is held out: how often the move
//! played is the first of the order, and among the first 16 (the moves the search looks
//! at below the root), before and after, on games the fit did not see, tells whether it
//! carries over. `--out` writes the fitted values as Rust source, as
//! `src/search/move_values.rs` holds them.

use std::time::Instant;

use ttt_core::Rules;
use ttt_players::{MoveValues, PatternWeights, SHAPES, move_shapes};

#[path = "support/recorded.rs"]
mod recorded;

/// One quiet position: each ordered square's shapes (for the mover, for the other), and
/// which of them was played.
struct Sample {
    squares: Vec<[u16; TERMS]>,
    played: usize,
}

/// The terms of a square's value: its shape for the mover, and for the other.
const TERMS: usize = 2;
/// Moves of a game's opening, left out.
const OPENING: usize = 5;
/// The moves searched below the root, as `search` has them.
const WIDTH: usize = 16;
/// How hard the fit is pulled toward the values before, per parameter and sample.
const PULL: f64 = 1e-4;
/// Adam's steps over the whole set.
const STEPS: u32 = 400;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut out = None;
    if let Some(at) = args.iter().position(|word| word == "--out") {
        let path = args
            .get(at + 1)
            .ok_or("--out: give the path to write the values to")?
            .clone();
        args.drain(at..at + 2);
        out = Some(path);
    }
    if args.is_empty() {
        return Err("give the files of games to fit the order to".into());
    }
    let rules = Rules::new(15, 15, 5)?;
    let started = Instant::now();
    let (mut fitted_on, mut held_out) = (Vec::new(), Vec::new());
    let (mut games, mut unordered) = (0, 0);
    for path in &args {
        for (side, positions) in recorded::read_sided(path, rules)? {
            for pair in positions.windows(2).skip(OPENING) {
                if side.is_some_and(|side| side != pair[0].to_move()) {
                    continue;
                }
                let Some(squares) = move_shapes(&pair[0]) else {
                    continue;
                };
                let played = pair[1]
                    .history()
                    .last()
                    .copied()
                    .ok_or("a position after a move without its move")?;
                let Some(at) = squares.iter().position(|&(square, _)| square == played) else {
                    // A square far from every mark: no order puts it first.
                    unordered += 1;
                    continue;
                };
                let sample = Sample {
                    squares: squares
                        .iter()
                        .map(|&(_, [mine, theirs])| [mine, SHAPES + theirs].map(|i| i as u16))
                        .collect(),
                    played: at,
                };
                if recorded::held_out(games) {
                    held_out.push((side.is_some(), sample));
                } else {
                    fitted_on.push(sample);
                }
            }
            games += 1;
        }
    }
    println!(
        "{games} games: {} quiet positions to fit, {} held out (every fifth game); {unordered} moves played far from every mark left out ({:.1} s)",
        fitted_on.len(),
        held_out.len(),
        started.elapsed().as_secs_f64()
    );
    if fitted_on.is_empty() || held_out.is_empty() {
        return Err("too few games to fit and to hold out: give more".into());
    }
    let start = MoveValues::from_weights(&PatternWeights::default());
    let scale = best_scale(&fitted_on, &start);
    let before = parameters(&start, scale);
    let after = fit(&fitted_on, &before);
    // The held-out games against another player (one side marked) share openings with
    // games fitted on, where a fixed set of openings is replayed; the others are told
    // apart too.
    let held = |marked: Option<bool>| -> Vec<&Sample> {
        held_out
            .iter()
            .filter(|(is, _)| marked.is_none_or(|marked| *is == marked))
            .map(|(_, sample)| sample)
            .collect()
    };
    let sets = [
        ("fitted", fitted_on.iter().collect()),
        ("held out", held(None)),
        ("held out, one side's moves", held(Some(true))),
        ("held out, both sides' moves", held(Some(false))),
    ];
    for (name, theta) in [("before", &before), ("after", &after)] {
        for (set, samples) in sets.iter().filter(|(_, samples)| !samples.is_empty()) {
            let measured = measure(samples, theta);
            println!(
                "{name:<6} {set:<27} ({:>5}): loss {:.4}, first {:.1}%, among the first {WIDTH} {:.1}%",
                samples.len(),
                measured.loss,
                100.0 * measured.first,
                100.0 * measured.among
            );
        }
    }
    let fitted = values(&after, scale);
    if let Some(path) = out {
        std::fs::write(&path, source(&fitted))
            .map_err(|why| format!("cannot write {path}: {why}"))?;
        println!("wrote the fitted values to {path}");
    }
    Ok(())
}

/// The scale (value units per logit) that best fits the values before as they are.
fn best_scale(samples: &[Sample], start: &MoveValues) -> f64 {
    let mut best = (f64::INFINITY, 1.0);
    let samples: Vec<&Sample> = samples.iter().collect();
    for step in 0..60 {
        let scale = 10f64.powf(f64::from(step) / 10.0);
        let loss = measure(&samples, &parameters(start, scale)).loss;
        if loss < best.0 {
            best = (loss, scale);
        }
    }
    best.1
}

/// The values in logits: the own values by shape, then the other's.
fn parameters(values: &MoveValues, scale: f64) -> Vec<f64> {
    values
        .own
        .iter()
        .chain(&values.other)
        .map(|&value| f64::from(value) / scale)
        .collect()
}

/// The values of logits `theta`, at `scale` value units a logit.
fn values(theta: &[f64], scale: f64) -> MoveValues {
    let value = |logit: f64| (logit * scale).round().clamp(-1e9, 1e9) as i32;
    MoveValues {
        own: std::array::from_fn(|shape| value(theta[shape])),
        other: std::array::from_fn(|shape| value(theta[SHAPES + shape])),
    }
}

/// A square's logit.
fn logit(theta: &[f64], terms: [u16; TERMS]) -> f64 {
    terms.iter().map(|&term| theta[usize::from(term)]).sum()
}

/// The log of the sum of the exponentials of `logits`, the largest taken out first so that
/// none overflows: the softmax's normaliser, in logs.
fn log_sum_exp(logits: &[f64]) -> f64 {
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    top + logits.iter().map(|&l| (l - top).exp()).sum::<f64>().ln()
}

/// How well `theta` foretells the moves played.
struct Measured {
    /// The mean log-loss of the move played.
    loss: f64,
    /// How often it is first in the order.
    first: f64,
    /// How often it is among the first [`WIDTH`].
    among: f64,
}

fn measure(samples: &[&Sample], theta: &[f64]) -> Measured {
    let (mut loss, mut first, mut among) = (0.0, 0, 0);
    for sample in samples {
        let logits: Vec<f64> = sample.squares.iter().map(|&s| logit(theta, s)).collect();
        let played = logits[sample.played];
        loss += log_sum_exp(&logits) - played;
        // Ties are broken against the move played: the order does not favour it.
        let above = logits.iter().filter(|&&l| l >= played).count() - 1;
        first += usize::from(above == 0);
        among += usize::from(above < WIDTH);
    }
    let count = samples.len().max(1) as f64;
    Measured {
        loss: loss / count,
        first: first as f64 / count,
        among: among as f64 / count,
    }
}

/// The logits that best foretell the moves played, by Adam on the whole set from `start`,
/// pulled toward it by [`PULL`].
fn fit(samples: &[Sample], start: &[f64]) -> Vec<f64> {
    let mut theta = start.to_vec();
    let (mut m, mut v) = (vec![0.0; theta.len()], vec![0.0; theta.len()]);
    let (beta1, beta2) = (0.9, 0.999);
    let count = samples.len() as f64;
    for step in 1..=STEPS {
        let rate = 0.05 * f64::from(STEPS - step + 1) / f64::from(STEPS);
        let mut gradient = vec![0.0; theta.len()];
        let mut logits = Vec::new();
        for sample in samples {
            logits.clear();
            logits.extend(sample.squares.iter().map(|&s| logit(&theta, s)));
            let whole = log_sum_exp(&logits);
            for (at, (&terms, &logit)) in sample.squares.iter().zip(&logits).enumerate() {
                let p = (logit - whole).exp() - f64::from(u8::from(at == sample.played));
                for term in terms {
                    gradient[usize::from(term)] += p;
                }
            }
        }
        for (i, g) in gradient.iter().enumerate() {
            let g = g / count + 2.0 * PULL * (theta[i] - start[i]);
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(step as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(step as i32));
            theta[i] -= rate * m_hat / (v_hat.sqrt() + 1e-9);
        }
    }
    theta
}

/// The Rust source of `src/search/move_values.rs` holding `values`.
fn source(values: &MoveValues) -> String {
    let mut text = String::from(
        "//! The fitted move values (see `MoveValues`): written by the `order` example, not by hand.\n\n\
         use super::patterns::SHAPES;\n\n\
         /// By shape: the value as the side to move's own shape, and as the other's.\n\
         #[rustfmt::skip]\n\
         pub(super) const FITTED: [[i32; 2]; SHAPES] = [\n",
    );
    for shape in 0..SHAPES {
        text.push_str(&format!(
            "    [{}, {}], // {}\n",
            values.own[shape],
            values.other[shape],
            MoveValues::shape_name(shape)
        ));
    }
    text.push_str("];\n");
    text
}
