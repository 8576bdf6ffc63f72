//! `ttt analyze`: a position's value under perfect play, and every move's.

use std::io::Write;

use clap::Args;
use serde::Serialize;
use ttt_core::{Position, SquareNaming};
use ttt_solver::{MoveValue, Solver, SolverError, Value};

use super::{PositionArgs, ending, mark_name, status};
use crate::failure::BadInput;
use crate::line::{BoardStyle, Palette, draw};

/// Arguments of `ttt analyze`.
#[derive(Debug, Clone, Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub position: PositionArgs,

    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A position with its value and every legal move's, for the side to move.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The position analysed.
    pub position: Position,
    /// Its value under perfect play; `None` once the game is over.
    pub value: Option<Value>,
    /// Every legal move with its value, best first.
    pub moves: Vec<MoveValue>,
}

impl Analysis {
    /// Values `position` and all its moves.
    pub fn of(solver: &mut Solver, position: &Position) -> Result<Analysis, SolverError> {
        let moves = solver.move_values(position)?;
        // A position is worth what its best move is worth (nothing, once the game is over).
        Ok(Analysis {
            position: position.clone(),
            value: moves.first().map(|best| best.value),
            moves,
        })
    }

    /// The JSON form.
    pub fn json(&self) -> AnalysisJson {
        let over = self.position.is_over();
        let rules = self.position.rules();
        let naming = SquareNaming::Numbers.on_board(rules);
        AnalysisJson {
            position: self.position.board().to_string(),
            to_move: (!over).then(|| mark_name(self.position.to_move())),
            status: status(&self.position),
            result: self.value.map(|value| value.result.as_str()),
            plies: self.value.map(|value| value.plies),
            moves: self
                .moves
                .iter()
                .map(|rated| MoveJson {
                    square: rated.square.index() + 1,
                    name: naming.label(rated.square, rules),
                    result: rated.value.result.as_str(),
                    plies: rated.value.plies,
                })
                .collect(),
        }
    }

    /// The text form, a line at a time.
    pub fn text(&self, palette: Palette) -> Vec<String> {
        let position = &self.position;
        let rules = position.rules();
        let naming = SquareNaming::Numbers.on_board(rules);
        let mut lines: Vec<String> = draw(position, BoardStyle::for_board(rules), naming, palette)
            .into_iter()
            .map(|line| line.trim_end().to_owned())
            .collect();
        lines.push(String::new());
        lines.push(format!("Position: {}", position.board()));
        if let Some(outcome) = position.outcome() {
            lines.push(format!("Status:   game over, {}", ending(outcome)));
            return lines;
        }
        let mover = position.to_move();
        lines.push(format!("To move:  {mover}"));
        lines.push("Status:   playing".to_owned());
        if let Some(value) = self.value {
            lines.push(format!(
                "Value:    {value} for {mover}, with perfect play from both sides"
            ));
        }
        lines.push("Moves, best first:".to_owned());
        for rated in &self.moves {
            lines.push(format!(
                "  {}  {}",
                naming.label(rated.square, rules),
                rated.value
            ));
        }
        lines
    }
}

/// What `analyze --json` prints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AnalysisJson {
    /// The position's notation.
    pub position: String,
    /// `"x"` or `"o"`, or `None` once the game is over.
    pub to_move: Option<&'static str>,
    /// `playing`, `x_won`, `o_won` or `draw`.
    pub status: &'static str,
    /// The side to move's result under perfect play; `None` once the game is over.
    pub result: Option<&'static str>,
    /// Plies until the game ends under perfect play; `None` once it is over.
    pub plies: Option<u32>,
    /// Every legal move, best first.
    pub moves: Vec<MoveJson>,
}

/// One legal move and its value for the mover, as JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveJson {
    /// The square, numbered from 1 row by row.
    pub square: usize,
    /// The square's name as the text output gives it: its number on 3x3, letter and
    /// row on bigger boards (`h8`).
    pub name: String,
    /// `win`, `draw` or `loss` for the mover.
    pub result: &'static str,
    /// Plies until the game ends under perfect play, this move included.
    pub plies: u32,
}

/// Runs `ttt analyze`.
pub fn run(args: &AnalyzeArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let position = args.position.position()?;
    let analysis = Analysis::of(&mut Solver::new(), &position).map_err(|error| {
        BadInput(format!(
            "{error}; ttt solve proves win, draw or loss on boards up to 64 squares"
        ))
    })?;
    if args.json {
        serde_json::to_writer(&mut *out, &analysis.json())?;
        writeln!(out)?;
    } else {
        for line in analysis.text(Palette::detect()) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use ttt_reference::{Minimax, Score, reachable};

    use super::*;

    fn words((score, plies): (Score, u32)) -> (&'static str, u32) {
        let word = match score {
            Score::Win => "win",
            Score::Draw => "draw",
            Score::Loss => "loss",
        };
        (word, plies)
    }

    #[test]
    fn analyze_agrees_with_minimax_on_every_reachable_position() {
        let mut solver = Solver::new();
        let mut minimax = Minimax::new();
        let positions = reachable(&Position::default());
        assert_eq!(positions.len(), 5_478);
        for position in positions {
            let json = Analysis::of(&mut solver, &position).unwrap().json();
            if position.is_over() {
                assert_eq!((json.to_move, json.result, json.plies), (None, None, None));
                assert!(json.moves.is_empty());
                continue;
            }
            let (result, plies) = words(minimax.value(&position));
            assert_eq!(
                (json.result, json.plies),
                (Some(result), Some(plies)),
                "{position}"
            );
            for rated in &json.moves {
                let square = ttt_core::Square::new(rated.square - 1);
                assert_eq!(
                    (rated.result, rated.plies),
                    words(minimax.move_value(&position, square)),
                    "{position}"
                );
            }
            assert_eq!(json.moves.len(), position.legal_moves().len());
            assert_eq!(
                (json.moves[0].result, json.moves[0].plies),
                (result, plies),
                "best first"
            );
        }
    }
}
