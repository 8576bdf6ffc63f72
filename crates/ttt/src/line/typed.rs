//! What a person types at the move prompt: a square or a command.

use ttt_core::{Rules, Square, SquareError, SquareNaming};

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

impl std::fmt::Display for TypedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TypedError::UnknownCommand(word) => {
                write!(
                    f,
                    "Unknown command '{word}': type a square, or help, hint, undo or quit."
                )
            }
            // Only the message in the game's own words is capitalised; the others start
            // with what the person typed, shown as typed.
            TypedError::Square(error @ SquareError::Empty { .. }) => {
                write!(f, "{}.", crate::words::capitalised(&error.to_string()))
            }
            TypedError::Square(error) => write!(f, "{error}."),
        }
    }
}

/// Reads a line typed at the move prompt.
pub fn parse(text: &str, naming: SquareNaming, rules: Rules) -> Result<Typed, TypedError> {
    let word = text.trim().to_ascii_lowercase();
    match word.as_str() {
        "help" | "?" | "h" => return Ok(Typed::Help),
        "hint" => return Ok(Typed::Hint),
        "undo" | "u" => return Ok(Typed::Undo),
        "quit" | "q" | "exit" => return Ok(Typed::Quit),
        _ => {}
    }
    match naming.read(&word, rules) {
        Ok(square) => Ok(Typed::Square(square)),
        Err(SquareError::NotANumber { .. } | SquareError::NotASquare { .. })
            if word.len() > 1 && word.chars().all(|c| c.is_ascii_alphabetic()) =>
        {
            Err(TypedError::UnknownCommand(text.trim().to_owned()))
        }
        Err(error) => Err(TypedError::Square(error)),
    }
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
        assert!(matches!(
            parse("x", numbers, rules),
            Err(TypedError::Square(SquareError::NotANumber { .. }))
        ));
        assert!(matches!(
            parse("5x", numbers, rules),
            Err(TypedError::Square(SquareError::NotANumber { .. }))
        ));
        assert_eq!(
            parse("12", numbers, rules).map_err(|e| e.to_string()),
            Err("12 is not on the board: type a number from 1 to 9.".to_owned())
        );
        assert_eq!(
            parse("b3", SquareNaming::Letters, rules),
            Ok(Typed::Square(Square::new(7)))
        );
    }
}
