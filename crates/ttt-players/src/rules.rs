//! The classic rule-following opponent: win, block, corner, centre, side.

use std::fmt;

use rand::Rng;
use ttt_core::{Position, Square};

use crate::{Player, PlayerError, pick};

/// Follows fixed rules in order, as the classic tutorial's computer does:
/// 1. take a square that wins at once;
/// 2. else block a square where the opponent would win at once;
/// 3. else a random free corner;
/// 4. else the centre;
/// 5. else a random free side (any other square on bigger boards).
#[derive(Debug, Clone, Copy, Default)]
pub struct RulesPlayer;

/// Which of the rules chose the move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuleStep {
    /// Completes a line.
    Win,
    /// Stops the opponent completing a line.
    Block,
    /// A corner.
    Corner,
    /// The centre.
    Centre,
    /// Anything else: the sides on 3x3.
    Side,
}

impl fmt::Display for RuleStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RuleStep::Win => "win",
            RuleStep::Block => "block",
            RuleStep::Corner => "corner",
            RuleStep::Centre => "centre",
            RuleStep::Side => "side",
        })
    }
}

impl RulesPlayer {
    /// The first rule that applies in `position` and the squares it allows, among which the
    /// player chooses at random. `None` when the game is over.
    ///
    /// ```
    /// use ttt_players::{RuleStep, RulesPlayer};
    ///
    /// // Three X and two O: O to move, and O completes the top row before blocking X.
    /// let position = "oo./xx./x..".parse()?;
    /// let (step, squares) = RulesPlayer::candidates(&position).unwrap();
    /// assert_eq!(step, RuleStep::Win);
    /// assert_eq!(squares.iter().map(|s| s.index()).collect::<Vec<_>>(), vec![2]);
    /// # Ok::<(), ttt_core::PositionError>(())
    /// ```
    #[must_use]
    pub fn candidates(position: &Position) -> Option<(RuleStep, Vec<Square>)> {
        let free = position.legal_moves();
        if free.is_empty() {
            return None;
        }
        let mover = position.to_move();
        let completes = |mark| -> Vec<Square> {
            free.iter()
                .copied()
                .filter(|&square| {
                    let mut board = *position.board();
                    board.set(square, Some(mark));
                    !board.lines_through(square).is_empty()
                })
                .collect()
        };
        let rules = position.rules();
        let steps: [(RuleStep, Vec<Square>); 4] = [
            (RuleStep::Win, completes(mover)),
            (RuleStep::Block, completes(!mover)),
            (
                RuleStep::Corner,
                rules
                    .corners()
                    .into_iter()
                    .filter(|s| free.contains(s))
                    .collect(),
            ),
            (
                RuleStep::Centre,
                rules
                    .centre()
                    .into_iter()
                    .filter(|s| free.contains(s))
                    .collect(),
            ),
        ];
        let chosen = steps.into_iter().find(|(_, squares)| !squares.is_empty());
        Some(chosen.unwrap_or((RuleStep::Side, free)))
    }
}

impl Player for RulesPlayer {
    fn choose(&mut self, position: &Position, rng: &mut dyn Rng) -> Result<Square, PlayerError> {
        let (_, squares) = RulesPlayer::candidates(position).ok_or(PlayerError::NoMove)?;
        pick(&squares, rng)
    }
}
