//! Drawing the full-screen mode. Rendering reads the `App` and never changes it.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Padding, Paragraph, Widget, Wrap};
use ttt_core::{Mark, Position, Rules, Square};
use ttt_solver::MoveValue;

use super::layout::{self, BoardGeometry, SMALL_MIN_HEIGHT, SMALL_MIN_WIDTH, Shape};
use super::{
    App, Clocks, Field, Front, GameScreen, Key, Leave, Lobby, LobbyAction, Overlay, Screen,
    ShownControl, StartLine, StartMenu,
};

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if self.too_small(area) {
            let board = if !layout::fits(area) {
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
            Screen::Online(online) => game_screen(self, &online.game, area, buf),
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
                "need at least {SMALL_MIN_WIDTH}x{SMALL_MIN_HEIGHT}, have {}x{}",
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
            let width = usize::from(start.value_at) - pointer.chars().count();
            Line::from(vec![
                Span::styled(format!("{pointer}{label:<width$}"), style),
                Span::styled(format!("‹ {value} ›"), style),
            ])
        };
        text.render(*rect, buf);
    }
    let below = start_keys_area(app, area, &start);
    for (row, y) in key_rows(&start_keys(app), area.width)
        .iter()
        .zip(below.y..below.bottom())
    {
        Line::from(Span::styled(key_list(row), app.theme().quiet()))
            .alignment(Alignment::Center)
            .render(Rect::new(below.x, y, below.width, 1), buf);
    }
    // The unfinished game on offer and the record against the chosen opponent, then
    // what the last change did, under the key list.
    let notes = start_notes(app, area, &start);
    for note in &notes {
        Paragraph::new(Span::styled(note.text.clone(), app.theme().quiet()))
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true })
            .render(note.area, buf);
    }
    let status_top = notes
        .last()
        .map_or(below.bottom(), |note| note.area.bottom());
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
    let Some(screen) = layout::screen(area, app.rules()) else {
        return;
    };
    let rules = app.rules();
    // Once a game a person played has ended, its verdict and a button to play again take
    // the top line, just over the board.
    let title = match result_line(app, screen.title) {
        Some((verdict, _)) => Line::from(vec![
            Span::styled(format!(" {verdict}  "), app.theme().accent()),
            Span::styled(app.front.play_again(), app.theme().accent()),
        ]),
        None => Line::from(vec![
            Span::styled(" ttt", app.theme().accent()),
            Span::raw(match app.table().and_then(|table| table.code.as_ref()) {
                Some(code) => format!(
                    " online — room {code} — {}",
                    crate::words::board_name(rules)
                ),
                None => format!(" — {}", crate::words::board_name(rules)),
            }),
        ]),
    };
    title.render(screen.title, buf);
    let position = app.position();
    if let Some(geometry) = layout::board(area, rules) {
        let look = BoardLook {
            theme: app.theme(),
            naming: app.naming(),
            cursor: app.cursor_shown(),
            hints: game.hints.as_deref(),
            glyphs: !app.marks_outside || app.overlay().is_some(),
        };
        board(&look, position, &geometry, buf);
    }
    match screen.shape {
        Shape::Wide => panel(app, position, screen.panel, buf),
        Shape::Tall => panel_close(app, position, screen.panel, Borders::TOP, buf),
        Shape::Small => panel_close(app, position, screen.panel, Borders::LEFT, buf),
    }
    let rows = key_rows(&game_keys(app), screen.footer.width);
    for (row, y) in rows.iter().zip(screen.footer.y..screen.footer.bottom()) {
        Line::from(Span::styled(key_list(row), app.theme().quiet()))
            .render(Rect::new(screen.footer.x, y, screen.footer.width, 1), buf);
    }
}

/// The verdict shown on the top line `title` once a game a person played has ended (and
/// another can follow), and where its button to play again is drawn.
pub(super) fn result_line(app: &App, title: Rect) -> Option<(String, Rect)> {
    let verdict = match app.screen() {
        Screen::Online(online) => {
            let table = &online.table;
            if !table.over || table.seat.is_none() {
                return None;
            }
            online.turn_text()
        }
        _ => {
            let session = app.session();
            if !session.is_over() || !session.has_human() || session.games_left() == Some(0) {
                return None;
            }
            crate::words::verdict(session.rules_of_play())
        }
    };
    let left = title.x + format!(" {verdict}  ").chars().count() as u16;
    let width = app.front.play_again().chars().count() as u16;
    (left + width <= title.right()).then(|| (verdict, Rect::new(left, title.y, width, 1)))
}

/// Whether games on a board of `rules` have hints: where the exact solver reaches (a
/// review there is by perfect play, elsewhere by the threat search).
fn hinted(rules: Rules) -> bool {
    rules.square_count() <= ttt_solver::MAX_SOLVED_SQUARES
}

/// The game screen's key list, each entry with the key a click on it presses: the hint
/// only where the exact solver reaches, the start screen in its room elsewhere.
pub fn footer_items(rules: Rules) -> Vec<(&'static str, Option<Key>)> {
    let solved = hinted(rules);
    let mut items = vec![("←↑↓→ Enter", None), ("t type", Some(Key::Char('t')))];
    items.push(if solved {
        ("H hint", Some(Key::Char('H')))
    } else {
        ("m menu", Some(Key::Char('m')))
    });
    items.extend([
        ("u undo", Some(Key::Char('u'))),
        ("n new", Some(Key::Char('n'))),
        ("r review", Some(Key::Char('r'))),
    ]);
    items.extend([
        ("? help", Some(Key::Char('?'))),
        ("q quit", Some(Key::Char('q'))),
    ]);
    items
}

/// The game screen's key list as `app` shows it: without quitting for a front end with
/// nothing to quit to.
fn game_keys(app: &App) -> Vec<(&'static str, Option<Key>)> {
    match app.screen() {
        Screen::Online(online) if online.table.seat.is_none() && online.table.code.is_some() => {
            // A watcher plays nothing: leaving, help and quitting are its keys.
            let watching = ONLINE_KEYS
                .iter()
                .copied()
                .filter(|(_, key)| matches!(key, Some(Key::Char('/' | 'm' | '?' | 'q'))))
                .collect();
            without_quitting(app, watching)
        }
        Screen::Online(online) => {
            let mut keys = ONLINE_KEYS.to_vec();
            let table = &online.table;
            if table.seat.is_some() && table.undo_awaits_answer() {
                if table.over {
                    // n stays another game, as the verdict says.
                    keys.insert(2, ("y allow undo", Some(Key::Char('y'))));
                } else {
                    // The answer to the friend's undo takes the rematch's place meanwhile.
                    keys[2] = ("y allow undo", Some(Key::Char('y')));
                    keys.insert(3, ("n refuse undo", Some(Key::Char('n'))));
                }
            }
            without_quitting(app, keys)
        }
        _ => without_quitting(app, footer_items(app.rules())),
    }
}

/// The online screen's key list, each entry with the key a click on it presses.
const ONLINE_KEYS: [(&str, Option<Key>); 10] = [
    ("←↑↓→ Enter", None),
    ("u undo", Some(Key::Char('u'))),
    ("n rematch", Some(Key::Char('n'))),
    ("c claim", Some(Key::Char('c'))),
    ("g resign", Some(Key::Char('g'))),
    ("m leave", Some(Key::Char('m'))),
    ("t type", Some(Key::Char('t'))),
    ("/ say", Some(Key::Char('/'))),
    ("? help", Some(Key::Char('?'))),
    ("q quit", Some(Key::Char('q'))),
];

/// The start screen's key list as `app` shows it (see [`game_keys`]), each entry with the
/// key a click on it presses.
fn start_keys(app: &App) -> Vec<(&'static str, Option<Key>)> {
    let keys = vec![
        ("↑↓ choose", None),
        (app.front.change_keys(), None),
        ("Enter: start", Some(Key::Enter)),
        ("?: help", Some(Key::Char('?'))),
        ("q: quit", Some(Key::Char('q'))),
    ];
    without_quitting(app, keys)
}

fn without_quitting(
    app: &App,
    mut items: Vec<(&'static str, Option<Key>)>,
) -> Vec<(&'static str, Option<Key>)> {
    if !app.front.quits() {
        items.retain(|&(_, key)| key != Some(Key::Char('q')));
    }
    items
}

/// Between two entries of the key list.
pub const FOOTER_GAP: &str = " · ";

/// The game screen's key list as shown.
pub fn footer(rules: Rules) -> String {
    key_list(&footer_items(rules))
}

/// The key of the footer entry drawn at `column`, `row` of the screen, the footer taking
/// the lines of `footer` (as many as its entries need at that width).
pub(super) fn footer_key_at(app: &App, footer: Rect, column: u16, row: u16) -> Option<Key> {
    key_under(&game_key_entries(app, footer), column, row)
}

/// A key list's entry as drawn: the cells it takes, what it shows, and the key a click
/// on it presses.
struct KeyEntry {
    cell: Rect,
    shown: &'static str,
    key: Option<Key>,
}

/// The entries of the game screen's key list, drawn from the left of `footer`.
fn game_key_entries(app: &App, footer: Rect) -> Vec<KeyEntry> {
    laid_out(&game_keys(app), footer, false)
}

/// The entries of the start screen's key list, each line centred under the menu.
fn start_key_entries(app: &App, area: Rect, start: &layout::StartLayout) -> Vec<KeyEntry> {
    laid_out(&start_keys(app), start_keys_area(app, area, start), true)
}

/// The entries of a key list broken into the lines of `area` (as many as fit), each line
/// from its left edge or `centred`.
fn laid_out(items: &[(&'static str, Option<Key>)], area: Rect, centred: bool) -> Vec<KeyEntry> {
    let gap = FOOTER_GAP.chars().count() as u16;
    let mut entries = Vec::new();
    for (line, y) in key_rows(items, area.width)
        .iter()
        .zip(area.y..area.bottom())
    {
        let width = key_list(line).chars().count() as u16;
        let mut x = if centred {
            area.x + area.width.saturating_sub(width) / 2
        } else {
            area.x
        };
        for &(shown, key) in line {
            let width = shown.chars().count() as u16;
            entries.push(KeyEntry {
                cell: Rect::new(x, y, width, 1),
                shown,
                key,
            });
            x += width + gap;
        }
    }
    entries
}

/// The key of the entry drawn at `column`, `row`, if any.
fn key_under(entries: &[KeyEntry], column: u16, row: u16) -> Option<Key> {
    entries
        .iter()
        .find(|entry| entry.cell.contains((column, row).into()))
        .and_then(|entry| entry.key)
}

/// A key list broken into lines of at most `width` columns, between entries.
fn key_rows<'a>(items: &[(&'a str, Option<Key>)], width: u16) -> Vec<Vec<(&'a str, Option<Key>)>> {
    let gap = FOOTER_GAP.chars().count();
    let mut rows: Vec<Vec<(&str, Option<Key>)>> = Vec::new();
    let mut used = 0;
    for &(shown, key) in items {
        let length = shown.chars().count();
        match rows.last_mut() {
            Some(row) if used + gap + length <= usize::from(width) => {
                row.push((shown, key));
                used += gap + length;
            }
            _ => {
                rows.push(vec![(shown, key)]);
                used = length;
            }
        }
    }
    rows
}

/// A key list as shown: its entries joined by [`FOOTER_GAP`].
fn key_list(items: &[(&str, Option<Key>)]) -> String {
    let shown: Vec<&str> = items.iter().map(|(shown, _)| *shown).collect();
    shown.join(FOOTER_GAP)
}

/// The screen's controls (see [`App::shown_controls`]).
pub(super) fn controls(app: &App, area: Rect) -> Vec<ShownControl> {
    let mut controls = Vec::new();
    match app.screen() {
        Screen::Start(menu) => {
            let start = layout::start(area, StartLine::ALL.len() as u16);
            for (rect, line) in start.lines.iter().zip(StartLine::ALL) {
                let words = match menu.choices.line(line) {
                    _ if line == StartLine::Start => "Start".to_owned(),
                    (label, value) => format!("{label}: {value}"),
                };
                // A click on the label steps the value on (one on the ‹ steps it back).
                controls.push(ShownControl {
                    cell: *rect,
                    words,
                    click: (rect.x + rect.width / 2, rect.y),
                });
            }
            // Enter is the start button's key: a control already.
            let entries = start_key_entries(app, area, &start);
            let keys = entries.iter().filter(|entry| entry.key != Some(Key::Enter));
            controls.extend(keys.filter_map(key_control));
            for note in start_notes(app, area, &start)
                .iter()
                .filter(|note| note.offers)
            {
                controls.push(ShownControl {
                    cell: note.area,
                    words: note.text.clone(),
                    click: (note.area.x, note.area.y),
                });
            }
        }
        Screen::Game(_) | Screen::Online(_) => {
            if let Some(screen) = layout::screen(area, app.rules()) {
                if let Some((_, button)) = result_line(app, screen.title) {
                    controls.push(ShownControl {
                        cell: button,
                        words: "play again".to_owned(),
                        click: (button.x, button.y),
                    });
                }
                let entries = game_key_entries(app, screen.footer);
                controls.extend(entries.iter().filter_map(key_control));
            }
        }
    }
    controls
}

/// A key list's entry that presses a key, as a control named by what it does ("undo" for
/// "u undo", "help" for "?: help").
fn key_control(entry: &KeyEntry) -> Option<ShownControl> {
    entry.key?;
    let words = entry
        .shown
        .split_once(": ")
        .or_else(|| entry.shown.split_once(' '))
        .map_or(entry.shown, |(_, words)| words);
    Some(ShownControl {
        cell: entry.cell,
        words: words.to_owned(),
        click: (entry.cell.x, entry.cell.y),
    })
}

/// The lines of the start screen's key list, under the menu: one, or two in a narrow
/// window.
fn start_keys_area(app: &App, area: Rect, start: &layout::StartLayout) -> Rect {
    let rows = key_rows(&start_keys(app), area.width).len() as u16;
    let top = start.frame.bottom().min(area.bottom().saturating_sub(rows));
    Rect::new(area.x, top, area.width, rows.min(area.bottom() - top))
}

/// A note under the start screen's key list.
pub(super) struct StartNote {
    /// What it says.
    pub(super) text: String,
    /// Where it is drawn, wrapped to the screen's width.
    pub(super) area: Rect,
    /// Whether it offers the unfinished game: a click on it resumes the game.
    pub(super) offers: bool,
}

/// The start screen's notes, under its key list: the unfinished game on offer and the
/// record against the chosen opponent, each wrapped to the screen's width, as many as fit.
pub(super) fn start_notes(app: &App, area: Rect, start: &layout::StartLayout) -> Vec<StartNote> {
    let mut top = start_keys_area(app, area, start).bottom();
    let mut notes = Vec::new();
    let offered = app.offer_line().map(|text| (text, true));
    let record = app.record_line().map(|text| (text, false));
    for (text, offers) in offered.into_iter().chain(record) {
        let height = wrapped_height(&text, area.width) as u16;
        if top + height > area.bottom() {
            break;
        }
        notes.push(StartNote {
            text,
            area: Rect::new(area.x, top, area.width, height),
            offers,
        });
        top += height;
    }
    notes
}

/// The key of the start screen's key list under a click, if any: each line is centred.
pub(super) fn start_key(
    app: &App,
    area: Rect,
    start: &layout::StartLayout,
    column: u16,
    row: u16,
) -> Option<Key> {
    key_under(&start_key_entries(app, area, start), column, row)
}

/// What the board shows beside the marks.
pub(super) struct BoardLook<'a> {
    pub(super) theme: super::Theme,
    /// How free squares are labelled.
    pub(super) naming: ttt_core::SquareNaming,
    /// The cursor, while the game goes on.
    pub(super) cursor: Option<Square>,
    /// Values shown in free squares.
    pub(super) hints: Option<&'a [MoveValue]>,
    /// Whether the marks are drawn here, not by the front end.
    pub(super) glyphs: bool,
}

pub(super) fn board(
    look: &BoardLook,
    position: &Position,
    geometry: &BoardGeometry,
    buf: &mut Buffer,
) {
    let theme = look.theme;
    grid(geometry, theme.grid(), buf);
    let rules = position.rules();
    if !rules.is_tic_tac_toe() {
        axes(look, geometry, buf);
    }
    let over = position.is_over();
    let last = position.history().last().copied();
    for square in rules.squares() {
        let cell = geometry.cell(rules.column(square) as u16, rules.row(square) as u16);
        let style = if over && position.is_on_winning_line(square) {
            theme.winning()
        } else if !over && Some(square) == look.cursor {
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
                if look.glyphs {
                    draw_mark(mark, cell, mark_style, buf);
                }
                if Some(square) == last && large {
                    buf.set_string(cell.right() - 1, cell.y, "•", style);
                }
            }
            None => free_square(look, position, square, cell, style, buf),
        }
    }
}

/// Column letters above the grid and row numbers to its left.
fn axes(look: &BoardLook, geometry: &BoardGeometry, buf: &mut Buffer) {
    let style = look.theme.quiet();
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
    look: &BoardLook,
    position: &Position,
    square: Square,
    cell: Rect,
    style: Style,
    buf: &mut Buffer,
) {
    let theme = look.theme;
    let rules = position.rules();
    let hint = look
        .hints
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
    let label = look.naming.label(square, rules);
    if Some(square) == look.cursor && !position.is_over() && cell.height < 3 {
        // A small cell: the cursor is a bright bracket pair, not a dim dot.
        let marker = if cell.width >= 3 { "[ ]" } else { "[]" };
        return centre_text(marker, cell, style.add_modifier(Modifier::BOLD), buf);
    }
    if cell.height >= 3 && label.len() < usize::from(cell.width) {
        buf.set_string(cell.x, cell.y, &label, theme.quiet().patch(style));
    } else if rules.is_tic_tac_toe() && label.len() <= usize::from(cell.width) {
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
/// otherwise. A character cell is about twice as tall as it is wide, so the drawings are
/// nearly twice as wide as they are tall: they look as round and as square as marks do.
fn draw_mark(mark: Mark, cell: Rect, style: Style, buf: &mut Buffer) {
    const X: [&str; 3] = ["╲   ╱", "  ╳  ", "╱   ╲"];
    const O: [&str; 3] = ["╭───╮", "│   │", "╰───╯"];
    const BIG_X: [&str; 5] = [
        "╲       ╱",
        "  ╲   ╱  ",
        "    ╳    ",
        "  ╱   ╲  ",
        "╱       ╲",
    ];
    const BIG_O: [&str; 5] = [
        "╭───────╮",
        "│       │",
        "│       │",
        "│       │",
        "╰───────╯",
    ];
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

/// Whose turn it is, in words, in at most `width` columns where it can (the player's name
/// is left to the players' lines when it does not fit): the verdict once the game is over.
fn turn_text(app: &App, position: &Position, width: usize) -> String {
    if let Screen::Online(online) = app.screen() {
        return online.turn_text();
    }
    let session = app.session();
    if session.is_over() {
        crate::words::result(session.rules_of_play())
    } else if session.is_thinking() {
        format!("{} thinking…", position.to_move())
    } else {
        let mark = position.to_move();
        let named = format!("{mark} to move: {}", app.player_name(mark));
        if named.chars().count() <= width {
            named
        } else {
            format!("{mark} to move")
        }
    }
}

/// The score line, in at most `width` columns where it can: "X 1 · O 0 · draws 2", or
/// "X 1, O 0, draws 2" in a narrow panel.
fn score_text(app: &App, width: usize) -> String {
    let (x, o, draws) = match app.table() {
        Some(table) => (table.score[0], table.score[1], table.score[2]),
        None => {
            let score = app.session().score();
            (score.x_wins, score.o_wins, score.draws)
        }
    };
    let long = format!("X {x} · O {o} · draws {draws}");
    if long.chars().count() <= width {
        long
    } else {
        format!("X {x}, O {o}, draws {draws}")
    }
}

/// The panel under the board of a narrow window (its line on `borders`: the top), or
/// beside the board of a small one (the left): the same facts as [`panel`], closer
/// together, with the last moves and the status below them.
fn panel_close(app: &App, position: &Position, area: Rect, borders: Borders, buf: &mut Buffer) {
    let inner = panel_frame(app, borders, area, buf);
    let theme = app.theme();
    let mut lines = player_lines(app);
    lines.push(Line::from(vec![
        Span::styled("Turn  ", theme.accent()),
        Span::raw(turn_text(
            app,
            position,
            usize::from(inner.width).saturating_sub(6),
        )),
    ]));
    lines.push(Line::from(vec![
        Span::styled("Score ", theme.accent()),
        Span::raw(score_text(app, usize::from(inner.width).saturating_sub(6))),
    ]));
    lines.push(Line::from(Span::styled("Moves", theme.accent())));
    moves_and_status(app, position, lines, inner, buf);
}

fn panel(app: &App, position: &Position, area: Rect, buf: &mut Buffer) {
    let inner = panel_frame(app, Borders::LEFT, area, buf);
    let theme = app.theme();
    let mut lines = vec![Line::from(Span::styled("Players", theme.accent()))];
    lines.extend(player_lines(app));
    if let Some(table) = app.table().filter(|table| table.watchers > 0) {
        lines.push(Line::from(format!(" {} watching", table.watchers)));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled("Turn", theme.accent())));
    let turn = turn_text(app, position, usize::from(inner.width).saturating_sub(1));
    lines.push(Line::from(format!(" {turn}")));
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled("Score", theme.accent())));
    let score = score_text(app, usize::from(inner.width).saturating_sub(1));
    lines.push(Line::from(format!(" {score}")));
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled("Moves", theme.accent())));
    moves_and_status(app, position, lines, inner, buf);
}

/// Draws a panel's frame, titled "Game", with its line on `borders`; the inside.
fn panel_frame(app: &App, borders: Borders, area: Rect, buf: &mut Buffer) -> Rect {
    let title = match app.table().and_then(|table| table.code.as_ref()) {
        Some(code) => format!("Room {code}"),
        None => "Game".to_owned(),
    };
    let block = Block::new()
        .borders(borders)
        .title(Span::styled(title, app.theme().accent()));
    let inner = block.inner(area);
    block.render(area, buf);
    inner
}

/// A line for each player: its mark in its colour, and its name.
fn player_lines(app: &App) -> Vec<Line<'static>> {
    let theme = app.theme();
    let online = match app.screen() {
        Screen::Online(online) => Some(online),
        _ => None,
    };
    Mark::ALL
        .into_iter()
        .map(|mark| {
            let mut spans = vec![Span::styled(format!(" {mark} "), theme.mark(mark))];
            // In a room with clocks, each player's time before the name; the running
            // one stands out.
            if let Some(left) = online.and_then(|online| online.clock(mark)) {
                let running = online
                    .and_then(|online| online.table.clocks.as_ref())
                    .is_some_and(|clocks| clocks.running == Some(mark));
                let style = if running {
                    theme.accent()
                } else {
                    theme.quiet()
                };
                spans.push(Span::styled(
                    format!(" {:>5}", Clocks::written(left)),
                    style,
                ));
            }
            spans.push(Span::raw(format!(" {}", app.player_name(mark))));
            Line::from(spans)
        })
        .collect()
}

/// Draws a panel's `lines` in its `inner` area, then as many of the last moves as fit
/// and the status at the bottom, wrapped to at least three lines.
fn moves_and_status(
    app: &App,
    position: &Position,
    mut lines: Vec<Line<'static>>,
    inner: Rect,
    buf: &mut Buffer,
) {
    let moves = move_lines(app, position);
    let status_height = wrapped_height(&app.status().text, inner.width)
        .max(3)
        .min(usize::from(inner.height).saturating_sub(lines.len()));
    let room = usize::from(inner.height).saturating_sub(lines.len() + status_height);
    // Online, the last lines said to the room take up to half the room (more when the
    // moves leave it free), under a title of their own; the moves the rest.
    let said: Vec<String> = app
        .table()
        .map(|table| {
            let said: Vec<String> = table.said.iter().map(|line| format!(" {line}")).collect();
            box_rows(&said, inner.width)
        })
        .unwrap_or_default();
    let said_room = if said.is_empty() || room < 4 {
        0
    } else {
        (said.len() + 1).min((room / 2).max(room.saturating_sub(moves.len())))
    };
    lines.extend(
        moves
            .iter()
            .skip(moves.len().saturating_sub(room - said_room))
            .cloned()
            .map(Line::from),
    );
    if said_room > 0 {
        lines.push(Line::from(Span::styled("Said", app.theme().accent())));
        lines.extend(
            said.iter()
                .skip(said.len() - (said_room - 1))
                .cloned()
                .map(Line::from),
        );
    }
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
            let number = crate::words::turn_number(2 * index + 1);
            let line = format!(" {number:>number_width$}. {}", pair.join("   "));
            line.trim_end().to_owned()
        })
        .collect()
}

/// The title and lines of an overlay box.
/// `kept`: the front end keeps the game under way when the person quits; `keys`: the keys
/// of the screen under the box, for its help; `front`: whose words.
pub(super) fn overlay_text(
    overlay: &Overlay,
    kept: bool,
    keys: fn(Front) -> Vec<String>,
    front: Front,
) -> (&'static str, Vec<String>) {
    let (title, mut lines) = match overlay {
        Overlay::Help => ("Keys", keys(front)),
        Overlay::Review(lines) => ("Review", lines.clone()),
        Overlay::Thought(lines) => ("Thought", lines.clone()),
        Overlay::Say(typed) => {
            // The end of a long line: what is being typed.
            let shown: String = {
                let count = typed.chars().count();
                typed.chars().skip(count.saturating_sub(40)).collect()
            };
            (
                "Say",
                vec![
                    "A line for everyone in the room:".to_owned(),
                    format!("  {}_", ttt_core::Shown(&shown)),
                    String::new(),
                    "Enter: say it. Esc: say nothing.".to_owned(),
                ],
            )
        }
        Overlay::Lobby(lobby) => (
            "Play online",
            lobby_lines(lobby, front)
                .into_iter()
                .map(|(line, _)| line)
                .collect(),
        ),
        Overlay::Confirm(leave) => {
            let (title, question) = match leave {
                Leave::Quit if kept => ("Quit?", "Quit? It is kept for next time."),
                Leave::Quit => ("Quit?", "Quit anyway?"),
                Leave::NewGame if kept => ("New game?", "New game? This one is kept to resume."),
                Leave::NewGame => ("New game?", "Start a new one anyway?"),
                Leave::Menu if kept => ("Start screen?", "Leave? It is kept to resume."),
                Leave::Menu => ("Start screen?", "Leave it for the start screen?"),
                Leave::Resign => ("Resign?", "Give it up? Your opponent wins."),
            };
            let answer = leave.answer();
            (
                title,
                vec![
                    "A game is in progress.".to_owned(),
                    question.to_owned(),
                    String::new(),
                    format!("{}{}", front.yes(answer), front.keep_playing()),
                ],
            )
        }
    };
    if !matches!(
        overlay,
        Overlay::Confirm(_) | Overlay::Lobby(_) | Overlay::Say(_)
    ) {
        lines.push(String::new());
        lines.push(front.close().to_owned());
    }
    (title, lines)
}

/// Whether a click at `column`, `row` falls on the yes of the box `overlay` asking before
/// leaving a game, drawn over `area` in the words of `front`.
pub(super) fn confirms(overlay: &Overlay, front: Front, area: Rect, column: u16, row: u16) -> bool {
    let Overlay::Confirm(leave) = overlay else {
        return false;
    };
    // The box has as many lines either way.
    let (_, lines) = overlay_text(overlay, false, help_lines, front);
    yes_cell(*leave, front, overlay_rect(area, &lines), &lines).contains((column, row).into())
}

/// Where the yes of a box asking before leaving a game is drawn, the box `rect` holding
/// `lines`: the last line, inside the frame (one cell) and its padding (one more).
fn yes_cell(leave: Leave, front: Front, rect: Rect, lines: &[String]) -> Rect {
    let width = front.yes(leave.answer()).chars().count() as u16;
    Rect::new(rect.x + 2, rect.y + lines.len() as u16, width, 1)
}

/// The box over the screen as `app` shows it: its title and lines.
pub(super) fn shown_overlay(app: &App, overlay: &Overlay) -> (&'static str, Vec<String>) {
    let (kept, keys): (bool, fn(Front) -> Vec<String>) = match app.screen() {
        Screen::Start(_) => (false, start_help_lines),
        Screen::Game(_) => (app.stats.is_some(), help_lines),
        // A room left mid-game waits a while for the player, then lets the other claim.
        Screen::Online(_) => (false, online_help_lines),
    };
    overlay_text(overlay, kept, keys, app.front)
}

/// The controls of the box `overlay` over `area`: its yes and "keep playing" when it asks
/// before leaving a game, "close" otherwise (a click anywhere but a yes closes a box).
pub(super) fn overlay_controls(app: &App, overlay: &Overlay, area: Rect) -> Vec<ShownControl> {
    let (_, lines) = shown_overlay(app, overlay);
    let rect = overlay_rect(area, &lines);
    if let Overlay::Lobby(lobby) = overlay {
        return lobby_controls(lobby, app.front, rect, &lines);
    }
    let Overlay::Confirm(leave) = overlay else {
        return vec![ShownControl {
            cell: rect,
            words: "close".to_owned(),
            click: (rect.x + 1, rect.y + 1),
        }];
    };
    let yes = yes_cell(*leave, app.front, rect, &lines);
    let keep_playing = app.front.keep_playing();
    let keep = Rect::new(yes.right(), yes.y, keep_playing.chars().count() as u16, 1);
    vec![
        ShownControl {
            cell: yes,
            words: format!("yes, {}", leave.answer()),
            click: (yes.x, yes.y),
        },
        ShownControl {
            cell: keep,
            words: "keep playing".to_owned(),
            click: (keep.x + 2, keep.y),
        },
    ]
}

/// The most rooms of the server's list the box of a friend online shows at once: those
/// about the one chosen.
const SHOWN_ROOMS: usize = 8;

/// What a click on a line of the box of a friend online does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LobbyLine {
    /// What Enter does: host, or join.
    Enter,
    /// Choose the line (a room joins at once).
    Field(Field),
}

/// The lines of the box of a friend online in the words of `front`, each with what a
/// click on it does.
fn lobby_lines(lobby: &Lobby, front: Front) -> Vec<(String, Option<LobbyLine>)> {
    let enter = match (lobby.enter(), front) {
        (LobbyAction::Join(code), Front::Terminal) => format!("Enter: join the room {code}."),
        (LobbyAction::Join(code), Front::Page) => format!("[ join the room {code} ]"),
        (_, Front::Terminal) if lobby.public => "Enter: host a new room, listed.".to_owned(),
        (_, Front::Terminal) => "Enter: host a new room for a friend.".to_owned(),
        (_, Front::Page) if lobby.public => "[ host a new room, listed ]".to_owned(),
        (_, Front::Page) => "[ host a new room for a friend ]".to_owned(),
    };
    let marked = |field: Field, text: String| {
        let (mark, cursor) = if lobby.field == field {
            ("› ", matches!(field, Field::Code | Field::Name))
        } else {
            ("  ", false)
        };
        let cursor = if cursor { "_" } else { "" };
        (
            format!("{mark}{text}{cursor}"),
            Some(LobbyLine::Field(field)),
        )
    };
    let public = if lobby.public {
        "yes, anyone may join"
    } else {
        "no, only with the code"
    };
    let mut lines = vec![
        (enter, Some(LobbyLine::Enter)),
        (String::new(), None),
        marked(Field::Code, format!("Code:   {}", lobby.code)),
        marked(Field::Name, format!("Name:   {}", lobby.name)),
        marked(Field::Public, format!("Listed: {public}")),
        (String::new(), None),
        ("Rooms waiting for a player:".to_owned(), None),
    ];
    match &lobby.rooms {
        None => lines.push(("  asking the server…".to_owned(), None)),
        Some(Err(why)) => lines.push((format!("  {why}"), None)),
        Some(Ok(rooms)) if rooms.is_empty() => lines.push(("  none for now".to_owned(), None)),
        Some(Ok(rooms)) => {
            let chosen = match lobby.field {
                Field::Room(index) => index,
                _ => 0,
            };
            let first = chosen
                .saturating_sub(SHOWN_ROOMS / 2)
                .min(rooms.len().saturating_sub(SHOWN_ROOMS));
            lines.extend(
                rooms
                    .iter()
                    .enumerate()
                    .skip(first)
                    .take(SHOWN_ROOMS)
                    .map(|(index, room)| marked(Field::Room(index), room.line())),
            );
            if rooms.len() > SHOWN_ROOMS {
                lines.push((format!("  ({} in all: ↑↓ for more)", rooms.len()), None));
            }
        }
    }
    lines.push((String::new(), None));
    lines.push((
        match front {
            Front::Terminal => "↑↓, Tab: another line. Esc: back.",
            Front::Page => "Tap a line to change it. Esc: back.",
        }
        .to_owned(),
        None,
    ));
    lines
}

/// The first row of each line of a box `rect` holding `lines` (lines too long for it take
/// more), at most as many as there are lines.
fn line_rows(rect: Rect, lines: &[String]) -> Vec<u16> {
    let width = rect.width.saturating_sub(4);
    let mut row = rect.y + 1;
    lines
        .iter()
        .map(|line| {
            let at = row;
            row += box_rows(std::slice::from_ref(line), width).len() as u16;
            at
        })
        .collect()
}

/// What is at `column`, `row` of the box of a friend online that `app` shows: none
/// outside the box, a line's click inside it (none between the lines that act).
pub(super) fn lobby_line_at(
    app: &App,
    lobby: &Lobby,
    column: u16,
    row: u16,
) -> Option<Option<LobbyLine>> {
    let lines = lobby_lines(lobby, app.front);
    let texts: Vec<String> = lines.iter().map(|(line, _)| line.clone()).collect();
    let rect = overlay_rect(app.area, &texts);
    if !rect.contains((column, row).into()) {
        return None;
    }
    let at = line_rows(rect, &texts);
    let index = at.iter().rposition(|&first| first <= row)?;
    Some(lines[index].1)
}

/// The controls of the box of a friend online, `rect` holding `lines`: each line that acts.
fn lobby_controls(lobby: &Lobby, front: Front, rect: Rect, lines: &[String]) -> Vec<ShownControl> {
    let rows = line_rows(rect, lines);
    lobby_lines(lobby, front)
        .into_iter()
        .zip(rows)
        .filter_map(|((line, click), row)| {
            click?;
            let words = line
                .trim_start_matches(['›', '['])
                .trim_end_matches([']', '_'])
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let cell = Rect::new(rect.x + 2, row, line.chars().count() as u16, 1);
            Some(ShownControl {
                cell: cell.intersection(rect),
                words,
                click: (cell.x + 2, row),
            })
        })
        .collect()
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
    // Inside the frame (one column each side) and its padding (one more): a line longer
    // than that wraps, and the box grows to hold it.
    let rows = box_rows(lines, width.saturating_sub(4)).len() as u16;
    let height = (rows + 2).min(area.height);
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}

/// The rows of a box `width` columns wide showing `lines`. A line too long for it is
/// broken between words, and the rest set under its text where a column of keys comes
/// first (the help's lines: the key, two spaces or more, what it does), or under its first
/// word's start otherwise.
///
/// ```text
/// r                   review of the finished
///                     game
/// ```
fn box_rows(lines: &[String], width: u16) -> Vec<String> {
    let width = usize::from(width.max(1));
    let mut rows = Vec::new();
    for line in lines {
        if line.chars().count() <= width {
            rows.push(line.clone());
            continue;
        }
        let indent = line.chars().take_while(|c| *c == ' ').count();
        // The text after a column of keys, if the line has one and it leaves room.
        let hang = line
            .find("  ")
            .filter(|&at| at > indent)
            .and_then(|at| line[at..].find(|c| c != ' ').map(|text| at + text))
            .map(|at| line[..at].chars().count())
            .filter(|&hang| hang <= 24 && hang + 12 <= width)
            .unwrap_or(indent.min(width / 2));
        let (head, tail) = line.split_at(
            line.char_indices()
                .nth(hang)
                .map_or(line.len(), |(at, _)| at),
        );
        let mut row = head.to_owned();
        for word in tail.split_whitespace() {
            let used = row.chars().count();
            if used > hang && used + 1 + word.chars().count() > width {
                rows.push(std::mem::replace(&mut row, " ".repeat(hang)));
            } else if used > hang {
                row.push(' ');
            }
            row.push_str(word);
            // A word longer than the row is broken over as many rows as it takes.
            while row.chars().count() > width {
                let at = row
                    .char_indices()
                    .nth(width)
                    .map_or(row.len(), |(at, _)| at);
                let rest = row.split_off(at);
                rows.push(std::mem::replace(&mut row, rest));
            }
        }
        rows.push(row);
    }
    rows
}

fn overlay_box(app: &App, overlay: &Overlay, area: Rect, buf: &mut Buffer) {
    let (title, lines) = shown_overlay(app, overlay);
    let rect = overlay_rect(area, &lines);
    Clear.render(rect, buf);
    let mut block = Block::new()
        .borders(Borders::ALL)
        .padding(Padding::horizontal(1))
        .title(Span::styled(format!(" {title} "), app.theme().accent()));
    let hidden = hidden_rows(rect, &lines);
    let scroll = app.scroll.min(hidden);
    if hidden > 0 {
        // Which way there is more, on the bottom line of the frame.
        let more = match (scroll > 0, scroll < hidden) {
            (true, true) => " ↑↓: more ",
            (false, _) => " ↓: more ",
            (true, false) => " ↑: more ",
        };
        block = block
            .title_bottom(Line::from(Span::styled(more, app.theme().accent())).right_aligned());
    }
    let rows = box_rows(&lines, rect.width.saturating_sub(4));
    Paragraph::new(rows.into_iter().map(Line::from).collect::<Vec<_>>())
        .scroll((scroll, 0))
        .block(block)
        .render(rect, buf);
}

/// How many rows of the box `overlay` do not fit a window of `area`: as many as can be
/// scrolled out of sight.
pub(super) fn overlay_hidden_rows(app: &App, overlay: &Overlay, area: Rect) -> u16 {
    let (_, lines) = shown_overlay(app, overlay);
    hidden_rows(overlay_rect(area, &lines), &lines)
}

/// How many rows of `lines` do not fit the box `rect`, inside its frame and padding.
fn hidden_rows(rect: Rect, lines: &[String]) -> u16 {
    let rows = box_rows(lines, rect.width.saturating_sub(4)).len() as u16;
    rows.saturating_sub(rect.height.saturating_sub(2))
}

/// The start screen's keys, for its help, in the words of `front`.
pub(super) fn start_help_lines(front: Front) -> Vec<String> {
    help_table(
        &[
            (front.line_keys(), "go to another line"),
            ("←→, hl, ad, Space", "change the line's choice"),
            (front.pointer(), "change a line (on its ‹: back)"),
            ("Enter", "start the game"),
            ("r", "resume the unfinished game, when offered"),
            ("?", "this help"),
            ("q, Esc", "quit"),
            ("Ctrl-C", "quit at once"),
        ],
        front,
    )
}

/// The game's keys, for its help (see [`start_help_lines`]).
pub(super) fn help_lines(front: Front) -> Vec<String> {
    // Hints come from the exact solver: on its boards only.
    let hint = format!(
        "hint: each free square's value (up to {} squares)",
        ttt_solver::MAX_SOLVED_SQUARES
    );
    let place = match front {
        Front::Terminal => "place on that square",
        // A square smaller than a fingertip takes a tap to choose it and one to play.
        Front::Page => "place on that square (a small one: tap twice)",
    };
    help_table(
        &[
            ("arrows, hjkl, wasd", "move the cursor"),
            ("Enter, Space", "place your mark"),
            (
                "digits, t",
                "type a square's name (5, 3 2, h8); Esc cancels",
            ),
            (front.pointer(), place),
            ("H", hint.as_str()),
            ("i", "what the computer thought for its last move"),
            ("u", "undo"),
            ("n", "new game"),
            ("r", "review of the finished game"),
            ("m", "back to the start screen"),
            ("?", "this help"),
            ("q, Esc", "quit (asks during a game)"),
            ("Ctrl-C", "quit at once"),
        ],
        front,
    )
}

/// The online screen's keys, for its help (see [`start_help_lines`]).
pub(super) fn online_help_lines(front: Front) -> Vec<String> {
    help_table(
        &[
            ("arrows, hjkl, wasd", "move the cursor"),
            (
                "Enter, Space",
                "place your mark (the server says if it may)",
            ),
            (
                "digits, t",
                "type a square's name (5, 3 2, h8); Esc cancels",
            ),
            (front.pointer(), "place on that square"),
            ("u", "ask to undo your move (your friend answers)"),
            ("y, n", "answer your friend's undo"),
            ("n", "another game, once this one is over"),
            ("c", "claim the game of a friend who left"),
            ("g", "give the game up"),
            ("m", "leave the room for the start screen"),
            ("/", "say a line to the room; Enter says it"),
            ("?", "this help"),
            ("q, Esc", "quit (asks during a game)"),
        ],
        front,
    )
}

/// Lines of a help box: each key, then what it does; without quitting where there is
/// nothing to quit to.
fn help_table(entries: &[(&str, &str)], front: Front) -> Vec<String> {
    entries
        .iter()
        .filter(|(_, what)| front.quits() || !what.starts_with("quit"))
        .map(|(key, what)| format!("{key:<20}{what}"))
        .collect()
}
