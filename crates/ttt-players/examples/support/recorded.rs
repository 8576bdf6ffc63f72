//! Recorded games, as the `gauntlet` example of the `ttt` crate writes them: one game a
//! line, its moves as square indices from 0 (row by row), separated by spaces. Read by
//! the examples that measure `search` on real games (`speed`, `claims`, `tune`, `order`).

#![allow(dead_code, reason = "each example that includes it uses a part of it")]

use ttt_core::{Mark, Position, Rules, Square};

/// The file the examples read by default: 32 games of `search` against the Gomocup
/// champion.
pub const MIDGAME: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/data/midgame.txt");

/// The games of the file at `path` on a board of `rules`, X first: for each, its
/// positions from the empty board on, one after each move. A line that is not a game
/// (a word that is not a square index, a square off the board or taken) is refused with
/// its place in the file. A line may begin with a side and a colon (`x:` or `o:`, as a
/// mark is written anywhere: `X:` and `O:` too), naming one side (see [`read_sided`]);
/// here it is passed over.
pub fn read(path: &str, rules: Rules) -> Result<Vec<Vec<Position>>, String> {
    Ok(read_sided(path, rules)?
        .into_iter()
        .map(|(_, positions)| positions)
        .collect())
}

/// Whether the game numbered `game` (from 0, over all the files read) is held out of a
/// fit, to tell whether the fit carries over: every fifth.
pub fn held_out(game: usize) -> bool {
    game % 5 == 4
}

/// A recorded game: the side its line names, if any, and its positions.
pub type SidedGame = (Option<Mark>, Vec<Position>);

/// [`read`], with the side each line names by `x:` or `o:` before its moves (as the
/// `order` example learns from one engine's moves in games against another), if any.
pub fn read_sided(path: &str, rules: Rules) -> Result<Vec<SidedGame>, String> {
    let text = std::fs::read_to_string(path).map_err(|why| format!("cannot read {path}: {why}"))?;
    let mut games = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let at = |why: String| format!("{path}:{}: {why}", number + 1);
        if line.trim().is_empty() {
            continue;
        }
        let (side, line) = match line.trim_start().split_once(':') {
            Some((side, moves)) => (
                Some(side.parse::<Mark>().map_err(|why| at(why.to_string()))?),
                moves,
            ),
            None => (None, line),
        };
        let mut positions = vec![Position::new(rules, Mark::X)];
        for word in line.split_whitespace() {
            let index: usize = word
                .parse()
                .map_err(|_| at(format!("{word:?} is no square index")))?;
            if index >= rules.square_count() {
                return Err(at(format!("square {index} is off the {rules} board")));
            }
            let last = positions
                .last()
                .ok_or_else(|| at("no position".to_owned()))?;
            let next = last
                .after(Square::new(index))
                .map_err(|why| at(why.to_string()))?;
            positions.push(next);
        }
        games.push((side, positions));
    }
    Ok(games)
}
