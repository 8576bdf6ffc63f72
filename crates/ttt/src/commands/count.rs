//! `ttt count`: the numbers of the game, computed.

use std::io::Write;

use clap::Args;
use serde::Serialize;
use ttt_core::WinRule;
use ttt_solver::{OutcomeCounts, Statistics};

use ttt_play::words::grouped;

/// Arguments of `ttt count`.
#[derive(Debug, Clone, Args)]
pub struct CountArgs {
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,

    /// The board to count.
    #[command(flatten)]
    pub board: crate::cli::BoardArgs,
}

/// What `count --json` prints.
#[derive(Debug, Clone, Serialize)]
struct StatisticsJson {
    width: usize,
    height: usize,
    k: usize,
    /// Present, and true, only under exactly k: freestyle's object is as it always was.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    exact: bool,
    games: OutcomesJson,
    by_ply: Vec<PlyJson>,
    nodes: u64,
    positions: u64,
    positions_up_to_symmetry: u64,
    terminal_positions: u64,
    terminal_up_to_symmetry: u64,
    value: ValueJson,
}

#[derive(Debug, Clone, Serialize)]
struct OutcomesJson {
    total: u64,
    x_wins: u64,
    o_wins: u64,
    draws: u64,
}

#[derive(Debug, Clone, Serialize)]
struct PlyJson {
    ply: usize,
    #[serde(flatten)]
    games: OutcomesJson,
}

#[derive(Debug, Clone, Serialize)]
struct ValueJson {
    result: &'static str,
    plies: u32,
}

impl From<OutcomeCounts> for OutcomesJson {
    fn from(counts: OutcomeCounts) -> OutcomesJson {
        OutcomesJson {
            total: counts.total(),
            x_wins: counts.x_wins,
            o_wins: counts.o_wins,
            draws: counts.draws,
        }
    }
}

fn json(stats: &Statistics) -> StatisticsJson {
    StatisticsJson {
        width: stats.rules.width(),
        height: stats.rules.height(),
        k: stats.rules.k(),
        exact: stats.rules.win_rule() == WinRule::Exact,
        games: stats.tree.games.into(),
        by_ply: plies_with_games(stats)
            .map(|(ply, games)| PlyJson {
                ply,
                games: games.into(),
            })
            .collect(),
        nodes: stats.tree.nodes,
        positions: stats.positions,
        positions_up_to_symmetry: stats.positions_up_to_symmetry,
        terminal_positions: stats.terminal_positions,
        terminal_up_to_symmetry: stats.terminal_up_to_symmetry,
        value: ValueJson {
            result: stats.value.result.as_str(),
            plies: stats.value.plies,
        },
    }
}

fn plies_with_games(stats: &Statistics) -> impl Iterator<Item = (usize, OutcomeCounts)> + '_ {
    stats
        .tree
        .by_ply
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, games)| games.total() > 0)
}

fn text(stats: &Statistics) -> Vec<String> {
    let games = stats.tree.games;
    let mut lines = vec![
        format!("The game on {}, X moving first", stats.rules),
        String::new(),
        format!("Complete games:      {:>11}", grouped(games.total())),
        format!("  won by X:          {:>11}", grouped(games.x_wins)),
        format!("  won by O:          {:>11}", grouped(games.o_wins)),
        format!("  drawn:             {:>11}", grouped(games.draws)),
        String::new(),
        "Games ending at each ply:".to_owned(),
    ];
    // Each column as wide as its widest figure (4x4's reach 17 characters).
    let rows: Vec<[String; 4]> = plies_with_games(stats)
        .map(|(ply, games)| {
            [
                ply.to_string(),
                grouped(games.x_wins),
                grouped(games.o_wins),
                grouped(games.draws),
            ]
        })
        .collect();
    let heading = ["ply", "X wins", "O wins", "draws"].map(str::to_owned);
    let mut widths = [4, 11, 11, 11];
    for row in rows.iter().chain([&heading]) {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    for row in [&heading].into_iter().chain(&rows) {
        let [ply, x, o, draws] = row;
        let [a, b, c, d] = widths;
        lines.push(format!("  {ply:>a$} {x:>b$} {o:>c$} {draws:>d$}"));
    }
    lines.extend([
        String::new(),
        format!("Nodes of the game tree: {}", grouped(stats.tree.nodes)),
        format!(
            "Reachable positions:    {} ({} up to symmetry)",
            grouped(stats.positions),
            grouped(stats.positions_up_to_symmetry)
        ),
        format!(
            "Terminal positions:     {} ({} up to symmetry)",
            grouped(stats.terminal_positions),
            grouped(stats.terminal_up_to_symmetry)
        ),
        format!("Value of the empty board: {} for X", stats.value),
    ]);
    lines
}

/// Runs `ttt count`.
pub fn run(args: &CountArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let rules = args.board.rules()?;
    let stats = ttt_solver::count(rules).map_err(|_| {
        crate::failure::BadInput(format!(
            "ttt count goes through every position, which takes boards of up to {} squares; {rules} has {}",
            ttt_solver::MAX_SOLVED_SQUARES,
            rules.square_count()
        ))
    })?;
    if args.json {
        serde_json::to_writer(&mut *out, &json(&stats))?;
        writeln!(out)?;
    } else {
        for line in text(&stats) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}
