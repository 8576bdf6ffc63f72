//! Positions and boards the search's tests share.

use std::sync::Arc;
use std::time::Duration;

use web_time::Instant;

use ttt_core::{Mark, Position, Rules};

use super::board::{SearchBoard, Shape};

/// A 15x15 freestyle position, X having moved first, with the given rows (index from
/// the top, 15 squares each) and the rest empty; `to_move` is checked.
pub(super) fn gomoku(rows: &[(usize, &str)], to_move: Mark) -> Position {
    let mut board = vec![".".repeat(15); 15];
    for &(row, squares) in rows {
        board[row] = squares.to_owned();
    }
    let rules = Rules::new(15, 15, 5).unwrap();
    let position = Position::parse(&board.join("/"), rules, Mark::X).unwrap();
    assert_eq!(position.to_move(), to_move);
    position
}

/// O to move on 15x15 against X's open three on row 8 (g8, h8, i8), which becomes an
/// open four next move unless O blocks it at f8 or j8.
pub(super) fn against_an_open_three() -> Position {
    gomoku(&[(7, "......xxx......"), (0, "o.o............")], Mark::O)
}

/// O to move on 15x15 against X's four on row 8 (b8 to e8, a8 O's): O must take f8.
pub(super) fn against_a_four() -> Position {
    gomoku(&[(0, "..........o.o.."), (7, "oxxxx..........")], Mark::O)
}

/// A board of `position` as the root's is, with pattern codes.
pub(super) fn root_board(position: &Position) -> SearchBoard {
    SearchBoard::new(Arc::new(Shape::new(position.rules())), position)
}

/// X to move on 15x15, with twos of its own, O's marks scattered: no threat to answer,
/// and none to win by at once.
pub(super) fn quiet() -> Position {
    let rows = [
        (5, "..........x...."),
        (7, "......x.x......"),
        (10, "..o...o...o...."),
    ];
    gomoku(&rows, Mark::X)
}

/// A deadline no test reaches: an hour from now.
pub(super) fn in_an_hour() -> Instant {
    Instant::now() + Duration::from_secs(3_600)
}
