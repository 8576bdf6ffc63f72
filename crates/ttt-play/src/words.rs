//! What the game says, shared by the line mode and the full-screen mode.

use ttt_core::{Outcome, Rules, Shown, Square, SquareError, SquareNaming, column_letter};
use ttt_players::{Judgement, Thought};
use ttt_solver::{GameResult, Mistake, MoveValue, Value};

use crate::analysis::ThreatNote;
use crate::matches::{Match, Refusal};

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
        Refusal::CannotPlay { rules } => format!("A player chosen cannot play on {rules}"),
        Refusal::NotYourTurn => "It is the other side's turn".to_owned(),
        Refusal::Watching => "You are watching: only the players move".to_owned(),
        Refusal::HostOnly => "Only the host can do that".to_owned(),
        Refusal::UndoAsked => "Undo is asked for already: wait for the answer".to_owned(),
        Refusal::NoUndoAsked => "Nobody asked you to undo".to_owned(),
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

/// A square's name refused while it is typed, the name (`typed`, open still) first, so
/// that a status cut short keeps what matters: "Square: 9_  (Esc cancels). '99' is not a
/// square: type a1 to o15, or column and row from 1 1 to 15 15."
///
/// ```
/// use ttt_core::{Rules, SquareNaming};
/// use ttt_play::words::square_refusal;
///
/// let error = SquareNaming::Numbers.read("0", Rules::default()).unwrap_err();
/// assert_eq!(
///     square_refusal(&error, "", SquareNaming::Numbers, Rules::default()),
///     "Square: _  (Esc cancels). 0 is not on the board: type a number from 1 to 9."
/// );
/// ```
pub fn square_refusal(
    error: &SquareError,
    typed: &str,
    naming: SquareNaming,
    rules: Rules,
) -> String {
    format!(
        "Square: {}_  (Esc cancels). {}",
        Shown(typed),
        square_error(error, naming, rules)
    )
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
pub fn result(game: &Match) -> String {
    match (game.outcome(), game.lone_human()) {
        (Some(Outcome::Win(winner)), Some(human)) if winner == human => "You win!".to_owned(),
        (Some(Outcome::Win(_)), Some(_)) => "The computer wins.".to_owned(),
        (Some(outcome), _) => format!("{outcome}."),
        (None, _) => "The game is not finished.".to_owned(),
    }
}

/// The verdict on a finished game: "You win!", "The computer wins.", "X wins.", "Draw.".
/// A game a player forfeited says why first: "O forfeits: the engine 'x' stopped. X wins."
pub fn verdict(game: &Match) -> String {
    let result = result(game);
    match game.forfeit() {
        Some(forfeit) => format!("{} forfeits: {}. {result}", forfeit.loser, forfeit.reason),
        None => result,
    }
}

/// The number of a game's move as the moves list shows it: a pair of moves (X's and O's,
/// or O's and X's) a number, from 1, so the fourth move is in the second pair.
pub fn turn_number(move_number: usize) -> usize {
    move_number.div_ceil(2)
}

/// One line about a move that changed the game's value, numbered as the moves list:
/// `move 2, O at 3: a draw became a loss; 2, 4, 6 or 8 held the draw.`
pub fn mistake(mistake: &Mistake, label: impl Fn(Square) -> String) -> String {
    let better: Vec<String> = mistake.better.iter().map(|&square| label(square)).collect();
    let kept = match mistake.before {
        GameResult::Win => "kept the win",
        GameResult::Draw => "held the draw",
        GameResult::Loss => "lost no more",
    };
    format!(
        "move {}, {} at {}: {} became {}; {} {kept}.",
        turn_number(mistake.number),
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

/// One move as the threat search reviews it: `X h8: lets a forced win by threats go`, or
/// `X h8: now O to move has a forced win by threats`.
pub fn threat_note(note: &ThreatNote, label: impl Fn(Square) -> String) -> String {
    let (mover, square) = (note.mover, label(note.square));
    if note.let_go {
        format!("{mover} {square}: lets a forced win by threats go")
    } else {
        format!(
            "{mover} {square}: now {} to move has a forced win by threats",
            !mover
        )
    }
}

/// How many forced wins by threats a game let go, as a sentence.
pub fn threat_summary(notes: &[ThreatNote]) -> String {
    match notes.iter().filter(|note| note.let_go).count() {
        0 => "No forced win by threats was let go (as far as a quick search sees).".to_owned(),
        1 => "One forced win by threats was let go.".to_owned(),
        n => format!("{n} forced wins by threats were let go."),
    }
}

/// A game's review by the threat search, where perfect play is out of reach: a line for
/// each forced win let go, and for each move that gave the other side one (not for the
/// moves after it while the win held: once a side has a forced win, each of the other's
/// moves leaves it one), then the summary.
pub fn threat_review(notes: &[ThreatNote], label: impl Fn(Square) -> String) -> Vec<String> {
    let mut lines = vec![
        "Review by the threat search (perfect play is out of reach on this board):".to_owned(),
    ];
    // Held on: the note just before is the same side's, a move of its own earlier, and
    // no forced win was let go in between (that would have a note of its own).
    let held_on = |before: &ThreatNote, note: &ThreatNote| {
        !note.let_go
            && !before.let_go
            && before.mover == note.mover
            && before.number + 2 == note.number
    };
    let befores = std::iter::once(None).chain(notes.iter().map(Some));
    lines.extend(
        befores
            .zip(notes)
            .filter(|(before, note)| !before.is_some_and(|before| held_on(before, note)))
            .map(|(_, note)| {
                let number = turn_number(note.number);
                format!("  move {number}, {}", threat_note(note, &label))
            }),
    );
    lines.push(threat_summary(notes));
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

/// `1234567` as `1,234,567`.
///
/// ```
/// use ttt_play::words::grouped;
///
/// assert_eq!(grouped(958), "958");
/// assert_eq!(grouped(1_234_567), "1,234,567");
/// ```
pub fn grouped(number: u64) -> String {
    let digits = number.to_string();
    let mut out = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// What a computer (`name`) thought for its move (`played`: the square's name), a
/// sentence a line, for a person: how deep and how much it searched, and what it made of
/// the position. A move it did not search for (a line to complete, the one square that
/// stops the opponent's, a win by threats already proved) says so, rather than "depth 0".
pub fn thought_lines(name: &str, played: &str, thought: &Thought) -> Vec<String> {
    let mut lines = vec![format!("{name}, for its move {played}:")];
    let threats = grouped(thought.threat_nodes);
    if thought.depth == 0 && thought.nodes == 0 {
        lines.push(match thought.judgement {
            Some(Judgement::Win(Some(_))) => {
                "It had a line to complete: no search needed.".to_owned()
            }
            Some(Judgement::Win(None)) if thought.threat_nodes == 0 => {
                "Its forced win by threats was proved on an earlier move.".to_owned()
            }
            Some(Judgement::Win(None)) => {
                format!("It proved a forced win by threats in {threats} threat moves.")
            }
            _ => "Its move was forced: the one square that stops the opponent's line.".to_owned(),
        });
        return lines;
    }
    let moves = |plies: u32| format!("{}, counting both sides'", count(plies as usize, "move"));
    lines.push(match thought.depth {
        0 => "It had no time to look one move ahead in full.".to_owned(),
        depth => format!(
            "It looked {} ahead, counting both sides' (depth {depth}).",
            count(depth as usize, "move")
        ),
    });
    lines.push(format!(
        "It searched {} positions and {threats} threat moves in {:.2} s.",
        grouped(thought.nodes),
        thought.time.as_secs_f64(),
    ));
    lines.push(format!(
        "That is {} a second.",
        grouped(thought.per_second())
    ));
    let judgement = match thought.judgement {
        Some(Judgement::Score(score)) => {
            let leaning = match score {
                0 => "even",
                1.. => "better for it",
                _ => "better for its opponent",
            };
            format!("It judged the position {score:+}: {leaning}.")
        }
        Some(Judgement::Win(Some(plies))) => format!("It saw a forced win in {}.", moves(plies)),
        Some(Judgement::Win(None)) => "It proved a forced win by threats.".to_owned(),
        Some(Judgement::Loss(Some(plies))) => format!(
            "It saw a forced loss in {}, against the best defence.",
            moves(plies)
        ),
        Some(Judgement::Loss(None)) => "It saw a forced loss, against the best defence.".to_owned(),
        None if thought.depth > 0 => {
            "It changed its move: its best allowed a win by threats.".to_owned()
        }
        None => return lines,
    };
    lines.push(judgement);
    lines
}

/// A board in plain words, as a menu names it: the game's own name where it has one,
/// then its size (short enough for the narrowest start screen).
///
/// ```
/// use ttt_core::{Rules, WinRule};
/// use ttt_play::words::board_name;
///
/// assert_eq!(board_name(Rules::default()), "Tic-tac-toe (3x3)");
/// let gomoku = Rules::new(15, 15, 5)?;
/// assert_eq!(board_name(gomoku), "Gomoku (15x15)");
/// assert_eq!(board_name(gomoku.with_win_rule(WinRule::Exact)), "Gomoku, exactly 5 (15x15)");
/// assert_eq!(board_name(Rules::new(7, 6, 4)?), "Four in a row (7x6)");
/// assert_eq!(board_name(Rules::new(20, 20, 12)?), "12 in a row (20x20)");
/// # Ok::<(), ttt_core::RulesError>(())
/// ```
pub fn board_name(rules: Rules) -> String {
    const NUMBERS: [&str; 9] = [
        "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    let k = rules.k();
    let number = k
        .checked_sub(2)
        .and_then(|index| NUMBERS.get(index))
        .map_or_else(|| k.to_string(), |&word| word.to_owned());
    let exact = rules.win_rule() == ttt_core::WinRule::Exact;
    let size = format!("{}x{}", rules.width(), rules.height());
    match (rules.game_name(), exact) {
        (Some(game), false) => format!("{} ({size})", capitalised(game)),
        (Some(game), true) => format!("{}, exactly {k} ({size})", capitalised(game)),
        (None, false) => format!("{} in a row ({size})", capitalised(&number)),
        (None, true) => format!("Exactly {k} in a row ({size})"),
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
    use std::time::Duration;

    use ttt_core::Mark;

    use super::*;

    #[test]
    fn a_thought_says_what_was_searched_or_why_nothing_was() {
        let searched = Thought {
            depth: 8,
            nodes: 328_214,
            threat_nodes: 111_786,
            time: Duration::from_millis(880),
            judgement: Some(Judgement::Score(-58)),
        };
        let said = |thought: Thought| thought_lines("Search", "h8", &thought);
        assert_eq!(
            said(searched),
            [
                "Search, for its move h8:",
                "It looked 8 moves ahead, counting both sides' (depth 8).",
                "It searched 328,214 positions and 111,786 threat moves in 0.88 s.",
                "That is 500,000 a second.",
                "It judged the position -58: better for its opponent.",
            ]
        );
        let last = |thought: Thought| said(thought).last().cloned().unwrap_or_default();
        let judged = |judgement| Thought {
            judgement,
            ..searched
        };
        assert_eq!(
            last(judged(Some(Judgement::Score(35)))),
            "It judged the position +35: better for it."
        );
        assert_eq!(
            last(judged(Some(Judgement::Win(Some(7))))),
            "It saw a forced win in 7 moves, counting both sides'."
        );
        assert_eq!(
            last(judged(Some(Judgement::Loss(Some(4))))),
            "It saw a forced loss in 4 moves, counting both sides', against the best defence."
        );
        assert_eq!(
            last(judged(Some(Judgement::Win(None)))),
            "It proved a forced win by threats."
        );
        assert_eq!(
            last(judged(None)),
            "It changed its move: its best allowed a win by threats."
        );
        // Nothing searched: why, not "depth 0 nodes 0".
        let unsearched = |judgement, threat_nodes| Thought {
            judgement,
            threat_nodes,
            ..Thought::default()
        };
        for (thought, why) in [
            (
                unsearched(Some(Judgement::Win(Some(1))), 0),
                "It had a line to complete: no search needed.",
            ),
            (
                unsearched(None, 0),
                "Its move was forced: the one square that stops the opponent's line.",
            ),
            (
                unsearched(Some(Judgement::Win(None)), 0),
                "Its forced win by threats was proved on an earlier move.",
            ),
            (
                unsearched(Some(Judgement::Win(None)), 1_061),
                "It proved a forced win by threats in 1,061 threat moves.",
            ),
        ] {
            assert_eq!(said(thought), ["Search, for its move h8:", why]);
        }
    }

    #[test]
    fn thousands_are_grouped() {
        for (number, shown) in [
            (0, "0"),
            (958, "958"),
            (5_478, "5,478"),
            (255_168, "255,168"),
            (1_234_567, "1,234,567"),
        ] {
            assert_eq!(grouped(number), shown);
        }
    }

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
    fn a_threat_review_names_where_a_win_arose_not_each_move_while_it_held() {
        let note = |number: usize, mover: Mark, let_go: bool| ThreatNote {
            number,
            mover,
            square: Square::new(number),
            let_go,
        };
        // O gave X a win at move 6 and at 8 again; X let it go at 9; O gave it back at 12;
        // X let it go at once, and O gave it back at once.
        let notes = [
            note(6, Mark::O, false),
            note(8, Mark::O, false),
            note(9, Mark::X, true),
            note(12, Mark::O, false),
            note(13, Mark::X, true),
            note(14, Mark::O, false),
            note(16, Mark::O, false),
        ];
        let lines = threat_review(&notes, |square| square.index().to_string());
        assert_eq!(
            lines,
            [
                "Review by the threat search (perfect play is out of reach on this board):",
                // Numbered as the moves list numbers them: a pair of moves a number.
                "  move 3, O 6: now X to move has a forced win by threats",
                "  move 5, X 9: lets a forced win by threats go",
                "  move 6, O 12: now X to move has a forced win by threats",
                "  move 7, X 13: lets a forced win by threats go",
                "  move 7, O 14: now X to move has a forced win by threats",
                "2 forced wins by threats were let go.",
            ]
        );
    }

    #[test]
    fn lists_read_naturally() {
        let items = |n: usize| (1..=n).map(|i| i.to_string()).collect::<Vec<_>>();
        assert_eq!(or_list(&items(1)), "1");
        assert_eq!(or_list(&items(2)), "1 or 2");
        assert_eq!(or_list(&items(4)), "1, 2, 3 or 4");
    }
}
