//! Position notation from arbitrary text on every board size: a position that reads
//! back as itself, or one line of error without control characters.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ttt_core::{Mark, Position, Rules};

fuzz_target!(|data: &[u8]| {
    let (&choice, text) = data.split_first().unwrap_or((&0, &[]));
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let side = 3 + usize::from(choice % 17);
    let rules = Rules::new(side, side, 3 + usize::from(choice / 17) % (side - 2)).unwrap();
    let first = if choice & 1 == 0 { Mark::X } else { Mark::O };
    match Position::parse(text, rules, first) {
        Ok(position) => {
            let again = Position::parse(&position.to_string(), rules, first).unwrap();
            assert_eq!(again.board(), position.board());
            assert_eq!(again.to_move(), position.to_move());
        }
        Err(error) => {
            let message = error.to_string();
            assert!(!message.chars().any(char::is_control), "{message:?}");
        }
    }
});
