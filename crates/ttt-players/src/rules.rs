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
/// 5. else a random free side.
///
/// On boards other than 3x3, steps 3 to 5 become one: the free squares with the most marks
/// around them, and among those the nearest the centre.
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
    /// On bigger boards: near existing marks and the centre.
    Nearby,
}

impl fmt::Display for RuleStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RuleStep::Win => "win",
            RuleStep::Block => "block",
            RuleStep::Corner => "corner",
            RuleStep::Centre => "centre",
            RuleStep::Side => "side",
            RuleStep::Nearby => "nearby",
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
        if !rules.is_tic_tac_toe() {
            let forced = [
                (RuleStep::Win, completes(mover)),
                (RuleStep::Block, completes(!mover)),
            ];
            let chosen = forced.into_iter().find(|(_, squares)| !squares.is_empty());
            return Some(chosen.unwrap_or_else(|| (RuleStep::Nearby, nearby(position, &free))));
        }
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

/// The free squares with the most marks in the eight squares around them, and among those
/// the nearest the middle of the board.
fn nearby(position: &Position, free: &[Square]) -> Vec<Square> {
    let rules = position.rules();
    let (middle_x, middle_y) = (rules.width() as isize - 1, rules.height() as isize - 1);
    let score = |square: Square| {
        let (column, row) = (rules.column(square) as isize, rules.row(square) as isize);
        let neighbours = rules
            .around(square, 1)
            .filter(|&near| position.board().get(near).is_some())
            .count() as isize;
        // Twice the distance, so that even sides have a middle between squares.
        let distance = (2 * column - middle_x)
            .abs()
            .max((2 * row - middle_y).abs());
        (neighbours, -distance)
    };
    let best = free.iter().map(|&square| score(square)).max();
    free.iter()
        .copied()
        .filter(|&square| Some(score(square)) == best)
        .collect()
}

impl Player for RulesPlayer {
    fn choose(&mut self, position: &Position, rng: &mut dyn Rng) -> Result<Square, PlayerError> {
        let (_, squares) = RulesPlayer::candidates(position).ok_or(PlayerError::NoMove)?;
        pick(&squares, rng)
    }
}

#[cfg(test)]
mod tests {
    use ttt_core::{Mark, Rules};

    use super::*;

    #[test]
    fn on_bigger_boards_it_wins_blocks_then_stays_near_the_marks_and_the_centre() {
        let rules = Rules::new(7, 7, 4).unwrap();
        let empty = Position::new(rules, Mark::X);
        assert_eq!(
            RulesPlayer::candidates(&empty),
            Some((RuleStep::Nearby, vec![Square::new(24)]))
        );
        // X on d4 (the centre), O on a1: the eight squares around d4.
        let position = Position::parse(
            "o....../......./......./...x.../......./......./.......",
            rules,
            Mark::X,
        )
        .unwrap();
        let (step, squares) = RulesPlayer::candidates(&position).unwrap();
        assert_eq!(step, RuleStep::Nearby);
        assert_eq!(squares.len(), 8, "the eight squares around d4: {squares:?}");
        // X three in a row with both ends open: O must block.
        let position = Position::parse(
            "o....../o....../......./.xxx.../......./......./.......",
            rules,
            Mark::X,
        )
        .unwrap();
        let (step, squares) = RulesPlayer::candidates(&position).unwrap();
        assert_eq!(step, RuleStep::Block);
        assert_eq!(squares, vec![Square::new(21), Square::new(25)]);
    }
}
