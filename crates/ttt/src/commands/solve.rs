//! `ttt solve`: proves a position's result with perfect play from both sides.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use ttt_core::{Mark, Rules, SquareNaming};
use ttt_solver::{GameResult, Proof, ProofError, ProofLimits, prove};

use super::PositionArgs;
use crate::failure::BadInput;

/// Arguments of `ttt solve`.
#[derive(Debug, Clone, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub position: PositionArgs,

    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,

    /// The most memory the transposition table may take, in megabytes.
    #[arg(long, value_name = "MB", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    pub hash: u64,
}

/// What `solve --json` prints.
#[derive(Debug, Serialize)]
struct ProofJson {
    position: String,
    to_move: Option<&'static str>,
    result: &'static str,
    best_move: Option<usize>,
    best_move_name: Option<String>,
    nodes: u64,
    seconds: f64,
    table_entries: usize,
    memory_bytes: usize,
}

/// The exit code of a proof stopped by Ctrl-C, as for any program it interrupts.
const INTERRUPTED: u8 = 130;

/// Runs `ttt solve`; Ctrl-C stops the proof and reports how far it got (exit code 130).
pub fn run(args: &SolveArgs, rules: Rules, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let position = args.position.position(rules)?;
    let stop = Arc::new(AtomicBool::new(false));
    let handler_stop = Arc::clone(&stop);
    // If a handler cannot be set (one is already), Ctrl-C simply ends the process.
    let _ = ctrlc::set_handler(move || handler_stop.store(true, Ordering::Relaxed));
    let nodes = Arc::new(AtomicU64::new(0));
    let progress = progress_line(&nodes);
    let limits = ProofLimits {
        table_bytes: usize::try_from(args.hash << 20).unwrap_or(usize::MAX),
        stop: &stop,
        nodes: &nodes,
    };
    let proof = prove(&position, limits);
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    let proof = match proof {
        Ok(proof) => proof,
        Err(ProofError::Board(_)) => {
            let message = format!(
                "ttt solve proves boards of up to {} squares, and {rules} has {}: play it with the search player instead",
                ttt_solver::MAX_SQUARES,
                rules.square_count()
            );
            return Err(BadInput(message).into());
        }
        Err(ProofError::Stopped { nodes, seconds }) => {
            if args.json {
                let json = serde_json::json!({"result": null, "interrupted": true, "nodes": nodes, "seconds": seconds});
                writeln!(out, "{json}")?;
            } else {
                writeln!(
                    out,
                    "Interrupted after {nodes} positions and {seconds:.1} s, before a proof."
                )?;
            }
            return Ok(ExitCode::from(INTERRUPTED));
        }
    };
    let naming = SquareNaming::Numbers.on_board(rules);
    let to_move = (!position.is_over()).then(|| position.to_move());
    if args.json {
        let json = ProofJson {
            position: position.to_string(),
            to_move: to_move.map(|mark| if mark == Mark::X { "x" } else { "o" }),
            result: proof.result.as_str(),
            best_move: proof.best_move.map(|square| square.index() + 1),
            best_move_name: proof.best_move.map(|square| naming.label(square, rules)),
            nodes: proof.nodes,
            seconds: proof.elapsed.as_secs_f64(),
            table_entries: proof.table_entries,
            memory_bytes: proof.table_bytes,
        };
        serde_json::to_writer(&mut *out, &json)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    for line in text(&proof, &position, naming) {
        writeln!(out, "{line}")?;
    }
    Ok(ExitCode::SUCCESS)
}

fn text(proof: &Proof, position: &ttt_core::Position, naming: SquareNaming) -> Vec<String> {
    let rules = position.rules();
    let empty = position.ply() == 0;
    let verdict = match (proof.result, empty, position.to_move()) {
        (_, _, _) if position.is_over() => "the game is already over".to_owned(),
        (GameResult::Win, true, _) => "first player wins".to_owned(),
        (GameResult::Loss, true, _) => "second player wins".to_owned(),
        (GameResult::Draw, _, _) => "draw".to_owned(),
        (GameResult::Win, false, mark) => format!("{mark} (to move) wins"),
        (GameResult::Loss, false, mark) => format!("{} wins ({mark} to move loses)", !mark),
    };
    let mut lines = vec![
        format!("{rules}, position {position}"),
        format!("Result: {verdict}, with perfect play from both sides"),
    ];
    if let Some(square) = proof.best_move {
        let how = match proof.result {
            GameResult::Win => "wins",
            GameResult::Draw => "holds the draw",
            GameResult::Loss => "loses least badly",
        };
        lines.push(format!(
            "Best move: {} (square {}), which {how}",
            naming.label(square, rules),
            square.index() + 1
        ));
    }
    lines.push(format!(
        "Searched {} positions in {:.3} s; table {} positions, about {:.1} MB",
        proof.nodes,
        proof.elapsed.as_secs_f64(),
        proof.table_entries,
        proof.table_bytes as f64 / f64::from(1 << 20)
    ));
    lines
}

/// A spinner with the positions searched, on a terminal only; nothing when piped.
fn progress_line(nodes: &Arc<AtomicU64>) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} proving… {elapsed} {msg}").ok()?);
    bar.enable_steady_tick(Duration::from_millis(120));
    let (bar_clone, nodes) = (bar.clone(), Arc::clone(nodes));
    std::thread::spawn(move || {
        while !bar_clone.is_finished() {
            bar_clone.set_message(format!("{} positions", nodes.load(Ordering::Relaxed)));
            std::thread::sleep(Duration::from_millis(200));
        }
    });
    Some(bar)
}
