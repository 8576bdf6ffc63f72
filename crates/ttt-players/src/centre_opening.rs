//! Opening in the centre, as the computer in one of the classic tutorials always does.

use rand::Rng;
use ttt_core::{Position, Square};

use crate::{Player, PlayerError, pick};

/// Wraps a player so that, on the empty board, it takes the centre (one of the central
/// squares where a side is even); afterwards the wrapped player decides.
#[derive(Debug)]
pub struct CentreOpening<P>(pub P);

impl<P: Player> Player for CentreOpening<P> {
    fn choose(&mut self, position: &Position, rng: &mut dyn Rng) -> Result<Square, PlayerError> {
        if position.ply() == 0 && !position.is_over() {
            return pick(&position.rules().centre(), rng);
        }
        self.0.choose(position, rng)
    }
}
