//! `ttt move`: the square a computer player would choose, and nothing else.

use std::io::Write;

use clap::Args;
use rand::SeedableRng;
use rand::rngs::StdRng;
use ttt_core::{Position, Square, SquareNaming};
use ttt_players::{Limits, PlayerError, Strength};

use super::PositionArgs;
use crate::cli::LimitArgs;
use crate::failure::BadInput;

/// Arguments of `ttt move`.
#[derive(Debug, Clone, Args)]
pub struct MoveArgs {
    #[command(flatten)]
    pub position: PositionArgs,

    /// The computer player: random (easy), rules (medium), search (hard), mcts or perfect (impossible).
    #[arg(long, value_name = "PLAYER", default_value = "perfect")]
    pub player: Strength,

    /// Seed for the player's random choices, to repeat an answer.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// What a thinking computer may spend on the move.
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// The square `strength` chooses in `position`.
pub fn choose(
    position: &Position,
    strength: Strength,
    seed: Option<u64>,
    limits: Limits,
) -> Result<Square, PlayerError> {
    let mut rng = match seed {
        Some(seed) => StdRng::seed_from_u64(seed),
        None => rand::make_rng(),
    };
    strength.player(limits).choose(position, &mut rng)
}

/// Runs `ttt move`.
pub fn run(args: &MoveArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let position = args.position.position()?;
    let rules = position.rules();
    let limits = args.limits.limits()?;
    let square =
        choose(&position, args.player, args.seed, limits).map_err(|error| match error {
            PlayerError::NoMove => BadInput(format!(
                "the game in '{}' is over: there is no move to choose",
                position.board()
            )),
            PlayerError::Solver(error) => BadInput(error.to_string()),
            PlayerError::Engine(reason) => BadInput(reason),
        })?;
    // Named as every other output names squares: a number on 3x3, letter and row beyond.
    writeln!(
        out,
        "{}",
        SquareNaming::Numbers.on_board(rules).label(square, rules)
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use ttt_solver::Solver;

    use super::*;
    use crate::commands::analyze::Analysis;

    #[test]
    fn perfect_always_picks_a_move_analyze_rates_best() {
        let mut solver = Solver::new();
        let mut seen = HashSet::new();
        let mut stack = vec![Position::default()];
        let mut checked = 0;
        while let Some(position) = stack.pop() {
            if !seen.insert(position.clone()) || position.is_over() {
                continue;
            }
            let analysis = Analysis::of(&mut solver, &position).unwrap();
            let best = analysis.moves[0].value;
            for seed in 0..3 {
                let chosen =
                    choose(&position, Strength::Perfect, Some(seed), Limits::default()).unwrap();
                let rated = analysis.moves.iter().find(|m| m.square == chosen).unwrap();
                assert_eq!(rated.value, best, "{position}: {chosen:?}");
            }
            checked += 1;
            for square in position.legal_moves() {
                stack.push(position.after(square).unwrap());
            }
        }
        assert_eq!(checked, 4_520);
    }
}
