//! What a finished game teaches: the moves that changed its value under perfect play
//! where the exact solver reaches the board ([`review`]), else what the threat search says
//! of each move ([`threat_review`]); data first, and in words through [`crate::words`].

use ttt_core::{Mark, Position, Square};
use ttt_solver::{Mistake, Solver, SolverError};

use crate::words;

/// Nodes the threat search may take for each position of a game too big for the exact
/// solver, when it is reviewed.
const THREAT_BUDGET: u64 = 20_000;

/// A move of a game, as the threat search reviews it: it let a forced win by threats go,
/// or it left the other side, now to move, one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThreatNote {
    /// Which move it was, from 1.
    pub number: usize,
    /// Who played it.
    pub mover: Mark,
    /// Where.
    pub square: Square,
    /// Whether the mover had a forced win by threats before it and none after it (else:
    /// the other side has one after it).
    pub let_go: bool,
}

/// The moves of a finished (or any) game that the threat search has something to say
/// about, for a board too big for the exact solver: a quick search (20,000 nodes) of every
/// position for a forced win by threats for the side to move. What it does not find in
/// that budget it does not say.
pub fn threat_review(game: &Position) -> Vec<ThreatNote> {
    let mut position = Position::new(game.rules(), game.first());
    let mut positions = vec![position.clone()];
    for &square in game.history() {
        if position.play(square).is_err() {
            break;
        }
        positions.push(position.clone());
    }
    let wins: Vec<bool> = positions
        .iter()
        .map(|position| {
            !position.is_over()
                && ttt_players::wins_by_threats(position, position.to_move(), THREAT_BUDGET)
        })
        .collect();
    let mut notes = Vec::new();
    for (index, pair) in positions.windows(2).enumerate() {
        let (before, after) = (&pair[0], &pair[1]);
        let mover = before.to_move();
        let let_go = wins[index]
            && !after.is_over()
            && !ttt_players::wins_by_threats(after, mover, THREAT_BUDGET);
        if let_go || wins[index + 1] {
            notes.push(ThreatNote {
                number: index + 1,
                mover,
                square: game.history()[index],
                let_go,
            });
        }
    }
    notes
}

/// A finished game's review in words: the moves that changed its value under perfect
/// play where the exact solver reaches the board, else what the threat search says of it.
pub fn review_lines(
    solver: &mut Solver,
    game: &Position,
    label: impl Fn(Square) -> String,
) -> Vec<String> {
    match review(solver, game) {
        Ok(mistakes) => words::review(&mistakes, label),
        Err(SolverError::TooLarge { .. }) => words::threat_review(&threat_review(game), label),
    }
}

/// The moves of a game that changed its value under perfect play, from the game itself:
/// where it started (its board and first mover) and its moves.
///
/// # Errors
/// The solver's, on boards it cannot solve.
pub fn review(solver: &mut Solver, game: &Position) -> Result<Vec<Mistake>, SolverError> {
    let start = Position::new(game.rules(), game.first());
    ttt_solver::review(solver, &start, game.history())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use super::*;

    #[test]
    fn a_review_comes_from_the_game_itself() {
        // O opens in the centre, X answers on a side (a loss), O wins.
        let moves = [4, 1, 0, 8, 6, 2, 3].map(Square::new);
        let game = Position::from_moves(ttt_core::Rules::default(), Mark::O, &moves).unwrap();
        assert!(game.is_over());
        let mistakes = review(&mut Solver::new(), &game).unwrap();
        assert_eq!(mistakes[0].number, 2);
        assert_eq!(mistakes[0].mark, Mark::X);
    }
}
