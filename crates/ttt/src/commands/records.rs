//! The commands on kept games: `stats` (wins, losses and draws), `games` (the list),
//! `export` and `import` (SGF and PSQ files).

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde::Serialize;
use ttt::line::{BoardStyle, Palette, draw};
use ttt_core::{Mark, Outcome, Shown, SquareNaming};
use ttt_play::records::{FileFormat, GameRecord, Stats, Tally, utc_date};
use ttt_play::replay::Replay;

use crate::cli::StoreArgs;
use ttt::failure::BadInput;
use ttt::store::{Kept, Store};

/// Arguments of `ttt export`.
#[derive(Debug, Clone, Args)]
pub struct ExportArgs {
    /// The game: its number in `ttt games`, `last`, or its id (or --all).
    #[arg(value_name = "GAME", required_unless_present = "all")]
    pub game: Option<String>,

    /// Every kept game, as one SGF collection (instead of GAME).
    #[arg(long, conflicts_with = "game")]
    pub all: bool,

    /// The file format: sgf (any board) or psq (Piskvork's, five in a row only).
    #[arg(long, value_name = "FORMAT", default_value = "sgf")]
    pub format: FileFormat,

    /// Write to this new file (an existing file is never written over) instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Where the games are kept.
    #[command(flatten)]
    pub store: StoreArgs,
}

/// Arguments of `ttt replay`.
#[derive(Debug, Clone, Args)]
pub struct ReplayArgs {
    /// The game: its number in `ttt games`, `last`, its id, or an SGF or PSQ file.
    #[arg(value_name = "GAME", default_value = "last")]
    pub game: String,

    /// Print the game and its review instead of stepping through it on the full screen.
    #[arg(long)]
    pub plain: bool,

    /// Where the games are kept.
    #[command(flatten)]
    pub store: StoreArgs,
}

/// Arguments of `ttt import`.
#[derive(Debug, Clone, Args)]
pub struct ImportArgs {
    /// SGF or PSQ files written by ttt or another gomoku program; each move is checked.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// Where the games are kept.
    #[command(flatten)]
    pub store: StoreArgs,
}

/// `ttt export`: a kept game (or all) as SGF or PSQ, on standard output or into a new file.
///
/// # Errors
/// [`BadInput`] for a game that is not there, a format that cannot hold it, or a file that
/// exists already; the store's and the output's errors.
pub fn export(
    args: &ExportArgs,
    keeping: &StoreArgs,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    let (_, kept) = load(keeping)?;
    let games: Vec<GameRecord> = if args.all {
        kept.into_iter().map(|kept| kept.record).collect()
    } else {
        let which = args.game.as_deref().unwrap_or("last");
        vec![Kept::find(&kept, which)?.record.clone()]
    };
    let text = args
        .format
        .write_all(&games)
        .map_err(|error| BadInput(error.to_string()))?;
    match &args.output {
        None => out.write_all(text.as_bytes())?,
        Some(path) => {
            super::write_new_file(path, &text)?;
            writeln!(
                out,
                "Wrote {} {} to {}.",
                games.len(),
                if games.len() == 1 { "game" } else { "games" },
                path.display()
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The game `replay` names, from a file or the store, with its notes: the exact
/// solver's review where it reaches the board, else the threat search's opinion.
///
/// # Errors
/// [`BadInput`] for a game that is not there or cannot be read.
pub fn replay_of(args: &ReplayArgs, keeping: &StoreArgs) -> anyhow::Result<Replay> {
    let path = std::path::Path::new(&args.game);
    // A file's name, by what it looks like: a kept game is named by a number, last or an
    // id, none of which has a dot or a slash.
    let looks_like_a_file = args.game.contains(['.', '/', '\\']);
    let record = if path.is_file() || looks_like_a_file {
        read_games(path)?.1.remove(0)
    } else {
        let (_, kept) = load(keeping)?;
        Kept::find(&kept, &args.game)?.record.clone()
    };
    let rules = record.rules;
    let replay = Replay::new(record).map_err(|error| BadInput(error.to_string()))?;
    Ok(if rules.square_count() <= ttt_solver::MAX_SOLVED_SQUARES {
        replay.with_review(&mut ttt_solver::Solver::new())
    } else {
        replay.with_threats()
    })
}

/// `ttt replay --plain` (or without a terminal): the game, a line a move with its note,
/// the final board, and what the review found.
///
/// # Errors
/// Writing `out`.
pub fn print_replay(replay: &Replay, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let record = replay.record();
    let rules = record.rules;
    writeln!(
        out,
        "{rules}: X {} against O {}, {}, started {}.",
        // Names from other programs' files, shown as typed text is.
        Shown(&record.player(Mark::X)),
        Shown(&record.player(Mark::O)),
        ttt_play::words::count(record.moves.len(), "move"),
        utc_date(record.started)
    )?;
    let naming = SquareNaming::Numbers.on_board(rules);
    let mut position = ttt_core::Position::new(rules, record.first);
    for (index, (&square, note)) in record.moves.iter().zip(replay.notes()).enumerate() {
        let mover = position.to_move();
        position.play_unchecked(square);
        match note {
            Some(note) => writeln!(out, "{:>3}. {note}", index + 1)?,
            None => writeln!(
                out,
                "{:>3}. {mover} {}",
                index + 1,
                naming.label(square, rules)
            )?,
        }
    }
    writeln!(out)?;
    for line in draw(
        &position,
        BoardStyle::for_board(rules),
        naming,
        Palette::plain(),
    ) {
        writeln!(out, "{}", line.trim_end())?;
    }
    writeln!(out)?;
    let result = match (record.outcome, &record.forfeit) {
        (None, _) => "Unfinished.".to_owned(),
        (Some(outcome), None) => format!("{outcome}."),
        (Some(outcome), Some(reason)) => format!("{outcome}: {reason}."),
    };
    writeln!(out, "{result}")?;
    for line in replay.summary() {
        writeln!(out, "{line}")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `ttt import`: the games of SGF and PSQ files, each move checked, kept as new games
/// marked imported (listed after the games before them, left out of the statistics). A
/// game already kept is not kept twice. A file that cannot be read, or holds a bad game,
/// adds nothing and is said in one line; the other files are still imported.
///
/// # Errors
/// The store's; a bad file makes the exit code 2 once every file has been tried.
pub fn import(
    args: &ImportArgs,
    keeping: &StoreArgs,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    let (mut store, mut kept) = load(keeping)?;
    let mut failed = false;
    for path in &args.files {
        let (format, games) = match read_games(path) {
            Ok(read) => read,
            Err(error) => {
                ttt::failure::say(error);
                failed = true;
                continue;
            }
        };
        let (mut ids, mut already) = (Vec::new(), 0);
        for mut game in games {
            let now = ttt::store::now();
            // A file with no date (PSQ has none): the game counts from its import.
            if game.started == 0 {
                game.started = now;
                game.ended = game.ended.map(|_| now);
            }
            if kept.iter().any(|kept| kept.record.same_game(&game)) {
                already += 1;
                continue;
            }
            game.imported = Some(now);
            let id = store.write(None, &game)?;
            kept.push(Kept {
                id: id.clone(),
                record: game,
            });
            ids.push(id);
        }
        // Their numbers in `ttt games`, which lists the games in the order they were kept.
        Kept::in_listing_order(&mut kept);
        let numbers: Vec<usize> = kept
            .iter()
            .enumerate()
            .filter(|(_, kept)| ids.contains(&kept.id))
            .map(|(index, _)| index + 1)
            .collect();
        let mut said = format!(
            "Imported {} from {} ({})",
            ttt_play::words::count(ids.len(), "game"),
            path.display(),
            format
        );
        if !numbers.is_empty() {
            said.push_str(&format!(": {} in `ttt games`", runs(&numbers)));
        }
        if already > 0 {
            said.push_str(&format!(
                "; {} kept already, not kept twice",
                ttt_play::words::count(already, "game")
            ));
        }
        writeln!(out, "{said}.")?;
    }
    Ok(if failed {
        ExitCode::from(ttt::failure::BAD_INPUT)
    } else {
        ExitCode::SUCCESS
    })
}

/// The format and games of an SGF or PSQ file, each move checked, or what is wrong.
fn read_games(path: &std::path::Path) -> Result<(FileFormat, Vec<GameRecord>), BadInput> {
    let text = ttt::files::read_text_bounded(path, ttt::files::MAX_GAME_FILE_BYTES)
        .map_err(|error| BadInput(format!("cannot read {}: {error}", path.display())))?;
    let format = FileFormat::of(&text);
    let games = format
        .read_all(&text)
        .map_err(|error| BadInput(format!("{}: {error}", path.display())))?;
    Ok((format, games))
}

/// Arguments of `ttt stats`.
#[derive(Debug, Clone, Args)]
pub struct StatsArgs {
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Delete every kept game (and so the statistics), after asking.
    #[arg(long, conflicts_with = "json")]
    pub reset: bool,

    /// Where the games are kept.
    #[command(flatten)]
    pub store: StoreArgs,
}

/// Arguments of `ttt games`.
#[derive(Debug, Clone, Args)]
pub struct GamesArgs {
    /// Print one JSON object instead of the list.
    #[arg(long)]
    pub json: bool,

    /// Where the games are kept.
    #[command(flatten)]
    pub store: StoreArgs,
}

/// The kept games, oldest first, with any unreadable file said on standard error.
fn load(keeping: &StoreArgs) -> anyhow::Result<(Store, Vec<Kept>)> {
    let (store, kept, set_aside) = Store::open_and_load(keeping.data_dir.as_deref())?;
    for line in set_aside {
        ttt::failure::say(line);
    }
    Ok((store, kept))
}

/// Numbers in order as runs: `1, 4 to 6, 9`.
fn runs(numbers: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &number in numbers {
        match runs.last_mut() {
            Some((_, last)) if *last + 1 == number => *last = number,
            _ => runs.push((number, number)),
        }
    }
    runs.iter()
        .map(|&(first, last)| match last - first {
            0 => first.to_string(),
            1 => format!("{first}, {last}"),
            _ => format!("{first} to {last}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
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
        let imported = records
            .iter()
            .filter(|record| record.imported.is_some())
            .count();
        if imported > 0 {
            writeln!(
                out,
                "No finished game of yours is kept yet ({} kept, left out of the statistics: they are other players' records): play one, and it will be.",
                ttt_play::words::count(imported, "imported game")
            )?;
        } else {
            writeln!(
                out,
                "No finished game is kept yet: play one, and it will be."
            )?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let recent = format!("Last {}", Stats::RECENT);
    let rows: Vec<[String; 8]> = stats
        .lines
        .iter()
        .map(|line| {
            [
                opponent_shown(&line.opponent),
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

/// An opponent as the table shows it: a computer with its difficulty, `rules (medium)`.
fn opponent_shown(opponent: &str) -> String {
    match opponent.parse::<ttt_play::Seat>() {
        Ok(ttt_play::Seat::Computer(strength)) => format!("{opponent} ({})", strength.difficulty()),
        _ => opponent.to_owned(),
    }
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
    let which = if games == 1 {
        "the 1 kept game".to_owned()
    } else {
        format!("all {games} kept games")
    };
    write!(
        out,
        "Delete {which}, finished and unfinished, and so every statistic? (yes or no) [no]: "
    )?;
    out.flush()?;
    let mut answer = String::new();
    // An unreadable answer is no yes.
    let _ = input.read_line(&mut answer);
    if matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
        let deleted = store.delete_all()?;
        writeln!(out, "Deleted {}.", ttt_play::words::count(deleted, "game"))?;
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
    /// `x_won`, `o_won`, `draw` (as `analyze --json`'s status says them) or `unfinished`.
    result: &'static str,
    /// Ended by a forfeit (an engine that stopped, an imported resignation or time loss).
    forfeit: bool,
    /// Imported from another program's file.
    imported: bool,
    /// The room it was played in online, as `K7QX-2M`.
    #[serde(skip_serializing_if = "Option::is_none")]
    online: Option<String>,
    moves: usize,
}

impl GameJson {
    /// The result as the table says it: `X wins`, `Draw (forfeit), imported`.
    fn result_words(&self) -> String {
        let result = match self.result {
            "x_won" => "X wins",
            "o_won" => "O wins",
            "draw" => "Draw",
            _ => "unfinished",
        };
        let forfeit = if self.forfeit { " (forfeit)" } else { "" };
        let imported = if self.imported { ", imported" } else { "" };
        let online = match &self.online {
            Some(room) => format!(", online in {room}"),
            None => String::new(),
        };
        format!("{result}{forfeit}{imported}{online}")
    }
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
                x: record.player(ttt_core::Mark::X),
                o: record.player(ttt_core::Mark::O),
                result: match record.outcome {
                    None => "unfinished",
                    Some(Outcome::Win(Mark::X)) => "x_won",
                    Some(Outcome::Win(Mark::O)) => "o_won",
                    Some(Outcome::Draw) => "draw",
                },
                forfeit: record.forfeit.is_some(),
                imported: record.imported.is_some(),
                online: record.online.as_ref().map(|online| online.room.clone()),
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
                game.board.clone(),
                game.x.clone(),
                game.o.clone(),
                game.result_words(),
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
    // Every cell as messages show typed text: names from other programs' files may hold
    // control characters or run to any length.
    let shown = |row: &[String; N]| row.clone().map(|cell| Shown(&cell).to_string());
    let header = shown(header);
    let rows: Vec<[String; N]> = rows.iter().map(shown).collect();
    let mut widths = header.clone().map(|cell| cell.chars().count());
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    for row in std::iter::once(&header).chain(&rows) {
        let cells: Vec<String> = row
            .iter()
            .zip(widths)
            .zip(right)
            .map(|((cell, width), &right)| {
                let pad = " ".repeat(width.saturating_sub(cell.chars().count()));
                if right {
                    format!("{pad}{cell}")
                } else {
                    format!("{cell}{pad}")
                }
            })
            .collect();
        writeln!(out, "{}", cells.join("  ").trim_end())?;
    }
    Ok(ExitCode::SUCCESS)
}
