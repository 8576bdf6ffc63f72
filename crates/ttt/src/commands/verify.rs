//! `ttt verify FILE`: checks a proof that `ttt solve --proof` wrote, with code that knows
//! only the rules (`ttt-core`): nothing of the solver, its geometry or its pairings is used.
//!
//! The file holds one or two claims (`claim X wins`, `claim X cannot win`), each followed
//! by its positions, one a line: `ID | POSITION | STEP`, the claim's root as `0` (see
//! `ttt_solver::write_proof` for the steps). Each step is checked where it stands:
//! - `all`: the side the claim must answer is to move, and the children are exactly the
//!   positions after each of its legal moves, in order;
//! - `move SQUARE ID`: the side the claim favours is to move, the move is legal, and the
//!   child is the position after it;
//! - `pairing`: (only for `cannot win`) the pairs are free squares, none twice, and every
//!   line still open to the side that cannot win (no mark of the other side in it, and
//!   under exactly k none of its own just beyond the ends) holds both squares of a pair;
//! - `won` / `over`: the game has ended with the claimed winner's line / without a line
//!   of the side that cannot win.
//!
//! Every position reached from the root is checked; positions only ever gain marks, so
//! the walk ends.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use ttt_core::{Mark, Position, Square, SquareNaming, WinRule, windows};

use crate::failure::BadInput;

/// Arguments of `ttt verify`.
#[derive(Debug, Clone, Args)]
pub struct VerifyArgs {
    /// The proof file `ttt solve --proof` wrote.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// A claim as the file states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Claim {
    Wins(Mark),
    CannotWin(Mark),
}

impl std::fmt::Display for Claim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Claim::Wins(mark) => write!(f, "{mark} wins"),
            Claim::CannotWin(mark) => write!(f, "{mark} cannot win"),
        }
    }
}

/// One line of a claim's proof.
struct Node {
    position: Position,
    step: String,
    line: usize,
}

/// A claim checked: what it says, from where, over how many positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    claim: String,
    root: Position,
    positions: usize,
}

/// Checks every claim in `text`.
///
/// # Errors
/// The first thing wrong, with its line: a malformed line, a missing position, or a step
/// that does not hold.
pub fn check(text: &str) -> Result<Vec<Checked>, String> {
    let mut sections: Vec<(Claim, HashMap<usize, Node>)> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(claim) = line.strip_prefix("claim ") {
            sections.push((
                parse_claim(claim).ok_or(format!("line {number}: '{claim}' is not a claim"))?,
                HashMap::new(),
            ));
            continue;
        }
        let (_, nodes) = sections
            .last_mut()
            .ok_or(format!("line {number}: a position before any claim"))?;
        let mut parts = line.splitn(3, " | ");
        let (Some(id), Some(position), Some(step)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(format!("line {number}: not 'ID | POSITION | STEP'"));
        };
        let id: usize = id
            .trim()
            .parse()
            .map_err(|_| format!("line {number}: '{id}' is not an id"))?;
        let position: Position = position
            .parse()
            .map_err(|error| format!("line {number}: bad position: {error}"))?;
        let node = Node {
            position,
            step: step.trim().to_owned(),
            line: number,
        };
        if nodes.insert(id, node).is_some() {
            return Err(format!("line {number}: position {id} is given twice"));
        }
    }
    if sections.is_empty() {
        return Err("no claim: not a proof".to_owned());
    }
    sections
        .iter()
        .map(|(claim, nodes)| {
            let root = nodes.get(&0).ok_or(format!("{claim}: no position 0"))?;
            let mut checked = HashMap::new();
            check_node(*claim, nodes, 0, &root.position, &mut checked)?;
            Ok(Checked {
                claim: claim.to_string(),
                root: root.position.clone(),
                positions: checked.len(),
            })
        })
        .collect()
}

fn parse_claim(text: &str) -> Option<Claim> {
    let (mark, rest) = text.trim().split_once(' ')?;
    let mark: Mark = mark.parse().ok()?;
    match rest.trim() {
        "wins" => Some(Claim::Wins(mark)),
        "cannot win" => Some(Claim::CannotWin(mark)),
        _ => None,
    }
}

/// Checks position `id`, which the line above it says is `expected`.
fn check_node(
    claim: Claim,
    nodes: &HashMap<usize, Node>,
    id: usize,
    expected: &Position,
    checked: &mut HashMap<usize, ()>,
) -> Result<(), String> {
    let node = nodes
        .get(&id)
        .ok_or(format!("{claim}: position {id} is missing"))?;
    let at = |why: String| format!("{claim}: line {} (position {id}): {why}", node.line);
    if node.position != *expected {
        return Err(at(format!(
            "it is not the position its parent leads to ({expected})"
        )));
    }
    if checked.insert(id, ()).is_some() {
        return Ok(());
    }
    let position = &node.position;
    let (attacker, wins) = match claim {
        Claim::Wins(mark) => (mark, true),
        Claim::CannotWin(mark) => (mark, false),
    };
    let winner = position.outcome().and_then(|outcome| outcome.winner());
    let mut words = node.step.split_whitespace();
    let kind = words.next().unwrap_or_default();
    let rules = position.rules();
    match kind {
        "won" | "over" => {
            if !position.is_over() {
                return Err(at("the game is not over".to_owned()));
            }
            match (kind, wins, winner == Some(attacker)) {
                ("won", true, true) | ("over", false, false) => Ok(()),
                _ => Err(at(format!(
                    "the game ended in '{}'",
                    position
                        .outcome()
                        .map_or("nothing".to_owned(), |o| o.to_string())
                ))),
            }
        }
        "pairing" if !wins => {
            let mut used: Vec<Square> = Vec::new();
            let mut pairs = Vec::new();
            for pair in words {
                let (a, b) = pair
                    .split_once('-')
                    .ok_or(at(format!("'{pair}' is not a pair")))?;
                let read = |name: &str| {
                    SquareNaming::Letters
                        .parse(name, rules)
                        .map_err(|_| at(format!("'{name}' is not a square")))
                };
                let (a, b) = (read(a)?, read(b)?);
                for square in [a, b] {
                    if position.board().get(square).is_some() || used.contains(&square) {
                        return Err(at(format!(
                            "square {} is taken or in two pairs",
                            SquareNaming::Letters.label(square, rules)
                        )));
                    }
                    used.push(square);
                }
                pairs.push((a, b));
            }
            let defender = !attacker;
            // Under exactly k a mark of the attacker's just beyond a line's end spoils it;
            // under freestyle a longer line wins too, so nothing beyond counts.
            let exact = rules.win_rule() == WinRule::Exact;
            for line in windows(rules) {
                let open = line
                    .squares()
                    .iter()
                    .all(|&s| position.board().get(s) != Some(defender))
                    && (!exact
                        || line
                            .ends_beyond(rules)
                            .iter()
                            .all(|&s| position.board().get(s) != Some(attacker)));
                let paired = pairs
                    .iter()
                    .any(|(a, b)| line.squares().contains(a) && line.squares().contains(b));
                if open && !paired {
                    let names: Vec<String> = line
                        .squares()
                        .iter()
                        .map(|&s| SquareNaming::Letters.label(s, rules))
                        .collect();
                    return Err(at(format!(
                        "the line {} is open to {attacker} and holds no pair",
                        names.join(" ")
                    )));
                }
            }
            Ok(())
        }
        "move" => {
            let chooser = if wins { attacker } else { !attacker };
            if position.is_over() || position.to_move() != chooser {
                return Err(at(format!("a move for {chooser}, who is not to move")));
            }
            let (Some(square), Some(child)) = (words.next(), words.next()) else {
                return Err(at("'move' needs a square and a position".to_owned()));
            };
            let square = SquareNaming::Letters
                .parse(square, rules)
                .map_err(|_| at(format!("'{square}' is not a square")))?;
            let after = position
                .after(square)
                .map_err(|error| at(format!("the move cannot be played: {error}")))?;
            let child: usize = child
                .parse()
                .map_err(|_| at(format!("'{child}' is not an id")))?;
            check_node(claim, nodes, child, &after, checked)
        }
        "all" => {
            let answerer = if wins { !attacker } else { attacker };
            if position.is_over() || position.to_move() != answerer {
                return Err(at(format!("every move of {answerer}, who is not to move")));
            }
            let children: Vec<&str> = words.collect();
            let moves = position.legal_moves();
            if children.len() != moves.len() {
                return Err(at(format!(
                    "{} moves answered of {}",
                    children.len(),
                    moves.len()
                )));
            }
            for (square, child) in moves.into_iter().zip(children) {
                let child: usize = child
                    .parse()
                    .map_err(|_| at(format!("'{child}' is not an id")))?;
                let after = position
                    .after(square)
                    .map_err(|error| at(error.to_string()))?;
                check_node(claim, nodes, child, &after, checked)?;
            }
            Ok(())
        }
        other => Err(at(format!("'{other}' is not a step of a '{claim}' proof"))),
    }
}

/// `ttt verify FILE`.
///
/// # Errors
/// [`BadInput`] when the file cannot be read; a proof that does not hold prints why and
/// exits 1.
pub fn run(args: &VerifyArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let text = ttt::files::read_text_bounded(&args.file, ttt::files::MAX_PROOF_BYTES)
        .map_err(|error| BadInput(format!("cannot read {}: {error}", args.file.display())))?;
    match check(&text) {
        Ok(claims) => {
            for checked in &claims {
                writeln!(
                    out,
                    "Checked: {} from {} ({}), over {} positions.",
                    checked.claim,
                    checked.root,
                    checked.root.rules(),
                    checked.positions
                )?;
            }
            let said: Vec<&str> = claims
                .iter()
                .map(|checked| checked.claim.as_str())
                .collect();
            let same_root = claims.windows(2).all(|pair| pair[0].root == pair[1].root);
            if same_root && said.contains(&"X cannot win") && said.contains(&"O cannot win") {
                writeln!(out, "The position is a draw.")?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(why) => {
            writeln!(out, "The proof does not hold: {why}")?;
            Ok(ExitCode::FAILURE)
        }
    }
}
