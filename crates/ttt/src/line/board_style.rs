//! The board drawings of the classic tutorials.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use ttt_core::{Position, Rules, Shown, Square, SquareNaming, column_letter};

use super::palette::Palette;

/// How the board is drawn in the line mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BoardStyle {
    /// Free squares show their name, rows split by `---|---|---`.
    #[default]
    Numbered,
    /// `X|O|X` rows with `-+-+-`, the square names beside the board.
    Plain,
    /// Each square a large box, `+-------+`, free ones with their name inside.
    Boxes,
    /// Rows like `X _ O`.
    Compact,
}

impl BoardStyle {
    /// Every style.
    pub const ALL: [BoardStyle; 4] = [
        BoardStyle::Numbered,
        BoardStyle::Plain,
        BoardStyle::Boxes,
        BoardStyle::Compact,
    ];
}

impl BoardStyle {
    /// The drawing used unless one is asked for: numbered on 3x3, compact on bigger boards
    /// (a numbered 15x15 board is taller than most terminals).
    pub fn for_board(rules: Rules) -> BoardStyle {
        if rules.is_tic_tac_toe() {
            BoardStyle::Numbered
        } else {
            BoardStyle::Compact
        }
    }
}

impl fmt::Display for BoardStyle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BoardStyle::Numbered => "numbered",
            BoardStyle::Plain => "plain",
            BoardStyle::Boxes => "boxes",
            BoardStyle::Compact => "compact",
        })
    }
}

impl FromStr for BoardStyle {
    type Err = String;

    fn from_str(text: &str) -> Result<BoardStyle, String> {
        BoardStyle::ALL
            .into_iter()
            .find(|style| style.to_string().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| {
                format!(
                    "'{}' is not a board style: use numbered, plain, boxes or compact",
                    Shown(text)
                )
            })
    }
}

/// Draws `position` in `style`, naming free squares as `naming` does, one string per line.
pub fn draw(
    position: &Position,
    style: BoardStyle,
    naming: SquareNaming,
    palette: Palette,
) -> Vec<String> {
    draw_with_notes(position, style, naming, palette, &BTreeMap::new())
}

/// Draws `position` as [`draw`] does, but shows `notes` in the free squares they name
/// instead of the squares' names (a hint's values, say).
pub fn draw_with_notes(
    position: &Position,
    style: BoardStyle,
    naming: SquareNaming,
    palette: Palette,
    notes: &BTreeMap<Square, String>,
) -> Vec<String> {
    let drawing = Drawing {
        position,
        naming,
        palette,
        notes,
    };
    let mut lines = match style {
        BoardStyle::Numbered => drawing.numbered(),
        BoardStyle::Plain => drawing.plain(),
        BoardStyle::Boxes => drawing.boxes(),
        BoardStyle::Compact => drawing.compact(),
    };
    if !position.rules().is_tic_tac_toe() && style != BoardStyle::Plain {
        lines = drawing.with_axes(lines, style);
    }
    lines
}

struct Drawing<'a> {
    position: &'a Position,
    naming: SquareNaming,
    palette: Palette,
    notes: &'a BTreeMap<Square, String>,
}

impl Drawing<'_> {
    fn rules(&self) -> ttt_core::Rules {
        self.position.rules()
    }

    fn rows(&self) -> impl Iterator<Item = Vec<Square>> + '_ {
        let width = self.rules().width();
        (0..self.rules().height()).map(move |row| {
            (0..width)
                .map(|column| Square::new(row * width + column))
                .collect()
        })
    }

    /// Free squares are labelled only where every label is short enough to fit a cell.
    fn label_width(&self) -> usize {
        self.rules()
            .squares()
            .map(|square| self.naming.label(square, self.rules()).len())
            .max()
            .unwrap_or(1)
    }

    /// Whether boxes hold the names of free squares: on 3x3 only, where boxes are few.
    fn shows_labels(&self) -> bool {
        self.rules().is_tic_tac_toe()
    }

    /// The cell's text centred in `width`: the mark (in brackets on the winning line, where
    /// the cell has room, so the line shows without colour too), the square's note, its
    /// label, or `blank`.
    fn cell(&self, square: Square, width: usize, blank: &str, label_free: bool) -> String {
        match self.position.board().get(square) {
            Some(mark) => {
                let winning = self.position.is_on_winning_line(square);
                let text = if winning && width >= 3 {
                    format!("[{mark}]")
                } else {
                    mark.to_string()
                };
                self.palette.mark(mark, &centred(&text, width), winning)
            }
            None => match self.notes.get(&square) {
                Some(note) => centred(note, width),
                None if label_free => self
                    .palette
                    .dim(&centred(&self.naming.label(square, self.rules()), width)),
                None => centred(blank, width),
            },
        }
    }

    /// Free squares show their names on every board: on boards beyond 3x3 a person picks
    /// this style for them (compact is the default there).
    fn numbered(&self) -> Vec<String> {
        let labels = true;
        let width = self.label_width();
        let rule = vec!["-".repeat(width + 2); self.rules().width()].join("|");
        let mut lines = Vec::new();
        for (index, row) in self.rows().enumerate() {
            if index > 0 {
                lines.push(rule.clone());
            }
            let cells: Vec<String> = row
                .iter()
                .map(|&s| self.cell(s, width + 2, " ", labels))
                .collect();
            lines.push(cells.join("|"));
        }
        lines
    }

    fn plain(&self) -> Vec<String> {
        let rules = self.rules();
        let width = self.label_width();
        let rule = vec!["-"; rules.width()].join("+");
        let mut lines = Vec::new();
        for (index, row) in self.rows().enumerate() {
            if index > 0 {
                lines.push(rule.clone());
            }
            let cells: Vec<String> = row.iter().map(|&s| self.cell(s, 1, " ", false)).collect();
            let names: Vec<String> = row
                .iter()
                .map(|&s| format!("{:<width$}", self.naming.label(s, rules)))
                .collect();
            lines.push(format!(
                "{}    {}",
                cells.join("|"),
                names.join(" ").trim_end()
            ));
        }
        lines
    }

    fn boxes(&self) -> Vec<String> {
        let labels = self.shows_labels();
        let inner = if labels {
            7.max(self.label_width() + 4)
        } else {
            3
        };
        let columns = self.rules().width();
        let border = format!("{}+", format!("+{}", "-".repeat(inner)).repeat(columns));
        let padding = format!("{}|", format!("|{}", " ".repeat(inner)).repeat(columns));
        let mut lines = vec![border.clone()];
        for row in self.rows() {
            if labels {
                lines.push(padding.clone());
            }
            let cells: Vec<String> = row
                .iter()
                .map(|&s| format!("|{}", self.cell(s, inner, " ", labels)))
                .collect();
            lines.push(format!("{}|", cells.concat()));
            if labels {
                lines.push(padding.clone());
            }
            lines.push(border.clone());
        }
        lines
    }

    /// Whether the compact drawing needs a column before the first cell, for the bracket
    /// of a winning line that starts there.
    fn compact_lead(&self) -> usize {
        usize::from(!self.position.winning_lines().is_empty())
    }

    /// One character a cell; a run of the winning line in a row is bracketed in the gaps
    /// around it: `[X X X]`, or `[X]` where the line crosses the row.
    fn compact(&self) -> Vec<String> {
        let lead = self.compact_lead();
        self.rows()
            .map(|row| {
                let winning = |index: usize| {
                    row.get(index)
                        .is_some_and(|&square| self.position.is_on_winning_line(square))
                };
                let mut line = String::new();
                for (index, &square) in row.iter().enumerate() {
                    let (this, before) = (winning(index), index > 0 && winning(index - 1));
                    let gap = match (before, this) {
                        (false, true) => "[",
                        (true, false) => "]",
                        _ => " ",
                    };
                    if index > 0 || lead > 0 {
                        line.push_str(gap);
                    }
                    line.push_str(&self.cell(square, 1, "_", false));
                }
                if winning(row.len() - 1) {
                    line.push(']');
                }
                line
            })
            .collect()
    }

    /// Adds column letters above and row numbers to the left, for boards other than 3x3.
    fn with_axes(&self, lines: Vec<String>, style: BoardStyle) -> Vec<String> {
        let (cell, gap, first) = match style {
            // Cells as wide as the longest name and a space each side, a mark centred.
            BoardStyle::Numbered => {
                let width = self.label_width();
                (width + 3, 1, width.div_ceil(2))
            }
            BoardStyle::Boxes => (4, 1, 2),
            BoardStyle::Compact => (2, 1, self.compact_lead()),
            BoardStyle::Plain => (2, 1, 0),
        };
        let height = self.rules().height();
        let margin = height.to_string().len() + 1;
        let mut header = " ".repeat(margin + first);
        for column in 0..self.rules().width() {
            header.push(column_letter(column));
            header.push_str(&" ".repeat(cell - gap));
        }
        let rows_at = |index: usize| match style {
            BoardStyle::Numbered => index.is_multiple_of(2).then_some(index / 2),
            BoardStyle::Boxes => (index % 2 == 1).then_some(index / 2),
            _ => Some(index),
        };
        let mut out = vec![header.trim_end().to_owned()];
        for (index, line) in lines.into_iter().enumerate() {
            let label = rows_at(index)
                .map(|row| (row + 1).to_string())
                .unwrap_or_default();
            out.push(format!("{label:>width$} {line}", width = margin - 1));
        }
        out
    }
}

fn centred(text: &str, width: usize) -> String {
    format!("{text:^width$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawn(style: BoardStyle, naming: SquareNaming) -> String {
        let position: Position = "xo./.x./..o".parse().unwrap();
        draw(&position, style, naming, Palette::plain()).join("\n")
    }

    #[test]
    fn numbered_names_free_squares_on_every_board_under_their_column_letters() {
        for text in [
            "x.../..../..../.... o k=4",
            "x........./........../........../........../........../........../........../........../........../.......... o k=5",
        ] {
            let position: Position = text.parse().unwrap();
            let naming = SquareNaming::Numbers.on_board(position.rules());
            let lines = draw(&position, BoardStyle::Numbered, naming, Palette::plain());
            assert!(
                lines[1].contains("b1") && lines[3].contains("a2"),
                "{lines:#?}"
            );
            // The X in a1 sits under the letter a.
            let x = lines[1].find('X').unwrap();
            assert_eq!(lines[0].find('a'), Some(x), "{lines:#?}");
        }
    }

    #[test]
    fn compact_brackets_the_winning_line_in_the_gaps() {
        let won = |text: &str| {
            let position: Position = text.parse().unwrap();
            draw(
                &position,
                BoardStyle::Compact,
                SquareNaming::Numbers,
                Palette::plain(),
            )
            .join("\n")
        };
        assert_eq!(won("xxx/oo./..."), "[X X X]\n O O _\n _ _ _");
        assert_eq!(won("x.o/xo./x.."), "[X]_ O\n[X]O _\n[X]_ _");
        assert_eq!(won("o.x/.x./x.o"), " O _[X]\n _[X]_\n[X]_ O");
        let rules = ttt_core::Rules::new(5, 4, 4).unwrap();
        let gomoku = Position::parse("xxxx./oo.o./...../.....", rules, ttt_core::Mark::X).unwrap();
        assert_eq!(
            draw(
                &gomoku,
                BoardStyle::Compact,
                SquareNaming::Letters,
                Palette::plain()
            ),
            [
                "   a b c d e",
                "1 [X X X X]_",
                "2  O O _ O _",
                "3  _ _ _ _ _",
                "4  _ _ _ _ _"
            ]
        );
    }

    #[test]
    fn numbered_shows_free_squares_by_number() {
        assert_eq!(
            drawn(BoardStyle::Numbered, SquareNaming::Numbers),
            " X | O | 3 \n---|---|---\n 4 | X | 6 \n---|---|---\n 7 | 8 | O "
        );
    }

    #[test]
    fn numbers_follow_the_keypad() {
        assert_eq!(
            drawn(BoardStyle::Numbered, SquareNaming::Keypad),
            " X | O | 9 \n---|---|---\n 4 | X | 6 \n---|---|---\n 1 | 2 | O "
        );
    }

    #[test]
    fn plain_puts_the_names_beside_the_board() {
        assert_eq!(
            drawn(BoardStyle::Plain, SquareNaming::Numbers),
            "X|O|     1 2 3\n-+-+-\n |X|     4 5 6\n-+-+-\n | |O    7 8 9"
        );
    }

    #[test]
    fn compact_uses_underscores() {
        assert_eq!(
            drawn(BoardStyle::Compact, SquareNaming::Numbers),
            "X O _\n_ X _\n_ _ O"
        );
    }

    #[test]
    fn boxes_are_large() {
        let boxes = drawn(BoardStyle::Boxes, SquareNaming::Numbers);
        let lines: Vec<&str> = boxes.lines().collect();
        assert_eq!(lines.len(), 13);
        assert_eq!(lines[0], "+-------+-------+-------+");
        assert_eq!(lines[2], "|   X   |   O   |   3   |");
    }

    #[test]
    fn the_winning_line_is_bracketed_in_every_drawing() {
        let position: Position = "xo./ox./..x".parse().unwrap();
        let numbered = draw(
            &position,
            BoardStyle::Numbered,
            SquareNaming::Numbers,
            Palette::plain(),
        );
        assert_eq!(numbered[0], "[X]| O | 3 ");
        assert_eq!(numbered[4], " 7 | 8 |[X]");
        let compact = draw(
            &position,
            BoardStyle::Compact,
            SquareNaming::Numbers,
            Palette::plain(),
        );
        assert_eq!(compact, ["[X]O _", " O[X]_", " _ _[X]"]);
    }

    #[test]
    fn coordinates_widen_the_cells() {
        let coords = drawn(BoardStyle::Numbered, SquareNaming::Coords);
        assert!(
            coords.starts_with("  X  |  O  | 3 1 \n-----|-----|-----"),
            "{coords}"
        );
    }
}
