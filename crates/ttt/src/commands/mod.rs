//! The one-shot commands: `analyze`, `move`, `count` and `solve`; those on kept games,
//! `stats` and `games`; and `serve`, the server of network play.

pub mod analyze;
pub mod choose;
pub mod count;
pub mod records;
pub mod serve;
pub mod solve;
pub mod verify;

use clap::Args;
use ttt_core::{BoardSize, Mark, Outcome, Position, Shown, SquareNaming};

use crate::cli::BoardArgs;
use crate::failure::BadInput;

/// Where a command's position comes from: notation, or the moves played.
#[derive(Debug, Clone, Args)]
pub struct PositionArgs {
    /// The position: rows from the top separated by '/', each cell x, o or '.', e.g. x.o/.x./..o; the rows give the board's size, and the side to move and k may follow, as analyze prints them: x...o/...../...../...../..... x k=4 (default: the empty board).
    #[arg(value_name = "POSITION", conflicts_with = "moves", num_args = 1..)]
    pub position: Vec<String>,

    /// The position as the squares played so far, in order, numbered from 1 row by row (on bigger boards also as letter and row, c2), e.g. 5,1,9.
    #[arg(long, value_name = "SQUARES")]
    pub moves: Option<String>,

    /// Who moved first: x or o. With equal counts of X and O, this side is to move.
    #[arg(long, value_name = "MARK", default_value = "x")]
    pub first: Mark,

    /// The board, when the position does not say it.
    #[command(flatten)]
    pub board: BoardArgs,
}

impl PositionArgs {
    /// The position these arguments describe, checked. A position written out gives its
    /// own board: its rows say the size, and the whole notation (`x...o/...../...../...../..... x k=4`)
    /// says k and who is to move as well; flags may repeat it but not contradict it.
    pub fn position(&self) -> Result<Position, BadInput> {
        if !self.position.is_empty() {
            // Quoted as one argument or not: `x...o/... x k=4` is three words unquoted.
            let text = &self.position.join(" ");
            let bad = |error: &dyn std::fmt::Display| {
                BadInput(format!("bad position '{}': {error}", Shown(text)))
            };
            let mut fields = text.split_whitespace();
            let rows = fields.next().unwrap_or_default();
            if fields.next().is_some() {
                // The whole notation, as analyze and solve print it.
                let position: Position = text.parse().map_err(|error| bad(&error))?;
                self.board.agree_with(position.rules())?;
                return Ok(position);
            }
            let written = BoardSize {
                width: rows.split('/').next().unwrap_or_default().chars().count(),
                height: rows.split('/').count(),
            };
            let rules = self.board.rules_sized(written).map_err(|error| {
                if self.board.sized() {
                    error
                } else {
                    bad(&format_args!("its rows make a {written} board: {error}"))
                }
            })?;
            return Position::parse(rows, rules, self.first).map_err(|error| {
                if self.board.sized() {
                    bad(&format_args!("{error} (the flags say {rules})"))
                } else {
                    bad(&error)
                }
            });
        }
        let rules = self.board.rules()?;
        let Some(list) = &self.moves else {
            return Ok(Position::new(rules, self.first));
        };
        let squares = list
            .split([',', ' '])
            .filter(|part| !part.is_empty())
            .map(|part| {
                let lettered = part.starts_with(|c: char| c.is_ascii_alphabetic());
                let naming = if lettered && !rules.is_tic_tac_toe() {
                    SquareNaming::Letters
                } else {
                    SquareNaming::Numbers
                };
                naming.parse(part, rules).map_err(|error| {
                    let problem = ttt_play::words::square_problem(&error, naming, rules);
                    BadInput(format!("bad move list '{}': {problem}", Shown(list)))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Position::from_moves(rules, self.first, &squares)
            .map_err(|error| BadInput(format!("bad move list '{}': {error}", Shown(list))))
    }
}

/// Writes `text` into a new file at `path`, flushed to the disk: an existing file is never
/// written over.
///
/// # Errors
/// [`BadInput`] when the file exists or cannot be written.
pub fn write_new_file(path: &std::path::Path, text: &str) -> Result<(), BadInput> {
    use std::io::Write;
    let cannot =
        |error: std::io::Error| BadInput(format!("cannot write {}: {error}", path.display()));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|error| match error.kind() {
            std::io::ErrorKind::AlreadyExists => exists_already(path),
            _ => cannot(error),
        })?;
    file.write_all(text.as_bytes()).map_err(cannot)?;
    file.sync_all().map_err(cannot)
}

/// Refuses `path` if a file is there already: for a command that would write it only at
/// the end of long work, before that work ([`write_new_file`] still never writes over a
/// file that appears meanwhile).
///
/// # Errors
/// [`BadInput`] when something is at `path`.
pub fn refuse_existing(path: &std::path::Path) -> Result<(), BadInput> {
    if path.exists() {
        return Err(exists_already(path));
    }
    Ok(())
}

/// Refuses `path` unless its folder is there to write it in: said before a long search,
/// not after it.
///
/// # Errors
/// [`BadInput`] naming the folder.
pub fn check_folder(path: &std::path::Path) -> Result<(), BadInput> {
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        // A bare name goes in the current folder.
        _ => std::path::Path::new("."),
    };
    if folder.is_dir() {
        Ok(())
    } else {
        Err(BadInput(format!(
            "cannot write {}: there is no folder {}",
            path.display(),
            folder.display()
        )))
    }
}

fn exists_already(path: &std::path::Path) -> BadInput {
    BadInput(format!(
        "{} exists already: ttt never writes over a file, give a new name",
        path.display()
    ))
}

/// `"x"` or `"o"`, as the JSON output names a side.
pub fn mark_name(mark: Mark) -> &'static str {
    match mark {
        Mark::X => "x",
        Mark::O => "o",
    }
}

/// A position's state as the JSON output names it: `playing`, `x_won`, `o_won` or `draw`.
pub fn status(position: &Position) -> &'static str {
    match position.outcome() {
        None => "playing",
        Some(Outcome::Win(Mark::X)) => "x_won",
        Some(Outcome::Win(Mark::O)) => "o_won",
        Some(Outcome::Draw) => "draw",
    }
}

/// How a finished game ended, in words: "X won", "O won" or "a draw".
pub fn ending(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(mark) => format!("{mark} won"),
        Outcome::Draw => "a draw".to_owned(),
    }
}
