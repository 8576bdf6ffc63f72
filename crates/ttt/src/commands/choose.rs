//! `ttt move`: the square a computer player would choose, and nothing else.

use std::io::Write;

use clap::Args;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::time::{Duration, Instant};
use ttt_core::{Position, Square, SquareNaming};

use serde::{Deserialize, Serialize};
use ttt_players::{Judgement, Limits, Player, PlayerError, Strength, Thought};

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

    /// Print the move as JSON, with what the player thought: for search, its depth, nodes,
    /// nodes a second, time and score (or win or loss in N plies).
    #[arg(long)]
    pub json: bool,
}

/// What `ttt move --json` prints.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
pub struct MoveJson {
    /// The square, named as the other commands name squares.
    #[serde(rename = "move")]
    pub square: String,
    /// The player that chose it.
    pub player: String,
    /// How long it took, in milliseconds.
    pub time_ms: u64,
    /// How deep the search's last finished iteration went.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Positions the search visited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Moves its threat searches tried.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threat_nodes: Option<u64>,
    /// Nodes of both kinds a second.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nps: Option<u64>,
    /// What it made of the position for the side to move, in words: `+35`, `win in 7`,
    /// `loss`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judgement: Option<String>,
    /// The score, when the judgement is one (above 0 is better for the side to move).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i64>,
    /// The plies of a forced win found, when counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_in: Option<u32>,
    /// The plies of a forced loss found, when counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss_in: Option<u32>,
}

impl MoveJson {
    /// The move `square`, named `name`, chosen by `player` in `time`, with what `thought`
    /// says if the player was a search.
    fn new(name: String, player: Strength, time: Duration, thought: Option<Thought>) -> MoveJson {
        let judgement = thought.and_then(|thought| thought.judgement);
        MoveJson {
            square: name,
            player: player.to_string(),
            time_ms: u64::try_from(time.as_millis()).unwrap_or(u64::MAX),
            depth: thought.map(|thought| thought.depth),
            nodes: thought.map(|thought| thought.nodes),
            threat_nodes: thought.map(|thought| thought.threat_nodes),
            nps: thought.map(|thought| thought.per_second()),
            judgement: judgement.map(|judgement| judgement.to_string()),
            score: match judgement {
                Some(Judgement::Score(score)) => Some(score),
                _ => None,
            },
            win_in: match judgement {
                Some(Judgement::Win(plies)) => plies,
                _ => None,
            },
            loss_in: match judgement {
                Some(Judgement::Loss(plies)) => plies,
                _ => None,
            },
        }
    }
}

/// The square `strength` chooses in `position`, and what it thought when it is a search.
pub fn choose(
    position: &Position,
    strength: Strength,
    seed: Option<u64>,
    limits: Limits,
) -> Result<(Square, Option<Thought>), PlayerError> {
    let mut rng = match seed {
        Some(seed) => StdRng::seed_from_u64(seed),
        None => rand::make_rng(),
    };
    let mut player = strength.player(limits);
    let square = player.choose(position, &mut rng)?;
    Ok((square, player.thought()))
}

/// Runs `ttt move`.
pub fn run(args: &MoveArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let position = args.position.position()?;
    let rules = position.rules();
    let limits = args.limits.limits()?;
    let started = Instant::now();
    let (square, thought) =
        choose(&position, args.player, args.seed, limits).map_err(|error| match error {
            PlayerError::NoMove => BadInput(format!(
                "the game in '{}' is over: there is no move to choose",
                position.board()
            )),
            PlayerError::Solver(error) => BadInput(error.to_string()),
            PlayerError::Engine(reason) => BadInput(reason),
        })?;
    // Named as every other output names squares: a number on 3x3, letter and row beyond.
    let name = SquareNaming::Numbers.on_board(rules).label(square, rules);
    if args.json {
        let json = MoveJson::new(name, args.player, started.elapsed(), thought);
        serde_json::to_writer(&mut *out, &json)?;
        writeln!(out)?;
    } else {
        writeln!(out, "{name}")?;
    }
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
                let chosen = choose(&position, Strength::Perfect, Some(seed), Limits::default())
                    .unwrap()
                    .0;
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

    #[test]
    fn a_search_says_what_it_thought_in_json() {
        let rules = ttt_core::Rules::new(15, 15, 5).unwrap();
        let limits = Limits {
            think: Duration::from_millis(200),
            ..Limits::default()
        };
        let json = |moves: &str| {
            let mut position = Position::new(rules, ttt_core::Mark::X);
            for name in moves.split(',') {
                let naming = SquareNaming::Numbers.on_board(rules);
                position = position.after(naming.parse(name, rules).unwrap()).unwrap();
            }
            let (square, thought) = choose(&position, Strength::Search, Some(1), limits).unwrap();
            let name = SquareNaming::Numbers.on_board(rules).label(square, rules);
            let json = MoveJson::new(name, Strength::Search, thought.unwrap().time, thought);
            let text = serde_json::to_string(&json).unwrap();
            let back: MoveJson = serde_json::from_str(&text).unwrap();
            assert_eq!(back, json);
            json
        };
        // X has four in a row, open: it wins at once, and says so.
        let won = json("h8,a1,i8,a2,j8,a3,k8,o15");
        assert_eq!(won.judgement.as_deref(), Some("win in 1"));
        assert_eq!((won.win_in, won.depth, won.score), (Some(1), Some(0), None));
        assert!(won.square == "g8" || won.square == "l8", "{won:?}");
        // A quiet opening: searched some plies deep, and scored.
        let quiet = json("h8,h9");
        assert!(
            quiet.depth.unwrap() >= 1 && quiet.nodes.unwrap() > 0,
            "{quiet:?}"
        );
        assert!(quiet.score.is_some() && quiet.nps.is_some(), "{quiet:?}");
        assert_eq!(quiet.player, "search");
    }
}
