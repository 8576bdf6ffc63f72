//! The web page: the app on Ratzilla's DOM backend, driven by the browser's keys, clicks,
//! window size and animation frames; the slow work posted to two web workers (one for the
//! computer's moves, one for hints and reviews) that run this same wasm.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;

use ratzilla::DomBackend;
use ratzilla::ratatui::backend::Backend;
use ratzilla::ratatui::layout::Rect;
use ratzilla::ratatui::{Terminal, TerminalOptions, Viewport};
use ttt_core::{Mark, Rules};
use ttt_play::app::{
    App, Ask, Field, Front, Input, Job, KeptGames, Key, ShownControl, ShownMark, ShownSquare, Theme,
};
use ttt_play::session::Thinking;
use ttt_play::{Seats, Settings};
use ttt_players::PlayerError;
use wasm_bindgen::prelude::*;

use crate::online::{Heard, Listing, Online};
use crate::protocol::{self, Reply, Request};
use crate::storage;
use ttt_play::records::{Recorder, Remembered};

#[wasm_bindgen]
extern "C" {
    /// Posts a request line to a worker: `move` for the computer's moves, `job` for hints
    /// and reviews (defined by the page's script).
    #[wasm_bindgen(js_namespace = globalThis, js_name = tttPost)]
    fn post(worker: &str, request: &str);
}

/// The id of the element the game is drawn in.
const SCREEN: &str = "screen";

/// The id of the grid of cells the DOM backend makes inside [`SCREEN`].
const GRID: &str = "screen_ratzilla_grid";

/// The id of the layer the marks are drawn in, over the screen (beside it in the page,
/// since the backend empties the screen element when it remakes its grid).
const MARKS: &str = "marks";

/// The id of the board as a grid of buttons, for screen readers and keyboard focus.
const BOARD: &str = "board";

/// The id of the screen's controls as buttons, for screen readers and keyboard focus.
const CONTROLS: &str = "controls";

/// The id of the live region that says each move and result.
const SAID: &str = "said";

/// The smallest square a finger hits reliably, in CSS pixels (WCAG's target size): on a
/// touch screen, a smaller square is played by two taps, one to choose it and one to play.
const FINGERTIP: f64 = 44.0;

/// The share of a small square's width and height, about its middle, where the middle of
/// two taps or more plays it (see [`Page::tap`]).
const CONFIRMED: f64 = 0.6;

/// The most taps taken together (see [`Page::tap`]).
const MAX_TAPS: usize = 8;

/// The app and the work it handed out, waiting for the workers' replies.
struct Page {
    app: App,
    /// The games, kept in the browser's local storage.
    kept: KeptGames,
    /// The start screen's choices as last kept.
    remembered: Option<Remembered>,
    /// The cells drawn in.
    area: Rect,
    thinking: Option<Thinking>,
    job: Option<Job>,
    /// The marks drawn in the marks layer.
    marks: Vec<ShownMark>,
    /// The board's squares in the grid of buttons.
    squares: Vec<ShownSquare>,
    /// The screen's controls as buttons.
    controls: Vec<ShownControl>,
    /// The window's size the layers over the screen were placed for.
    placed_for: Option<(u32, u32)>,
    /// What the live region said last.
    said: String,
    /// This tab's id, in its hold on the kept game it plays.
    tab: String,
    /// The kept game this tab holds, so that no other tab offers it.
    holding: Option<String>,
    /// The taps aimed at one small square so far, in the page's pixels (see
    /// [`Page::tap`]).
    taps: Vec<(f64, f64)>,
    /// The room the page plays in, if it is in one.
    online: Option<Online>,
    /// The question for the server's list of rooms, while it waits for the answer.
    listing: Option<Listing>,
}

thread_local! {
    static PAGE: RefCell<Option<Rc<RefCell<Page>>>> = const { RefCell::new(None) };
}

/// The page's clock: milliseconds since it loaded, as the app's time.
fn now() -> Duration {
    web_sys::window()
        .and_then(|window| window.performance())
        .map(|performance| Duration::from_secs_f64(performance.now().max(0.0) / 1000.0))
        .unwrap_or_default()
}

fn media(query: &str) -> bool {
    web_sys::window()
        .and_then(|window| window.match_media(query).ok().flatten())
        .is_some_and(|list| list.matches())
}

impl Page {
    /// Handles an input from the person, and draws what it changed.
    fn handle(&mut self, input: Input) {
        self.apply(input);
        wake();
    }

    /// Handles an input, in a frame about to be drawn or from the person.
    fn apply(&mut self, input: Input) {
        self.app.handle(input, now());
        if self.app.end().is_some() {
            // A page has nothing to quit to: quitting goes back to the start screen, with
            // the last game's choices and the score kept.
            self.app.start_over();
        }
        self.settle();
    }

    /// After a change: the work the app handed out posted, and what changed kept.
    fn settle(&mut self) {
        self.send_work();
        self.send_asks();
        self.keep();
    }

    /// Sends what the person asked of the room: opening one connects, leaving closes.
    fn send_asks(&mut self) {
        for ask in self.app.take_asks() {
            match ask {
                Ask::Host {
                    rules,
                    clock,
                    public,
                    name,
                } => {
                    crate::online::rename(&name);
                    let clock = clock.and_then(|clock| clock.parse().ok());
                    self.go_online(Online::host(rules, clock, public));
                }
                Ask::Join { code, name } => {
                    crate::online::rename(&name);
                    match code.parse() {
                        Ok(code) => self.go_online(Online::join(code)),
                        Err(error) => self.app.online_closed(format!("{error}.")),
                    }
                }
                Ask::ListRooms => match Listing::ask(listed) {
                    Ok(listing) => self.listing = Some(listing),
                    Err(error) => self.app.listed(Err(format!(
                        "The page could not ask for the rooms: {}.",
                        error.as_string().unwrap_or_default()
                    ))),
                },
                Ask::Edit { field, text } => {
                    let question = match field {
                        Field::Name => "Your name, as the others see it:",
                        _ => "The code of the room to join (K7QX-2M):",
                    };
                    if let Some(answer) = web_sys::window().and_then(|window| {
                        window
                            .prompt_with_message_and_default(question, &text)
                            .ok()
                            .flatten()
                    }) {
                        self.app.edited(field, &answer);
                    }
                }
                Ask::Leave => {
                    if let Some(mut online) = self.online.take() {
                        online.step_away();
                    }
                }
                Ask::LeaveRoom => {
                    if let Some(mut online) = self.online.take() {
                        online.leave_for_good();
                    }
                }
                ask => {
                    let Some(online) = &mut self.online else {
                        continue;
                    };
                    if !online.send(ask) {
                        self.app.online_note(
                            "Not connected to the server: wait until the connection is back."
                                .to_owned(),
                            true,
                        );
                    }
                }
            }
        }
    }

    /// Connects to the room `online` names.
    fn go_online(&mut self, online: Online) {
        if let Some(mut old) = self.online.replace(online) {
            old.close();
        }
        self.connect();
    }

    /// The page's address changed (a room's link pasted into this tab, or followed): into
    /// the room it names, unless the page is in it already.
    fn followed_address(&mut self) {
        let Some(named) = crate::online::address_code() else {
            return;
        };
        let here = self.online.as_ref().and_then(Online::code);
        if here == Some(named.to_string().as_str()) {
            return;
        }
        let online = Online::join(named);
        self.app.enter_online(online.rules());
        self.go_online(online);
    }

    /// Opens the room's connection (again, after a drop).
    fn connect(&mut self) {
        let Some(online) = &mut self.online else {
            return;
        };
        if let Err(error) = online.connect(heard) {
            online.close();
            self.online = None;
            self.app.online_closed(format!(
                "The page could not open a connection: {}.",
                error.as_string().unwrap_or_default()
            ));
        }
    }

    /// What the room's connection heard.
    fn heard(&mut self, heard: Heard) {
        // The app's time brought up to now first: clocks told count down from it (an
        // idle page draws no frames, and its time stands still until one).
        self.app.handle(Input::Tick, now());
        let Some(online) = &mut self.online else {
            return;
        };
        let again = match heard {
            Heard::Opened => {
                online.opened();
                None
            }
            Heard::Message(text) => online
                .heard(&text, &mut self.app)
                .then_some(Duration::from_secs(1)),
            Heard::Closed => online.dropped(&mut self.app),
        };
        if !matches!(self.app.screen(), ttt_play::app::Screen::Online(_)) {
            // The room is over for the page (refused, gone): nothing to come back to.
            if let Some(mut online) = self.online.take() {
                online.leave();
            }
        } else if let Some(wait) = again {
            come_back_in(wait);
        }
        self.settle();
        wake();
    }

    /// Keeps what changed: a game that ended, the game under way after each move (a page
    /// can be closed at any moment), and the start screen's choices.
    fn keep(&mut self) {
        let now = storage::now();
        let _ = self.kept.follow(&mut self.app, now);
        let _ = self.kept.leave(&self.app, now);
        let holding = self.kept.holding(&self.app).map(str::to_owned);
        if holding != self.holding {
            if let Some(old) = &self.holding {
                storage::let_go(&self.tab, old);
            }
            if let Some(new) = &holding {
                storage::hold(&self.tab, new);
            }
            self.holding = holding;
        }
        if let Some(choices) = self.app.remembered()
            && self.remembered.as_ref() != Some(&choices)
        {
            storage::keep_choices(&choices);
            self.remembered = Some(choices);
        }
    }

    /// What a tap at the page's point `at` on a touch screen does: a click, but on a
    /// board whose squares are smaller than a fingertip a tap chooses a square (the cursor
    /// goes there) and plays nothing. A finger scatters, so the taps aimed at one place are
    /// taken together: the square under their middle is chosen, and played once two taps
    /// or more put their middle well inside it ([`CONFIRMED`] of it each way). A tap more
    /// than a square away from the others starts afresh. So a tap off target plays
    /// nothing, and tapping the square wanted again plays it.
    fn tap(&mut self, input: Input, at: (f64, f64)) -> Input {
        let Input::Click { column, row } = input else {
            return input;
        };
        let small = |cell: Rect| {
            cell_box(cell).filter(|&(_, _, width, height)| width.min(height) < FINGERTIP)
        };
        let square_at = |column: u16, row: u16| {
            self.squares
                .iter()
                .find(|shown| shown.cell.contains((column, row).into()))
        };
        let Some((_, _, width, height)) = square_at(column, row).and_then(|hit| small(hit.cell))
        else {
            self.taps.clear();
            return input;
        };
        let middle = |taps: &[(f64, f64)]| {
            let count = taps.len().max(1) as f64;
            let (x, y) = taps
                .iter()
                .fold((0.0, 0.0), |(x, y), tap| (x + tap.0, y + tap.1));
            (x / count, y / count)
        };
        let (x, y) = middle(&self.taps);
        if self.taps.is_empty() || (at.0 - x).abs() > width || (at.1 - y).abs() > height {
            self.taps.clear();
        }
        // The latest few count: a long run of taps at a square's edge stays bounded.
        if self.taps.len() == MAX_TAPS {
            self.taps.remove(0);
        }
        self.taps.push(at);
        let (x, y) = middle(&self.taps);
        let Some(Input::Click { column, row }) = cell_at(x, y) else {
            return Input::Select { column, row };
        };
        let Some((left, top, width, height)) =
            square_at(column, row).and_then(|hit| small(hit.cell))
        else {
            return Input::Select { column, row };
        };
        let inside = (x - (left + width / 2.0)).abs() <= CONFIRMED * width / 2.0
            && (y - (top + height / 2.0)).abs() <= CONFIRMED * height / 2.0;
        if self.taps.len() >= 2 && inside {
            self.taps.clear();
            Input::Click { column, row }
        } else {
            Input::Select { column, row }
        }
    }

    /// Whether a click at this cell does something: on a control or a square.
    fn acts_at(&self, column: u16, row: u16) -> bool {
        let cells = self.controls.iter().map(|control| control.cell);
        let mut cells = cells.chain(self.squares.iter().map(|shown| shown.cell));
        cells.any(|cell| cell.contains((column, row).into()))
    }

    /// Follows what other tabs hold: a game one of them took up is not offered here, one
    /// let go is offered again. Returns whether the offer changed.
    fn others_changed(&mut self) -> bool {
        let held = storage::held_elsewhere(&self.tab);
        self.kept.open_elsewhere(&mut self.app, held)
    }

    /// Renews this tab's hold, and follows the holds of other tabs that lapsed.
    fn renew(&mut self) -> bool {
        if let Some(id) = &self.holding {
            storage::hold(&self.tab, id);
        }
        if let Some(online) = &self.online {
            online.still_playing();
        }
        self.others_changed()
    }

    /// Lets go of the game this tab holds, as the tab closes.
    fn let_go(&mut self) {
        if let Some(id) = self.holding.take() {
            storage::let_go(&self.tab, &id);
        }
        if let Some(online) = &self.online {
            online.stop_playing();
        }
    }

    /// Posts the work the app handed out to the workers.
    fn send_work(&mut self) {
        if let Some(thinking) = self.app.take_thinking() {
            match thinking.order() {
                Some(order) => {
                    post("move", &Request::Move(order).encode());
                    self.thinking = Some(thinking);
                }
                // An outside engine: the page cannot run one, and says so in the game.
                None => self.app.receive(thinking.think(), now()),
            }
        }
        if let Some(job) = self.app.take_job() {
            let request = Request::Job(job.purpose(), job.naming(), job.position().clone());
            post("job", &request.encode());
            self.job = Some(job);
        }
    }

    /// A worker's reply: the thought or the finished job handed back to the app, which
    /// drops it if the game has moved on since.
    fn deliver(&mut self, worker: &str, line: &str) {
        let reply = Reply::decode(line).unwrap_or_else(Reply::Error);
        match (worker, reply) {
            ("move", reply) => {
                if let Some(thinking) = self.thinking.take() {
                    let (choice, said) = match reply {
                        Reply::Move(square, said) => (Ok(square), said),
                        _ => (Err(PlayerError::NoMove), None),
                    };
                    self.app.receive(thinking.answer(choice, said), now());
                }
            }
            (_, reply) => {
                if let Some(job) = self.job.take() {
                    let answer = match reply {
                        Reply::Answer(answer) => Ok(answer),
                        Reply::Error(message) => Err(message),
                        Reply::Move(..) => Err("The worker answered something else.".to_owned()),
                    };
                    self.app.finish_job(job.answered(answer));
                }
            }
        }
        self.settle();
        wake();
    }
}

fn to_js(error: impl std::fmt::Display) -> JsValue {
    JsValue::from_str(&error.to_string())
}

/// How many cells of the page's font fit the screen element, measured as the DOM backend
/// measures them.
fn grid_size() -> Option<(u16, u16)> {
    let (width, height) = cell_size()?;
    let screen = element(SCREEN)?.get_bounding_client_rect();
    Some((
        (screen.width() / width) as u16,
        (screen.height() / height) as u16,
    ))
}

/// The size of one cell of the page's font in CSS pixels, measured as the DOM backend
/// measures it: a block character in a `pre` inside the screen element.
fn cell_size() -> Option<(f64, f64)> {
    cell_size_at("inherit")
}

/// The size of one cell at the CSS font size `font` (`inherit` for the screen's own).
fn cell_size_at(font: &str) -> Option<(f64, f64)> {
    let document = web_sys::window()?.document()?;
    let parent = document.get_element_by_id(SCREEN)?;
    let pre = document.create_element("pre").ok()?;
    pre.set_attribute(
        "style",
        &format!("margin: 0; padding: 0; border: 0; line-height: normal; font-size: {font};"),
    )
    .ok()?;
    let span = document.create_element("span").ok()?;
    span.set_inner_html("\u{2588}");
    span.set_attribute("style", "display: inline-block; width: 1ch;")
        .ok()?;
    pre.append_child(&span).ok()?;
    parent.append_child(&pre).ok()?;
    let cell = span.get_bounding_client_rect();
    parent.remove_child(&pre).ok()?;
    (cell.width() > 0.0 && cell.height() > 0.0).then(|| (cell.width(), cell.height()))
}

/// The largest font, in CSS pixels, at which `app` shows its screen in the screen element
/// (at least one of the app's layouts: 80x24 cells, 46x40 held upright or 46x15 small,
/// with room for the board). The page always shows the game, on a phone turned either way
/// too, and zoom enlarges it (a zoomed page has fewer CSS pixels, which the small layout
/// fills with the same font); never above 22 px, where a big window gains nothing.
///
/// Found by trying sizes, each cell measured as the DOM backend measures it: a line's
/// height is rounded to whole pixels at small sizes, so it is not a share of the font.
fn fitting_font(app: &App) -> Option<f64> {
    let screen = element(SCREEN)?.get_bounding_client_rect();
    let fits = |font: f64| {
        cell_size_at(&format!("{font:.2}px")).is_some_and(|(width, height)| {
            let cells =
                |length: f64, cell: f64| (length / cell).floor().min(f64::from(u16::MAX)) as u16;
            let area = Rect::new(
                0,
                0,
                cells(screen.width(), width),
                cells(screen.height(), height),
            );
            !app.too_small(area)
        })
    };
    let (mut low, mut high) = (1.0, 22.0);
    if fits(high) {
        return Some(high);
    }
    for _ in 0..14 {
        let middle = (low + high) / 2.0;
        if fits(middle) {
            low = middle;
        } else {
            high = middle;
        }
    }
    Some(low)
}

/// Sets the screen element's font to [`fitting_font`]. A new font is told to the DOM
/// backend as a resize (the one event it follows), so that it lays its grid out again for
/// cells of the new size when it next draws.
fn fit_font(app: &App) {
    let Some(font) = fitting_font(app) else {
        return;
    };
    let screen =
        element(SCREEN).and_then(|element| element.dyn_into::<web_sys::HtmlElement>().ok());
    let Some(screen) = screen else {
        return;
    };
    let font = format!("{font:.2}px");
    if screen.style().get_property_value("font-size").ok() != Some(font.clone()) {
        let _ = screen.style().set_property("font-size", &font);
        if let (Some(window), Ok(resize)) = (web_sys::window(), web_sys::Event::new("resize")) {
            let _ = window.dispatch_event(&resize);
        }
    }
}

/// The area to draw in: what fits the screen element, and never more than the backend's
/// grid of cells holds; and whether the grid held it back (a grid laid out for another
/// size, to be laid out again as the backend next draws).
fn area(terminal: &mut Terminal<DomBackend>) -> (Rect, bool) {
    let (columns, rows) = grid_size().unwrap_or((80, 24));
    let grid = terminal
        .backend_mut()
        .window_size()
        .map(|size| size.columns_rows)
        .unwrap_or_default();
    let area = Rect::new(0, 0, columns.min(grid.width), rows.min(grid.height));
    (area, columns > grid.width || rows > grid.height)
}

/// The page's element of this id.
fn element(id: &str) -> Option<web_sys::Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

/// The cell element the backend drew at `column` and `row` of its grid.
fn cell_element(column: u16, row: u16) -> Option<web_sys::Element> {
    let grid = element(GRID)?;
    grid.children()
        .item(u32::from(row))?
        .children()
        .item(u32::from(column))
}

/// Where `cell` (in the screen's cells) lies on the page: left, top, width and height in
/// CSS pixels, from the cells the backend laid out (not from a measured cell size, which
/// drifts over a wide board).
fn cell_box(cell: Rect) -> Option<(f64, f64, f64, f64)> {
    let first = cell_element(cell.x, cell.y)?.get_bounding_client_rect();
    let last = cell_element(cell.right() - 1, cell.bottom() - 1)?.get_bounding_client_rect();
    Some((
        first.left(),
        first.top(),
        last.right() - first.left(),
        last.bottom() - first.top(),
    ))
}

/// The style that places an element over `cell` (in the screen's cells) on the page.
fn placed(cell: Rect) -> Option<String> {
    let (left, top, width, height) = cell_box(cell)?;
    Some(format!(
        "left:{left}px;top:{top}px;width:{width}px;height:{height}px"
    ))
}

/// An X (two strokes) or an O (a ring) filling a square of 100 by 100.
fn mark_shape(mark: Mark) -> &'static str {
    match mark {
        Mark::X => r#"<path d="M22 22 L78 78 M78 22 L22 78"/>"#,
        Mark::O => r#"<circle cx="50" cy="50" r="29"/>"#,
    }
}

/// Draws `marks` in the marks layer, each an SVG shape over its square, in place of the
/// line drawings a terminal shows.
fn draw_marks(marks: &[ShownMark]) {
    let Some(layer) = element(MARKS) else {
        return;
    };
    let mut shapes = String::new();
    for shown in marks {
        let Some(place) = placed(shown.cell) else {
            continue;
        };
        let mut classes = format!("mark mark-{}", shown.mark.to_string().to_lowercase());
        if shown.winning {
            classes.push_str(" winning");
        }
        if shown.last {
            classes.push_str(" last");
        }
        if shown.cursor {
            classes.push_str(" cursor");
        }
        shapes.push_str(&format!(
            r#"<svg class="{classes}" viewBox="0 0 100 100" preserveAspectRatio="xMidYMid meet" style="{place}">{}</svg>"#,
            mark_shape(shown.mark)
        ));
    }
    layer.set_inner_html(&shapes);
}

/// The board as a grid of buttons over the squares, each named in words ("5: row 2,
/// column 2, X"), for a screen reader; a button pressed (a click, or Enter on one that has
/// focus) plays its square as a click on it would.
fn board_buttons(squares: &[ShownSquare]) {
    let Some(layer) = element(BOARD) else {
        return;
    };
    let mut html = String::new();
    let mut row = None;
    for shown in squares {
        if row != Some(shown.row) {
            if row.is_some() {
                html.push_str("</div>");
            }
            html.push_str(r#"<div role="row">"#);
            row = Some(shown.row);
        }
        let Some(place) = placed(shown.cell) else {
            continue;
        };
        let centre = (
            shown.cell.x + shown.cell.width.saturating_sub(1) / 2,
            shown.cell.y + shown.cell.height / 2,
        );
        html.push_str(&button(r#" role="gridcell""#, &shown.words, centre, &place));
    }
    if row.is_some() {
        html.push_str("</div>");
    }
    layer.set_inner_html(&html);
}

/// The screen's controls as buttons over where they are drawn, each named in words
/// ("Board: Tic-tac-toe (3x3)", "undo"), for a screen reader and the keyboard's focus, and
/// seen as buttons: a one-line control (an entry of a key list, play again, yes, keep
/// playing) is framed, and any control lights up under the pointer. A button pressed
/// clicks its control.
fn control_buttons(controls: &[ShownControl]) {
    let Some(layer) = element(CONTROLS) else {
        return;
    };
    let mut html = String::new();
    for control in controls {
        let Some(place) = placed(control.cell) else {
            continue;
        };
        let framed = if control.cell.height == 1 {
            r#" class="framed""#
        } else {
            ""
        };
        html.push_str(&button(framed, &control.words, control.click, &place));
    }
    layer.set_inner_html(&html);
}

/// A button named `words`, placed at `place` and pressed as a click at the cell `click`
/// ([`button_click`]), with any `attributes` more.
fn button(attributes: &str, words: &str, click: (u16, u16), place: &str) -> String {
    format!(
        r#"<button{attributes} aria-label="{}" data-column="{}" data-row="{}" style="{place}"></button>"#,
        escaped(words),
        click.0,
        click.1
    )
}

/// `text` with the characters HTML gives a meaning escaped, for an attribute's value.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Says `text` in the live region, for a screen reader to read out.
fn say(text: &str) {
    if let Some(region) = element(SAID) {
        region.set_text_content(Some(text));
    }
}

/// The click a board button stands for: its square's middle cell.
fn button_click(event: &web_sys::Event) -> Option<Input> {
    let button: web_sys::Element = event.target()?.dyn_into().ok()?;
    let number = |name: &str| button.get_attribute(name)?.parse::<u16>().ok();
    Some(Input::Click {
        column: number("data-column")?,
        row: number("data-row")?,
    })
}

/// The game's key for a key pressed on the page, if it is one (Tab is not: on a page it
/// moves the focus between the board's squares and the controls).
fn key(event: &web_sys::KeyboardEvent) -> Option<Key> {
    if event.ctrl_key() || event.alt_key() || event.meta_key() {
        return None;
    }
    let name = event.key();
    Some(match name.as_str() {
        "Enter" => Key::Enter,
        "Escape" => Key::Esc,
        "Backspace" => Key::Backspace,
        "ArrowUp" => Key::Up,
        "ArrowDown" => Key::Down,
        "ArrowLeft" => Key::Left,
        "ArrowRight" => Key::Right,
        "Home" => Key::Home,
        "End" => Key::End,
        _ => {
            let mut characters = name.chars();
            match (characters.next(), characters.next()) {
                (Some(character), None) => Key::Char(character),
                _ => return None,
            }
        }
    })
}

/// The cell under a press of the main button or a tap, counted as the screen element's
/// grid of cells is laid out (measured afresh, so it holds after any resize).
fn click(event: &web_sys::MouseEvent) -> Option<Input> {
    if event.button() != 0 {
        return None;
    }
    if let Some(input) = clicked_cell(event) {
        return Some(input);
    }
    let (width, height) = cell_size()?;
    let screen = element(SCREEN)?.get_bounding_client_rect();
    let (x, y) = (
        f64::from(event.client_x()) - screen.left(),
        f64::from(event.client_y()) - screen.top(),
    );
    if x < 0.0 || y < 0.0 {
        return None;
    }
    Some(Input::Click {
        column: u16::try_from((x / width) as u64).ok()?,
        row: u16::try_from((y / height) as u64).ok()?,
    })
}

/// The cell under the page's point (`x`, `y`), as [`clicked_cell`] finds it.
fn cell_at(x: f64, y: f64) -> Option<Input> {
    let document = web_sys::window()?.document()?;
    grid_place(&document.element_from_point(x as f32, y as f32)?)
}

/// The cell element under a press, counted in the grid the backend laid out: exact on
/// any board, where counting from a measured cell size drifts over a wide one.
fn clicked_cell(event: &web_sys::MouseEvent) -> Option<Input> {
    grid_place(&event.target()?.dyn_into().ok()?)
}

/// Where `cell` is in the grid the backend laid out, if it is one of its cells.
fn grid_place(cell: &web_sys::Element) -> Option<Input> {
    let line = cell.parent_element()?;
    let grid = line.parent_element()?;
    if grid.id() != GRID {
        return None;
    }
    let place = |parent: &web_sys::Element, child: &web_sys::Element| {
        let children = parent.children();
        (0..children.length())
            .find(|&index| {
                children
                    .item(index)
                    .is_some_and(|other| other.is_same_node(Some(child)))
            })
            .and_then(|index| u16::try_from(index).ok())
    };
    Some(Input::Click {
        column: place(&line, cell)?,
        row: place(&grid, &line)?,
    })
}

/// Listens on the page itself, not on the grid of cells the DOM backend draws in: the
/// backend makes a new grid when the window's size changes, and listeners on the old one
/// would hear nothing after a resize or a turn of a phone.
fn listen(page: &Rc<RefCell<Page>>) -> Result<(), JsValue> {
    let document = web_sys::window()
        .and_then(|window| window.document())
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let keys = Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new({
        let page = page.clone();
        move |event: web_sys::KeyboardEvent| {
            // Enter or space on a board button is that button's press, not the cursor's.
            let on_button = event
                .target()
                .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|element| element.tag_name() == "BUTTON");
            if on_button && matches!(event.key().as_str(), "Enter" | " ") {
                return;
            }
            if let Some(key) = key(&event) {
                page.borrow_mut().handle(Input::Key(key));
            }
        }
    });
    document.add_event_listener_with_callback("keydown", keys.as_ref().unchecked_ref())?;
    let screen = document
        .get_element_by_id(SCREEN)
        .ok_or_else(|| JsValue::from_str("no screen element"))?;
    let clicks = Closure::<dyn FnMut(web_sys::PointerEvent)>::new({
        let page = page.clone();
        move |event: web_sys::PointerEvent| {
            if let Some(input) = click(&event) {
                let mut page = page.borrow_mut();
                let input = if event.pointer_type() == "touch" {
                    page.tap(
                        input,
                        (f64::from(event.client_x()), f64::from(event.client_y())),
                    )
                } else {
                    input
                };
                page.handle(input);
            }
        }
    });
    screen.add_event_listener_with_callback("pointerdown", clicks.as_ref().unchecked_ref())?;
    // The controls take the pointer (to look like buttons): a press on one acts at once
    // where it fell, as on the screen beneath (a start-screen line's ‹ steps back), and
    // not at the click that follows, which is lost when the press redraws the controls.
    if let Some(controls) = document.get_element_by_id(CONTROLS) {
        controls
            .add_event_listener_with_callback("pointerdown", clicks.as_ref().unchecked_ref())?;
    }
    let presses = Closure::<dyn FnMut(web_sys::Event)>::new({
        let page = page.clone();
        move |event: web_sys::Event| {
            // Enter or Space on a focused button clicks its control's own cell; a
            // pointer's click (its press acted already) does nothing more.
            let pointed = event
                .dyn_ref::<web_sys::MouseEvent>()
                .is_some_and(|press| press.detail() > 0);
            if !pointed && let Some(input) = button_click(&event) {
                page.borrow_mut().handle(input);
            }
        }
    });
    for layer in [BOARD, CONTROLS] {
        if let Some(layer) = document.get_element_by_id(layer) {
            layer.add_event_listener_with_callback("click", presses.as_ref().unchecked_ref())?;
        }
    }
    // The pointer shows where a click does something.
    let hover = Closure::<dyn FnMut(web_sys::MouseEvent)>::new({
        let page = page.clone();
        move |event: web_sys::MouseEvent| {
            let acts = clicked_cell(&event).is_some_and(|input| match input {
                Input::Click { column, row } => page.borrow().acts_at(column, row),
                _ => false,
            });
            if let Some(screen) =
                element(SCREEN).and_then(|screen| screen.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = screen
                    .style()
                    .set_property("cursor", if acts { "pointer" } else { "default" });
            }
        }
    });
    screen.add_event_listener_with_callback("pointermove", hover.as_ref().unchecked_ref())?;
    hover.forget();
    // A new size is drawn at once, and the grid laid out for it.
    let window = web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
    let resized = Closure::<dyn FnMut()>::new(wake);
    window.add_event_listener_with_callback("resize", resized.as_ref().unchecked_ref())?;
    resized.forget();
    // Another tab took up a kept game or let one go: the offer here follows.
    let others = Closure::<dyn FnMut()>::new({
        let page = page.clone();
        move || {
            if page.borrow_mut().others_changed() {
                wake();
            }
        }
    });
    window.add_event_listener_with_callback("storage", others.as_ref().unchecked_ref())?;
    others.forget();
    let renew = Closure::<dyn FnMut()>::new({
        let page = page.clone();
        move || {
            if page.borrow_mut().renew() {
                wake();
            }
        }
    });
    window.set_interval_with_callback_and_timeout_and_arguments_0(
        renew.as_ref().unchecked_ref(),
        storage::HOLD_RENEWED,
    )?;
    renew.forget();
    // A room's running clock counts down on the screen.
    let count_down = Closure::<dyn FnMut()>::new({
        let page = page.clone();
        move || {
            let running = page
                .borrow()
                .app
                .table()
                .and_then(|table| table.clocks.as_ref())
                .is_some_and(|clocks| clocks.running.is_some());
            if running {
                wake();
            }
        }
    });
    window.set_interval_with_callback_and_timeout_and_arguments_0(
        count_down.as_ref().unchecked_ref(),
        CLOCK_SHOWN_EVERY,
    )?;
    count_down.forget();
    // A room's link pasted into this tab (or followed) goes into that room.
    let followed = Closure::<dyn FnMut()>::new({
        let page = page.clone();
        move || {
            page.borrow_mut().followed_address();
            wake();
        }
    });
    window.add_event_listener_with_callback("hashchange", followed.as_ref().unchecked_ref())?;
    followed.forget();
    let closing = Closure::<dyn FnMut()>::new({
        let page = page.clone();
        move || page.borrow_mut().let_go()
    });
    window.add_event_listener_with_callback("pagehide", closing.as_ref().unchecked_ref())?;
    closing.forget();
    presses.forget();
    // The page keeps listening as long as it lives.
    keys.forget();
    clicks.forget();
    Ok(())
}

/// Starts the game on the page: called once by the page's script, after the wasm loaded.
///
/// # Errors
/// When the page has no element to draw in.
#[wasm_bindgen]
pub fn start() -> Result<(), JsValue> {
    let backend = DomBackend::new_by_id(SCREEN).map_err(to_js)?;
    let mut terminal = Terminal::with_options(
        backend,
        TerminalOptions {
            viewport: Viewport::Fixed(Rect::new(0, 0, 80, 24)),
        },
    )
    .map_err(to_js)?;
    let (first_area, _) = area(&mut terminal);
    terminal.resize(first_area).map_err(to_js)?;
    let settings = Settings::new(Rules::default(), Seats::Ask { letter: None }).map_err(to_js)?;
    // Colour unless the person asked the system for more contrast or forced colours.
    let theme = Theme::new(!media("(prefers-contrast: more)") && !media("(forced-colors: active)"));
    // The page draws the board's marks itself, as shapes that fill their squares.
    // The page has nothing to quit to (quitting goes back to the start screen).
    let mut app = App::new(settings, theme, first_area, now())
        .with_marks_outside()
        .with_front(Front::Page)
        .with_online(&crate::online::name());
    let (kept, unreadable) = storage::load();
    let remembered = storage::choices();
    if let Some(remembered) = &remembered {
        app = app.with_remembered(remembered);
    }
    let recorder = Recorder::new(Box::new(storage::LocalStorage));
    let kept = KeptGames::new(recorder, kept, &mut app);
    for line in unreadable {
        web_sys::console::warn_1(&JsValue::from_str(&line));
    }
    let page = Rc::new(RefCell::new(Page {
        app,
        kept,
        remembered,
        area: first_area,
        thinking: None,
        job: None,
        marks: Vec::new(),
        squares: Vec::new(),
        controls: Vec::new(),
        placed_for: None,
        said: String::new(),
        tab: storage::tab_id(),
        holding: None,
        taps: Vec::new(),
        online: None,
        listing: None,
    }));
    // The start screen's offer: the latest unfinished game no other tab holds (from now
    // on, other tabs' holds are followed as they change: storage events, renewals).
    PAGE.with(|slot| *slot.borrow_mut() = Some(page.clone()));
    {
        let mut page = page.borrow_mut();
        page.others_changed();
        page.keep();
        // An address with a room's code in it is an invitation, or this tab's room before
        // a reload: into it.
        if let Some(online) = Online::from_address() {
            page.app.enter_online(online.rules());
            page.go_online(online);
        }
    }
    listen(&page)?;
    animate(terminal, page);
    Ok(())
}

/// The closure that draws a frame.
type Frame = Closure<dyn FnMut()>;

thread_local! {
    /// The frame to draw when woken, once the page has started.
    static FRAME: RefCell<Option<Frame>> = const { RefCell::new(None) };
    /// Whether a frame is asked for and not yet drawn.
    static FRAME_ASKED: Cell<bool> = const { Cell::new(false) };
    /// What wakes the page when the app's next due time comes, and its timer.
    static ALARM: RefCell<(Option<Frame>, Option<i32>)> = const { RefCell::new((None, None)) };
}

/// How often a running clock is drawn again, in milliseconds (its tenths show under ten
/// seconds).
const CLOCK_SHOWN_EVERY: i32 = 100;

/// Asks for a frame, unless one is asked for already: the page draws only when something
/// may have changed (an input, a worker's reply, the window's size, a due time), and is
/// idle otherwise.
fn wake() {
    if FRAME_ASKED.with(Cell::get) {
        return;
    }
    FRAME.with(|frame| {
        if let (Some(window), Some(closure)) = (web_sys::window(), frame.borrow().as_ref())
            && window
                .request_animation_frame(closure.as_ref().unchecked_ref())
                .is_ok()
        {
            FRAME_ASKED.with(|asked| asked.set(true));
        }
    });
}

/// Wakes the page at `due` on the page's clock (replacing any earlier alarm), or never.
fn wake_at(due: Option<Duration>) {
    ALARM.with(|alarm| {
        let mut alarm = alarm.borrow_mut();
        let Some(window) = web_sys::window() else {
            return;
        };
        if let Some(timer) = alarm.1.take() {
            window.clear_timeout_with_handle(timer);
        }
        let Some(due) = due else {
            return;
        };
        let wait = due.saturating_sub(now()).as_millis().min(i32::MAX as u128) as i32;
        let closure = alarm.0.get_or_insert_with(|| Closure::new(wake));
        alarm.1 = window
            .set_timeout_with_callback_and_timeout_and_arguments_0(
                closure.as_ref().unchecked_ref(),
                wait,
            )
            .ok();
    });
}

/// Makes the frame that draws the app, after letting time pass and following the window's
/// size, and draws the first.
fn animate(mut terminal: Terminal<DomBackend>, page: Rc<RefCell<Page>>) {
    // The grid is measured (a probe element laid out) only after the window's size or the
    // font changed, until the area holds still.
    let mut settled_at = None;
    // The font is fitted again when the window or what must fit in it changes (a board
    // that needs more cells).
    let mut fitted_for = None;
    let frame = Closure::new(move || {
        FRAME_ASKED.with(|asked| asked.set(false));
        let window = window_size();
        let mut page = page.borrow_mut();
        let in_game = !matches!(page.app.screen(), ttt_play::app::Screen::Start(_));
        let fitting = Some((window, page.app.rules(), in_game));
        if fitting != fitted_for {
            fit_font(&page.app);
            fitted_for = fitting;
            settled_at = None;
        }
        page.apply(Input::Tick);
        // The backend lays its grid out for a new size only as it draws: after a change,
        // the area is measured again once it has, and drawn again at the size the new
        // grid holds, all in this one frame.
        for _ in 0..3 {
            let mut held_back = false;
            if window != settled_at {
                let area;
                (area, held_back) = self::area(&mut terminal);
                // Resized even at the same area: the backend may have laid out a new grid
                // of blank cells, which the terminal must then draw whole, not just where
                // its last frame differs.
                if terminal.resize(area).is_ok() && area != page.area {
                    page.area = area;
                    page.apply(Input::Resize {
                        width: area.width,
                        height: area.height,
                    });
                }
                if !held_back {
                    settled_at = window;
                }
            }
            let _ = terminal.draw(|frame| frame.render_widget(&page.app, frame.area()));
            if !held_back {
                break;
            }
        }
        // After the draw: the backend makes its grid for a new size only as it draws.
        let page = &mut *page;
        let moved = page.placed_for != window;
        page.placed_for = window;
        let area = page.area;
        refresh(
            &mut page.marks,
            page.app.shown_marks(area),
            moved,
            draw_marks,
        );
        refresh(
            &mut page.squares,
            page.app.shown_squares(area),
            moved,
            board_buttons,
        );
        refresh(
            &mut page.controls,
            page.app.shown_controls(area),
            moved,
            control_buttons,
        );
        // A box over the screen is said whole; otherwise the status line.
        let said = match page.app.overlay_lines() {
            Some((title, lines)) => {
                let lines = lines
                    .iter()
                    .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "));
                let lines: Vec<String> = lines.filter(|line| !line.is_empty()).collect();
                format!("{title}. {}", lines.join(" / "))
            }
            None => page.app.status().text.clone(),
        };
        if said != page.said {
            say(&said);
            page.said = said;
        }
        wake_at(page.app.next_due());
    });
    FRAME.with(|slot| *slot.borrow_mut() = Some(frame));
    wake();
}

/// Draws a layer over the screen again when what it shows changed, or the window did
/// (`moved`: its cells lie elsewhere on the page).
fn refresh<T: PartialEq>(drawn: &mut Vec<T>, shown: Vec<T>, moved: bool, draw: fn(&[T])) {
    if moved || shown != *drawn {
        draw(&shown);
        *drawn = shown;
    }
}

/// The window's inner size in CSS pixels.
fn window_size() -> Option<(u32, u32)> {
    let window = web_sys::window()?;
    let width = window.inner_width().ok()?.as_f64()?;
    let height = window.inner_height().ok()?.as_f64()?;
    Some((width as u32, height as u32))
}

/// Hands what the room's connection heard to the page.
fn heard(heard: Heard) {
    PAGE.with(|slot| {
        if let Some(page) = slot.borrow().as_ref() {
            page.borrow_mut().heard(heard);
        }
    });
}

/// Hands the server's list of rooms to the page.
fn listed(rooms: Result<Vec<ttt_play::app::Waiting>, String>) {
    PAGE.with(|slot| {
        if let Some(page) = slot.borrow().as_ref() {
            let mut page = page.borrow_mut();
            page.app.listed(rooms);
            page.listing = None;
            drop(page);
            wake();
        }
    });
}

/// Comes back to the room after `wait`.
fn come_back_in(wait: Duration) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let again = Closure::once_into_js(|| {
        PAGE.with(|slot| {
            if let Some(page) = slot.borrow().as_ref() {
                let mut page = page.borrow_mut();
                page.connect();
                drop(page);
                wake();
            }
        });
    });
    let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
        again.unchecked_ref(),
        wait.as_millis().min(i32::MAX as u128) as i32,
    );
}

/// Hands a worker's reply line to the page (called by the page's script).
#[wasm_bindgen]
pub fn deliver(worker: &str, reply: &str) {
    PAGE.with(|slot| {
        if let Some(page) = slot.borrow().as_ref() {
            page.borrow_mut().deliver(worker, reply);
        }
    });
}

/// The worker's entry: a request line in, a reply line out (this is where the time goes).
#[wasm_bindgen]
pub fn answer(request: &str) -> String {
    protocol::answer(request)
}
