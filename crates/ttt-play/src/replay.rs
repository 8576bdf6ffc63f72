//! Stepping through a kept game: the position after any number of its moves, with a note
//! on each move. On boards the exact solver reaches, each move's value under perfect play
//! and the moves that changed the result (the review); on bigger boards, where the
//! threat-space search quickly finds a forced win for the side to move.
//!
//! ```
//! use ttt_core::{Mark, Rules, Square};
//! use ttt_play::records::GameRecord;
//! use ttt_play::replay::{Replay, Step};
//! use ttt_play::Seat;
//! use ttt_solver::Solver;
//!
//! let mut game = GameRecord::new(Rules::default(), Seat::Human, Seat::Human, Mark::X, 0);
//! // X in the centre, O on a side (which loses), X lets it go, ...
//! game.moves = [4, 1, 7].map(Square::new).to_vec();
//! let mut replay = Replay::new(game)?.with_review(&mut Solver::new());
//! assert_eq!(replay.at(), 0);
//! replay.step(Step::Forward);
//! replay.step(Step::Forward);
//! assert_eq!(replay.at(), 2);
//! assert!(replay.note().unwrap().contains("a mistake"));
//! replay.step(Step::Last);
//! assert_eq!(replay.position().history().len(), 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use ttt_core::{Position, SquareNaming};
use ttt_solver::{GameResult, Solver};

use crate::analysis::threat_review;
use crate::records::{GameRecord, RecordError};
use crate::words;

/// Where to go in the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Before the first move.
    First,
    /// One move back.
    Back,
    /// One move on.
    Forward,
    /// After the last move.
    Last,
}

/// A game being stepped through.
#[derive(Debug, Clone)]
pub struct Replay {
    record: GameRecord,
    /// The position after each number of moves, from none to all.
    positions: Vec<Position>,
    at: usize,
    /// A note on each move (index 0: the first move), where there is something to say.
    notes: Vec<Option<String>>,
    /// What the review found in the whole game, in a few lines.
    summary: Vec<String>,
}

impl Replay {
    /// The game at its start, its moves checked.
    ///
    /// # Errors
    /// [`RecordError::BadMove`] for a move that is not legal.
    pub fn new(record: GameRecord) -> Result<Replay, RecordError> {
        let mut position = Position::new(record.rules, record.first);
        let mut positions = vec![position.clone()];
        for (index, &square) in record.moves.iter().enumerate() {
            position
                .play(square)
                .map_err(|error| RecordError::BadMove {
                    number: index + 1,
                    square: SquareNaming::Letters.label(square, record.rules),
                    reason: error.to_string(),
                })?;
            positions.push(position.clone());
        }
        let notes = vec![None; record.moves.len()];
        Ok(Replay {
            record,
            positions,
            at: 0,
            notes,
            summary: Vec::new(),
        })
    }

    /// With each move's value under perfect play where the exact solver reaches the board
    /// (else as it was), and the moves that changed the result.
    #[must_use]
    pub fn with_review(mut self, solver: &mut Solver) -> Replay {
        let rules = self.record.rules;
        let name = |square| SquareNaming::Numbers.on_board(rules).label(square, rules);
        let mut mistakes = 0;
        for (index, &square) in self.record.moves.iter().enumerate() {
            let before = &self.positions[index];
            let Ok(values) = solver.move_values(before) else {
                return self;
            };
            let Some(best) = values.first().map(|best| best.value) else {
                continue;
            };
            let Some(played) = values.iter().find(|value| value.square == square) else {
                continue;
            };
            let mover = before.to_move();
            let played = played.value;
            // "square 9" or "squares 3, 7": a bare 9 beside a count of plies reads as one.
            let squares_of = |value: ttt_solver::Value| {
                let names: Vec<String> = values
                    .iter()
                    .filter(|other| other.value == value)
                    .map(|other| name(other.square))
                    .collect();
                let noun = if names.len() == 1 {
                    "square"
                } else {
                    "squares"
                };
                format!("{noun} {}", names.join(", "))
            };
            let square = name(square);
            self.notes[index] = Some(if played.result != best.result {
                mistakes += 1;
                let better: Vec<String> = values
                    .iter()
                    .filter(|value| value.value.result == best.result)
                    .map(|value| name(value.square))
                    .collect();
                format!(
                    "{mover} {square}: a mistake, {} with perfect play where {} was there ({})",
                    outcome_words(played.result),
                    outcome_words(best.result),
                    better.join(", ")
                )
            } else if played == best || played.result == GameResult::Draw {
                format!(
                    "{mover} {square}: {} with perfect play, the best there was",
                    outcome_words(played.result)
                )
            } else if played.result == GameResult::Loss {
                format!(
                    "{mover} {square}: a loss in {} plies with perfect play; {} held out for {} plies",
                    played.plies,
                    squares_of(best),
                    best.plies
                )
            } else {
                format!(
                    "{mover} {square}: a win in {} plies with perfect play; {} won in {} plies",
                    played.plies,
                    squares_of(best),
                    best.plies
                )
            });
        }
        self.summary = vec![match mistakes {
            0 => "No move changed the result under perfect play.".to_owned(),
            1 => "One move changed the result under perfect play.".to_owned(),
            n => format!("{n} moves changed the result under perfect play."),
        }];
        self
    }

    /// With a note wherever the threat-space search quickly finds a forced win for the
    /// side to move, and where a forced win was let go: the engine's opinion on boards too
    /// big for the exact solver.
    #[must_use]
    pub fn with_threats(mut self) -> Replay {
        let rules = self.record.rules;
        let name = |square| SquareNaming::Letters.label(square, rules);
        let Some(game) = self.positions.last() else {
            return self;
        };
        let notes = threat_review(game);
        for note in &notes {
            self.notes[note.number - 1] = Some(words::threat_note(note, name));
        }
        self.summary = vec![words::threat_summary(&notes)];
        self
    }

    /// Moves to `step`, within the game.
    pub fn step(&mut self, step: Step) {
        self.at = match step {
            Step::First => 0,
            Step::Back => self.at.saturating_sub(1),
            Step::Forward => (self.at + 1).min(self.len()),
            Step::Last => self.len(),
        };
    }

    /// The moves shown so far.
    pub fn at(&self) -> usize {
        self.at
    }

    /// The moves of the game.
    pub fn len(&self) -> usize {
        self.record.moves.len()
    }

    /// Whether the game has no move.
    pub fn is_empty(&self) -> bool {
        self.record.moves.is_empty()
    }

    /// The position after the moves shown.
    pub fn position(&self) -> &Position {
        &self.positions[self.at]
    }

    /// The game.
    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    /// The note on the last move shown, if there is one.
    pub fn note(&self) -> Option<&str> {
        self.at
            .checked_sub(1)
            .and_then(|index| self.notes[index].as_deref())
    }

    /// The note on each move, in order.
    pub fn notes(&self) -> &[Option<String>] {
        &self.notes
    }

    /// What the review found in the whole game.
    pub fn summary(&self) -> &[String] {
        &self.summary
    }
}

/// "a win", "a draw" or "a loss" for the mover.
fn outcome_words(result: GameResult) -> &'static str {
    match result {
        GameResult::Win => "a win",
        GameResult::Draw => "a draw",
        GameResult::Loss => "a loss",
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use super::*;
    use crate::Seat;
    use ttt_core::{Mark, Rules, Square};

    #[test]
    fn a_quicker_loss_is_not_called_the_best_there_was() {
        // X centre, O an edge (a mistake), X a corner threatening the far corner: every O
        // move loses now, and O 3 loses at once where blocking at 9 holds out longer.
        let mut game = GameRecord::new(Rules::default(), Seat::Human, Seat::Human, Mark::X, 0);
        game.moves = [4, 1, 0, 2, 8].map(Square::new).to_vec();
        let replay = Replay::new(game).unwrap().with_review(&mut Solver::new());
        let notes: Vec<&str> = replay
            .notes()
            .iter()
            .map(|note| note.as_deref().unwrap())
            .collect();
        assert!(notes[1].starts_with("O 2: a mistake, a loss"), "{notes:?}");
        assert!(notes[3].starts_with("O 3: a loss in"), "{notes:?}");
        assert!(
            notes[3].contains("; square 9 held out for 4 plies"),
            "{notes:?}"
        );
        assert!(notes[4].contains("the best there was"), "{notes:?}");
    }
}
