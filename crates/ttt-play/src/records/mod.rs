//! Games kept across runs: a [`GameRecord`] for every game (finished or not), its text
//! form, and the [`Stats`] read off many of them. Nothing here reads or writes a file: a
//! front end's store keeps the records (files on a computer, local storage in a browser).
//!
//! ```
//! use ttt_core::{Mark, Outcome, Rules, Square};
//! use ttt_play::records::GameRecord;
//! use ttt_play::Seat;
//! use ttt_players::Strength;
//!
//! let mut game = GameRecord::new(Rules::default(), Seat::Human, Seat::Computer(Strength::Rules), Mark::X, 1_700_000_000);
//! for square in [0, 4, 8, 1, 7, 6, 2, 5, 3] {
//!     game.moves.push(Square::new(square));
//! }
//! game.finish(Outcome::Draw, 1_700_000_060);
//! // The text form, one line of JSON, reads back to the same game.
//! let text = game.to_text();
//! assert_eq!(GameRecord::from_text(&text)?, game);
//! // The record replays to its position, every move checked.
//! assert_eq!(game.position()?.outcome(), Some(Outcome::Draw));
//! # Ok::<(), ttt_play::records::RecordError>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use ttt_core::{Mark, Outcome, Position, Rules, Square, SquareNaming};

use crate::Seat;

pub mod psq;
pub mod sgf;

/// The version of the record format this build writes. A record of a later version is
/// refused, never guessed at.
pub const FORMAT: u32 = 1;

/// One game: who played it on which board, its moves, and how (and whether) it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// The board and the win rule.
    pub rules: Rules,
    /// Who played X.
    pub x: Seat,
    /// Who played O.
    pub o: Seat,
    /// The mark that moved first.
    pub first: Mark,
    /// The squares played, in order.
    pub moves: Vec<Square>,
    /// How it ended; `None` while it is unfinished.
    pub outcome: Option<Outcome>,
    /// Why it ended early, when a player forfeited.
    pub forfeit: Option<String>,
    /// When it started, in seconds since 1970 (UTC).
    pub started: u64,
    /// When it ended, if it has.
    pub ended: Option<u64>,
    /// The players' names as another program's file gave them (X's, O's), where they
    /// are not `ttt`'s own players: the seats are then people.
    pub names: Option<(String, String)>,
    /// When the game was imported from a file, for a game not played here: it is listed
    /// from then on and left out of the statistics.
    pub imported: Option<u64>,
    /// Where it was played, for a game played online: the seats are people, named in
    /// [`names`](GameRecord::names).
    pub online: Option<OnlineRecord>,
}

/// A game played online, as the record of one of its players keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnlineRecord {
    /// The room's code (`K7QX-2M`).
    pub room: String,
    /// The game's number in the room, from 1.
    pub game: u32,
    /// The seat of the person whose record it is.
    pub seat: Mark,
}

impl GameRecord {
    /// A game with no moves yet.
    pub fn new(rules: Rules, x: Seat, o: Seat, first: Mark, started: u64) -> GameRecord {
        GameRecord {
            rules,
            x,
            o,
            first,
            moves: Vec::new(),
            outcome: None,
            forfeit: None,
            started,
            ended: None,
            names: None,
            imported: None,
            online: None,
        }
    }

    /// Marks it finished with `outcome` at `ended`.
    pub fn finish(&mut self, outcome: Outcome, ended: u64) {
        self.outcome = Some(outcome);
        self.ended = Some(ended);
    }

    /// Who played `mark`, as people read it: the name another program's file gave, or
    /// the seat.
    pub fn player(&self, mark: Mark) -> String {
        match (&self.names, mark) {
            (Some((x, _)), Mark::X) => x.clone(),
            (Some((_, o)), Mark::O) => o.clone(),
            (None, mark) => self.seat(mark).to_string(),
        }
    }

    /// When it came to be kept here: when it was imported, else when it started. Games are
    /// listed (and numbered) in this order, so an import never renumbers earlier games.
    pub fn kept_since(&self) -> u64 {
        self.imported.unwrap_or(self.started)
    }

    /// Whether `other` is the same game: board, players, first mark and moves.
    pub fn same_game(&self, other: &GameRecord) -> bool {
        (
            self.rules,
            &self.x,
            &self.o,
            self.first,
            &self.moves,
            &self.names,
        ) == (
            other.rules,
            &other.x,
            &other.o,
            other.first,
            &other.moves,
            &other.names,
        )
    }

    /// Whether it can be taken up where it was left: unfinished with a move played, and
    /// played here (a game imported from another program's file is not one to take up as
    /// one's own, nor one played online, which goes on in its room).
    pub fn can_resume(&self) -> bool {
        !self.is_finished()
            && !self.moves.is_empty()
            && self.imported.is_none()
            && self.online.is_none()
    }

    /// Whether to offer it to take up at the start, in either front end: it can be
    /// resumed and a person played in it (a run between two computers is taken up only
    /// when asked for, with `--resume`). Of several, the latest started is offered.
    pub fn to_offer(&self) -> bool {
        self.can_resume() && self.has_person()
    }

    /// Whether a person played in it.
    pub fn has_person(&self) -> bool {
        self.x.is_human() || self.o.is_human()
    }

    /// Whether it ended.
    pub fn is_finished(&self) -> bool {
        self.outcome.is_some()
    }

    /// Who played `mark`.
    pub fn seat(&self, mark: Mark) -> &Seat {
        match mark {
            Mark::X => &self.x,
            Mark::O => &self.o,
        }
    }

    /// The position its moves reach, each checked: a move off the board or on a taken
    /// square, or one after the game was over, is an error naming it.
    ///
    /// # Errors
    /// [`RecordError::BadMove`] for the first move that is not legal.
    pub fn position(&self) -> Result<Position, RecordError> {
        let mut position = Position::new(self.rules, self.first);
        for (index, &square) in self.moves.iter().enumerate() {
            position
                .play(square)
                .map_err(|error| RecordError::BadMove {
                    number: index + 1,
                    square: if self.rules.contains(square) {
                        SquareNaming::Letters.label(square, self.rules)
                    } else {
                        format!("square {}", square.index())
                    },
                    reason: error.to_string(),
                })?;
        }
        Ok(position)
    }

    /// The one line of JSON a store keeps.
    pub fn to_text(&self) -> String {
        let letters = |square: &Square| SquareNaming::Letters.label(*square, self.rules);
        let text = Text {
            format: FORMAT,
            board: self.rules.to_string(),
            x: self.x.to_string(),
            o: self.o.to_string(),
            first: self.first.to_string(),
            moves: self.moves.iter().map(letters).collect::<Vec<_>>().join(" "),
            result: self.outcome.map(|outcome| match outcome {
                Outcome::Win(mark) => mark.to_string(),
                Outcome::Draw => "draw".to_owned(),
            }),
            forfeit: self.forfeit.clone(),
            started: self.started,
            ended: self.ended,
            names: self.names.clone().map(|(x, o)| [x, o]),
            imported: self.imported,
            online: self.online.as_ref().map(|online| TextOnline {
                room: online.room.clone(),
                game: online.game,
                seat: online.seat.to_string(),
            }),
        };
        // A struct of strings and numbers always serialises.
        serde_json::to_string(&text).unwrap_or_default()
    }

    /// Reads what [`to_text`](GameRecord::to_text) writes, checking every field and move.
    ///
    /// # Errors
    /// [`RecordError`] naming what is wrong: not JSON of a record, a newer format, an
    /// unknown board, player or mark, or an illegal move.
    pub fn from_text(text: &str) -> Result<GameRecord, RecordError> {
        let text: Text = versioned(text, RecordError::Unreadable)?;
        let rules: Rules = text.board.parse().map_err(|e| field("board", &e))?;
        let x: Seat = text.x.parse().map_err(|e| field("x", &e))?;
        let o: Seat = text.o.parse().map_err(|e| field("o", &e))?;
        let first: Mark = text.first.parse().map_err(|e| field("first", &e))?;
        let moves = text
            .moves
            .split_whitespace()
            .map(|name| {
                SquareNaming::Letters
                    .parse(name, rules)
                    .map_err(|e| field("moves", &e))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let outcome = match text.result.as_deref() {
            None => None,
            Some("draw") => Some(Outcome::Draw),
            Some(mark) => Some(Outcome::Win(mark.parse().map_err(|e| field("result", &e))?)),
        };
        let record = GameRecord {
            rules,
            x,
            o,
            first,
            moves,
            outcome,
            forfeit: text.forfeit,
            started: text.started,
            ended: text.ended,
            names: text.names.map(|[x, o]| (x, o)),
            imported: text.imported,
            online: match text.online {
                Some(online) => Some(OnlineRecord {
                    room: online.room,
                    game: online.game,
                    seat: online.seat.parse().map_err(|e| field("online", &e))?,
                }),
                None => None,
            },
        };
        let position = record.position()?;
        // A finished position must say so; a forfeit may end a game early.
        match (position.outcome(), record.outcome, &record.forfeit) {
            (Some(reached), Some(said), _) if reached != said => Err(field(
                "result",
                &format!("the moves end in '{reached}', the record says '{said}'"),
            )),
            (Some(_), None, _) => Err(field(
                "result",
                &"the moves end the game, the record says it goes on",
            )),
            (None, Some(_), None) => Err(field(
                "result",
                &"the game is not over, and no one forfeited",
            )),
            _ => Ok(record),
        }
    }
}

/// A record on disk, field by field as people can read it.
#[derive(Serialize, Deserialize)]
struct Text {
    format: u32,
    board: String,
    x: String,
    o: String,
    first: String,
    moves: String,
    result: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    forfeit: Option<String>,
    started: u64,
    ended: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    names: Option<[String; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    imported: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    online: Option<TextOnline>,
}

/// Where a game was played online, as a record on disk says it.
#[derive(Serialize, Deserialize)]
struct TextOnline {
    room: String,
    game: u32,
    seat: String,
}

/// A field that does not hold what it should, in words.
fn field(name: &'static str, error: &dyn fmt::Display) -> RecordError {
    RecordError::Field {
        name,
        reason: error.to_string(),
    }
}

/// `text` as the JSON of `T`, its `format` read first, so that a newer one is called
/// newer, not broken; `unreadable` says what it is not, when it is not JSON of a `T`.
fn versioned<T: serde::de::DeserializeOwned>(
    text: &str,
    unreadable: fn(String) -> RecordError,
) -> Result<T, RecordError> {
    let version: Version =
        serde_json::from_str(text).map_err(|error| unreadable(error.to_string()))?;
    if version.format > FORMAT {
        return Err(RecordError::Newer(version.format));
    }
    serde_json::from_str(text).map_err(|error| unreadable(error.to_string()))
}

/// Only the version, read first.
#[derive(Deserialize)]
struct Version {
    format: u32,
}

/// Why a record cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Not a record at all (not JSON, a field missing).
    #[error("not a game record ({0})")]
    Unreadable(String),
    /// Not the start screen's remembered choices.
    #[error("not the start screen's remembered choices ({0})")]
    NotChoices(String),
    /// Written by a later version of ttt.
    #[error("of format {0}, newer than this ttt reads ({FORMAT}): update ttt")]
    Newer(u32),
    /// A field that does not hold what it should.
    #[error("the record's {name} is wrong: {reason}")]
    Field {
        /// The field.
        name: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// A move that is not legal where it is played.
    #[error("move {number} ({square}) is not legal: {reason}")]
    BadMove {
        /// Its number, from 1.
        number: usize,
        /// Its square's name.
        square: String,
        /// Why.
        reason: String,
    },
}

/// Wins, losses and draws, from one side's point of view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

impl Tally {
    /// Games in it.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    fn add(&mut self, outcome: Outcome, me: Mark) {
        match outcome.winner() {
            Some(winner) if winner == me => self.wins += 1,
            Some(_) => self.losses += 1,
            None => self.draws += 1,
        }
    }
}

impl fmt::Display for Tally {
    /// `3 won, 1 lost, 2 drawn`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} won, {} lost, {} drawn",
            self.wins, self.losses, self.draws
        )
    }
}

/// One line of the statistics: a person's (or X's, where no one or two people played)
/// games against one opponent, on one board, with one letter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatsLine {
    /// Who was played against: a seat's name (`rules`, `brain:...`), `friend` for two
    /// people, or `X v O` for two computers.
    pub opponent: String,
    /// The board, as `3x3, k=3`.
    pub board: String,
    /// The letter whose side the tally takes.
    pub letter: String,
    /// Every finished game.
    pub all: Tally,
    /// The most recent [`Stats::RECENT`] of them.
    pub recent: Tally,
}

/// Wins, losses and draws of finished games, by opponent, board and letter.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// The lines, by opponent, then board, then letter.
    pub lines: Vec<StatsLine>,
}

impl Stats {
    /// The games counted as recent in each line.
    pub const RECENT: usize = 10;

    /// The statistics of `records` (unfinished games are left out).
    ///
    /// ```
    /// use ttt_core::{Mark, Outcome, Rules};
    /// use ttt_play::records::{GameRecord, Stats};
    /// use ttt_play::Seat;
    /// use ttt_players::Strength;
    ///
    /// let medium = Seat::Computer(Strength::Rules);
    /// let mut won = GameRecord::new(Rules::default(), Seat::Human, medium.clone(), Mark::X, 10);
    /// won.finish(Outcome::Win(Mark::X), 20);
    /// let mut lost = GameRecord::new(Rules::default(), medium, Seat::Human, Mark::X, 30);
    /// lost.finish(Outcome::Win(Mark::X), 40);
    /// let stats = Stats::of(&[won, lost]);
    /// // As X and as O: two lines against the same opponent.
    /// assert_eq!(stats.lines.len(), 2);
    /// assert_eq!(stats.against("rules").to_string(), "1 won, 1 lost, 0 drawn");
    /// ```
    pub fn of(records: &[GameRecord]) -> Stats {
        // Games played here only: an imported game is someone else's record.
        let mut finished: Vec<&GameRecord> = records
            .iter()
            .filter(|r| r.is_finished() && r.imported.is_none())
            .collect();
        // Most recent first, so the first RECENT of each line are its recent games.
        finished.sort_by_key(|record| std::cmp::Reverse((record.ended, record.started)));
        // Lines by opponent, then board, smallest first (3x3 before 15x15), then letter.
        type Board = (usize, usize, usize, String);
        let mut lines: BTreeMap<(String, Board, String), StatsLine> = BTreeMap::new();
        for record in finished {
            let Some(outcome) = record.outcome else {
                continue;
            };
            let (opponent, me) = Stats::sides(record);
            let rules = record.rules;
            let board = (
                rules.square_count(),
                rules.width(),
                rules.k(),
                rules.to_string(),
            );
            let key = (opponent, board, me.to_string());
            let line = lines.entry(key.clone()).or_insert_with(|| StatsLine {
                opponent: key.0,
                board: key.1.3,
                letter: key.2,
                all: Tally::default(),
                recent: Tally::default(),
            });
            if line.all.games() < Stats::RECENT as u32 {
                line.recent.add(outcome, me);
            }
            line.all.add(outcome, me);
        }
        Stats {
            lines: lines.into_values().collect(),
        }
    }

    /// Who the game was against, and whose side it is counted for.
    fn sides(record: &GameRecord) -> (String, Mark) {
        if let Some(online) = &record.online {
            return (
                format!("{} online", record.player(!online.seat)),
                online.seat,
            );
        }
        match (record.x.is_human(), record.o.is_human()) {
            (true, false) => (record.o.to_string(), Mark::X),
            (false, true) => (record.x.to_string(), Mark::O),
            (true, true) => ("friend".to_owned(), Mark::X),
            (false, false) => (format!("{} v {}", record.x, record.o), Mark::X),
        }
    }

    /// Every game against `opponent` (a seat's name), on any board, with either letter.
    pub fn against(&self, opponent: &str) -> Tally {
        self.lines
            .iter()
            .filter(|line| line.opponent == opponent)
            .fold(Tally::default(), |sum, line| Tally {
                wins: sum.wins + line.all.wins,
                losses: sum.losses + line.all.losses,
                draws: sum.draws + line.all.draws,
            })
    }
}

/// A time in seconds since 1970 as a UTC date and time to the minute, `2026-11-23 08:15`.
///
/// ```
/// assert_eq!(ttt_play::records::utc_date(0), "1970-01-01 00:00");
/// assert_eq!(ttt_play::records::utc_date(1_795_421_700), "2026-11-23 08:15");
/// ```
pub fn utc_date(seconds: u64) -> String {
    let minutes = (seconds % 86_400) / 60;
    format!(
        "{} {:02}:{:02}",
        civil_date(seconds),
        minutes / 60,
        minutes % 60
    )
}

/// The UTC day of a time in seconds since 1970, `2026-11-23`.
pub(crate) fn civil_date(seconds: u64) -> String {
    // Days to a civil date (Howard Hinnant's algorithm), for dates from 1970 on.
    let z = seconds / 86_400 + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The start of a UTC day written `2026-11-23` (more may follow), in seconds since 1970.
pub(crate) fn day_of(text: &str) -> Option<u64> {
    let date = text.trim().get(..10)?;
    let mut parts = date.split('-').map(|part| part.parse::<u64>().ok());
    let (year, month, day) = (parts.next()??, parts.next()??, parts.next()??);
    if !(1970..=9999).contains(&year) || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    // The inverse of civil_date.
    let year = if month <= 2 { year - 1 } else { year };
    let era = year / 400;
    let year_of_era = year - era * 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    let days = (era * 146_097 + day_of_era).checked_sub(719_468)?;
    Some(days * 86_400)
}

/// A file format for games from and for other programs.
///
/// ```
/// use ttt_play::records::FileFormat;
///
/// assert_eq!("SGF".parse::<FileFormat>(), Ok(FileFormat::Sgf));
/// assert_eq!(FileFormat::Psq.to_string(), "psq");
/// assert_eq!(FileFormat::of("Piskvorky 15x15, 11:11, 0\n8,8,0\n"), FileFormat::Psq);
/// assert!("pgn".parse::<FileFormat>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FileFormat {
    /// SGF, as gomoku programs write it: see [`sgf`].
    #[default]
    Sgf,
    /// Piskvork's `.psq`: see [`psq`].
    Psq,
}

impl FileFormat {
    /// The format a file's text is in: PSQ when it starts as Piskvork's does, else SGF.
    pub fn of(text: &str) -> FileFormat {
        if text.trim_start().starts_with("Piskvorky") {
            FileFormat::Psq
        } else {
            FileFormat::Sgf
        }
    }

    /// The games in `text` (SGF may hold several).
    ///
    /// # Errors
    /// As [`sgf::read_all`] and [`psq::read`].
    pub fn read_all(self, text: &str) -> Result<Vec<GameRecord>, ImportError> {
        match self {
            FileFormat::Sgf => sgf::read_all(text),
            FileFormat::Psq => psq::read(text).map(|record| vec![record]),
        }
    }

    /// `games` in this format: SGF as one collection; PSQ holds one game only.
    ///
    /// # Errors
    /// [`ImportError::Format`] for games PSQ cannot hold, or more than one of them.
    pub fn write_all(self, games: &[GameRecord]) -> Result<String, ImportError> {
        match (self, games) {
            (FileFormat::Sgf, _) => Ok(games.iter().map(sgf::write).collect()),
            (FileFormat::Psq, [game]) => psq::write(game),
            (FileFormat::Psq, _) => Err(ImportError::Format(
                "a .psq file holds one game: export the games one by one, or as SGF".to_owned(),
            )),
        }
    }
}

impl fmt::Display for FileFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileFormat::Sgf => "sgf",
            FileFormat::Psq => "psq",
        })
    }
}

impl std::str::FromStr for FileFormat {
    type Err = ImportError;

    fn from_str(text: &str) -> Result<FileFormat, ImportError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "sgf" => Ok(FileFormat::Sgf),
            "psq" => Ok(FileFormat::Psq),
            _ => Err(ImportError::Format(format!(
                "'{}' is not a game format: use sgf or psq",
                ttt_core::Shown(text)
            ))),
        }
    }
}

/// Why a game file from elsewhere cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// Not the format, or something in it `ttt` cannot play.
    #[error("{0}")]
    Format(String),
    /// A move that cannot be played where it is.
    #[error("move {number} ({square}) cannot be played: {reason}")]
    Move {
        /// Its number, from 1.
        number: usize,
        /// As the file wrote it.
        square: String,
        /// Why.
        reason: String,
    },
}

/// Why a move cannot be played, without the square's number (the caller names it).
fn why_not(error: &ttt_core::PlayError) -> String {
    match error {
        ttt_core::PlayError::GameOver => "the game was already over".to_owned(),
        ttt_core::PlayError::OffBoard(_) => "it is off the board".to_owned(),
        ttt_core::PlayError::Occupied { mark, .. } => format!("{mark} is there already"),
    }
}

/// A result as a file says it: the winner (none for a draw), how it was won (`R` resign,
/// `T` time, `F` forfeit), and a comment.
type Said = (Option<Mark>, Option<String>, Option<String>);

/// An imported game's moves checked and its end settled: the position's own end where it
/// has one (a result saying otherwise is an error); else the result the file gives, as a
/// forfeit of the loser (a draw agreed early stays unfinished).
pub(crate) fn settle(
    mut record: GameRecord,
    said: Option<Said>,
) -> Result<GameRecord, ImportError> {
    let mut position = Position::new(record.rules, record.first);
    for (index, &square) in record.moves.iter().enumerate() {
        position.play(square).map_err(|error| ImportError::Move {
            number: index + 1,
            square: SquareNaming::Letters.label(square, record.rules),
            reason: why_not(&error),
        })?;
    }
    match (position.outcome(), said) {
        (Some(outcome), Some((winner, _, _))) if outcome.winner() != winner => {
            Err(ImportError::Format(format!(
                "the file says {}, but the moves end in '{outcome}'",
                winner.map_or("a draw".to_owned(), |mark| format!("{mark} won"))
            )))
        }
        (Some(outcome), _) => {
            record.finish(outcome, record.started);
            Ok(record)
        }
        (None, Some((Some(winner), how, comment))) => {
            let loser = !winner;
            let reason = match how.as_deref() {
                Some("R") => format!("{loser} resigned"),
                Some("T") => format!("{loser} lost on time"),
                _ => comment.unwrap_or_else(|| format!("{loser} lost before the end")),
            };
            record.finish(Outcome::Win(winner), record.started);
            record.forfeit = Some(reason);
            Ok(record)
        }
        (None, _) => Ok(record),
    }
}

/// The start screen's choices as last made (the board, who sits where, who goes first, the
/// square names on 3x3), kept between runs so that the next start screen opens with them.
///
/// ```
/// use ttt_core::{Rules, SquareNaming};
/// use ttt_play::records::Remembered;
/// use ttt_play::{FirstPolicy, Seat, Table};
/// use ttt_players::Strength;
///
/// let table = Table {
///     rules: Rules::new(15, 15, 5)?,
///     x: Seat::Human,
///     o: Seat::Computer(Strength::Search),
///     first: FirstPolicy::Alternate,
/// };
/// let remembered = Remembered { table, naming: SquareNaming::Keypad };
/// assert_eq!(Remembered::from_text(&remembered.to_text()), Ok(remembered));
/// assert!(Remembered::from_text("{\"format\":99}").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remembered {
    /// The board, seats and first-move policy.
    pub table: crate::Table,
    /// How squares are named on 3x3.
    pub naming: SquareNaming,
}

/// Remembered choices on disk.
#[derive(Serialize, Deserialize)]
struct ChoicesText {
    format: u32,
    board: String,
    x: String,
    o: String,
    first: String,
    naming: String,
}

impl Remembered {
    /// One line of JSON, with the format's version.
    pub fn to_text(&self) -> String {
        let text = ChoicesText {
            format: FORMAT,
            board: self.table.rules.to_string(),
            x: self.table.x.to_string(),
            o: self.table.o.to_string(),
            first: self.table.first.to_string(),
            naming: self.naming.to_string(),
        };
        serde_json::to_string(&text).unwrap_or_default()
    }

    /// Reads what [`to_text`](Remembered::to_text) writes.
    ///
    /// # Errors
    /// [`RecordError`] naming what is wrong, a newer format among them.
    pub fn from_text(text: &str) -> Result<Remembered, RecordError> {
        let text: ChoicesText = versioned(text, RecordError::NotChoices)?;
        Ok(Remembered {
            table: crate::Table {
                rules: text.board.parse().map_err(|e| field("board", &e))?,
                x: text.x.parse().map_err(|e| field("x", &e))?,
                o: text.o.parse().map_err(|e| field("o", &e))?,
                first: text.first.parse().map_err(|e| field("first", &e))?,
            },
            naming: text.naming.parse().map_err(|e| field("naming", &e))?,
        })
    }
}

/// Where a front end keeps records: files on a computer, local storage in a browser.
pub trait Keep {
    /// Keeps `record` as the game `id`, replacing that game's earlier version, or as a new
    /// game when `id` is `None`; returns the game's id. The record is safe once this
    /// returns: a store writes it whole or not at all.
    ///
    /// # Errors
    /// One line saying what could not be written.
    fn keep(&mut self, id: Option<&str>, record: &GameRecord) -> Result<String, String>;
}

/// Keeps the games of a session as they happen: the game on the board after every move
/// (so that no way out but a power cut loses more than the last move), again when undo
/// takes its end back, and whatever is not kept yet when the person leaves. A front end
/// tells it what happened with [`observe`](Recorder::observe) after every step and
/// [`leave`](Recorder::leave) on the way out.
pub struct Recorder {
    keep: Box<dyn Keep>,
    /// The game on the board, as last seen.
    current: Option<Current>,
}

/// A game as the store now has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptGame {
    /// Its id in the store.
    pub id: String,
    /// The version just kept.
    pub record: GameRecord,
}

/// What the recorder knows of the game on the board.
struct Current {
    /// The session's number for it.
    number: u32,
    /// Its id in the store, once kept.
    id: Option<String>,
    started: u64,
    /// What was last kept: its moves and outcome.
    kept: Option<(usize, Option<Outcome>)>,
}

impl std::fmt::Debug for Recorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recorder").finish_non_exhaustive()
    }
}

impl Recorder {
    /// A recorder that keeps games in `keep`.
    pub fn new(keep: Box<dyn Keep>) -> Recorder {
        Recorder {
            keep,
            current: None,
        }
    }

    /// The id in the store of the game on the board, once it is kept.
    pub fn current_id(&self) -> Option<&str> {
        self.current.as_ref()?.id.as_deref()
    }

    /// The game the session has just resumed is the kept game `id`, started at `started`:
    /// it is kept there from now on.
    pub fn resumed(&mut self, session: &crate::Session, id: &str, started: u64) {
        let moves = session.position().history().len();
        self.current = Some(Current {
            number: session.game_number(),
            id: Some(id.to_owned()),
            started,
            kept: Some((moves, None)),
        });
    }

    /// Looks at the session at `now` (seconds since 1970) and keeps the game on the board
    /// if it changed since it was last kept: a move, an undo, its end. A game is kept from
    /// its first move on. Returns the version kept, if one was.
    ///
    /// # Errors
    /// The store's, in one line.
    pub fn observe(
        &mut self,
        session: &crate::Session,
        now: u64,
    ) -> Result<Option<KeptGame>, String> {
        let number = session.game_number();
        if !session.started() {
            return Ok(None);
        }
        let current = match &mut self.current {
            Some(current) if current.number == number => current,
            _ => self.current.insert(Current {
                number,
                id: None,
                started: now,
                kept: None,
            }),
        };
        let state = (session.position().history().len(), session.outcome());
        // Before its first move a game is not kept; once kept, every change is.
        let worth_keeping = state.0 > 0 || state.1.is_some() || current.kept.is_some();
        if worth_keeping && current.kept != Some(state) {
            return Recorder::write(&mut *self.keep, current, session, now);
        }
        Ok(None)
    }

    /// Keeps the game under way as the person leaves, if it is not kept as it stands
    /// already. Returns whether an unfinished game (one with a move) is kept.
    ///
    /// # Errors
    /// The store's, in one line.
    pub fn leave(&mut self, session: &crate::Session, now: u64) -> Result<bool, String> {
        self.observe(session, now)?;
        let Some(current) = &self.current else {
            return Ok(false);
        };
        let moves = session.position().history().len();
        Ok(!session.is_over() && moves > 0 && current.kept == Some((moves, None)))
    }

    fn write(
        keep: &mut dyn Keep,
        current: &mut Current,
        session: &crate::Session,
        now: u64,
    ) -> Result<Option<KeptGame>, String> {
        let Some(record) = session.record(current.started, now) else {
            return Ok(None);
        };
        let id = keep.keep(current.id.as_deref(), &record)?;
        current.id = Some(id.clone());
        current.kept = Some((record.moves.len(), record.outcome));
        Ok(Some(KeptGame { id, record }))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use super::*;
    use ttt_players::Strength;

    fn finished_draw() -> GameRecord {
        let mut game = GameRecord::new(
            Rules::default(),
            Seat::Human,
            Seat::Computer(Strength::Search),
            Mark::X,
            100,
        );
        game.moves = [0, 4, 8, 1, 7, 6, 2, 5, 3].map(Square::new).to_vec();
        game.finish(Outcome::Draw, 160);
        game
    }

    #[test]
    fn a_record_reads_back_and_each_bad_field_is_named() {
        let game = finished_draw();
        let text = game.to_text();
        assert_eq!(GameRecord::from_text(&text).unwrap(), game);
        let cases = [
            (text.replace("\"format\":1", "\"format\":99"), "newer"),
            (text.replace("3x3, k=3", "3x3, k=9"), "board"),
            (text.replace("\"x\":\"human\"", "\"x\":\"wizard\""), "x"),
            (
                text.replace("\"result\":\"draw\"", "\"result\":\"x\""),
                "result",
            ),
            (
                text.replace("\"result\":\"draw\"", "\"result\":null"),
                "goes on",
            ),
            (text.replace("a1 b2", "a1 a1"), "move 2"),
            (text.replace("a1 b2", "a1 z9"), "moves"),
            (text[..text.len() / 2].to_owned(), "not a game record"),
            ("\u{0}\u{1}garbage".to_owned(), "not a game record"),
        ];
        for (broken, said) in cases {
            let error = GameRecord::from_text(&broken).unwrap_err().to_string();
            assert!(error.contains(said), "{broken}: {error}");
        }
    }

    #[test]
    fn stats_count_each_side_against_each_opponent_with_the_recent_games_apart() {
        let mut records = Vec::new();
        for game in 0..12_u64 {
            // The person plays O; X (the computer) wins the first two, then draws.
            let mut record = finished_draw();
            record.started = game;
            record.ended = Some(game);
            record.x = Seat::Computer(Strength::Rules);
            record.o = Seat::Human;
            if game < 2 {
                record.moves = [4, 0, 1, 2, 7].map(Square::new).to_vec();
                record.first = Mark::X;
                record.outcome = Some(Outcome::Win(Mark::X));
            }
            records.push(record);
        }
        let mut unfinished = finished_draw();
        unfinished.moves.truncate(3);
        unfinished.outcome = None;
        records.push(unfinished);
        let stats = Stats::of(&records);
        assert_eq!(stats.lines.len(), 1);
        let line = &stats.lines[0];
        assert_eq!(
            (line.opponent.as_str(), line.letter.as_str()),
            ("rules", "O")
        );
        assert_eq!(
            line.all,
            Tally {
                wins: 0,
                losses: 2,
                draws: 10
            }
        );
        // The ten most recent are the draws.
        assert_eq!(
            line.recent,
            Tally {
                wins: 0,
                losses: 0,
                draws: 10
            }
        );
    }

    /// A store in memory: every version kept, by id.
    #[derive(Clone, Default)]
    struct Memory(std::rc::Rc<std::cell::RefCell<Vec<(String, GameRecord)>>>);

    impl Keep for Memory {
        fn keep(&mut self, id: Option<&str>, record: &GameRecord) -> Result<String, String> {
            let mut kept = self.0.borrow_mut();
            let id = id.map_or_else(|| format!("game{}", kept.len()), str::to_owned);
            kept.push((id.clone(), record.clone()));
            Ok(id)
        }
    }

    #[test]
    fn the_recorder_keeps_every_move_each_end_an_undone_end_and_the_game_left_unfinished() {
        use crate::{Seats, Session, Settings};
        let settings = Settings::new(
            Rules::default(),
            Seats::Fixed {
                x: Seat::Human,
                o: Seat::Human,
            },
        )
        .unwrap();
        let mut session = Session::new(settings, Seat::Human, Seat::Human);
        let memory = Memory::default();
        let mut recorder = Recorder::new(Box::new(memory.clone()));
        recorder.observe(&session, 1).unwrap();
        session.start_game().unwrap();
        assert_eq!(recorder.observe(&session, 2).unwrap(), None, "no move yet");
        let first = session.position().to_move();
        for square in [0, 3, 1, 4] {
            session.play_human(Square::new(square)).unwrap();
            let kept = recorder.observe(&session, 2).unwrap().unwrap();
            assert_eq!(kept.record.moves.last(), Some(&Square::new(square)));
            assert_eq!(kept.record.outcome, None);
            // Nothing changed since: nothing written again.
            assert_eq!(recorder.observe(&session, 2).unwrap(), None);
        }
        {
            let kept = memory.0.borrow();
            assert_eq!(kept.len(), 4, "kept after every move");
            assert!(kept.iter().all(|(id, _)| *id == kept[0].0), "as one game");
        }
        session.play_human(Square::new(2)).unwrap();
        recorder.observe(&session, 3).unwrap();
        recorder.observe(&session, 4).unwrap();
        {
            let kept = memory.0.borrow();
            assert_eq!(kept.len(), 5, "kept once when it ended");
            assert_eq!(kept[4].1.outcome, Some(Outcome::Win(first)));
            assert_eq!((kept[4].1.started, kept[4].1.ended), (2, Some(3)));
        }
        // Undo after the end: kept again, unfinished, under the same id.
        session.undo().unwrap();
        recorder.observe(&session, 5).unwrap();
        // Leaving now keeps nothing new: that version is kept already.
        assert!(recorder.leave(&session, 6).unwrap());
        {
            let kept = memory.0.borrow();
            assert_eq!(kept.len(), 6);
            assert_eq!(kept[5].0, kept[0].0);
            assert_eq!(kept[5].1.outcome, None);
            assert_eq!(kept[5].1.moves.len(), 4);
        }
        // A new game is a new record; leaving with no move played keeps nothing.
        session.start_game().unwrap();
        recorder.observe(&session, 7).unwrap();
        assert!(!recorder.leave(&session, 8).unwrap());
        session.play_human(Square::new(4)).unwrap();
        assert!(recorder.leave(&session, 9).unwrap());
        let kept = memory.0.borrow();
        assert_eq!(kept.len(), 7);
        assert_ne!(kept[6].0, kept[0].0);
        // And it resumes exactly: same moves, same side to move.
        let mut again = Session::new(
            Settings::new(
                Rules::default(),
                Seats::Fixed {
                    x: Seat::Human,
                    o: Seat::Human,
                },
            )
            .unwrap(),
            Seat::Human,
            Seat::Human,
        );
        again.resume(&kept[6].1).unwrap();
        assert_eq!(again.position(), session.position());
        assert_eq!(again.position().history(), session.position().history());
        assert_eq!(again.resume(&kept[4].1), Err(crate::Refusal::GameOver));
    }
}
