//! The easiest opponent: any free square.

use rand::Rng;
use ttt_core::{Position, Square};

use crate::{Player, PlayerError, pick};

/// Plays any free square, each as likely as the others.
#[derive(Debug, Clone, Copy, Default)]
pub struct Random;

impl Player for Random {
    fn choose(&mut self, position: &Position, rng: &mut dyn Rng) -> Result<Square, PlayerError> {
        pick(&position.legal_moves(), rng)
    }
}
