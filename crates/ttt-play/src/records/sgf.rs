//! Games as SGF (Smart Game Format, FF\[4\]), as gomoku programs write them: `GM[4]`,
//! `SZ[15]` (or `SZ[15:13]` for a board 15 wide and 13 high), Black moving first, moves
//! as two letters (column, then row, `a` the top left), `;B[hh];W[ii]`.
//!
//! `ttt` writes the standard properties (`FF`, `GM`, `CA`, `AP`, `SZ`, `DT`, `PB`, `PW`,
//! `RE`, `GC` for a forfeit's reason) and two of its own that other programs keep
//! untouched: `RU` with the board in `ttt`'s words (`15x15, k=5`, `3x3, exactly 3`), for
//! any k and win rule, and `MK[O]` when the first player played O. Reading, it takes the
//! main line of the first game tree, and checks every move.
//!
//! ```
//! use ttt_core::{Mark, Outcome, Rules, Square};
//! use ttt_play::records::{GameRecord, sgf};
//! use ttt_play::Seat;
//!
//! let mut game = GameRecord::new(Rules::new(15, 15, 5)?, Seat::Human, Seat::Human, Mark::X, 0);
//! game.moves = vec![Square::new(7 * 15 + 7), Square::new(8 * 15 + 8)];
//! let text = sgf::write(&game);
//! assert!(text.starts_with("(;FF[4]GM[4]CA[UTF-8]"));
//! assert!(text.contains(";B[hh];W[ii]"));
//! assert_eq!(sgf::read(&text)?, game);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use ttt_core::{Mark, Outcome, Rules, Shown, Square, WinRule};

use super::{GameRecord, ImportError, civil_date, day_of};
use crate::Seat;

/// The game as SGF text.
pub fn write(record: &GameRecord) -> String {
    let rules = record.rules;
    let mut text = String::from("(;FF[4]GM[4]CA[UTF-8]AP[ttt:");
    text.push_str(env!("CARGO_PKG_VERSION"));
    text.push(']');
    if rules.width() == rules.height() {
        text.push_str(&format!("SZ[{}]", rules.width()));
    } else {
        text.push_str(&format!("SZ[{}:{}]", rules.width(), rules.height()));
    }
    text.push_str(&format!("RU[{}]", escape(&rules.to_string())));
    text.push_str(&format!("DT[{}]", civil_date(record.started)));
    let second = !record.first;
    text.push_str(&format!("PB[{}]", escape(&record.player(record.first))));
    text.push_str(&format!("PW[{}]", escape(&record.player(second))));
    if record.first == Mark::O {
        text.push_str("MK[O]");
    }
    if let Some(outcome) = record.outcome {
        let colour = |mark| if mark == record.first { 'B' } else { 'W' };
        match (outcome, &record.forfeit) {
            (Outcome::Draw, _) => text.push_str("RE[0]"),
            (Outcome::Win(mark), None) => text.push_str(&format!("RE[{}+]", colour(mark))),
            (Outcome::Win(mark), Some(reason)) => {
                // Resigned and lost on time have letters of their own; any other loss
                // before the end is a forfeit.
                let how = if reason.ends_with("resigned") {
                    'R'
                } else if reason.ends_with("lost on time") {
                    'T'
                } else {
                    'F'
                };
                text.push_str(&format!("RE[{}+{how}]GC[{}]", colour(mark), escape(reason)));
            }
        }
    }
    for (index, &square) in record.moves.iter().enumerate() {
        let colour = if index % 2 == 0 { 'B' } else { 'W' };
        text.push_str(&format!(";{colour}[{}]", point(square, rules)));
    }
    text.push_str(")\n");
    text
}

/// Two letters for a square: column then row, from `a`.
fn point(square: Square, rules: Rules) -> String {
    let letter = |n: usize| char::from(b'a' + n as u8);
    format!(
        "{}{}",
        letter(rules.column(square)),
        letter(rules.row(square))
    )
}

/// SGF text escapes `]` and `\`.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// One node's properties that a game is read from: (name, values), in order.
type Node = Vec<(String, Vec<String>)>;

/// The properties a game is read from; any other (comments, markup, a program's own) is
/// passed over without being kept.
const KEPT: [&str; 14] = [
    "GM", "SZ", "RU", "PB", "PW", "MK", "RE", "GC", "DT", "AB", "AW", "AE", "B", "W",
];

/// The most nodes a main line may have, and values a property: more than any board `ttt`
/// plays has squares, so that a hostile file is refused before it takes memory.
const MAX_NODES: usize = 1024;

/// The deepest nesting of variations read: deeper is refused, not recursed into.
const MAX_DEPTH: usize = 500;

/// Reads SGF text, a game tree at a time, keeping only what a game is read from: the
/// memory it takes is the text's and one main line's, whatever the text holds.
struct Reader<'a> {
    text: &'a str,
    /// The byte the reading is at.
    at: usize,
    /// How many game trees the reading is inside.
    depth: usize,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Self {
        Reader {
            text: text.trim_start_matches('\u{feff}'),
            at: 0,
            depth: 0,
        }
    }

    fn bad(why: &str) -> ImportError {
        ImportError::Format(format!("not SGF: {why}"))
    }

    /// The character at the reading, without passing it.
    fn here(&self) -> Option<char> {
        self.text
            .get(self.at..)
            .and_then(|rest| rest.chars().next())
    }

    /// Passes the character at the reading.
    fn pass(&mut self, c: char) {
        self.at += c.len_utf8();
    }

    fn skip_space(&mut self) {
        while let Some(c) = self.here().filter(|c| c.is_whitespace()) {
            self.pass(c);
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.here()
    }

    /// A game tree, `( nodes subtrees )`: its nodes, then the main line of its first
    /// subtree (the others are variations, read and let go).
    fn tree(&mut self) -> Result<Vec<Node>, ImportError> {
        if self.peek() != Some('(') {
            return Err(Reader::bad("a game tree starts with '('"));
        }
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Reader::bad(&format!(
                "variations nested more than {MAX_DEPTH} deep"
            )));
        }
        self.at += 1;
        let mut nodes = Vec::new();
        while self.peek() == Some(';') {
            self.at += 1;
            nodes.push(self.node()?);
            Reader::check_length(&nodes)?;
        }
        let mut first = true;
        while self.peek() == Some('(') {
            let line = self.tree()?;
            if std::mem::take(&mut first) {
                nodes.extend(line);
                Reader::check_length(&nodes)?;
            }
        }
        match self.peek() {
            Some(')') => {
                self.at += 1;
                self.depth -= 1;
                Ok(nodes)
            }
            Some(other) => Err(Reader::bad(&format!(
                "unexpected '{}'",
                Shown(other.encode_utf8(&mut [0; 4]))
            ))),
            None => Err(Reader::bad("the game tree is not closed with ')'")),
        }
    }

    fn check_length(nodes: &[Node]) -> Result<(), ImportError> {
        if nodes.len() > MAX_NODES {
            return Err(Reader::bad(&format!(
                "a game of more than {MAX_NODES} moves, more than any board has squares"
            )));
        }
        Ok(())
    }

    /// A node's properties, up to the next ';', '(' or ')'.
    fn node(&mut self) -> Result<Node, ImportError> {
        let mut node = Node::new();
        while let Some(c) = self.peek() {
            if matches!(c, ';' | '(' | ')') {
                break;
            }
            if !c.is_ascii_alphabetic() {
                return Err(Reader::bad(&format!(
                    "unexpected '{}'",
                    Shown(c.encode_utf8(&mut [0; 4]))
                )));
            }
            // FF[3] names may hold lower-case letters: only the capitals count.
            let mut name = String::new();
            while let Some(letter) = self.here().filter(char::is_ascii_alphabetic) {
                if letter.is_ascii_uppercase() {
                    name.push(letter);
                }
                self.at += 1;
            }
            let kept = KEPT.contains(&name.as_str());
            let mut values = Vec::new();
            let mut count = 0;
            while self.peek() == Some('[') {
                self.at += 1;
                let value = self.value(kept)?;
                count += 1;
                if count > MAX_NODES {
                    return Err(Reader::bad(&format!(
                        "property {name} has more than {MAX_NODES} values"
                    )));
                }
                values.extend(value);
            }
            if count == 0 {
                return Err(Reader::bad(&format!("property {name} has no value")));
            }
            if kept {
                node.push((name, values));
            }
        }
        Ok(node)
    }

    /// A value, after its '[': its text with its escapes undone when `kept`, passed over
    /// otherwise.
    fn value(&mut self, kept: bool) -> Result<Option<String>, ImportError> {
        let mut value = String::new();
        loop {
            let Some(c) = self.here() else {
                return Err(Reader::bad("it ends inside a value"));
            };
            self.pass(c);
            match c {
                '\\' => {
                    let Some(escaped) = self.here() else {
                        return Err(Reader::bad("it ends inside a value"));
                    };
                    self.pass(escaped);
                    // A soft line break is no text.
                    if kept && escaped != '\n' {
                        value.push(escaped);
                    }
                }
                ']' => return Ok(kept.then_some(value)),
                other if kept => value.push(other),
                _ => {}
            }
        }
    }
}

/// Reads an SGF game (the first of a collection), checking every move.
///
/// # Errors
/// [`ImportError`] naming what is wrong: not SGF, not a gomoku game, a board `ttt` cannot
/// play, setup stones, a move out of turn or not legal.
pub fn read(text: &str) -> Result<GameRecord, ImportError> {
    game(&Reader::new(text).tree()?)
}

/// Reads every game of an SGF collection, checking every move, a game at a time.
///
/// # Errors
/// As [`read`], for the first game that cannot be read, naming it (`game 2: ...`) when
/// the collection holds more than one.
pub fn read_all(text: &str) -> Result<Vec<GameRecord>, ImportError> {
    let mut reader = Reader::new(text);
    let mut games = Vec::new();
    loop {
        let nodes = reader.tree()?;
        let more = reader.peek() == Some('(');
        let many = more || !games.is_empty();
        let number = games.len() + 1;
        games.push(game(&nodes).map_err(|error| match error {
            ImportError::Format(why) if many => {
                ImportError::Format(format!("game {number}: {why}"))
            }
            ImportError::Move {
                number: ply,
                square,
                reason,
            } if many => ImportError::Format(format!(
                "game {number}: move {ply} ({square}) cannot be played: {reason}"
            )),
            other => other,
        })?);
        if !more {
            return Ok(games);
        }
    }
}

/// One game tree's main line as a game.
fn game(nodes: &[Node]) -> Result<GameRecord, ImportError> {
    let root = nodes
        .first()
        .ok_or_else(|| ImportError::Format("not SGF: no node".to_owned()))?;
    let get = |name: &str| -> Option<&str> {
        root.iter()
            .find(|(property, _)| property == name)
            .and_then(|(_, values)| values.first())
            .map(String::as_str)
    };
    if let Some(game) = get("GM")
        && game.trim() != "4"
    {
        return Err(ImportError::Format(format!(
            "not a gomoku game (GM[{}]; gomoku is GM[4])",
            Shown(game)
        )));
    }
    let (width, height) = match get("SZ") {
        None => (15, 15),
        Some(size) => {
            let number = |text: &str| {
                text.trim()
                    .parse::<usize>()
                    .map_err(|_| ImportError::Format(format!("bad board size SZ[{}]", Shown(size))))
            };
            match size.split_once(':') {
                Some((width, height)) => (number(width)?, number(height)?),
                None => (number(size)?, number(size)?),
            }
        }
    };
    let rules = match get("RU").map(str::parse::<Rules>) {
        Some(Ok(rules)) => rules,
        // Another program's rule: five in a row, exactly five where it says so.
        other => {
            let exact = other.is_some()
                && get("RU").is_some_and(|rule| {
                    let rule = rule.to_ascii_lowercase();
                    rule.contains("exact") || rule.contains("standard")
                });
            let win = if exact {
                WinRule::Exact
            } else {
                WinRule::Freestyle
            };
            Rules::new(width, height, 5)
                .map_err(|error| ImportError::Format(format!("a board ttt cannot play: {error}")))?
                .with_win_rule(win)
        }
    };
    if (rules.width(), rules.height()) != (width, height) {
        return Err(ImportError::Format(format!(
            "SZ[{width}:{height}] and RU[{rules}] disagree"
        )));
    }
    let first: Mark = match get("MK") {
        Some(mark) => mark
            .parse()
            .map_err(|_| ImportError::Format(format!("MK[{}] is not x or o", Shown(mark))))?,
        None => Mark::X,
    };
    for setup in ["AB", "AW", "AE"] {
        if nodes.iter().flatten().any(|(name, _)| name == setup) {
            return Err(ImportError::Format(format!(
                "setup stones ({setup}) are not moves: ttt reads games played move by move"
            )));
        }
    }
    // ttt's own players by their names; any other name is a person's, kept as written.
    let name = |property: &str| get(property).unwrap_or("").trim().to_owned();
    let (black, white) = (name("PB"), name("PW"));
    let (x_name, o_name) = if first == Mark::X {
        (black, white)
    } else {
        (white, black)
    };
    let started = get("DT").and_then(day_of).unwrap_or(0);
    let mut record = match (x_name.parse::<Seat>(), o_name.parse::<Seat>()) {
        (Ok(x), Ok(o)) => GameRecord::new(rules, x, o, first, started),
        _ => {
            let mut record = GameRecord::new(rules, Seat::Human, Seat::Human, first, started);
            record.names = Some((x_name, o_name));
            record
        }
    };
    for node in nodes {
        for (name, values) in node {
            let colour = match name.as_str() {
                "B" => 'B',
                "W" => 'W',
                _ => continue,
            };
            let number = record.moves.len() + 1;
            let expected = if number % 2 == 1 { 'B' } else { 'W' };
            if colour != expected {
                return Err(ImportError::Move {
                    number,
                    square: Shown(&values[0]).to_string(),
                    reason: format!("it is {colour}'s, and {expected} is to move"),
                });
            }
            let square = read_point(&values[0], rules).ok_or_else(|| ImportError::Move {
                number,
                square: Shown(&values[0]).to_string(),
                reason: "it is not a square of this board".to_owned(),
            })?;
            record.moves.push(square);
        }
    }
    let result = get("RE")
        .map(str::trim)
        .filter(|result| !result.is_empty() && *result != "?");
    let comment = get("GC").map(str::to_owned);
    super::settle(
        record,
        result.map(|result| {
            let winner = match result.chars().next() {
                Some('B' | 'b') => Some(first),
                Some('W' | 'w') => Some(!first),
                _ => None,
            };
            let how = result
                .split_once('+')
                .map(|(_, how)| how.trim().to_ascii_uppercase());
            (winner, how, comment)
        }),
    )
}

/// A square from two letters, on `rules`' board.
fn read_point(text: &str, rules: Rules) -> Option<Square> {
    let mut letters = text.trim().chars();
    let (column, row) = (letters.next()?, letters.next()?);
    if letters.next().is_some() || !column.is_ascii_lowercase() || !row.is_ascii_lowercase() {
        return None;
    }
    rules.square(
        usize::from(column as u8 - b'a'),
        usize::from(row as u8 - b'a'),
    )
}
