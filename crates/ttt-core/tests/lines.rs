//! Every line of every board from 3x3 to 20x20 wins; one mark short of it does not.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

use ttt_core::{Board, Mark, Outcome, Position, Rules, Square};

/// The squares of the line of `length` starting at (`column`, `row`) in direction
/// (`dx`, `dy`), or `None` if it leaves the board. Written here from scratch rather than
/// taken from the crate, so the test does not check the code against itself.
fn line(
    rules: Rules,
    column: isize,
    row: isize,
    (dx, dy): (isize, isize),
    length: isize,
) -> Option<Vec<Square>> {
    (0..length)
        .map(|step| {
            let (c, r) = (column + dx * step, row + dy * step);
            let inside = (0..rules.width() as isize).contains(&c)
                && (0..rules.height() as isize).contains(&r);
            inside.then(|| Square::new(r as usize * rules.width() + c as usize))
        })
        .collect()
}

fn every_line(rules: Rules, length: usize) -> Vec<Vec<Square>> {
    let mut lines = Vec::new();
    for row in 0..rules.height() as isize {
        for column in 0..rules.width() as isize {
            for direction in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                lines.extend(line(rules, column, row, direction, length as isize));
            }
        }
    }
    lines
}

fn board_with(rules: Rules, squares: &[Square]) -> Board {
    let mut board = Board::empty(rules);
    for &square in squares {
        board.set(square, Some(Mark::X));
    }
    board
}

#[test]
fn every_line_of_every_board_wins_and_one_short_does_not() {
    let mut checked = 0_u64;
    for width in 3..=20 {
        for height in 3..=20 {
            let longest = width.max(height);
            let mut lengths = vec![3, 4, 5, longest];
            lengths.retain(|&k| k <= longest);
            lengths.dedup();
            for k in lengths {
                let rules = Rules::new(width, height, k).unwrap();
                let lines = every_line(rules, k);
                assert_eq!(lines.len(), ttt_core::windows(rules).len(), "{rules}");
                for squares in lines {
                    let board = board_with(rules, &squares);
                    for &square in &squares {
                        let found = board.lines_through(square);
                        assert_eq!(found.len(), 1, "{rules}: {squares:?} through {square:?}");
                        let mut in_order = squares.clone();
                        in_order.sort_unstable();
                        assert_eq!(found[0].squares(), in_order.as_slice());
                    }
                    let short = board_with(rules, &squares[..k - 1]);
                    assert!(
                        short.lines_of(Mark::X).is_empty(),
                        "{rules}: {:?} is not a line",
                        &squares[..k - 1]
                    );
                    let gapped = board_with(rules, &[&squares[..1], &squares[2..]].concat());
                    assert!(
                        gapped.lines_of(Mark::X).is_empty(),
                        "{rules}: a gap breaks the line"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100_000, "checked {checked} lines");
}

#[test]
fn a_longer_run_than_k_also_wins() {
    let rules = Rules::new(7, 3, 3).unwrap();
    let position = Position::parse("xxxxx../oo.o.o./.......", rules, Mark::X);
    // Five X and four O: the last X made five in a row, which is still a win.
    let position = position.unwrap();
    assert_eq!(position.outcome(), Some(Outcome::Win(Mark::X)));
    assert_eq!(position.winning_lines()[0].len(), 5);
}

#[test]
fn playing_a_line_wins_on_every_board_shape_in_play() {
    // Through `Position::play`, as the game does it: X plays a column, O plays elsewhere.
    for (width, height, k) in [
        (3, 3, 3),
        (4, 4, 4),
        (15, 15, 5),
        (19, 19, 5),
        (19, 3, 19),
        (3, 19, 19),
    ] {
        let rules = Rules::new(width, height, k).unwrap();
        let long_side_down = height >= width;
        let mut position = Position::new(rules, Mark::X);
        for step in 0..k {
            let (x, o) = if long_side_down {
                (Square::new(step * width), Square::new(step * width + 2))
            } else {
                (Square::new(step), Square::new(2 * width + step))
            };
            position.play(x).unwrap();
            if step + 1 < k {
                assert_eq!(position.outcome(), None);
                position.play(o).unwrap();
            }
        }
        assert_eq!(position.outcome(), Some(Outcome::Win(Mark::X)), "{rules}");
    }
}
