//! Opening in the centre, as the computer in one of the classic tutorials always does.

use rand::Rng;
use ttt_core::{Position, Square};

use crate::{Player, PlayerError, Thought, pick};

/// Wraps a player so that, on the empty board, it takes the centre (one of the central
/// squares where a side is even); afterwards the wrapped player decides.
#[derive(Debug)]
pub struct CentreOpening<P> {
    player: P,
    /// Whether the last move was its own centre, not the wrapped player's.
    opened: bool,
}

impl<P> CentreOpening<P> {
    /// `player`, opening in the centre.
    pub fn new(player: P) -> CentreOpening<P> {
        CentreOpening {
            player,
            opened: false,
        }
    }
}

impl<P: Player> Player for CentreOpening<P> {
    fn choose(&mut self, position: &Position, rng: &mut dyn Rng) -> Result<Square, PlayerError> {
        self.opened = position.ply() == 0 && !position.is_over();
        if self.opened {
            return pick(&position.rules().centre(), rng);
        }
        self.player.choose(position, rng)
    }

    fn thought(&self) -> Option<Thought> {
        if self.opened {
            return None;
        }
        self.player.thought()
    }
}
