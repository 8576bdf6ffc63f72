//! Games as Piskvork writes them (`.psq`): a first line `Piskvorky 15x15, 11:11, 0`
//! (the board's width and height, then where Piskvork's window was and a flag, which
//! `ttt` writes as Piskvork does and does not read), one line a move `x,y,time` (column
//! and row from 1, the time the move took in milliseconds), then the two players'
//! names, the first player's first, and `-1`.
//!
//! The format is for five in a row only and has no place for who was X, the exact-five
//! rule, a forfeit or the date: `ttt` reads the first player as X, the game as freestyle
//! five in a row, and the end from the moves.
//!
//! ```
//! use ttt_core::{Mark, Rules, Square};
//! use ttt_play::records::{GameRecord, psq};
//! use ttt_play::Seat;
//!
//! let mut game = GameRecord::new(Rules::new(15, 15, 5)?, Seat::Human, Seat::Human, Mark::X, 0);
//! game.moves = vec![Square::new(7 * 15 + 7), Square::new(8 * 15 + 8)];
//! let text = psq::write(&game)?;
//! assert!(text.starts_with("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n"));
//! assert_eq!(psq::read(&text)?.moves, game.moves);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use ttt_core::{Mark, Rules, Shown, WinRule};

use super::{GameRecord, ImportError};
use crate::Seat;

/// The game as Piskvork's text.
///
/// # Errors
/// [`ImportError::Format`] for a game that is not freestyle five in a row.
pub fn write(record: &GameRecord) -> Result<String, ImportError> {
    let rules = record.rules;
    if rules.k() != 5 || rules.win_rule() != WinRule::Freestyle {
        return Err(ImportError::Format(format!(
            "a .psq file holds freestyle five-in-a-row games only, not {rules}: use SGF"
        )));
    }
    let mut text = format!("Piskvorky {}x{}, 11:11, 0\n", rules.width(), rules.height());
    for &square in &record.moves {
        text.push_str(&format!(
            "{},{},0\n",
            rules.column(square) + 1,
            rules.row(square) + 1
        ));
    }
    text.push_str(&format!(
        "{}\n{}\n-1\n",
        record.player(record.first),
        record.player(!record.first)
    ));
    Ok(text)
}

/// Reads a Piskvork game, checking every move.
///
/// # Errors
/// [`ImportError`] naming what is wrong: not a `.psq` file, a board `ttt` cannot play, or
/// a move off the board or on a taken square.
pub fn read(text: &str) -> Result<GameRecord, ImportError> {
    let mut lines = text.lines().map(str::trim).filter(|line| !line.is_empty());
    let header = lines.next().unwrap_or_default();
    let size = header
        .strip_prefix("Piskvorky")
        .and_then(|rest| rest.split(',').next())
        .map(str::trim)
        .ok_or_else(|| {
            ImportError::Format(
                "not a Piskvork game: it does not start with 'Piskvorky WxH,'".to_owned(),
            )
        })?;
    let (width, height) = size
        .split_once('x')
        .and_then(|(w, h)| {
            Some((
                w.trim().parse::<usize>().ok()?,
                h.trim().parse::<usize>().ok()?,
            ))
        })
        .ok_or_else(|| ImportError::Format(format!("bad board size '{}'", Shown(size))))?;
    let rules = Rules::new(width, height, 5)
        .map_err(|error| ImportError::Format(format!("a board ttt cannot play: {error}")))?;
    let mut record = GameRecord::new(rules, Seat::Human, Seat::Human, Mark::X, 0);
    let mut names = Vec::new();
    for line in lines {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        match fields.as_slice() {
            [x, y, ..] if names.is_empty() && is_number(x) && is_number(y) => {
                let number = record.moves.len() + 1;
                // A number too large for any board is off the board too.
                let coordinate = |text: &str| {
                    text.parse::<usize>()
                        .ok()
                        .and_then(|from_one| from_one.checked_sub(1))
                };
                let square = coordinate(x)
                    .zip(coordinate(y))
                    .and_then(|(column, row)| rules.square(column, row))
                    .ok_or_else(|| ImportError::Move {
                        number,
                        square: format!("{},{}", Shown(x), Shown(y)),
                        reason: "it is not a square of this board".to_owned(),
                    })?;
                record.moves.push(square);
            }
            ["-1"] => break,
            _ => names.push(line.to_owned()),
        }
    }
    let name = |index: usize| names.get(index).cloned().unwrap_or_default();
    match (name(0).parse::<Seat>(), name(1).parse::<Seat>()) {
        (Ok(x), Ok(o)) => (record.x, record.o) = (x, o),
        // Another program's players: people, by the names the file gave.
        _ => record.names = Some((name(0), name(1))),
    }
    super::settle(record, None)
}

/// Whether `text` is written as a whole number, whatever its size: `12`, `-3`.
fn is_number(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit())
}
