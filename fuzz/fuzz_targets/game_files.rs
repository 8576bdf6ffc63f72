//! SGF and PSQ files from arbitrary bytes, as `ttt import` and `ttt replay` read them:
//! every game read plays back legally and writes as SGF that reads back with the same board and moves, or
//! the file is refused in one line without control characters. Run with
//! `-rss_limit_mb=` a few times the largest input: reading takes the text and one game's
//! main line, whatever the text holds.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ttt_play::records::{FileFormat, sgf};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match FileFormat::of(text).read_all(text) {
        Ok(games) => {
            assert!(!games.is_empty());
            for game in games {
                // Every move was checked: the game replays to its last position.
                assert!(game.position().is_ok(), "{game:?}");
                let again = sgf::read(&sgf::write(&game)).unwrap();
                assert_eq!((again.rules, &again.moves), (game.rules, &game.moves));
            }
        }
        Err(error) => {
            let message = error.to_string();
            assert!(!message.contains('\n'), "{message:?}");
            assert!(!message.chars().any(char::is_control), "{message:?}");
        }
    }
});
