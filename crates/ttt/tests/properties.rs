//! Properties of the entry points that take what people type: the line mode's whole
//! input loop, the position notation and the square names. The fuzz targets in `fuzz/`
//! drive the same entry points with coverage guidance.

#![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

use std::io::Cursor;

use proptest::prelude::*;
use ttt::line::{self, BoardStyle, Ending, LineOptions, Palette};
use ttt::signals::Interrupts;
use ttt_core::{Mark, Position, Rules, Square, SquareNaming};
use ttt_play::{FirstPolicy, Seat, Seats, Settings};
use ttt_players::Strength;

/// Whether `text` would act on a terminal or break a line.
fn has_control(text: &str) -> bool {
    text.chars().any(|c| c.is_control() && c != '\n')
}

/// Plays the line mode on `input` between `x` and `o` on `rules`, returning its output.
fn line_mode(input: Vec<u8>, rules: Rules, x: Seat, o: Seat) -> (Ending, String) {
    let settings = Settings::new(rules, Seats::Fixed { x, o })
        .unwrap()
        .with_first(FirstPolicy::Alternate)
        .with_seed(Some(1));
    let options = LineOptions {
        style: Some(BoardStyle::for_board(rules)),
        palette: Palette::plain(),
        echo_input: true,
        review: true,
    };
    let mut output = Vec::new();
    let ending = line::run(
        Cursor::new(input),
        &mut output,
        settings,
        options,
        None,
        None,
        &Interrupts::unwatched(),
    )
    .unwrap();
    (ending, String::from_utf8(output).unwrap())
}

/// Lines a person might type, and lines nobody would.
fn typed_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        (1_u8..=9).prop_map(|n| n.to_string().into_bytes()),
        prop::sample::select(vec![
            "undo", "hint", "help", "?", "yes", "no", "q", "abc", "-1", "1.5", "héllo", "b2",
            "2 2", ""
        ])
        .prop_map(|word| word.as_bytes().to_vec()),
        prop::collection::vec(any::<u8>(), 0..40),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn the_line_mode_takes_any_input_and_ends_with_the_tally(
        lines in prop::collection::vec(typed_line(), 0..40),
        against_rules in any::<bool>(),
    ) {
        let input: Vec<u8> = lines.iter().flat_map(|line| line.iter().copied().chain([b'\n'])).collect();
        let o = if against_rules { Seat::Computer(Strength::Rules) } else { Seat::Human };
        let (ending, output) = line_mode(input, Rules::default(), Seat::Human, o);
        prop_assert!(matches!(ending, Ending::Finished | Ending::CutShort));
        let last = output.lines().last().unwrap_or_default();
        prop_assert!(last.starts_with("X wins: "), "ends with {last:?}");
        prop_assert!(!has_control(&output), "{output:?}");
    }

    #[test]
    fn arbitrary_bytes_in_the_line_mode_are_bad_input_not_a_crash(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let (_, output) = line_mode(bytes, Rules::new(4, 4, 4).unwrap(), Seat::Human, Seat::Human);
        prop_assert!(output.lines().last().unwrap_or_default().starts_with("X wins: "));
        prop_assert!(!has_control(&output), "{output:?}");
    }

    #[test]
    fn position_notation_round_trips(picks in prop::collection::vec(any::<prop::sample::Index>(), 0..9), o_first in any::<bool>()) {
        let first = if o_first { Mark::O } else { Mark::X };
        let mut position = Position::new(Rules::default(), first);
        for pick in picks {
            if position.is_over() {
                break;
            }
            let moves = position.legal_moves();
            position = position.after(moves[pick.index(moves.len())]).unwrap();
        }
        let parsed: Position = position.to_string().parse().unwrap();
        prop_assert_eq!(&parsed, &position);
        prop_assert_eq!(parsed.outcome(), position.outcome());
        let rows = Position::parse(&position.board().to_string(), Rules::default(), first).unwrap();
        prop_assert_eq!(rows, position);
    }

    #[test]
    fn any_text_is_a_position_or_one_clear_line(text in ".{0,60}", side in 3_usize..=7) {
        let rules = Rules::new(side, side, 3).unwrap();
        if let Err(error) = Position::parse(&text, rules, Mark::X) {
            let message = error.to_string();
            prop_assert!(!message.is_empty() && !message.contains('\n') && !has_control(&message), "{message:?}");
        }
    }

    #[test]
    fn every_square_name_reads_back_and_any_text_is_a_square_or_one_clear_line(
        width in 3_usize..=19,
        height in 3_usize..=19,
        index in any::<prop::sample::Index>(),
        text in "\\PC{0,30}|[\\x00-\\x1f]{1,5}",
    ) {
        let rules = Rules::new(width, height, 3).unwrap();
        let square = Square::new(index.index(rules.square_count()));
        for naming in SquareNaming::ALL {
            let naming = naming.on_board(rules);
            prop_assert_eq!(naming.parse(&naming.label(square, rules), rules), Ok(square));
            match naming.read(&text, rules) {
                Ok(read) => prop_assert!(rules.contains(read)),
                Err(error) => {
                    let message = error.to_string();
                    prop_assert!(!message.contains('\n') && !has_control(&message), "{message:?}");
                }
            }
        }
    }
}
