//! The match: the rules of a run of games between two seats, as a state machine with no
//! I/O, no players and no randomness of its own. Whoever acts (a seat, the host, someone
//! watching) asks with a [`Command`]; [`Match::apply`] decides, and either says what
//! happened as [`Event`]s or refuses with a [`Refusal`] and changes nothing. A
//! [`Snapshot`] of it serialises and restores whole. The same rules serve a game at one
//! keyboard (the front end is the host, speaking for every person there), a computer seat
//! (a client of its seat) and, later, a room on a server.
//!
//! ```
//! use ttt_core::{Mark, Rules, Square};
//! use ttt_play::matches::{Actor, Command, Event, Match, Refusal, Table};
//! use ttt_play::{FirstPolicy, Seat};
//!
//! let table = Table { rules: Rules::default(), x: Seat::Human, o: Seat::Human, first: FirstPolicy::X };
//! let mut game = Match::new(table, None).unwrap();
//! game.apply(Actor::Host, Command::NewGame { coin: Mark::X }).unwrap();
//! // O cannot move for X, and a spectator changes nothing.
//! let play = Command::Play(Square::new(4));
//! assert_eq!(game.apply(Actor::Seat(Mark::O), play.clone()), Err(Refusal::NotYourTurn));
//! assert_eq!(game.apply(Actor::Spectator, play.clone()), Err(Refusal::Watching));
//! let events = game.apply(Actor::Seat(Mark::X), play).unwrap();
//! assert_eq!(events, [Event::Played { mark: Mark::X, square: Square::new(4) }]);
//! // Undo between two people elsewhere is asked, and the other answers.
//! assert_eq!(game.apply(Actor::Seat(Mark::X), Command::Undo).unwrap(), [Event::UndoAsked { by: Mark::X }]);
//! let events = game.apply(Actor::Seat(Mark::O), Command::AnswerUndo(true)).unwrap();
//! assert_eq!(events, [Event::Undone { squares: vec![Square::new(4)] }]);
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};
use ttt_core::{Mark, Outcome, PlayError, Position, Rules, Square};

use crate::settings::{FirstPolicy, Seat};

/// A game lost before its end: its player could not move (an engine that crashed,
/// stalled past its time or answered a square that is not free), or resigned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forfeit {
    /// The mark whose player failed.
    pub loser: Mark,
    /// What went wrong, in the player's words.
    pub reason: String,
}

/// Why the match (or the session hosting it) did not do what was asked; nothing changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// A computer is thinking: its move comes first.
    #[error("the computer is thinking")]
    Thinking,
    /// No move of a person's is there to take back.
    #[error("there is nothing to undo")]
    NothingToUndo,
    /// `--games` games have been played.
    #[error("that was the last game")]
    NoGamesLeft,
    /// A review (or anything else about a finished game) asked for while it goes on.
    #[error("the game is not over")]
    NotOver,
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// A computer is to move.
    #[error("it is the computer's turn")]
    ComputersTurn,
    /// The square holds a mark already.
    #[error("square {square} is taken by {mark}")]
    Occupied {
        /// The square asked for.
        square: Square,
        /// The mark on it.
        mark: Mark,
    },
    /// The square is not on this board.
    #[error("square {square} is not on the board")]
    OffBoard {
        /// The square asked for.
        square: Square,
    },
    /// A table whose seat cannot play its board (see [`Seat::plays_on`]).
    #[error("a seat cannot play on {rules}")]
    CannotPlay {
        /// The board of the table refused.
        rules: ttt_core::Rules,
    },
    /// A saved game that cannot be taken up: its moves are not legal, or a seat cannot
    /// play its board.
    #[error("that game cannot be resumed")]
    NotResumable,
    /// A seat asked to move for the other seat.
    #[error("it is the other side's turn")]
    NotYourTurn,
    /// Someone watching asked to change the game.
    #[error("watchers cannot play")]
    Watching,
    /// What only whoever runs the match may do (start a game, change the table).
    #[error("only the host can do that")]
    HostOnly,
    /// An undo asked again while the other seat has not answered the first.
    #[error("an undo is already asked for")]
    UndoAsked,
    /// An answer to an undo nobody (else) asked for.
    #[error("no undo is asked for")]
    NoUndoAsked,
}

/// Games won by each mark and drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Score {
    /// Games X won.
    pub x_wins: u32,
    /// Games O won.
    pub o_wins: u32,
    /// Games drawn.
    pub draws: u32,
}

impl Score {
    /// Games finished.
    pub fn games(&self) -> u32 {
        self.x_wins + self.o_wins + self.draws
    }

    pub(crate) fn record(&mut self, outcome: Outcome) {
        *self.count(outcome) += 1;
    }

    pub(crate) fn forget(&mut self, outcome: Outcome) {
        let count = self.count(outcome);
        *count = count.saturating_sub(1);
    }

    pub(crate) fn count(&mut self, outcome: Outcome) -> &mut u32 {
        match outcome {
            Outcome::Win(Mark::X) => &mut self.x_wins,
            Outcome::Win(Mark::O) => &mut self.o_wins,
            Outcome::Draw => &mut self.draws,
        }
    }
}

impl std::ops::Add for Score {
    type Output = Score;

    fn add(self, other: Score) -> Score {
        Score {
            x_wins: self.x_wins + other.x_wins,
            o_wins: self.o_wins + other.o_wins,
            draws: self.draws + other.draws,
        }
    }
}

impl fmt::Display for Score {
    /// `X wins: 2, O wins: 0, draws: 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "X wins: {}, O wins: {}, draws: {}",
            self.x_wins, self.o_wins, self.draws
        )
    }
}

/// What the start screen can change between games: the board, the seats, who goes first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// The board.
    pub rules: Rules,
    /// Who plays X.
    pub x: Seat,
    /// Who plays O.
    pub o: Seat,
    /// Who moves first.
    pub first: FirstPolicy,
}

/// Who asks the match for something.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Actor {
    /// Whoever sits at this mark: a person elsewhere, or a computer seat's client.
    Seat(Mark),
    /// Whoever runs the match: the front end of a game at one keyboard, which speaks for
    /// every person there, or a server's room.
    Host,
    /// Someone watching, who changes nothing.
    Spectator,
}

/// What an actor asks of the match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Start the next game (the host only). `coin` decides who moves first where the
    /// table's policy draws at random: the caller flips it, the match having no randomness
    /// of its own.
    NewGame {
        /// The side of the coin that came up.
        coin: Mark,
    },
    /// Change the board, seats or first-player policy for the games from now on (the host
    /// only); the tally stays.
    ChangeTable(Table),
    /// Play a square for the side to move: a seat for itself, the host for a person.
    Play(Square),
    /// Take back moves so that the asker gets their last turn again. The host and a seat
    /// against a computer take them back at once; a seat against another person asks,
    /// and that person answers with [`Command::AnswerUndo`].
    Undo,
    /// Answer the other seat's request to undo: yes or no.
    AnswerUndo(bool),
    /// Give the game up: a seat for itself.
    Resign,
    /// The player of `loser` could not move (an engine that crashed or answered no free
    /// square): it loses the game (the host only).
    Forfeit(Forfeit),
}

/// What happened, in order, as the match tells everyone (players and watchers alike).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A game began; `number` counts the games started in the match.
    GameStarted {
        /// Who moves first.
        first: Mark,
        /// The game's number, from 1.
        number: u32,
    },
    /// The board, seats or policy changed for the games from now on.
    TableChanged,
    /// A mark went down.
    Played {
        /// Whose.
        mark: Mark,
        /// Where.
        square: Square,
    },
    /// A seat asks to take moves back; the other answers.
    UndoAsked {
        /// Who asks.
        by: Mark,
    },
    /// The other seat said no to an undo, or moved on.
    UndoRefused,
    /// Moves were taken back, the most recent first (a finished game left the tally).
    Undone {
        /// The squares emptied.
        squares: Vec<Square>,
    },
    /// The game ended early: a seat resigned or its player could not move.
    Forfeited(Forfeit),
    /// The game is over, and counted in the tally.
    Ended(Outcome),
}

/// The rules of a run of games between two seats: the table, the game on the board, the
/// tally, and an undo asked for. Every rule of play is decided here once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    table: Table,
    /// Games to play in all, when limited.
    games: Option<u32>,
    score: Score,
    position: Position,
    /// Who moved first in the latest game; `None` before the first game of this table.
    last_first: Option<Mark>,
    /// Why the game on the board ended before its position did, if it did.
    forfeit: Option<Forfeit>,
    /// Games started (or resumed) so far.
    games_started: u32,
    /// The seat asking to undo, until the other answers or a move is made.
    undo_asked: Option<Mark>,
}

impl Match {
    /// A match with no game started yet at `table`, for `games` games in all (`None`: no
    /// limit).
    ///
    /// # Errors
    /// [`Refusal::CannotPlay`] when a seat cannot play the table's board.
    pub fn new(table: Table, games: Option<u32>) -> Result<Match, Refusal> {
        check_table(&table)?;
        Ok(Match::seated(table, games))
    }

    /// A match at `table` whose seats were checked already (by the settings, which
    /// refuse a seat that cannot play their board).
    pub(crate) fn seated(table: Table, games: Option<u32>) -> Match {
        Match {
            position: Position::new(table.rules, Mark::X),
            table,
            games,
            score: Score::default(),
            last_first: None,
            forfeit: None,
            games_started: 0,
            undo_asked: None,
        }
    }

    /// Whether the next game's first mover is drawn: the coin of [`Command::NewGame`]
    /// decides it.
    pub fn draws_first(&self) -> bool {
        self.first_mover(None).is_none()
    }

    /// Who moves first in the next game by the table's policy, with `coin` (none: not
    /// flipped) where the policy draws.
    fn first_mover(&self, coin: Option<Mark>) -> Option<Mark> {
        match (self.table.first, self.last_first) {
            (FirstPolicy::X, _) => Some(Mark::X),
            (FirstPolicy::O, _) => Some(Mark::O),
            (FirstPolicy::Alternate, Some(previous)) => Some(!previous),
            (FirstPolicy::Random | FirstPolicy::Alternate, _) => coin,
        }
    }

    /// Does what `actor` asks, if the rules allow it, and says what happened.
    ///
    /// # Errors
    /// The [`Refusal`] that says why not; nothing changes then.
    pub fn apply(&mut self, actor: Actor, command: Command) -> Result<Vec<Event>, Refusal> {
        if actor == Actor::Spectator {
            return Err(Refusal::Watching);
        }
        let host = actor == Actor::Host;
        match command {
            Command::NewGame { coin } if host => self.new_game(coin),
            Command::ChangeTable(table) if host => self.change_table(table),
            Command::Forfeit(forfeit) if host => self.end_early(forfeit),
            Command::NewGame { .. } | Command::ChangeTable(_) | Command::Forfeit(_) => {
                Err(Refusal::HostOnly)
            }
            Command::Play(square) => self.play(actor, square),
            Command::Undo => self.undo(actor),
            Command::AnswerUndo(yes) => self.answer_undo(actor, yes),
            Command::Resign => match actor {
                Actor::Seat(mark) => self.resign(mark),
                _ => Err(Refusal::HostOnly),
            },
        }
    }

    fn new_game(&mut self, coin: Mark) -> Result<Vec<Event>, Refusal> {
        if self.games_left() == Some(0) {
            return Err(Refusal::NoGamesLeft);
        }
        let first = self.first_mover(Some(coin)).unwrap_or(coin);
        self.last_first = Some(first);
        self.position = Position::new(self.table.rules, first);
        self.forfeit = None;
        self.undo_asked = None;
        self.games_started += 1;
        Ok(vec![Event::GameStarted {
            first,
            number: self.games_started,
        }])
    }

    fn change_table(&mut self, table: Table) -> Result<Vec<Event>, Refusal> {
        check_table(&table)?;
        self.position = Position::new(table.rules, Mark::X);
        self.table = table;
        self.last_first = None;
        self.forfeit = None;
        self.undo_asked = None;
        Ok(vec![Event::TableChanged])
    }

    fn play(&mut self, actor: Actor, square: Square) -> Result<Vec<Event>, Refusal> {
        if self.is_over() || !self.started() {
            return Err(Refusal::GameOver);
        }
        let mark = self.position.to_move();
        match actor {
            Actor::Seat(seat) if seat != mark => return Err(Refusal::NotYourTurn),
            Actor::Host if !self.seat(mark).is_human() => return Err(Refusal::ComputersTurn),
            _ => {}
        }
        self.position.play(square).map_err(|error| match error {
            PlayError::Occupied { mark, .. } => Refusal::Occupied { square, mark },
            PlayError::GameOver => Refusal::GameOver,
            PlayError::OffBoard(_) => Refusal::OffBoard { square },
        })?;
        let mut events = Vec::new();
        if self.undo_asked.take().is_some() {
            events.push(Event::UndoRefused);
        }
        events.push(Event::Played { mark, square });
        events.extend(self.count_if_over());
        Ok(events)
    }

    fn undo(&mut self, actor: Actor) -> Result<Vec<Event>, Refusal> {
        let Actor::Seat(mark) = actor else {
            // The host speaks for every person at its keyboard.
            return self.take_back(|seat, _| seat.is_human());
        };
        let other = self.seat(!mark);
        if !other.is_human() {
            return self.take_back(|_, by| by == mark);
        }
        if self.undo_asked.is_some() {
            return Err(Refusal::UndoAsked);
        }
        self.last_move_by(|_, by| by == mark)
            .ok_or(Refusal::NothingToUndo)?;
        self.undo_asked = Some(mark);
        Ok(vec![Event::UndoAsked { by: mark }])
    }

    fn answer_undo(&mut self, actor: Actor, yes: bool) -> Result<Vec<Event>, Refusal> {
        let asker = self.undo_asked.ok_or(Refusal::NoUndoAsked)?;
        if actor == Actor::Seat(asker) {
            return Err(Refusal::NoUndoAsked);
        }
        self.undo_asked = None;
        if yes {
            self.take_back(|_, by| by == asker)
        } else {
            Ok(vec![Event::UndoRefused])
        }
    }

    /// The index of the last move made by a mark that `whose` picks (given its seat and
    /// the mark), if any.
    fn last_move_by(&self, whose: impl Fn(&Seat, Mark) -> bool) -> Option<usize> {
        let first = self.position.first();
        let mover = |index: usize| {
            if index.is_multiple_of(2) {
                first
            } else {
                !first
            }
        };
        (0..self.position.history().len())
            .rev()
            .find(|&index| whose(self.seat(mover(index)), mover(index)))
    }

    /// Takes back the last move of a mark `whose` picks and every move after it; a
    /// finished game leaves the tally.
    fn take_back(&mut self, whose: impl Fn(&Seat, Mark) -> bool) -> Result<Vec<Event>, Refusal> {
        let from = self.last_move_by(whose).ok_or(Refusal::NothingToUndo)?;
        if let Some(outcome) = self.outcome() {
            self.score.forget(outcome);
        }
        let squares = (from..self.position.history().len())
            .filter_map(|_| self.position.undo())
            .collect();
        self.forfeit = None;
        self.undo_asked = None;
        Ok(vec![Event::Undone { squares }])
    }

    fn resign(&mut self, mark: Mark) -> Result<Vec<Event>, Refusal> {
        self.end_early(Forfeit {
            loser: mark,
            reason: format!("{mark} resigned"),
        })
    }

    fn end_early(&mut self, forfeit: Forfeit) -> Result<Vec<Event>, Refusal> {
        if self.is_over() || !self.started() {
            return Err(Refusal::GameOver);
        }
        self.forfeit = Some(forfeit.clone());
        self.undo_asked = None;
        let mut events = vec![Event::Forfeited(forfeit)];
        events.extend(self.count_if_over());
        Ok(events)
    }

    /// Counts the game on the board in the tally if it has just ended.
    fn count_if_over(&mut self) -> Option<Event> {
        let outcome = self.outcome()?;
        self.score.record(outcome);
        Some(Event::Ended(outcome))
    }

    /// Takes up an unfinished game where it was left, at `table` (its board and seats),
    /// its first mover `first` and its moves: undo goes back through them. The tally and
    /// the games left stay the match's.
    ///
    /// # Errors
    /// [`Refusal::NotResumable`] when the moves are not legal or a seat cannot play the
    /// board; [`Refusal::GameOver`] when they end the game.
    pub fn resume(&mut self, table: Table, first: Mark, moves: &[Square]) -> Result<(), Refusal> {
        check_table(&table).map_err(|_| Refusal::NotResumable)?;
        let position =
            Position::from_moves(table.rules, first, moves).map_err(|_| Refusal::NotResumable)?;
        if position.is_over() {
            return Err(Refusal::GameOver);
        }
        self.change_table(table)?;
        self.position = position;
        self.last_first = Some(first);
        self.games_started += 1;
        Ok(())
    }

    /// The board, seats and first-player policy of the games from now on.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Who plays `mark`.
    pub fn seat(&self, mark: Mark) -> &Seat {
        match mark {
            Mark::X => &self.table.x,
            Mark::O => &self.table.o,
        }
    }

    /// The mark of the only person playing, when exactly one plays against a computer.
    pub fn lone_human(&self) -> Option<Mark> {
        match (self.table.x.is_human(), self.table.o.is_human()) {
            (true, false) => Some(Mark::X),
            (false, true) => Some(Mark::O),
            _ => None,
        }
    }

    /// The game under way (or just finished).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Whether a game has been started since the match began or its table changed.
    pub fn started(&self) -> bool {
        self.last_first.is_some()
    }

    /// Whether the game on the board is over: its position ended, or it was forfeited.
    pub fn is_over(&self) -> bool {
        self.position.is_over() || self.forfeit.is_some()
    }

    /// How the game on the board ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position.outcome().or_else(|| {
            self.forfeit
                .as_ref()
                .map(|forfeit| Outcome::Win(!forfeit.loser))
        })
    }

    /// Why the game on the board ended before its position did, if it did.
    pub fn forfeit(&self) -> Option<&Forfeit> {
        self.forfeit.as_ref()
    }

    /// The tally of every finished game of the match.
    pub fn score(&self) -> Score {
        self.score
    }

    /// Games still to play, or `None` when there is no limit.
    pub fn games_left(&self) -> Option<u32> {
        self.games
            .map(|games| games.saturating_sub(self.score.games()))
    }

    /// Games started (or resumed) so far: tells one game on the board from the next.
    pub fn game_number(&self) -> u32 {
        self.games_started
    }

    /// The seat asking to undo, until the other answers.
    pub fn undo_asked(&self) -> Option<Mark> {
        self.undo_asked
    }

    /// The whole match as data, to keep or send and [`restore`](Match::restore).
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            rules: self.table.rules.to_string(),
            x: self.table.x.to_string(),
            o: self.table.o.to_string(),
            policy: self.table.first.to_string(),
            games: self.games,
            score: [self.score.x_wins, self.score.o_wins, self.score.draws],
            first: self.last_first.map(|mark| mark.to_string()),
            moves: self
                .position
                .history()
                .iter()
                .map(|square| square.index())
                .collect(),
            forfeit: self
                .forfeit
                .as_ref()
                .map(|forfeit| (forfeit.loser.to_string(), forfeit.reason.clone())),
            games_started: self.games_started,
            undo_asked: self.undo_asked.map(|mark| mark.to_string()),
        }
    }

    /// The match a [`Snapshot`] was taken of.
    ///
    /// # Errors
    /// [`Refusal::NotResumable`] when the snapshot does not describe a match: a name that
    /// does not read, a seat that cannot play the board, illegal moves, a tally that does
    /// not count the game on the board.
    pub fn restore(snapshot: &Snapshot) -> Result<Match, Refusal> {
        let bad = |_| Refusal::NotResumable;
        let mark = |text: &str| text.parse::<Mark>().map_err(|_| Refusal::NotResumable);
        let table = Table {
            rules: snapshot.rules.parse::<Rules>().map_err(bad)?,
            x: snapshot.x.parse().map_err(|_| Refusal::NotResumable)?,
            o: snapshot.o.parse().map_err(|_| Refusal::NotResumable)?,
            first: snapshot.policy.parse().map_err(|_| Refusal::NotResumable)?,
        };
        let mut restored = Match::new(table, snapshot.games).map_err(|_| Refusal::NotResumable)?;
        let [x_wins, o_wins, draws] = snapshot.score;
        restored.score = Score {
            x_wins,
            o_wins,
            draws,
        };
        restored.games_started = snapshot.games_started;
        let rules = restored.table.rules;
        match &snapshot.first {
            None if snapshot.moves.is_empty() && snapshot.forfeit.is_none() => {}
            None => return Err(Refusal::NotResumable),
            Some(first) => {
                let first = mark(first)?;
                let squares: Vec<Square> = snapshot
                    .moves
                    .iter()
                    .map(|&index| Square::new(index))
                    .collect();
                restored.position = Position::from_moves(rules, first, &squares)
                    .map_err(|_| Refusal::NotResumable)?;
                restored.last_first = Some(first);
            }
        }
        if let Some((loser, reason)) = &snapshot.forfeit {
            if restored.position.is_over() {
                return Err(Refusal::NotResumable);
            }
            restored.forfeit = Some(Forfeit {
                loser: mark(loser)?,
                reason: reason.clone(),
            });
        }
        restored.undo_asked = snapshot.undo_asked.as_deref().map(mark).transpose()?;
        let counted = restored.outcome().is_none_or(|outcome| {
            let mut score = restored.score;
            *score.count(outcome) > 0
        });
        if !counted {
            return Err(Refusal::NotResumable);
        }
        Ok(restored)
    }
}

/// A [`Match`] as data: every field in words or numbers, as its own types write them
/// (`"3x3, k=3"`, `"human"`, `"random"`), for JSON or any serde format.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The board, as [`Rules`] writes it.
    pub rules: String,
    /// Who plays X, as [`Seat`] writes it.
    pub x: String,
    /// Who plays O.
    pub o: String,
    /// Who moves first in each game, as [`FirstPolicy`] writes it.
    pub policy: String,
    /// Games to play in all, when limited.
    pub games: Option<u32>,
    /// Games won by X, won by O, drawn.
    pub score: [u32; 3],
    /// Who moved first in the game on the board; none before a game.
    pub first: Option<String>,
    /// The moves of the game on the board, as square indices.
    pub moves: Vec<usize>,
    /// The loser and the reason, when the game ended early.
    pub forfeit: Option<(String, String)>,
    /// Games started so far.
    pub games_started: u32,
    /// The seat asking to undo, if one is.
    pub undo_asked: Option<String>,
}

/// Whether both seats can play the table's board.
fn check_table(table: &Table) -> Result<(), Refusal> {
    if [&table.x, &table.o]
        .iter()
        .any(|seat| seat.plays_on(table.rules).is_err())
    {
        return Err(Refusal::CannotPlay { rules: table.rules });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use ttt_players::Strength;

    use super::*;

    fn table(x: Seat, o: Seat, first: FirstPolicy) -> Table {
        Table {
            rules: Rules::default(),
            x,
            o,
            first,
        }
    }

    fn started(x: Seat, o: Seat) -> Match {
        let mut game = Match::new(table(x, o, FirstPolicy::X), None).unwrap();
        game.apply(Actor::Host, Command::NewGame { coin: Mark::O })
            .unwrap();
        game
    }

    fn play(game: &mut Match, actor: Actor, index: usize) -> Result<Vec<Event>, Refusal> {
        game.apply(actor, Command::Play(Square::new(index)))
    }

    #[test]
    fn the_host_plays_for_people_only_and_a_seat_only_for_itself() {
        let computer = Seat::Computer(Strength::Random);
        let mut game = started(Seat::Human, computer);
        assert_eq!(
            play(&mut game, Actor::Seat(Mark::O), 4),
            Err(Refusal::NotYourTurn)
        );
        play(&mut game, Actor::Host, 4).unwrap();
        assert_eq!(play(&mut game, Actor::Host, 0), Err(Refusal::ComputersTurn));
        assert_eq!(
            play(&mut game, Actor::Seat(Mark::O), 4),
            Err(Refusal::Occupied {
                square: Square::new(4),
                mark: Mark::X
            })
        );
        play(&mut game, Actor::Seat(Mark::O), 0).unwrap();
        // Against a computer, a seat's undo takes back its move and the reply at once.
        let undone = game.apply(Actor::Seat(Mark::X), Command::Undo).unwrap();
        assert_eq!(
            undone,
            [Event::Undone {
                squares: vec![Square::new(0), Square::new(4)]
            }]
        );
        assert_eq!(
            game.apply(Actor::Seat(Mark::O), Command::NewGame { coin: Mark::X }),
            Err(Refusal::HostOnly)
        );
    }

    #[test]
    fn an_undo_asked_of_a_person_waits_for_the_answer_and_a_move_refuses_it() {
        let mut game = started(Seat::Human, Seat::Human);
        play(&mut game, Actor::Seat(Mark::X), 4).unwrap();
        play(&mut game, Actor::Seat(Mark::O), 0).unwrap();
        let asked = game.apply(Actor::Seat(Mark::O), Command::Undo).unwrap();
        assert_eq!(asked, [Event::UndoAsked { by: Mark::O }]);
        assert_eq!(
            game.apply(Actor::Seat(Mark::O), Command::Undo),
            Err(Refusal::UndoAsked)
        );
        assert_eq!(
            game.apply(Actor::Seat(Mark::O), Command::AnswerUndo(true)),
            Err(Refusal::NoUndoAsked)
        );
        // X moves instead of answering: the request lapses, and nothing is taken back.
        let events = play(&mut game, Actor::Seat(Mark::X), 8).unwrap();
        assert_eq!(events[0], Event::UndoRefused);
        assert_eq!(game.position().history().len(), 3);
        assert_eq!(game.undo_asked(), None);
        // Asked again, and said yes to: O's move and X's reply go.
        game.apply(Actor::Seat(Mark::O), Command::Undo).unwrap();
        let undone = game
            .apply(Actor::Seat(Mark::X), Command::AnswerUndo(true))
            .unwrap();
        assert_eq!(
            undone,
            [Event::Undone {
                squares: vec![Square::new(8), Square::new(0)]
            }]
        );
        // At one keyboard, the host takes back the last move at once.
        let undone = game.apply(Actor::Host, Command::Undo).unwrap();
        assert_eq!(
            undone,
            [Event::Undone {
                squares: vec![Square::new(4)]
            }]
        );
        assert_eq!(
            game.apply(Actor::Host, Command::Undo),
            Err(Refusal::NothingToUndo)
        );
    }

    #[test]
    fn a_resigned_or_forfeited_game_counts_once_and_undo_takes_it_out_of_the_tally() {
        let mut game = started(Seat::Human, Seat::Human);
        play(&mut game, Actor::Host, 4).unwrap();
        let events = game.apply(Actor::Seat(Mark::O), Command::Resign).unwrap();
        assert_eq!(events.last(), Some(&Event::Ended(Outcome::Win(Mark::X))));
        assert_eq!(game.score().x_wins, 1);
        assert_eq!(
            game.apply(Actor::Seat(Mark::X), Command::Resign),
            Err(Refusal::GameOver)
        );
        game.apply(Actor::Host, Command::Undo).unwrap();
        assert_eq!(game.score().games(), 0);
        assert!(!game.is_over());
        let lost = Forfeit {
            loser: Mark::O,
            reason: "it crashed".to_owned(),
        };
        assert_eq!(
            game.apply(Actor::Seat(Mark::X), Command::Forfeit(lost.clone())),
            Err(Refusal::HostOnly)
        );
        game.apply(Actor::Host, Command::Forfeit(lost)).unwrap();
        assert_eq!(game.outcome(), Some(Outcome::Win(Mark::X)));
    }

    #[test]
    fn who_moves_first_follows_the_policy_and_the_coin_the_caller_flipped() {
        let mut game = Match::new(
            table(Seat::Human, Seat::Human, FirstPolicy::Alternate),
            Some(3),
        )
        .unwrap();
        let first = |events: Vec<Event>| match events[..] {
            [Event::GameStarted { first, .. }] => first,
            _ => panic!("{events:?}"),
        };
        let new_game = |game: &mut Match, coin| game.apply(Actor::Host, Command::NewGame { coin });
        assert_eq!(first(new_game(&mut game, Mark::O).unwrap()), Mark::O);
        assert_eq!(first(new_game(&mut game, Mark::O).unwrap()), Mark::X);
        assert_eq!(first(new_game(&mut game, Mark::O).unwrap()), Mark::O);
        // Three games are left to play until three have finished.
        assert_eq!(game.games_left(), Some(3));
        let computer = Seat::Computer(Strength::Perfect);
        let big = Table {
            rules: Rules::new(5, 5, 4).unwrap(),
            ..table(Seat::Human, computer, FirstPolicy::X)
        };
        assert_eq!(
            game.apply(Actor::Host, Command::ChangeTable(big.clone())),
            Err(Refusal::CannotPlay { rules: big.rules })
        );
    }

    #[test]
    fn a_snapshot_that_does_not_describe_a_match_is_refused() {
        let mut game = started(Seat::Human, Seat::Human);
        for square in [0, 3, 1, 4, 2] {
            play(&mut game, Actor::Host, square).unwrap();
        }
        let snapshot = game.snapshot();
        assert_eq!(Match::restore(&snapshot).unwrap().snapshot(), snapshot);
        let broken = [
            Snapshot {
                score: [0, 0, 0],
                ..snapshot.clone()
            },
            Snapshot {
                moves: vec![0, 0],
                ..snapshot.clone()
            },
            Snapshot {
                x: "grandmaster".to_owned(),
                ..snapshot.clone()
            },
            Snapshot {
                forfeit: Some(("O".to_owned(), "left".to_owned())),
                ..snapshot.clone()
            },
            Snapshot {
                first: None,
                ..snapshot.clone()
            },
            Snapshot {
                moves: vec![9],
                score: [0, 0, 0],
                ..snapshot
            },
        ];
        for snapshot in broken {
            assert_eq!(
                Match::restore(&snapshot),
                Err(Refusal::NotResumable),
                "{snapshot:?}"
            );
        }
    }

    fn actors() -> impl Strategy<Value = Actor> {
        prop_oneof![
            Just(Actor::Seat(Mark::X)),
            Just(Actor::Seat(Mark::O)),
            Just(Actor::Host),
            Just(Actor::Spectator),
        ]
    }

    fn commands() -> impl Strategy<Value = Command> {
        let marks = || prop_oneof![Just(Mark::X), Just(Mark::O)];
        let seats = || {
            prop_oneof![
                Just(Seat::Human),
                Just(Seat::Computer(Strength::Random)),
                Just(Seat::Computer(Strength::Perfect)),
            ]
        };
        prop_oneof![
            4 => (0..10usize).prop_map(|index| Command::Play(Square::new(index))),
            1 => marks().prop_map(|coin| Command::NewGame { coin }),
            1 => Just(Command::Undo),
            1 => any::<bool>().prop_map(Command::AnswerUndo),
            1 => Just(Command::Resign),
            1 => marks().prop_map(|loser| Command::Forfeit(Forfeit { loser, reason: "gone".to_owned() })),
            1 => (seats(), seats(), 3..5usize).prop_map(|(x, o, side)| Command::ChangeTable(Table {
                rules: Rules::new(side, side, 3).unwrap(),
                x,
                o,
                first: FirstPolicy::Alternate,
            })),
        ]
    }

    proptest! {
        #[test]
        fn any_commands_keep_the_rules(
            steps in proptest::collection::vec((actors(), commands()), 0..60),
        ) {
            let mut game = Match::new(table(Seat::Human, Seat::Human, FirstPolicy::Random), None).unwrap();
            let mut finished = 0u32;
            for (actor, command) in steps {
                let before = game.snapshot();
                let was_over = game.is_over();
                match game.apply(actor, command) {
                    Err(_) => prop_assert_eq!(game.snapshot(), before, "a refusal changes nothing"),
                    Ok(events) => {
                        prop_assert!(actor != Actor::Spectator);
                        for event in &events {
                            match event {
                                Event::Played { mark, .. } => prop_assert!(
                                    actor == Actor::Seat(*mark)
                                        || actor == Actor::Host && game.seat(*mark).is_human(),
                                    "{actor:?} played for {mark}"
                                ),
                                Event::Ended(_) => finished += 1,
                                Event::Undone { .. } if was_over => finished -= 1,
                                _ => {}
                            }
                        }
                    }
                }
                prop_assert_eq!(game.score().games(), finished);
                prop_assert_eq!(game.outcome().is_some(), game.is_over());
                // The snapshot restores the same match, through JSON too.
                let snapshot = game.snapshot();
                let text = serde_json::to_string(&snapshot).unwrap();
                let read: Snapshot = serde_json::from_str(&text).unwrap();
                prop_assert_eq!(&read, &snapshot);
                prop_assert_eq!(Match::restore(&read).map(|game| game.snapshot()), Ok(snapshot));
            }
        }
    }
}
