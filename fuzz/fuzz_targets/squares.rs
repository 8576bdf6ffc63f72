//! Square names from arbitrary text in every naming scheme and board size: a square on
//! the board whose name reads back as itself, or one line of error without control
//! characters.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ttt_core::{Rules, SquareNaming};

fuzz_target!(|data: &[u8]| {
    let (&choice, text) = data.split_first().unwrap_or((&0, &[]));
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let width = 3 + usize::from(choice % 17);
    let height = 3 + usize::from(choice / 17 % 17);
    let rules = Rules::new(width, height, 3).unwrap();
    for naming in SquareNaming::ALL {
        let naming = naming.on_board(rules);
        for read in [naming.read(text, rules), naming.parse(text, rules)] {
            match read {
                Ok(square) => {
                    assert!(rules.contains(square));
                    assert_eq!(
                        naming.parse(&naming.label(square, rules), rules),
                        Ok(square)
                    );
                }
                Err(error) => {
                    let message = error.to_string();
                    assert!(!message.chars().any(char::is_control), "{message:?}");
                }
            }
        }
    }
});
