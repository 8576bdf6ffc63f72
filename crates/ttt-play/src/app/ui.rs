//! Drawing the full-screen mode. Rendering reads the `App` and never changes it.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Padding, Paragraph, Widget, Wrap};
use ttt_core::{Mark, Position, Rules, Square};
use ttt_solver::MoveValue;

use super::layout::{self, BoardGeometry, MIN_HEIGHT, MIN_WIDTH};
use super::{App, GameScreen, Key, Leave, Overlay, Screen, StartLine, StartMenu};

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if self.too_small(area) {
            let below_minimum = area.width < MIN_WIDTH || area.height < MIN_HEIGHT;
            let board = if below_minimum {
                String::new()
            } else {
                format!(" for {}", self.rules())
            };
            too_small(area, buf, &board);
            return;
        }
        match self.screen() {
            Screen::Start(menu) => start_screen(self, menu, area, buf),
            Screen::Game(game) => game_screen(self, game, area, buf),
        }
        if let Some(overlay) = self.overlay() {
            overlay_box(self, overlay, area, buf);
        }
    }
}

fn too_small(area: Rect, buf: &mut Buffer, board: &str) {
    let text = vec![
        Line::from(format!("Window too small{board}")),
        Line::from(if board.is_empty() {
            format!(
                "need {MIN_WIDTH}x{MIN_HEIGHT}, have {}x{}",
                area.width, area.height
            )
        } else {
            format!(
                "need more than {}x{}, have {}x{}",
                area.width, area.height, area.width, area.height
            )
        }),
        Line::from("enlarge it, or press q to quit"),
    ];
    let height = (text.len() as u16).min(area.height);
    let middle = Rect::new(
        area.x,
        area.y + (area.height - height) / 2,
        area.width,
        height,
    );
    Paragraph::new(text)
        .alignment(Alignment::Center)
        .render(middle, buf);
}

fn start_screen(app: &App, menu: &StartMenu, area: Rect, buf: &mut Buffer) {
    let start = layout::start(area, StartLine::ALL.len() as u16);
    Block::new()
        .borders(Borders::ALL)
        .title(Span::styled(
            " ttt — noughts and crosses ",
            app.theme().accent(),
        ))
        .title_alignment(Alignment::Center)
        .render(start.frame, buf);
    for (index, (rect, line)) in start.lines.iter().zip(StartLine::ALL).enumerate() {
        let selected = index == menu.line;
        let style = if selected {
            app.theme().accent()
        } else {
            Style::new()
        };
        let pointer = if selected { "▸ " } else { "  " };
        let (label, value) = menu.choices.line(line);
        let text = if line == StartLine::Start {
            Line::from(Span::styled(format!("{pointer}[ Start ]"), style))
                .alignment(Alignment::Center)
        } else {
            Line::from(vec![
                Span::styled(format!("{pointer}{label:<14}"), style),
                Span::styled(format!("‹ {value} ›"), style),
            ])
        };
        text.render(*rect, buf);
    }
    let keys = "↑↓ choose · ←→ or click: change · Enter: start · ?: help · q: quit";
    let below = Rect::new(
        area.x,
        start.frame.bottom().min(area.bottom() - 1),
        area.width,
        1,
    );
    Line::from(Span::styled(keys, app.theme().quiet()))
        .alignment(Alignment::Center)
        .render(below, buf);
    // What the last change did, under the key list.
    let status_top = below.bottom();
    let status = Rect::new(
        start.frame.x,
        status_top,
        start.frame.width,
        area.bottom().saturating_sub(status_top).min(2),
    );
    Paragraph::new(Span::styled(app.status().text.clone(), status_style(app)))
        .alignment(Alignment::Center)
        .wrap(Wrap { trim: true })
        .render(status, buf);
}

fn status_style(app: &App) -> Style {
    if app.status().warning {
        app.theme().warning()
    } else {
        Style::new()
    }
}

/// How many lines `text` takes wrapped at word boundaries to `width` columns.
fn wrapped_height(text: &str, width: u16) -> usize {
    let width = usize::from(width.max(1));
    let mut lines = 0;
    let mut used = 0;
    for word in text.split_whitespace() {
        let length = word.chars().count();
        if used == 0 {
            lines += 1;
            used = length;
        } else if used + 1 + length <= width {
            used += 1 + length;
        } else {
            lines += 1;
            used = length;
        }
        // A word longer than the line is broken over as many lines as it takes.
        while used > width {
            lines += 1;
            used -= width;
        }
    }
    lines
}

fn game_screen(app: &App, game: &GameScreen, area: Rect, buf: &mut Buffer) {
    let Some(screen) = layout::screen(area) else {
        return;
    };
    let rules = app.rules();
    let title = Line::from(vec![
        Span::styled(" ttt", app.theme().accent()),
        Span::raw(format!(" — noughts and crosses · {rules}")),
    ]);
    title.render(screen.title, buf);
    let position = app.position();
    if let Some(geometry) = layout::board(area, rules) {
        board(app, game, position, &geometry, buf);
    }
    panel(app, position, screen.panel, buf);
    Line::from(Span::styled(footer(rules), app.theme().quiet())).render(screen.footer, buf);
}

/// The game screen's key list, each entry with the key a click on it presses: hint and
/// review only where the exact solver reaches.
pub fn footer_items(rules: Rules) -> Vec<(&'static str, Option<Key>)> {
    let solved = rules.square_count() <= ttt_solver::MAX_SOLVED_SQUARES;
    let mut items = vec![("←↑↓→ Enter", None), ("t type", Some(Key::Char('t')))];
    if solved {
        items.push(("H hint", Some(Key::Char('H'))));
    }
    items.extend([
        ("u undo", Some(Key::Char('u'))),
        ("n new", Some(Key::Char('n'))),
    ]);
    items.push(if solved {
        ("r review", Some(Key::Char('r')))
    } else {
        ("m menu", Some(Key::Char('m')))
    });
    items.extend([
        ("? help", Some(Key::Char('?'))),
        ("q quit", Some(Key::Char('q'))),
    ]);
    items
}

/// Between two entries of the key list.
pub const FOOTER_GAP: &str = " · ";

/// The game screen's key list as shown.
pub fn footer(rules: Rules) -> String {
    let items: Vec<&str> = footer_items(rules)
        .iter()
        .map(|(shown, _)| *shown)
        .collect();
    items.join(FOOTER_GAP)
}

/// The key of the footer entry at `column` (counted from the footer's left edge), if any.
pub fn footer_key(rules: Rules, column: u16) -> Option<Key> {
    let mut left = 0;
    for (shown, key) in footer_items(rules) {
        let right = left + shown.chars().count() as u16;
        if (left..right).contains(&column) {
            return key;
        }
        left = right + FOOTER_GAP.chars().count() as u16;
    }
    None
}

fn board(
    app: &App,
    game: &GameScreen,
    position: &Position,
    geometry: &BoardGeometry,
    buf: &mut Buffer,
) {
    let theme = app.theme();
    grid(geometry, theme.grid(), buf);
    let rules = position.rules();
    if !rules.is_tic_tac_toe() {
        axes(app, geometry, buf);
    }
    let over = position.is_over();
    let last = position.history().last().copied();
    for square in rules.squares() {
        let cell = geometry.cell(rules.column(square) as u16, rules.row(square) as u16);
        let style = if over && position.is_on_winning_line(square) {
            theme.winning()
        } else if !over && square == game.cursor {
            theme.cursor()
        } else {
            Style::new()
        };
        buf.set_style(cell, style);
        match position.board().get(square) {
            Some(mark) => {
                let large = cell.width >= 3 && cell.height >= 3;
                let mut mark_style = theme.mark(mark).patch(style);
                if Some(square) == last && !large {
                    // No room for the marker: the last move is underlined instead.
                    mark_style = mark_style.add_modifier(Modifier::UNDERLINED);
                }
                draw_mark(mark, cell, mark_style, buf);
                if Some(square) == last && large {
                    buf.set_string(cell.right() - 1, cell.y, "•", style);
                }
            }
            None => free_square(app, game, square, cell, style, buf),
        }
    }
}

/// Column letters above the grid and row numbers to its left.
fn axes(app: &App, geometry: &BoardGeometry, buf: &mut Buffer) {
    let style = app.theme().quiet();
    for column in 0..geometry.columns {
        let cell = geometry.cell(column, 0);
        let letter = ttt_core::column_letter(usize::from(column)).to_string();
        let x = cell.x + cell.width.saturating_sub(1) / 2;
        buf.set_string(x, geometry.y.saturating_sub(1), letter, style);
    }
    for row in 0..geometry.rows {
        let cell = geometry.cell(0, row);
        let number = format!("{:>2}", row + 1);
        let x = geometry.x.saturating_sub(layout::AXIS_WIDTH);
        buf.set_string(x, cell.y + cell.height / 2, number, style);
    }
}

fn free_square(
    app: &App,
    game: &GameScreen,
    square: Square,
    cell: Rect,
    style: Style,
    buf: &mut Buffer,
) {
    let theme = app.theme();
    let hint = game
        .hints
        .as_ref()
        .and_then(|hints| hints.iter().find(|rated| rated.square == square));
    if let Some(rated) = hint {
        let text = hint_text(rated, cell.width);
        centre_text(
            &text,
            cell,
            theme.value(rated.value.result).patch(style),
            buf,
        );
        return;
    }
    let label = app.naming().label(square, app.rules());
    if square == game.cursor && !app.position().is_over() && cell.height < 3 {
        // A small cell: the cursor is a bright bracket pair, not a dim dot.
        let marker = if cell.width >= 3 { "[ ]" } else { "[]" };
        return centre_text(marker, cell, style.add_modifier(Modifier::BOLD), buf);
    }
    if cell.height >= 3 && label.len() < usize::from(cell.width) {
        buf.set_string(cell.x, cell.y, &label, theme.quiet().patch(style));
    } else if app.rules().is_tic_tac_toe() && label.len() <= usize::from(cell.width) {
        centre_text(&label, cell, theme.quiet().patch(style), buf);
    } else {
        centre_text("·", cell, theme.quiet().patch(style), buf);
    }
}

fn hint_text(rated: &MoveValue, width: u16) -> String {
    let long = rated.value.to_string().replace(" in ", " ");
    if long.len() <= usize::from(width) {
        long
    } else {
        let short = crate::words::short_value(rated.value.result);
        match rated.value.result {
            ttt_solver::GameResult::Draw => short.to_owned(),
            _ => format!("{short}{}", rated.value.plies),
        }
    }
}

/// A mark as a five-line drawing in a big cell, three lines where it fits, a letter
/// otherwise.
fn draw_mark(mark: Mark, cell: Rect, style: Style, buf: &mut Buffer) {
    const X: [&str; 3] = ["\\ /", " X ", "/ \\"];
    const O: [&str; 3] = ["╭─╮", "│ │", "╰─╯"];
    const BIG_X: [&str; 5] = ["╲   ╱", " ╲ ╱ ", "  ╳  ", " ╱ ╲ ", "╱   ╲"];
    const BIG_O: [&str; 5] = ["╭───╮", "│   │", "│   │", "│   │", "╰───╯"];
    let glyph: &[&str] = match mark {
        _ if cell.width < 5 || cell.height < 3 => {
            return centre_text(&mark.to_string(), cell, style, buf);
        }
        Mark::X if cell.height >= 7 => &BIG_X,
        Mark::O if cell.height >= 7 => &BIG_O,
        Mark::X => &X,
        Mark::O => &O,
    };
    let (width, height) = (glyph[0].chars().count() as u16, glyph.len() as u16);
    let top = cell.y + (cell.height - height) / 2;
    let left = cell.x + (cell.width - width) / 2;
    for (row, text) in glyph.iter().enumerate() {
        buf.set_string(left, top + row as u16, text, style);
    }
}

fn centre_text(text: &str, cell: Rect, style: Style, buf: &mut Buffer) {
    let width = text.chars().count() as u16;
    let x = cell.x + cell.width.saturating_sub(width) / 2;
    buf.set_stringn(
        x,
        cell.y + cell.height / 2,
        text,
        usize::from(cell.width),
        style,
    );
}

/// The lines between the cells, with box-drawing corners and junctions.
fn grid(geometry: &BoardGeometry, style: Style, buf: &mut Buffer) {
    if geometry.gap == 0 {
        return;
    }
    let outer = geometry.outer();
    let (step_x, step_y) = (geometry.cell_width + 1, geometry.cell_height + 1);
    for y in outer.top()..outer.bottom() {
        for x in outer.left()..outer.right() {
            let on_row = (y - outer.y).is_multiple_of(step_y);
            let on_column = (x - outer.x).is_multiple_of(step_x);
            let symbol = match (on_row, on_column) {
                (false, false) => continue,
                (true, false) => "─",
                (false, true) => "│",
                (true, true) => junction(x, y, outer),
            };
            buf.set_string(x, y, symbol, style);
        }
    }
}

fn junction(x: u16, y: u16, outer: Rect) -> &'static str {
    let (left, right) = (x == outer.left(), x == outer.right() - 1);
    let (top, bottom) = (y == outer.top(), y == outer.bottom() - 1);
    match (top, bottom, left, right) {
        (true, _, true, _) => "┌",
        (true, _, _, true) => "┐",
        (_, true, true, _) => "└",
        (_, true, _, true) => "┘",
        (true, _, _, _) => "┬",
        (_, true, _, _) => "┴",
        (_, _, true, _) => "├",
        (_, _, _, true) => "┤",
        _ => "┼",
    }
}

fn panel(app: &App, position: &Position, area: Rect, buf: &mut Buffer) {
    let block = Block::new()
        .borders(Borders::LEFT)
        .title(Span::styled("Game", app.theme().accent()));
    let inner = block.inner(area);
    block.render(area, buf);
    let theme = app.theme();
    let mut lines = vec![Line::from(Span::styled("Players", theme.accent()))];
    for mark in Mark::ALL {
        lines.push(Line::from(vec![
            Span::styled(format!(" {mark} "), theme.mark(mark)),
            Span::raw(format!(" {}", app.player_name(mark))),
        ]));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled("Turn", theme.accent())));
    let session = app.session();
    let turn = if position.is_over() {
        crate::words::verdict(session)
    } else if session.is_thinking() {
        format!("{} thinking…", position.to_move())
    } else {
        format!(
            "{} to move: {}",
            position.to_move(),
            app.player_name(position.to_move())
        )
    };
    lines.push(Line::from(format!(" {turn}")));
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled("Score", theme.accent())));
    let score = session.score();
    lines.push(Line::from(format!(
        " X {} · O {} · draws {}",
        score.x_wins, score.o_wins, score.draws
    )));
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled("Moves", theme.accent())));
    let moves = move_lines(app, position);
    let status_height = wrapped_height(&app.status().text, inner.width)
        .max(3)
        .min(usize::from(inner.height).saturating_sub(lines.len()));
    let room = usize::from(inner.height).saturating_sub(lines.len() + status_height);
    lines.extend(
        moves
            .iter()
            .skip(moves.len().saturating_sub(room))
            .cloned()
            .map(Line::from),
    );
    Paragraph::new(lines).render(inner, buf);
    let status_area = Rect::new(
        inner.x,
        inner.bottom().saturating_sub(status_height as u16),
        inner.width,
        status_height as u16,
    );
    Paragraph::new(Span::styled(app.status().text.clone(), status_style(app)))
        .wrap(Wrap { trim: true })
        .render(status_area, buf);
}

/// `1. X 5  O 1` for each pair of moves, in columns whatever the names' lengths.
fn move_lines(app: &App, position: &Position) -> Vec<String> {
    let (naming, rules) = (app.naming(), app.rules());
    let name_width = rules
        .squares()
        .map(|square| naming.label(square, rules).chars().count())
        .max()
        .unwrap_or(1);
    let number_width = (rules.square_count().div_ceil(2)).to_string().len().max(2);
    let mut mark = position.first();
    let mut entries = Vec::new();
    for &square in position.history() {
        let label = naming.label(square, rules);
        entries.push(format!("{mark} {label:<name_width$}"));
        mark = !mark;
    }
    entries
        .chunks(2)
        .enumerate()
        .map(|(index, pair)| {
            let line = format!(" {:>number_width$}. {}", index + 1, pair.join("   "));
            line.trim_end().to_owned()
        })
        .collect()
}

/// The title and lines of an overlay box.
pub(super) fn overlay_text(overlay: &Overlay) -> (&'static str, Vec<String>) {
    let (title, mut lines) = match overlay {
        Overlay::Help => ("Keys", help_lines()),
        Overlay::Review(lines) => ("Review", lines.clone()),
        Overlay::Confirm(leave) => {
            let (title, question) = match leave {
                Leave::Quit => ("Quit?", "Quit anyway?"),
                Leave::NewGame => ("New game?", "Start a new one anyway?"),
                Leave::Menu => ("Start screen?", "Leave it for the start screen?"),
            };
            let answer = leave.answer();
            (
                title,
                vec![
                    format!("A game is in progress. {question}"),
                    String::new(),
                    format!("{}{KEEP_PLAYING}", confirm_yes(answer)),
                ],
            )
        }
    };
    if !matches!(overlay, Overlay::Confirm(_)) {
        lines.push(String::new());
        lines.push("Press any key to close.".to_owned());
    }
    (title, lines)
}

/// The answer of a box that asks before leaving a game: the part that says yes, as a key
/// and as a place to click.
fn confirm_yes(answer: &str) -> String {
    format!("[ y: {answer} ]")
}

/// The rest of the answer line: anything else keeps the game.
const KEEP_PLAYING: &str = "   [ any other key: keep playing ]";

/// Whether a click at `column`, `row` falls on the yes of the box `overlay` asking before
/// leaving a game, drawn over `area`.
pub(super) fn confirms(overlay: &Overlay, area: Rect, column: u16, row: u16) -> bool {
    let Overlay::Confirm(leave) = overlay else {
        return false;
    };
    let (_, lines) = overlay_text(overlay);
    let rect = overlay_rect(area, &lines);
    // The last line, inside the frame (one cell) and its padding (one more).
    let answer_row = rect.y + lines.len() as u16;
    let left = rect.x + 2;
    let yes = confirm_yes(leave.answer()).chars().count() as u16;
    row == answer_row && (left..left + yes).contains(&column)
}

/// Where the box of `lines` goes: centred, as wide as the longest line and its frame.
pub(super) fn overlay_rect(area: Rect, lines: &[String]) -> Rect {
    let width = (lines
        .iter()
        .map(|line| line.chars().count())
        .max()
        .unwrap_or(0) as u16
        + 6)
    .min(area.width);
    let height = (lines.len() as u16 + 2).min(area.height);
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}

fn overlay_box(app: &App, overlay: &Overlay, area: Rect, buf: &mut Buffer) {
    let (title, lines) = overlay_text(overlay);
    let rect = overlay_rect(area, &lines);
    Clear.render(rect, buf);
    let block = Block::new()
        .borders(Borders::ALL)
        .padding(Padding::horizontal(1))
        .title(Span::styled(format!(" {title} "), app.theme().accent()));
    Paragraph::new(lines.into_iter().map(Line::from).collect::<Vec<_>>())
        .block(block)
        .wrap(Wrap { trim: false })
        .render(rect, buf);
}

fn help_lines() -> Vec<String> {
    [
        ("arrows, hjkl, wasd", "move the cursor"),
        ("Enter, Space", "place your mark"),
        (
            "digits, t",
            "type a square's name (5, 3 2, h8); Esc cancels",
        ),
        ("mouse click", "place on that square"),
        ("H", "hint: each free square's value"),
        ("u", "undo"),
        ("n", "new game"),
        ("r", "review of the finished game"),
        ("m", "back to the start screen"),
        ("?", "this help"),
        ("q, Esc", "quit (asks during a game)"),
        ("Ctrl-C", "quit at once"),
    ]
    .iter()
    .map(|(key, what)| format!("{key:<20}{what}"))
    .collect()
}
