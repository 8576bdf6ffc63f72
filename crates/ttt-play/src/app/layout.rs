//! Where everything goes on the screen. Drawing and mouse clicks both ask here, so a
//! click always lands on what was drawn.

use ratatui::layout::{Constraint, Layout, Rect};
use ttt_core::{Rules, Square};

/// The smallest window the game draws in: the classic terminal's 80x24, where every
/// board up to 20x20, the key list, the help and every message fit whole (the tests
/// render every screen at this size to check).
pub const MIN_WIDTH: u16 = 80;
/// The smallest window the game draws in (see [`MIN_WIDTH`]).
pub const MIN_HEIGHT: u16 = 24;

/// The smallest narrow window the game draws in, as a phone held upright gives: the board
/// above the panel, the key lists on two lines. Every text fits here too, wrapped.
pub const TALL_MIN_WIDTH: u16 = 46;
/// The smallest narrow window the game draws in (see [`TALL_MIN_WIDTH`]).
pub const TALL_MIN_HEIGHT: u16 = 40;

/// The smallest window of all, short and narrow, as a desktop page zoomed to 200% gives
/// (1280x800 pixels hold 46x15 cells of the page's largest font) or a small terminal pane:
/// the board beside a short panel, a one-line start menu, and boxes that scroll. The
/// boards up to 7x7 fit here; a bigger board asks for a bigger window.
pub const SMALL_MIN_WIDTH: u16 = 46;
/// The smallest short window the game draws in (see [`SMALL_MIN_WIDTH`]).
pub const SMALL_MIN_HEIGHT: u16 = 15;

/// The width of the side panel.
const PANEL_WIDTH: u16 = 32;
/// The height of the panel under the board of a narrow window, its top line included.
const TALL_PANEL_HEIGHT: u16 = 14;
/// Lines of the key list under a narrow window's game.
const TALL_FOOTER_HEIGHT: u16 = 2;
/// The least width of the panel beside the board of a small window.
const SMALL_PANEL_WIDTH: u16 = 20;

/// How the game screen is laid out, by the window's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// 80x24 or more: the panel beside the board.
    Wide,
    /// Narrower, and 40 lines or more: the panel under the board.
    Tall,
    /// Smaller still: a short panel beside the board.
    Small,
}

/// The shape of the game screen in `area`, or `None` when the window is too small.
pub fn shape(area: Rect) -> Option<Shape> {
    if area.width >= MIN_WIDTH && area.height >= MIN_HEIGHT {
        Some(Shape::Wide)
    } else if area.width >= TALL_MIN_WIDTH && area.height >= TALL_MIN_HEIGHT {
        Some(Shape::Tall)
    } else if area.width >= SMALL_MIN_WIDTH && area.height >= SMALL_MIN_HEIGHT {
        Some(Shape::Small)
    } else {
        None
    }
}

/// Whether the game can be drawn in `area`: 80x24 or more, 46x40 or more upright, or
/// 46x15 or more in a small window.
pub fn fits(area: Rect) -> bool {
    shape(area).is_some()
}

/// The parts of the game screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    /// The top line.
    pub title: Rect,
    /// Where the board is centred.
    pub board: Rect,
    /// Players, turn, score, moves and status.
    pub panel: Rect,
    /// The key list at the bottom.
    pub footer: Rect,
    /// How the screen is laid out.
    pub shape: Shape,
}

/// The game screen for a board of `rules` in `area`, or `None` when the window is too
/// small. In a narrow window the board takes the height its grid needs and the panel under
/// it the rest (a longer list of moves), so that no blank band lies between them.
pub fn screen(area: Rect, rules: Rules) -> Option<Screen> {
    let shape = shape(area)?;
    if shape != Shape::Tall {
        let footer_height = if shape == Shape::Wide {
            1
        } else {
            TALL_FOOTER_HEIGHT
        };
        let [title, body, footer] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(0),
            Constraint::Length(footer_height),
        ])
        .areas(area);
        let panel_width = if shape == Shape::Wide {
            PANEL_WIDTH
        } else {
            // A small window's board takes the width its grid needs, the panel the rest.
            let most = Rect {
                width: body.width.saturating_sub(SMALL_PANEL_WIDTH),
                ..body
            };
            BoardGeometry::fit(most, rules).map_or(SMALL_PANEL_WIDTH, |geometry| {
                body.width - (geometry.outer().width + BoardGeometry::axis(rules).0 + 1)
            })
        };
        let [board, panel] =
            Layout::horizontal([Constraint::Min(0), Constraint::Length(panel_width)]).areas(body);
        return Some(Screen {
            title,
            board,
            panel,
            footer,
            shape,
        });
    }
    let [title, body, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(TALL_FOOTER_HEIGHT),
    ])
    .areas(area);
    let most = Rect {
        height: body.height.saturating_sub(TALL_PANEL_HEIGHT),
        ..body
    };
    let needed = BoardGeometry::fit(most, rules).map_or(most.height, |geometry| {
        geometry.outer().height + BoardGeometry::axis(rules).1
    });
    let [board, panel] =
        Layout::vertical([Constraint::Length(needed), Constraint::Min(0)]).areas(body);
    Some(Screen {
        title,
        board,
        panel,
        footer,
        shape,
    })
}

/// The board's grid on the game screen of a window of `area`, or `None` when the window
/// is too small for the screen or for this board.
pub fn board(area: Rect, rules: Rules) -> Option<BoardGeometry> {
    screen(area, rules).and_then(|screen| BoardGeometry::fit(screen.board, rules))
}

/// The board's cells in a given area: their size and where the grid starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardGeometry {
    /// Left edge of the grid.
    pub x: u16,
    /// Top edge of the grid.
    pub y: u16,
    /// Columns of characters in a cell.
    pub cell_width: u16,
    /// Rows of characters in a cell.
    pub cell_height: u16,
    /// 1 when grid lines separate the cells, 0 when they touch.
    pub gap: u16,
    /// Squares across.
    pub columns: u16,
    /// Squares down.
    pub rows: u16,
}

/// Columns left of the grid for row numbers, off 3x3.
pub const AXIS_WIDTH: u16 = 3;

/// Cell sizes tried from the largest down: (width, height, gap).
/// The largest ones are for 3x3 in a big window, which a board game should fill.
/// Big boards get cells two lines tall where there is room (a tall window, a phone held
/// upright), easier to see and to tap than one-line cells.
const CELL_SIZES: [(u16, u16, u16); 12] = [
    (23, 11, 1),
    (19, 9, 1),
    (15, 7, 1),
    (13, 7, 1),
    (11, 5, 1),
    (9, 5, 1),
    (9, 3, 1),
    (7, 3, 1),
    (5, 2, 1),
    (3, 2, 0),
    (3, 1, 1),
    (2, 1, 0),
];

impl BoardGeometry {
    /// The largest grid of `rules` that fits `area`, centred in it; off 3x3, with room
    /// for column letters above and row numbers to the left.
    pub fn fit(area: Rect, rules: Rules) -> Option<BoardGeometry> {
        let (columns, rows) = (rules.width() as u16, rules.height() as u16);
        let (left, top) = BoardGeometry::axis(rules);
        let area = Rect::new(
            area.x + left,
            area.y + top,
            area.width.saturating_sub(left),
            area.height.saturating_sub(top),
        );
        CELL_SIZES
            .into_iter()
            .find_map(|(cell_width, cell_height, gap)| {
                let width = columns * (cell_width + gap) + gap;
                let height = rows * (cell_height + gap) + gap;
                (width <= area.width && height <= area.height).then(|| BoardGeometry {
                    x: area.x + (area.width - width) / 2,
                    y: area.y + (area.height - height) / 2,
                    cell_width,
                    cell_height,
                    gap,
                    columns,
                    rows,
                })
            })
    }

    /// The room left of the grid and above it for its axes: row numbers and column
    /// letters off 3x3, none on 3x3.
    fn axis(rules: Rules) -> (u16, u16) {
        if rules.is_tic_tac_toe() {
            (0, 0)
        } else {
            (AXIS_WIDTH, 1)
        }
    }

    /// The whole grid, lines included.
    pub fn outer(&self) -> Rect {
        Rect::new(
            self.x,
            self.y,
            self.columns * (self.cell_width + self.gap) + self.gap,
            self.rows * (self.cell_height + self.gap) + self.gap,
        )
    }

    /// The inside of the cell in `column` and `row`.
    pub fn cell(&self, column: u16, row: u16) -> Rect {
        Rect::new(
            self.x + self.gap + column * (self.cell_width + self.gap),
            self.y + self.gap + row * (self.cell_height + self.gap),
            self.cell_width,
            self.cell_height,
        )
    }

    /// The square drawn at screen position (`x`, `y`), if any (grid lines are no square).
    pub fn square_at(&self, x: u16, y: u16, rules: Rules) -> Option<Square> {
        (0..self.rows)
            .flat_map(|row| (0..self.columns).map(move |column| (column, row)))
            .find(|&(column, row)| self.cell(column, row).contains((x, y).into()))
            .and_then(|(column, row)| rules.square(usize::from(column), usize::from(row)))
    }
}

/// The start screen: a line per choice, then the start button.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartLayout {
    /// The menu's frame.
    pub frame: Rect,
    /// One line per choice, then the start button's line.
    pub lines: Vec<Rect>,
    /// Where a line's value, with its ‹, begins: after the pointer and the label.
    pub value_at: u16,
}

/// The start screen for `entries` lines (the start button included), centred in `area`:
/// a blank line between two and a margin inside the frame where there is room; in a small
/// window, one line after another at the top (room for the notes under it), and in a
/// narrow one, no margin (room for the longest values).
pub fn start(area: Rect, entries: u16) -> StartLayout {
    let narrow = area.width < 50;
    let short = area.height < MIN_HEIGHT;
    let (step, margin) = (if short { 1 } else { 2 }, if narrow { 1 } else { 2 });
    let width = 56.min(area.width);
    // The start button follows a blank line either way.
    let height = (entries * step + 3).min(area.height);
    let top = if short {
        area.y
    } else {
        area.y + (area.height - height) / 2
    };
    let frame = Rect::new(area.x + (area.width - width) / 2, top, width, height);
    let lines = (0..entries)
        .map(|index| {
            let blank = u16::from(index + 1 == entries && step == 1);
            Rect::new(
                frame.x + margin,
                frame.y + step + index * step + blank,
                frame.width.saturating_sub(2 * margin),
                1,
            )
        })
        .filter(|line| line.y < frame.bottom())
        .collect();
    StartLayout {
        frame,
        lines,
        value_at: if narrow { 15 } else { 16 },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_fills_what_room_there_is() {
        let rules = Rules::default();
        let big = BoardGeometry::fit(Rect::new(0, 0, 48, 22), rules).unwrap();
        assert_eq!((big.cell_width, big.cell_height), (11, 5));
        // A big window gets a big board: 3x3 keeps growing past 80x24.
        let screen = screen(Rect::new(0, 0, 160, 50), rules).unwrap();
        let huge = BoardGeometry::fit(screen.board, rules).unwrap();
        assert_eq!((huge.cell_width, huge.cell_height), (23, 11));
        assert!(huge.outer().height > 2 * big.outer().height - 10);
        let small = BoardGeometry::fit(Rect::new(0, 0, 28, 18), rules).unwrap();
        assert_eq!((small.cell_width, small.cell_height), (7, 3));
        assert!(BoardGeometry::fit(Rect::new(0, 0, 5, 3), rules).is_none());
    }

    #[test]
    fn clicks_find_the_square_drawn_there_and_not_the_lines() {
        let rules = Rules::default();
        let geometry = BoardGeometry::fit(Rect::new(0, 0, 48, 22), rules).unwrap();
        for square in rules.squares() {
            let (column, row) = (rules.column(square) as u16, rules.row(square) as u16);
            let cell = geometry.cell(column, row);
            assert_eq!(geometry.square_at(cell.x, cell.y, rules), Some(square));
            assert_eq!(
                geometry.square_at(cell.right() - 1, cell.bottom() - 1, rules),
                Some(square)
            );
        }
        assert_eq!(geometry.square_at(geometry.x, geometry.y, rules), None);
    }

    #[test]
    fn gomoku_fits_the_smallest_window_with_its_axes() {
        let rules = Rules::new(19, 19, 5).unwrap();
        let screen = screen(Rect::new(0, 0, 80, 24), rules).unwrap();
        let geometry = BoardGeometry::fit(screen.board, rules).unwrap();
        assert_eq!(
            (geometry.cell_width, geometry.cell_height, geometry.gap),
            (2, 1, 0)
        );
        assert!(geometry.x >= screen.board.x + AXIS_WIDTH && geometry.y > screen.board.y);
        assert!(geometry.outer().right() <= screen.board.right());
        assert!(geometry.outer().bottom() <= screen.board.bottom());
        for side in Rules::MIN_SIDE..=Rules::MAX_SIDE {
            let rules = Rules::new(side, side, 3).unwrap();
            let small = super::screen(Rect::new(0, 0, MIN_WIDTH, MIN_HEIGHT), rules).unwrap();
            assert!(
                BoardGeometry::fit(small.board, rules).is_some(),
                "the smallest window fits {rules}"
            );
        }
    }

    #[test]
    fn too_small_a_window_has_no_screen() {
        let rules = Rules::default();
        let shape = |width, height| shape(Rect::new(0, 0, width, height));
        assert_eq!(shape(80, 24), Some(Shape::Wide));
        assert_eq!(shape(79, 24), Some(Shape::Small));
        assert_eq!(shape(80, 23), Some(Shape::Small));
        assert_eq!(shape(46, 40), Some(Shape::Tall));
        assert_eq!(shape(46, 15), Some(Shape::Small));
        assert!(screen(Rect::new(0, 0, 46, 15), rules).is_some());
        assert!(screen(Rect::new(0, 0, 45, 15), rules).is_none());
        assert!(screen(Rect::new(0, 0, 46, 14), rules).is_none());
    }
}
