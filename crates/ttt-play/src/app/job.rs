//! Slow work for the full-screen mode, done on another thread as a computer's move is:
//! a hint or a review with the exact solver, which takes seconds on 4x4.

use ttt_core::{Position, SquareNaming};
use ttt_solver::{MoveValue, Solver};

/// What the work is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// The value of every free square.
    Hint,
    /// The moves of a finished game that changed its value.
    Review,
}

/// Work handed out with everything it needs, the solver (and its table) among it.
pub struct Job {
    purpose: Purpose,
    position: Position,
    naming: SquareNaming,
    solver: Solver,
}

/// Finished work, to be handed back to the app.
pub struct Done {
    /// The position it is about: an answer for a position since left is dropped.
    pub position: Position,
    /// The solver, back for the next job.
    pub solver: Solver,
    /// The answer, or why there is none, in words.
    pub answer: Result<Answer, String>,
}

/// What the work found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Every free square's value, best first.
    Hint(Vec<MoveValue>),
    /// The review, a line at a time.
    Review(Vec<String>),
}

impl Job {
    /// Work on `position` for `purpose`, with `solver`.
    pub fn new(purpose: Purpose, position: Position, naming: SquareNaming, solver: Solver) -> Job {
        Job {
            purpose,
            position,
            naming,
            solver,
        }
    }

    /// What the work is for.
    pub fn purpose(&self) -> Purpose {
        self.purpose
    }

    /// The position the work is about.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// How squares are named in the answer.
    pub fn naming(&self) -> SquareNaming {
        self.naming
    }

    /// The work done elsewhere (a web worker, with a solver of its own): hand the answer
    /// back with the solver this job carried.
    pub fn answered(self, answer: Result<Answer, String>) -> Done {
        Done {
            position: self.position,
            solver: self.solver,
            answer,
        }
    }

    /// Does the work (this is where the time goes).
    pub fn run(mut self) -> Done {
        let rules = self.position.rules();
        let naming = self.naming;
        let answer = match self.purpose {
            Purpose::Hint => self
                .solver
                .move_values(&self.position)
                .map(Answer::Hint)
                .map_err(|error| format!("No hint here: {error}.")),
            Purpose::Review => Ok(Answer::Review(crate::analysis::review_lines(
                &mut self.solver,
                &self.position,
                |square| naming.label(square, rules),
            ))),
        };
        Done {
            position: self.position,
            solver: self.solver,
            answer,
        }
    }
}
