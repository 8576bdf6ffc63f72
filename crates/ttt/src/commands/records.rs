//! The commands on kept games: `stats` (wins, losses and draws) and `games` (the list).

use std::io::{BufRead, Write};
use std::process::ExitCode;

use clap::Args;
use serde::Serialize;
use ttt_play::records::{Stats, Tally, utc_date};

use crate::cli::StoreArgs;
use ttt::store::{Kept, Store};

/// Arguments of `ttt stats`.
#[derive(Debug, Clone, Args)]
pub struct StatsArgs {
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Delete every kept game (and so the statistics), after asking.
    #[arg(long, conflicts_with = "json")]
    pub reset: bool,
}

/// Arguments of `ttt games`.
#[derive(Debug, Clone, Args)]
pub struct GamesArgs {
    /// Print one JSON object instead of the list.
    #[arg(long)]
    pub json: bool,
}

/// The kept games, oldest first, with any unreadable file said on standard error.
fn load(keeping: &StoreArgs) -> anyhow::Result<(Store, Vec<Kept>)> {
    let (store, kept, set_aside) = Store::open_and_load(keeping.data_dir.as_deref())?;
    for line in set_aside {
        eprintln!("ttt: {line}");
    }
    Ok((store, kept))
}

/// `ttt stats`: the table of wins, losses and draws by opponent, board and letter; with
/// `--reset`, asks on `input` and deletes every kept game.
///
/// # Errors
/// The store's, and writing `out`.
pub fn stats(
    args: &StatsArgs,
    keeping: &StoreArgs,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    let (store, kept) = load(keeping)?;
    if args.reset {
        return reset(&store, kept.len(), input, out);
    }
    let records: Vec<_> = kept.into_iter().map(|kept| kept.record).collect();
    let stats = Stats::of(&records);
    if args.json {
        serde_json::to_writer_pretty(&mut *out, &stats)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    if stats.lines.is_empty() {
        writeln!(
            out,
            "No finished game is kept yet: play one, and it will be."
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let recent = format!("Last {}", Stats::RECENT);
    let rows: Vec<[String; 8]> = stats
        .lines
        .iter()
        .map(|line| {
            [
                line.opponent.clone(),
                line.board.clone(),
                line.letter.clone(),
                line.all.games().to_string(),
                line.all.wins.to_string(),
                line.all.losses.to_string(),
                line.all.draws.to_string(),
                short(line.recent),
            ]
        })
        .collect();
    let header = [
        "Against", "Board", "As", "Games", "Won", "Lost", "Drawn", &recent,
    ]
    .map(str::to_owned);
    table(
        out,
        &header,
        &rows,
        &[false, false, false, true, true, true, true, false],
    )?;
    writeln!(
        out,
        "(\"{recent}\": won-lost-drawn in the {} most recent games of each line; a person's side, or X's where no one or two people played)",
        Stats::RECENT
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `3-1-2`.
fn short(tally: Tally) -> String {
    format!("{}-{}-{}", tally.wins, tally.losses, tally.draws)
}

/// Asks before deleting every kept game.
fn reset(
    store: &Store,
    games: usize,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    if games == 0 {
        writeln!(out, "No game is kept: nothing to delete.")?;
        return Ok(ExitCode::SUCCESS);
    }
    write!(
        out,
        "Delete all {games} kept games, finished and unfinished, and so every statistic? (yes or no) [no]: "
    )?;
    out.flush()?;
    let mut answer = String::new();
    // An unreadable answer is no yes.
    let _ = input.read_line(&mut answer);
    if matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
        let deleted = store.delete_all()?;
        writeln!(out, "Deleted {deleted} games.")?;
    } else {
        if answer.is_empty() {
            writeln!(out)?;
        }
        writeln!(out, "Nothing was deleted.")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A game as `games --json` lists it.
#[derive(Serialize)]
struct GameJson {
    number: usize,
    id: String,
    started: u64,
    ended: Option<u64>,
    board: String,
    x: String,
    o: String,
    result: String,
    moves: usize,
}

/// `ttt games`: every kept game, oldest first, numbered as other commands name them.
///
/// # Errors
/// The store's, and writing `out`.
pub fn games(
    args: &GamesArgs,
    keeping: &StoreArgs,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    let (_, kept) = load(keeping)?;
    let listed: Vec<GameJson> = kept
        .iter()
        .enumerate()
        .map(|(index, kept)| {
            let record = &kept.record;
            GameJson {
                number: index + 1,
                id: kept.id.clone(),
                started: record.started,
                ended: record.ended,
                board: record.rules.to_string(),
                x: record.x.to_string(),
                o: record.o.to_string(),
                result: match (record.outcome, &record.forfeit) {
                    (None, _) => "unfinished".to_owned(),
                    (Some(outcome), None) => outcome.to_string(),
                    (Some(outcome), Some(_)) => format!("{outcome} (forfeit)"),
                },
                moves: record.moves.len(),
            }
        })
        .collect();
    if args.json {
        serde_json::to_writer_pretty(&mut *out, &serde_json::json!({ "games": listed }))?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    if listed.is_empty() {
        writeln!(out, "No game is kept yet: play one, and it will be.")?;
        return Ok(ExitCode::SUCCESS);
    }
    let rows: Vec<[String; 7]> = listed
        .into_iter()
        .map(|game| {
            [
                game.number.to_string(),
                utc_date(game.started),
                game.board,
                game.x,
                game.o,
                game.result,
                game.moves.to_string(),
            ]
        })
        .collect();
    let header = ["#", "Started (UTC)", "Board", "X", "O", "Result", "Moves"].map(str::to_owned);
    table(
        out,
        &header,
        &rows,
        &[true, false, false, false, false, false, true],
    )
}

/// Writes a table with columns as wide as their widest cell; numbers to the right.
fn table<const N: usize>(
    out: &mut impl Write,
    header: &[String; N],
    rows: &[[String; N]],
    right: &[bool; N],
) -> anyhow::Result<ExitCode> {
    let mut widths = header.clone().map(|cell| cell.chars().count());
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    for row in std::iter::once(header).chain(rows) {
        let cells: Vec<String> = row
            .iter()
            .zip(widths)
            .zip(right)
            .map(|((cell, width), &right)| {
                if right {
                    format!("{cell:>width$}")
                } else {
                    format!("{cell:<width$}")
                }
            })
            .collect();
        writeln!(out, "{}", cells.join("  ").trim_end())?;
    }
    Ok(ExitCode::SUCCESS)
}
