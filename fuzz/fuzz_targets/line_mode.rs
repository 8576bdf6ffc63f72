//! The line mode's whole input loop on arbitrary bytes: it never panics, always ends
//! with the tally, and never writes a control character (input is shown escaped).

#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use ttt::line::{self, BoardStyle, LineOptions, Palette};
use ttt::signals::Interrupts;
use ttt_core::{Rules, SquareNaming};
use ttt_play::{FirstPolicy, Seat, Seats, Settings};
use ttt_players::Strength;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the board, the naming and the opponent; the rest is typed.
    let (&choice, input) = data.split_first().unwrap_or((&0, &[]));
    let rules = match choice % 3 {
        0 => Rules::default(),
        // Not 4x4: its exact hint takes seconds, which the fuzzer reports as slow.
        1 => Rules::new(5, 4, 4).unwrap(),
        _ => Rules::new(7, 6, 4).unwrap(),
    };
    let naming = SquareNaming::ALL[usize::from(choice / 3) % SquareNaming::ALL.len()];
    let o = if choice & 0x80 == 0 {
        Seat::Human
    } else {
        Seat::Computer(Strength::Rules)
    };
    let settings = Settings::new(rules, Seats::Fixed { x: Seat::Human, o })
        .expect("the rules player plays every board")
        .with_first(FirstPolicy::Alternate)
        .with_seed(Some(1))
        .with_naming(naming);
    let options = LineOptions {
        style: Some(BoardStyle::for_board(rules)),
        palette: Palette::plain(),
        echo_input: true,
        review: false,
    };
    let mut output = Vec::new();
    line::run(
        Cursor::new(input.to_vec()),
        &mut output,
        settings,
        options,
        None,
        None,
        &Interrupts::unwatched(),
    )
    .expect("writing to memory cannot fail");
    let output = String::from_utf8(output).expect("the line mode writes UTF-8");
    assert!(
        output
            .lines()
            .last()
            .unwrap_or_default()
            .starts_with("X wins: ")
    );
    assert!(
        !output.chars().any(|c| c.is_control() && c != '\n'),
        "{output:?}"
    );
});
