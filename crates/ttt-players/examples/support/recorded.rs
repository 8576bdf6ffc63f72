//! Recorded games, as the `gauntlet` example of the `ttt` crate writes them: one game a
//! line, its moves as square indices from 0 (row by row), separated by spaces. Read by
//! the examples that measure `search` on real games (`speed`, `claims`, `tune`).

use ttt_core::{Mark, Position, Rules, Square};

/// The file the examples read by default: 32 games of `search` against the Gomocup
/// champion.
pub const MIDGAME: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/data/midgame.txt");

/// The games of the file at `path` on a board of `rules`, X first: for each, its
/// positions from the empty board on, one after each move. A line that is not a game
/// (a word that is not a square index, a square off the board or taken) is refused with
/// its place in the file.
pub fn read(path: &str, rules: Rules) -> Result<Vec<Vec<Position>>, String> {
    let text = std::fs::read_to_string(path).map_err(|why| format!("cannot read {path}: {why}"))?;
    let mut games = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let at = |why: String| format!("{path}:{}: {why}", number + 1);
        if line.trim().is_empty() {
            continue;
        }
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
        games.push(positions);
    }
    Ok(games)
}
