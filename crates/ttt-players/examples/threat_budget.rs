//! How far the threat-space search alone reaches on a tactical suite: for each position
//! (or the one at a 0-based index), whether `ttt_players::wins_by_threats` proves the side
//! to move's win with 3 million nodes, then with a larger budget, and how long
//! each took.
//!
//! ```text
//! cargo run --release -p ttt-players --example threat_budget -- ../shared/gomoku/attack.jsonl 10000000 [INDEX]
//! ```

use std::io::Write;
use std::time::Instant;

use ttt_core::{Mark, Position, Rules};

/// The budget of the first look, as the `tactics` judge uses.
const FIRST: u64 = 3_000_000;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Written with `?`, so that a closed pipe (`| head`) ends the run with an error, not a
    // panic.
    let mut out = std::io::stdout().lock();
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("give the suite's path (a .jsonl file)")?;
    let budget: u64 = args.next().map_or(Ok(30_000_000), |text| text.parse())?;
    let only: Option<usize> = args.next().map(|text| text.parse()).transpose()?;
    let rules = Rules::new(15, 15, 5)?;
    let text =
        std::fs::read_to_string(&path).map_err(|why| format!("cannot read {path}: {why}"))?;
    for (index, line) in text.lines().enumerate() {
        if only.is_some_and(|only| only != index) || line.trim().is_empty() {
            continue;
        }
        let case: serde_json::Value = serde_json::from_str(line)?;
        let rows = case["position"].as_str().ok_or("no position")?;
        let to_move: Mark = case["to_move"].as_str().ok_or("no side to move")?.parse()?;
        let (x, o) = (rows.matches('x').count(), rows.matches('o').count());
        let first = if x == o { to_move } else { !to_move };
        let position = Position::parse(rows, rules, first)?;
        let started = Instant::now();
        let quick = ttt_players::wins_by_threats(&position, to_move, FIRST);
        let quick_took = started.elapsed();
        let long = quick || ttt_players::wins_by_threats(&position, to_move, budget);
        writeln!(
            out,
            "{index}: a win of {} plies (the suite's move {}); proved with {FIRST}: {quick} in {:.2} s; with {budget}: {long} in {:.2} s",
            case["win_in_plies"],
            case["winning_move"],
            quick_took.as_secs_f64(),
            started.elapsed().as_secs_f64()
        )?;
    }
    Ok(())
}
