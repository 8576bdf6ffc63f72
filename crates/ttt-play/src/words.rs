//! What the game says, shared by the line mode and the full-screen mode.

use ttt_core::{Outcome, Rules, Square, SquareError, SquareNaming, column_letter};
use ttt_solver::{GameResult, Mistake, MoveValue, Value};

use crate::session::{Refusal, Session};

/// Why the session refused, as a clause without its full stop (`label` names squares):
/// "square 5 is taken by X".
pub fn refusal(refusal: &Refusal, label: impl Fn(Square) -> String) -> String {
    match refusal {
        Refusal::Occupied { square, mark } => {
            format!("Square {} is taken by {mark}", label(*square))
        }
        Refusal::OffBoard { .. } => "That square is not on the board".to_owned(),
        Refusal::GameOver => "The game is over".to_owned(),
        Refusal::ComputersTurn => "It is the computer's turn".to_owned(),
        Refusal::Thinking => "Wait for the computer to move".to_owned(),
        Refusal::NothingToUndo => "Nothing to undo".to_owned(),
        Refusal::NoGamesLeft => "That was the last game".to_owned(),
        Refusal::NotOver => "The game is not over yet".to_owned(),
        Refusal::NotResumable => "That game cannot be resumed".to_owned(),
    }
}

/// A refusal that names no square, as a sentence: "Nothing to undo.".
pub fn refusal_sentence(refused: &Refusal) -> String {
    format!(
        "{}.",
        refusal(refused, |square| (square.index() + 1).to_string())
    )
}

/// What one naming scheme accepts on this board, as a phrase: "a number from 1 to 9",
/// "column and row, e.g. 1 1 (columns 1-3, rows 1-3)".
fn scheme_phrase(naming: SquareNaming, rules: Rules) -> String {
    match naming {
        SquareNaming::Numbers | SquareNaming::Keypad => {
            let layout = if naming == SquareNaming::Keypad {
                format!(
                    " laid out as a keypad, {} at the top left",
                    naming.label(Square::new(0), rules)
                )
            } else {
                String::new()
            };
            format!("a number from 1 to {}{layout}", rules.square_count())
        }
        SquareNaming::Coords => format!(
            "column and row, e.g. 1 1 (columns 1-{}, rows 1-{})",
            rules.width(),
            rules.height()
        ),
        SquareNaming::Letters => format!(
            "a column letter and a row number, e.g. a1 (columns a-{}, rows 1-{})",
            column_letter(rules.width() - 1),
            rules.height()
        ),
    }
}

/// What may be typed for a square on this board (as [`SquareNaming::read`] reads it), for
/// prompts, help and messages: on 3x3 the chosen scheme; elsewhere letter and row, column
/// and row, and square numbers where a row has at most 9 squares.
///
/// ```
/// use ttt_core::{Rules, SquareNaming};
///
/// let words = ttt_play::words::expected_squares(SquareNaming::Numbers, Rules::default());
/// assert_eq!(words, "a number from 1 to 9");
/// ```
pub fn expected_squares(naming: SquareNaming, rules: Rules) -> String {
    if rules.is_tic_tac_toe() {
        return scheme_phrase(naming, rules);
    }
    // The corners name the ranges: short enough for one line of a terminal.
    let last = Square::new(rules.square_count() - 1);
    let mut accepted = format!(
        "a1 to {}, or column and row from 1 1 to {} {}",
        SquareNaming::Letters.label(last, rules),
        rules.width(),
        rules.height()
    );
    if rules.width() <= 9 {
        accepted.push_str(&format!(", or a number from 1 to {}", rules.square_count()));
    }
    accepted
}

/// A square name that was not understood, as a sentence saying what was typed, why it is
/// no square, and what squares look like on this board.
pub fn square_error(error: &SquareError, naming: SquareNaming, rules: Rules) -> String {
    match error {
        SquareError::Empty => format!("{}.", capitalised(&square_problem(error, naming, rules))),
        // The others start with what the person typed, shown as typed.
        error => format!("{}.", square_problem(error, naming, rules)),
    }
}

/// The same as a clause, for a longer message: "'x' is not a number: type a number from
/// 1 to 9".
pub fn square_problem(error: &SquareError, naming: SquareNaming, rules: Rules) -> String {
    let expected = expected_squares(naming, rules);
    match error {
        SquareError::Empty => format!("type a square: {expected}"),
        error => format!("{error}: type {expected}"),
    }
}

/// Who won a finished game, in a few words: "You win!", "The computer wins.", "X wins.",
/// "Draw.".
pub fn result(session: &Session) -> String {
    match (session.outcome(), session.lone_human()) {
        (Some(Outcome::Win(winner)), Some(human)) if winner == human => "You win!".to_owned(),
        (Some(Outcome::Win(_)), Some(_)) => "The computer wins.".to_owned(),
        (Some(outcome), _) => format!("{outcome}."),
        (None, _) => "The game is not finished.".to_owned(),
    }
}

/// The verdict on a finished game: "You win!", "The computer wins.", "X wins.", "Draw.".
/// A game a player forfeited says why first: "O forfeits: the engine 'x' stopped. X wins."
pub fn verdict(session: &Session) -> String {
    let result = result(session);
    match session.forfeit() {
        Some(forfeit) => format!("{} forfeits: {}. {result}", forfeit.loser, forfeit.reason),
        None => result,
    }
}

/// One line about a move that changed the game's value:
/// `move 4, O at 3: a draw became a loss; 2, 4, 6 or 8 held the draw.`
pub fn mistake(mistake: &Mistake, label: impl Fn(Square) -> String) -> String {
    let better: Vec<String> = mistake.better.iter().map(|&square| label(square)).collect();
    let kept = match mistake.before {
        GameResult::Win => "kept the win",
        GameResult::Draw => "held the draw",
        GameResult::Loss => "lost no more",
    };
    format!(
        "move {}, {} at {}: {} became {}; {} {kept}.",
        mistake.number,
        mistake.mark,
        label(mistake.square),
        with_article(mistake.before),
        with_article(mistake.after),
        or_list(&better),
    )
}

/// The review of a finished game as lines: a heading and a line per mistake, or one line
/// saying there were none.
pub fn review(mistakes: &[Mistake], label: impl Fn(Square) -> String) -> Vec<String> {
    if mistakes.is_empty() {
        return vec![
            "Review: no move changed the value of the game; every move was perfect play."
                .to_owned(),
        ];
    }
    let mut lines = vec!["Review of the moves that changed the value of the game:".to_owned()];
    lines.extend(mistakes.iter().map(|m| format!("  {}", mistake(m, &label))));
    lines
}

/// The moves grouped by value, best first: `win in 5: 3, 7; draw: 5, 6, 8; loss in 6: 2, 4.`
pub fn hint_summary(moves: &[MoveValue], label: impl Fn(Square) -> String) -> String {
    let mut groups: Vec<(Value, Vec<String>)> = Vec::new();
    for rated in moves {
        match groups.last_mut() {
            Some((value, labels)) if *value == rated.value => labels.push(label(rated.square)),
            _ => groups.push((rated.value, vec![label(rated.square)])),
        }
    }
    let list: Vec<String> = groups
        .iter()
        .map(|(value, labels)| format!("{value}: {}", labels.join(", ")))
        .collect();
    format!("{}.", list.join("; "))
}

/// One letter for a result, to fit in a square: W, D or L.
pub fn short_value(result: GameResult) -> &'static str {
    match result {
        GameResult::Win => "W",
        GameResult::Draw => "D",
        GameResult::Loss => "L",
    }
}

/// `count` of a thing: `1 move`, `3 moves`.
///
/// ```
/// assert_eq!(ttt_play::words::count(1, "move"), "1 move");
/// assert_eq!(ttt_play::words::count(0, "game"), "0 games");
/// ```
pub fn count(count: usize, thing: &str) -> String {
    if count == 1 {
        format!("1 {thing}")
    } else {
        format!("{count} {thing}s")
    }
}

/// The text with its first letter in upper case.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn with_article(result: GameResult) -> &'static str {
    match result {
        GameResult::Win => "a win",
        GameResult::Draw => "a draw",
        GameResult::Loss => "a loss",
    }
}

/// "7", "7 or 9", "1, 3 or 7".
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [only] => only.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_errors_say_what_was_typed_and_what_squares_look_like() {
        let ttt = Rules::default();
        let read = |text: &str, naming: SquareNaming, rules: Rules| {
            naming
                .read(text, rules)
                .map_err(|error| square_error(&error, naming, rules))
        };
        let numbers = SquareNaming::Numbers;
        assert_eq!(
            read("12", numbers, ttt),
            Err("12 is not on the board: type a number from 1 to 9.".to_owned())
        );
        assert_eq!(
            read("", SquareNaming::Keypad, ttt),
            Err(
                "Type a square: a number from 1 to 9 laid out as a keypad, 7 at the top left."
                    .to_owned()
            )
        );
        assert_eq!(
            read("five", numbers, ttt),
            Err("'five' is not a number: type a number from 1 to 9.".to_owned())
        );
        let gomoku = Rules::new(15, 15, 5).unwrap_or_default();
        assert_eq!(
            read("z9", numbers, gomoku),
            Err(
                "z9 is not on the board: type a1 to o15, or column and row from 1 1 to 15 15."
                    .to_owned()
            )
        );
        let seven = Rules::new(7, 6, 4).unwrap_or_default();
        assert!(expected_squares(numbers, seven).ends_with("or a number from 1 to 42"));
    }

    #[test]
    fn lists_read_naturally() {
        let items = |n: usize| (1..=n).map(|i| i.to_string()).collect::<Vec<_>>();
        assert_eq!(or_list(&items(1)), "1");
        assert_eq!(or_list(&items(2)), "1 or 2");
        assert_eq!(or_list(&items(4)), "1, 2, 3 or 4");
    }
}
