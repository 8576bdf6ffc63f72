//! What a person types at the move prompt: a square or a command.

use ttt_core::{Rules, Shown, Square, SquareError, SquareNaming};
use ttt_play::words;

/// One line typed during a game, understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Typed {
    /// A square to play.
    Square(Square),
    /// `help` or `?`.
    Help,
    /// `hint`.
    Hint,
    /// `undo` or `u`.
    Undo,
    /// `quit`, `q` or `exit`.
    Quit,
}

/// Why a typed line was not understood, in words for the person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypedError {
    /// A word that is no command.
    UnknownCommand(String),
    /// Not a usable square name.
    Square(SquareError),
}

impl TypedError {
    /// The message for the person, in the words of the game: what was typed, and what a
    /// square looks like on this board.
    pub fn message(&self, naming: SquareNaming, rules: Rules) -> String {
        match self {
            TypedError::UnknownCommand(word) => format!(
                "Unknown command '{}': type a square, or help, hint, undo or quit.",
                Shown(word)
            ),
            TypedError::Square(error) => words::square_error(error, naming, rules),
        }
    }
}

/// Reads a line typed at the move prompt.
///
/// The rule: a line of letters alone (of any alphabet, in any case) is a command word,
/// known or not, since no square's name is only letters; `?` is help; anything else is
/// a square attempt, and a wrong one says what squares look like.
pub fn parse(text: &str, naming: SquareNaming, rules: Rules) -> Result<Typed, TypedError> {
    let typed = text.trim();
    match typed.to_lowercase().as_str() {
        "help" | "?" | "h" => return Ok(Typed::Help),
        "hint" => return Ok(Typed::Hint),
        "undo" | "u" => return Ok(Typed::Undo),
        "quit" | "q" | "exit" => return Ok(Typed::Quit),
        _ => {}
    }
    if !typed.is_empty() && typed.chars().all(char::is_alphabetic) {
        return Err(TypedError::UnknownCommand(typed.to_owned()));
    }
    naming
        .read(typed, rules)
        .map(Typed::Square)
        .map_err(TypedError::Square)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_squares_and_mistakes() {
        let rules = Rules::default();
        let numbers = SquareNaming::Numbers;
        assert_eq!(
            parse(" 5 ", numbers, rules),
            Ok(Typed::Square(Square::new(4)))
        );
        assert_eq!(parse("UNDO", numbers, rules), Ok(Typed::Undo));
        assert_eq!(parse("hint", numbers, rules), Ok(Typed::Hint));
        assert_eq!(parse("?", numbers, rules), Ok(Typed::Help));
        assert_eq!(
            parse("jump", numbers, rules),
            Err(TypedError::UnknownCommand("jump".to_owned()))
        );
        assert_eq!(
            parse("x", numbers, rules),
            Err(TypedError::UnknownCommand("x".to_owned()))
        );
        assert!(matches!(
            parse("5x", numbers, rules),
            Err(TypedError::Square(SquareError::NotANumber { .. }))
        ));
        assert_eq!(
            parse("12", numbers, rules).map_err(|e| e.message(numbers, rules)),
            Err("12 is not on the board: type a number from 1 to 9.".to_owned())
        );
        assert_eq!(
            parse("b3", SquareNaming::Letters, rules),
            Ok(Typed::Square(Square::new(7)))
        );
    }

    /// What kind of answer each line gets: a command, a square, or which mistake.
    #[test]
    fn one_rule_for_words_and_squares() {
        #[derive(Debug, PartialEq)]
        enum Kind {
            Command,
            Square,
            UnknownCommand,
            Empty,
            NotANumber,
            NotASquare,
            OffBoard,
        }
        let kind = |text: &str, naming: SquareNaming, rules: Rules| match parse(text, naming, rules)
        {
            Ok(Typed::Square(_)) => Kind::Square,
            Ok(_) => Kind::Command,
            Err(TypedError::UnknownCommand(_)) => Kind::UnknownCommand,
            Err(TypedError::Square(SquareError::Empty)) => Kind::Empty,
            Err(TypedError::Square(SquareError::NotANumber { .. })) => Kind::NotANumber,
            Err(TypedError::Square(SquareError::NotASquare { .. })) => Kind::NotASquare,
            Err(TypedError::Square(SquareError::OffBoard { .. })) => Kind::OffBoard,
        };
        let three = Rules::default();
        let four = Rules::new(4, 4, 4).unwrap();
        let numbers = SquareNaming::Numbers;
        let table = [
            ("5", numbers, three, Kind::Square),
            ("Hint", numbers, three, Kind::Command),
            ("QUIT", numbers, three, Kind::Command),
            ("?", numbers, three, Kind::Command),
            ("abc", numbers, three, Kind::UnknownCommand),
            ("x", numbers, three, Kind::UnknownCommand),
            ("héllo", numbers, three, Kind::UnknownCommand),
            ("Ünknown", numbers, three, Kind::UnknownCommand),
            ("jump", numbers, four, Kind::UnknownCommand),
            ("", numbers, three, Kind::Empty),
            ("   ", numbers, three, Kind::Empty),
            ("-1", numbers, three, Kind::OffBoard),
            ("0", numbers, three, Kind::OffBoard),
            ("10", numbers, three, Kind::OffBoard),
            ("99999999999999999999999", numbers, three, Kind::OffBoard),
            ("1.5", numbers, three, Kind::NotASquare),
            ("5x", numbers, three, Kind::NotANumber),
            ("x5", numbers, three, Kind::NotANumber),
            ("\u{1b}[31m", numbers, three, Kind::NotANumber),
            ("b2", SquareNaming::Letters, three, Kind::Square),
            ("b9", SquareNaming::Letters, three, Kind::OffBoard),
            ("2 2", SquareNaming::Coords, three, Kind::Square),
            ("a1", numbers, four, Kind::Square),
            ("e1", numbers, four, Kind::OffBoard),
            ("abc", numbers, four, Kind::UnknownCommand),
            ("-1", numbers, four, Kind::OffBoard),
            ("1.5", numbers, four, Kind::NotASquare),
        ];
        for (text, naming, rules, expected) in table {
            assert_eq!(kind(text, naming, rules), expected, "{text:?} on {rules}");
        }
    }
}
