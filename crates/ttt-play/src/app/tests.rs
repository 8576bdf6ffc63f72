//! The full-screen mode without a terminal: keys, clicks and time in, state out; and every
//! screen rendered into ratatui's `TestBackend`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};
use ttt_core::{Mark, Rules, Square, SquareNaming, WinRule};
use ttt_players::Strength;

use super::layout;
use super::{
    App, BOARDS, COMPUTER_PAUSE, End, Front, GameScreen, Input, Key, Leave, NEXT_GAME_PAUSE,
    Opponent, Overlay, Screen, StartLine, StartMenu, Theme,
};
use crate::settings::{FirstPolicy, Seat, Seats, Settings};

/// What a front end starts the app with.
struct Launch {
    settings: Settings,
    theme: Theme,
}

fn launch(seats: Option<(Seat, Seat)>, first: FirstPolicy, theme: Theme) -> Launch {
    launch_on(Rules::default(), seats, first, theme)
}

fn launch_on(
    rules: Rules,
    seats: Option<(Seat, Seat)>,
    first: FirstPolicy,
    theme: Theme,
) -> Launch {
    let seats = match seats {
        Some((x, o)) => Seats::Fixed { x, o },
        None => Seats::Ask { letter: None },
    };
    let settings = Settings::new(rules, seats)
        .unwrap()
        .with_first(first)
        .with_seed(Some(4));
    Launch { settings, theme }
}

fn start_app(launch: Launch, area: Rect, now: Duration) -> App {
    App::new(launch.settings, launch.theme, area, now)
}

fn game(app: &App) -> &GameScreen {
    match &app.screen {
        Screen::Game(game) => game,
        _ => panic!("not in a game"),
    }
}

fn menu(app: &App) -> &StartMenu {
    match &app.screen {
        Screen::Start(menu) => menu,
        _ => panic!("not on the start screen"),
    }
}

fn menu_mut(app: &mut App) -> &mut StartMenu {
    match &mut app.screen {
        Screen::Start(menu) => menu,
        _ => panic!("not on the start screen"),
    }
}

fn in_game(app: &App) -> bool {
    matches!(app.screen, Screen::Game(_))
}

/// Lets time pass to `now`, and takes the computer's turn if one was handed out.
fn tick(app: &mut App, now: Duration) -> Option<crate::session::Thinking> {
    app.handle(Input::Tick, now);
    app.take_thinking()
}

fn resize(app: &mut App, width: u16, height: u16) {
    app.handle(Input::Resize { width, height }, Duration::ZERO);
}

const AREA: Rect = Rect::new(0, 0, 80, 24);

fn two_people() -> App {
    start_app(
        launch(
            Some((Seat::Human, Seat::Human)),
            FirstPolicy::X,
            Theme::monochrome(),
        ),
        AREA,
        Duration::ZERO,
    )
}

/// A person as X, moving first, against the impossible computer, at `start`.
fn against_perfect(start: Duration) -> App {
    let seats = Some((Seat::Human, Seat::Computer(Strength::Perfect)));
    start_app(
        launch(seats, FirstPolicy::X, Theme::monochrome()),
        AREA,
        start,
    )
}

fn key(app: &mut App, key: Key) {
    app.handle(Input::Key(key), Duration::ZERO);
}

/// Does the slow work the app handed out, as the event loop's thread would.
fn work(app: &mut App) {
    if let Some(job) = app.take_job() {
        app.finish_job(job.run());
    }
}

fn click(app: &mut App, column: u16, row: u16) {
    app.handle(Input::Click { column, row }, Duration::ZERO);
}

/// Where the middle of `square`'s cell is drawn.
fn centre_of(app: &App, square: Square) -> (u16, u16) {
    let geometry = layout::board(app.area, app.rules()).unwrap();
    let rules = app.rules();
    let cell = geometry.cell(rules.column(square) as u16, rules.row(square) as u16);
    (cell.x + (cell.width - 1) / 2, cell.y + cell.height / 2)
}

fn render(app: &App, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| frame.render_widget(app, frame.area()))
        .unwrap();
    terminal.backend().buffer().clone()
}

fn text(buffer: &Buffer) -> String {
    let area = buffer.area;
    (0..area.height)
        .map(|y| {
            let line: String = (0..area.width).map(|x| buffer[(x, y)].symbol()).collect();
            line.trim_end().to_owned()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub(super) fn screen_text(app: &App) -> String {
    text(&render(app, AREA.width, AREA.height))
}

// State.

#[test]
fn the_start_screen_changes_choices_and_starts() {
    let mut app = start_app(
        launch(None, FirstPolicy::X, Theme::monochrome()),
        AREA,
        Duration::ZERO,
    );
    assert!(!in_game(&app));
    for _ in 0..5 {
        key(&mut app, Key::Up);
    }
    key(&mut app, Key::Right);
    assert_eq!(
        menu(&app).choices.opponent,
        Opponent::Computer(Strength::Mcts)
    );
    key(&mut app, Key::Right);
    assert_eq!(
        menu(&app).choices.opponent,
        Opponent::Computer(Strength::Search)
    );
    key(&mut app, Key::Right);
    assert_eq!(
        menu(&app).choices.opponent,
        Opponent::Computer(Strength::Perfect)
    );
    key(&mut app, Key::Down);
    key(&mut app, Key::Char(' '));
    assert_eq!(menu(&app).choices.letter, Mark::O);
    key(&mut app, Key::Enter);
    assert!(in_game(&app));
    let session = &app.session;
    assert_eq!(*session.seat(Mark::X), Seat::Computer(Strength::Perfect));
    assert_eq!(*session.seat(Mark::O), Seat::Human);
}

#[test]
fn clicks_on_the_start_screen_change_a_line_or_start() {
    let mut app = start_app(
        launch(None, FirstPolicy::X, Theme::monochrome()),
        AREA,
        Duration::ZERO,
    );
    let start = layout::start(AREA, 6);
    click(&mut app, start.lines[0].x + 20, start.lines[0].y);
    assert_eq!(
        menu(&app).choices.opponent,
        Opponent::Computer(Strength::Mcts)
    );
    click(&mut app, start.lines[0].x + 20, start.lines[0].y);
    assert_eq!(
        menu(&app).choices.opponent,
        Opponent::Computer(Strength::Search)
    );
    click(&mut app, start.lines[0].x + 20, start.lines[0].y);
    assert_eq!(
        menu(&app).choices.opponent,
        Opponent::Computer(Strength::Perfect)
    );
    click(&mut app, start.lines[4].x + 20, start.lines[4].y);
    assert_eq!(
        menu(&app).choices.rules,
        Rules::new(4, 4, 4).unwrap(),
        "the board line moves on"
    );
    // A click on the ‹ steps back.
    let back = start.lines[4].x + start.value_at;
    click(&mut app, back, start.lines[4].y);
    assert_eq!(menu(&app).choices.rules, Rules::default(), "‹ goes back");
    click(&mut app, start.lines[4].x + 20, start.lines[4].y);
    click(&mut app, start.lines[5].x + 20, start.lines[5].y);
    assert!(in_game(&app));
    assert_eq!(app.position().rules(), Rules::new(4, 4, 4).unwrap());
}

#[test]
fn the_start_screen_offers_gomoku_with_exactly_five_and_a_six_wins_nothing_there() {
    let mut app = start_app(
        launch(None, FirstPolicy::X, Theme::monochrome()),
        AREA,
        Duration::ZERO,
    );
    menu_mut(&mut app).choices.opponent = Opponent::Friend;
    menu_mut(&mut app).line = 4;
    let exact = Rules::new(15, 15, 5).unwrap().with_win_rule(WinRule::Exact);
    for _ in 0..BOARDS.len() {
        if menu(&app).choices.rules == exact {
            break;
        }
        key(&mut app, Key::Right);
    }
    assert!(
        screen_text(&app).contains("‹ Gomoku, exactly 5 (15x15) ›"),
        "{}",
        screen_text(&app)
    );
    key(&mut app, Key::Enter);
    assert!(in_game(&app));
    assert_eq!(app.position().rules(), exact);
    assert!(screen_text(&app).contains("Gomoku, exactly 5 (15x15)"));
    // X makes six in a row on row 8, the last mark in the gap: the game goes on.
    let place = |app: &mut App, name: &str| {
        let before = app.position().history().len();
        key(app, Key::Char('t'));
        typed(app, name);
        if app.position().history().len() == before {
            key(app, Key::Enter);
        }
    };
    for name in [
        "a8", "a10", "b8", "b10", "c8", "c10", "d8", "d10", "f8", "g10", "e8",
    ] {
        place(&mut app, name);
    }
    assert_eq!(app.position().history().len(), 11, "{}", app.status.text);
    assert_eq!(app.position().outcome(), None, "{}", app.status.text);
    // O makes exactly five on row 10 and wins.
    place(&mut app, "e10");
    assert_eq!(
        app.position().outcome(),
        Some(ttt_core::Outcome::Win(Mark::O)),
        "{}",
        app.status.text
    );
}

#[test]
fn the_start_screen_s_key_list_is_buttons_too() {
    let mut app = start_app(
        launch(None, FirstPolicy::X, Theme::monochrome()),
        AREA,
        Duration::ZERO,
    );
    let shown = text(&render(&app, AREA.width, AREA.height));
    let (row, line) = shown
        .lines()
        .enumerate()
        .find(|(_, line)| line.contains("?: help"))
        .unwrap();
    let column = line[..line.find("?: help").unwrap()].chars().count() as u16;
    click(&mut app, column, row as u16);
    assert_eq!(app.overlay, Some(Overlay::Help));
    key(&mut app, Key::Esc);
    click(&mut app, column - 3, row as u16);
    assert_eq!(app.overlay, None, "the gap between entries is no button");
}

#[test]
fn starting_over_after_quitting_keeps_the_choices_and_the_score() {
    let mut app = start_app(
        launch(None, FirstPolicy::X, Theme::monochrome()),
        AREA,
        Duration::ZERO,
    );
    // Against a friend on 4x4: X wins down the first column.
    menu_mut(&mut app).choices.opponent = Opponent::Friend;
    menu_mut(&mut app).choices.rules = Rules::new(4, 4, 4).unwrap();
    key(&mut app, Key::Enter);
    let start = layout::start(AREA, 6);
    click(&mut app, start.lines[5].x + 20, start.lines[5].y);
    for name in ["1", "2", "5", "6", "9", "10", "13"] {
        for character in name.chars() {
            key(&mut app, Key::Char(character));
        }
        key(&mut app, Key::Enter);
    }
    assert_eq!(app.session.score().x_wins, 1, "{}", app.status.text);
    key(&mut app, Key::Char('q'));
    assert_eq!(app.end, Some(End::Quit));
    app.start_over();
    assert_eq!(app.end, None);
    assert_eq!(menu(&app).choices.opponent, Opponent::Friend);
    assert_eq!(menu(&app).choices.rules, Rules::new(4, 4, 4).unwrap());
    assert_eq!(app.session.score().x_wins, 1, "the score goes on");
    // Quitting the start screen itself has nothing to go back to: it says so.
    key(&mut app, Key::Char('q'));
    app.start_over();
    assert!(
        app.status.text.starts_with("There is nothing to quit to"),
        "{}",
        app.status.text
    );
    assert_eq!(menu(&app).choices.opponent, Opponent::Friend);
}

#[test]
fn the_end_of_a_game_offers_a_review_by_perfect_play_or_by_threats() {
    let mut app = two_people();
    for digit in ['1', '4', '2', '5', '3'] {
        key(&mut app, Key::Char(digit));
    }
    assert!(app.status.text.contains("r: review"), "{}", app.status.text);
    key(&mut app, Key::Char('r'));
    work(&mut app);
    assert!(matches!(app.overlay, Some(Overlay::Review(_))));
    // Closing the review says the end again, not a heading with nothing after it.
    key(&mut app, Key::Esc);
    assert_eq!(app.overlay, None);
    assert!(
        app.status.text.starts_with("X wins."),
        "{}",
        app.status.text
    );
    // On gomoku the review is the threat search's.
    let mut gomoku = start_app(
        launch_on(
            Rules::new(15, 15, 5).unwrap(),
            Some((Seat::Human, Seat::Human)),
            FirstPolicy::X,
            Theme::monochrome(),
        ),
        AREA,
        Duration::ZERO,
    );
    for name in ["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1"] {
        key(&mut gomoku, Key::Char('t'));
        for character in name.chars() {
            key(&mut gomoku, Key::Char(character));
        }
        key(&mut gomoku, Key::Enter);
    }
    assert!(gomoku.position().is_over(), "{}", gomoku.status.text);
    assert!(
        gomoku.status.text.contains("r: review"),
        "{}",
        gomoku.status.text
    );
    key(&mut gomoku, Key::Char('r'));
    work(&mut gomoku);
    let Some(Overlay::Review(lines)) = &gomoku.overlay else {
        panic!("a review: {:?}", gomoku.overlay);
    };
    assert!(
        lines[0].starts_with("Review by the threat search"),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"  move 4, O d2: now X to move has a forced win by threats".to_owned()),
        "{lines:?}"
    );
}

#[test]
fn the_cursor_moves_with_arrows_hjkl_and_wasd_and_stays_on_the_board() {
    let mut app = two_people();
    assert_eq!(game(&app).cursor, Square::new(4));
    for (code, expected) in [
        (Key::Up, 1),
        (Key::Char('k'), 1),
        (Key::Char('l'), 2),
        (Key::Char('d'), 2),
        (Key::Char('s'), 5),
        (Key::Char('j'), 8),
        (Key::Char('h'), 7),
        (Key::Char('a'), 6),
        (Key::Left, 6),
        (Key::Char('w'), 3),
        (Key::Right, 4),
        (Key::Down, 7),
    ] {
        key(&mut app, code);
        assert_eq!(game(&app).cursor, Square::new(expected), "after {code:?}");
    }
}

#[test]
fn enter_space_digits_and_clicks_place_marks() {
    let mut app = two_people();
    key(&mut app, Key::Enter);
    key(&mut app, Key::Char('1'));
    key(&mut app, Key::Right);
    key(&mut app, Key::Char(' '));
    let (x, y) = centre_of(&app, Square::new(8));
    click(&mut app, x, y);
    assert_eq!(
        app.position().history(),
        &[
            Square::new(4),
            Square::new(0),
            Square::new(1),
            Square::new(8)
        ]
    );
    key(&mut app, Key::Char('5'));
    assert_eq!(app.status.text, "Square 5 is taken by X.");
    assert!(app.status.warning);
}

#[test]
fn a_square_selected_moves_the_cursor_and_plays_nothing_until_clicked() {
    let mut app = two_people();
    key(&mut app, Key::Enter);
    let (x, y) = centre_of(&app, Square::new(2));
    app.handle(Input::Select { column: x, row: y }, Duration::ZERO);
    assert_eq!(app.position().history(), &[Square::new(4)]);
    assert_eq!(game(&app).cursor, Square::new(2));
    assert_eq!(
        app.status.text,
        "Square 3 chosen: tap it again to play there."
    );
    let shown = app.shown_squares(app.area);
    let cursor: Vec<Square> = shown
        .iter()
        .filter(|shown| shown.cursor)
        .map(|shown| shown.square)
        .collect();
    assert_eq!(cursor, [Square::new(2)]);
    click(&mut app, x, y);
    assert_eq!(app.position().history(), &[Square::new(4), Square::new(2)]);
    let (x, y) = centre_of(&app, Square::new(4));
    app.handle(Input::Select { column: x, row: y }, Duration::ZERO);
    assert_eq!(app.status.text, "Square 5 is taken by X.");
    // Off the board it is a click: on the key list, its key.
    let footer = layout::screen(app.area, app.rules()).unwrap().footer;
    app.handle(
        Input::Select {
            column: footer.x + 1,
            row: footer.y,
        },
        Duration::ZERO,
    );
    assert_eq!(app.position().history().len(), 2);
}

/// The words of the screen's controls, top to bottom.
fn control_words(app: &App) -> Vec<String> {
    let controls = app.shown_controls(app.area);
    controls.into_iter().map(|control| control.words).collect()
}

/// Presses the first control whose words `which` picks, by a click where it says; returns
/// its words.
fn press_control(app: &mut App, which: impl Fn(&str) -> bool) -> String {
    let controls = app.shown_controls(app.area);
    let control = controls
        .into_iter()
        .find(|control| which(&control.words))
        .unwrap();
    let (column, row) = control.click;
    app.handle(Input::Click { column, row }, Duration::ZERO);
    control.words
}

#[test]
fn the_screen_s_controls_are_named_and_a_click_at_each_presses_it() {
    let launched = launch(None, FirstPolicy::X, Theme::monochrome());
    let mut app = start_app(launched, AREA, Duration::ZERO);
    let words = control_words(&app);
    let has = |words: &[String], wanted: &str| words.iter().any(|words| words == wanted);
    assert!(
        words[0].starts_with("Play against: the computer"),
        "{words:?}"
    );
    assert_eq!(words[5], "Start");
    assert!(has(&words, "Board: Tic-tac-toe (3x3)"), "{words:?}");
    assert!(has(&words, "help"), "{words:?}");
    assert!(
        !has(&words, "start"),
        "Enter is the Start button already: {words:?}"
    );
    for control in app.shown_controls(app.area) {
        assert!(control.cell.contains(control.click.into()), "{control:?}");
    }
    let board = press_control(&mut app, |words| words.starts_with("Board"));
    let after = control_words(&app);
    assert!(
        after
            .iter()
            .any(|words| words.starts_with("Board") && *words != board),
        "{after:?}"
    );
    key(&mut app, Key::Enter);
    assert_eq!(
        control_words(&app),
        ["type", "hint", "undo", "new", "review", "help", "quit"]
    );
    press_control(&mut app, |words| words == "help");
    assert!(app.overlay().is_some(), "help is open");
    let (title, lines) = app.overlay_lines().unwrap();
    assert_eq!(title, "Keys");
    assert_eq!(lines.last().unwrap(), "Press any key, or click, to close.");
    assert_eq!(control_words(&app), ["close"], "the box covers the screen");
    press_control(&mut app, |words| words == "close");
    assert!(app.overlay().is_none(), "closed by its control");
    // Asked before leaving a game with a move: yes, or keep playing.
    let before = app.position().history().len();
    key(&mut app, Key::Enter);
    key(&mut app, Key::Char('n'));
    assert_eq!(control_words(&app), ["yes, new game", "keep playing"]);
    press_control(&mut app, |words| words == "keep playing");
    assert!(app.overlay().is_none(), "kept playing");
    assert_eq!(app.position().history().len(), before + 1);
    key(&mut app, Key::Char('n'));
    press_control(&mut app, |words| words == "yes, new game");
    assert!(
        app.position().history().len() <= 1,
        "a new game (the computer may open it)"
    );
}

#[test]
fn a_finished_game_shows_its_verdict_over_the_board_with_a_button_to_play_again() {
    let mut app = two_people();
    for digit in ['1', '4', '2', '5', '3'] {
        key(&mut app, Key::Char(digit));
    }
    assert!(app.session().is_over());
    assert!(
        screen_text(&app).starts_with(" X wins.  [ n: play again ]"),
        "{}",
        screen_text(&app)
    );
    press_control(&mut app, |words| words == "play again");
    assert!(app.position().history().is_empty(), "a new game");
    assert!(screen_text(&app).starts_with(" ttt — Tic-tac-toe (3x3)"));
}

#[test]
fn a_front_end_with_nothing_to_quit_to_offers_no_quitting() {
    let launched = launch(None, FirstPolicy::X, Theme::monochrome());
    let mut app = start_app(launched, AREA, Duration::ZERO).with_front(Front::Page);
    let start = screen_text(&app);
    assert!(
        start.contains("?: help") && !start.contains("q: quit"),
        "{start}"
    );
    key(&mut app, Key::Char('?'));
    let help = screen_text(&app);
    assert!(
        help.contains("this help") && !help.contains("quit"),
        "{help}"
    );
    key(&mut app, Key::Esc);
    key(&mut app, Key::Enter);
    let game = screen_text(&app);
    assert!(
        game.contains("? help") && !game.contains("q quit"),
        "{game}"
    );
    let words = control_words(&app);
    assert!(!words.iter().any(|words| words == "quit"), "{words:?}");
    // The key still acts: the front end decides where quitting goes.
    key(&mut app, Key::Char('q'));
    assert_eq!(app.end(), Some(End::Quit));
}

#[test]
fn a_page_says_what_to_tap_where_a_terminal_says_which_key() {
    let launched = launch(None, FirstPolicy::X, Theme::monochrome());
    let mut app = start_app(launched, AREA, Duration::ZERO).with_front(Front::Page);
    assert!(screen_text(&app).contains("←→ or tap: change"));
    key(&mut app, Key::Char('?'));
    let help = screen_text(&app);
    assert!(
        help.contains("tap, click") && !help.contains("Tab"),
        "{help}"
    );
    assert!(
        help.contains("Tap anywhere, or press any key, to close."),
        "{help}"
    );
    key(&mut app, Key::Esc);
    key(&mut app, Key::Enter);
    key(&mut app, Key::Char('?'));
    let help = screen_text(&app);
    assert!(help.contains("(a small one: tap twice)"), "{help}");
    key(&mut app, Key::Esc);

    let mut app = two_people().with_front(Front::Page);
    for digit in ['1', '4', '2'] {
        key(&mut app, Key::Char(digit));
    }
    // Asked before leaving a game: yes and keep playing, as buttons to tap.
    key(&mut app, Key::Char('n'));
    let asked = screen_text(&app);
    assert!(
        asked.contains("[ yes, new game ]  [ keep playing ]"),
        "{asked}"
    );
    assert_eq!(control_words(&app), ["yes, new game", "keep playing"]);
    press_control(&mut app, |words| words == "keep playing");
    assert_eq!(app.position().history().len(), 3);
    for digit in ['5', '3'] {
        key(&mut app, Key::Char(digit));
    }
    assert!(app.session().is_over());
    let over = screen_text(&app);
    assert!(over.starts_with(" X wins.  [ play again ]"), "{over}");
    assert!(
        app.status.text.ends_with("Tap play again, review or undo."),
        "{}",
        app.status.text
    );
    key(&mut app, Key::Char('9'));
    assert_eq!(
        app.status.text,
        "The game is over: tap play again for a new one."
    );
    key(&mut app, Key::Char('r'));
    work(&mut app);
    assert_eq!(app.status.text, "The review of the game: a tap closes it.");
    assert!(screen_text(&app).contains("Tap anywhere, or press any key, to close."));
    key(&mut app, Key::Esc);
    press_control(&mut app, |words| words == "play again");
    assert!(app.position().history().is_empty(), "a new game");

    // A terminal names the keys.
    let mut app = two_people();
    for digit in ['1', '4', '2', '5', '3'] {
        key(&mut app, Key::Char(digit));
    }
    assert!(screen_text(&app).starts_with(" X wins.  [ n: play again ]"));
    assert!(
        app.status
            .text
            .ends_with("n: new game · r: review · u: undo.")
    );
}

#[test]
fn keypad_and_coordinate_keys_place_where_they_say() {
    let mut keypad = two_people();
    keypad.naming = SquareNaming::Keypad;
    key(&mut keypad, Key::Char('7'));
    assert_eq!(keypad.position().history(), &[Square::new(0)]);
    let mut coords = two_people();
    coords.naming = SquareNaming::Coords;
    key(&mut coords, Key::Char('3'));
    assert!(coords.position().history().is_empty(), "waits for the row");
    key(&mut coords, Key::Char('2'));
    assert_eq!(coords.position().history(), &[Square::new(5)]);
    key(&mut coords, Key::Char('9'));
    assert!(coords.status.warning, "{}", coords.status.text);
}

#[test]
fn the_computer_moves_after_its_pause_and_undo_takes_back_both_moves() {
    let start = Duration::ZERO;
    let mut app = against_perfect(start);
    app.place(Square::new(4), start);
    assert!(tick(&mut app, start).is_none(), "not before the pause");
    let thinking = tick(&mut app, start + COMPUTER_PAUSE).unwrap();
    assert!(app.status.text.contains("thinking"));
    app.receive(thinking.think(), start + COMPUTER_PAUSE);
    assert_eq!(app.position().history().len(), 2);
    assert!(app.status.text.starts_with("Computer (impossible) played"));
    key(&mut app, Key::Char('u'));
    assert!(app.position().history().is_empty());
}

#[test]
fn a_hint_lasts_until_the_next_move() {
    let mut app = two_people();
    key(&mut app, Key::Char('H'));
    work(&mut app);
    assert_eq!(game(&app).hints.as_ref().map(Vec::len), Some(9));
    key(&mut app, Key::Enter);
    assert!(game(&app).hints.is_none());
}

#[test]
fn quitting_asks_during_a_game_and_ctrl_c_always_quits() {
    let mut app = two_people();
    key(&mut app, Key::Enter);
    key(&mut app, Key::Char('q'));
    assert_eq!(app.overlay, Some(Overlay::Confirm(Leave::Quit)));
    key(&mut app, Key::Char('n'));
    assert!(app.overlay.is_none() && app.end.is_none());
    key(&mut app, Key::Esc);
    key(&mut app, Key::Char('y'));
    assert!(app.end.is_some());
    assert_eq!(app.end, Some(End::Quit));
    let mut app = two_people();
    app.handle(Input::Key(Key::Interrupt), Duration::ZERO);
    assert!(app.end.is_some());
    assert_eq!(app.end, Some(End::Interrupted));
}

#[test]
fn quitting_asks_while_the_computer_thinks_too_and_a_new_game_waits_for_its_move() {
    let start = Duration::ZERO;
    let mut app = against_perfect(start);
    app.place(Square::new(4), start);
    let thinking = tick(&mut app, start + COMPUTER_PAUSE).unwrap();
    key(&mut app, Key::Char('n'));
    assert!(
        app.overlay.is_none() && app.status.warning,
        "{}",
        app.status.text
    );
    key(&mut app, Key::Char('q'));
    assert_eq!(app.overlay, Some(Overlay::Confirm(Leave::Quit)));
    assert!(app.end.is_none(), "one key does not throw the game away");
    // The move comes back under the box, and the game goes on after "no".
    app.receive(thinking.think(), start + COMPUTER_PAUSE);
    assert_eq!(app.position().history().len(), 2);
    key(&mut app, Key::Char('n'));
    assert!(app.overlay.is_none() && app.end.is_none());
}

#[test]
fn a_finished_game_offers_its_review_and_a_new_game() {
    let mut app = two_people();
    for digit in ['1', '4', '2', '5', '3'] {
        key(&mut app, Key::Char(digit));
    }
    assert_eq!(app.session.score().x_wins, 1);
    key(&mut app, Key::Char('q'));
    assert!(app.end.is_some(), "no question once the game is over");
    let mut app = two_people();
    for digit in ['1', '4', '2', '5', '3'] {
        key(&mut app, Key::Char(digit));
    }
    key(&mut app, Key::Char('r'));
    work(&mut app);
    let Some(Overlay::Review(lines)) = &app.overlay else {
        panic!("the review opens")
    };
    // Answering the corner opening on a side loses; nothing after it changes the result.
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[1].contains("move 1, O at 4: a draw became a loss; 5 held the draw."),
        "{lines:?}"
    );
    key(&mut app, Key::Char('r'));
    key(&mut app, Key::Char('n'));
    assert!(app.position().history().is_empty());
    assert_eq!(app.session.score().x_wins, 1, "the score carries over");
}

#[test]
fn games_stop_at_the_limit() {
    let mut launch = launch(
        Some((Seat::Human, Seat::Human)),
        FirstPolicy::X,
        Theme::monochrome(),
    );
    launch.settings = launch.settings.with_games(1).unwrap();
    let mut app = start_app(launch, AREA, Duration::ZERO);
    for digit in ['1', '4', '2', '5', '3'] {
        key(&mut app, Key::Char(digit));
    }
    key(&mut app, Key::Char('n'));
    assert!(
        app.status.warning && app.status.text.contains("last game"),
        "{}",
        app.status.text
    );
}

// Screens.

/// A game X wins on the diagonal 1-5-9, O having played 4 and 6.
fn finished_game(theme: Theme) -> App {
    play_out(theme, &['1', '4', '5', '6', '9'])
}

fn play_out(theme: Theme, digits: &[char]) -> App {
    let mut app = start_app(
        launch(Some((Seat::Human, Seat::Human)), FirstPolicy::X, theme),
        AREA,
        Duration::ZERO,
    );
    for &digit in digits {
        key(&mut app, Key::Char(digit));
    }
    app
}

#[test]
fn screen_start() {
    let app = start_app(
        launch(None, FirstPolicy::Random, Theme::monochrome()),
        AREA,
        Duration::ZERO,
    );
    insta::assert_snapshot!(screen_text(&app));
}

#[test]
fn screen_playing() {
    let mut app = two_people();
    for digit in ['5', '1'] {
        key(&mut app, Key::Char(digit));
    }
    insta::assert_snapshot!(screen_text(&app));
}

#[test]
fn screen_hint_shown() {
    let mut app = two_people();
    for digit in ['5', '2'] {
        key(&mut app, Key::Char(digit));
    }
    key(&mut app, Key::Char('H'));
    work(&mut app);
    insta::assert_snapshot!(screen_text(&app));
}

#[test]
fn screen_game_over_with_winning_line() {
    insta::assert_snapshot!(screen_text(&finished_game(Theme::monochrome())));
}

#[test]
fn screen_help_overlay() {
    let mut app = two_people();
    key(&mut app, Key::Char('?'));
    insta::assert_snapshot!(screen_text(&app));
}

#[test]
fn screen_too_small() {
    insta::assert_snapshot!(text(&render(&two_people(), 45, 15)));
}

#[test]
fn screen_small() {
    let mut app = two_people();
    resize(&mut app, SMALL.width, SMALL.height);
    for digit in ['5', '1', '9'] {
        key(&mut app, Key::Char(digit));
    }
    insta::assert_snapshot!(text(&render(&app, SMALL.width, SMALL.height)));
    // The help, taller than the window, scrolled to its end.
    key(&mut app, Key::Char('?'));
    key(&mut app, Key::End);
    insta::assert_snapshot!(
        "screen_small_help_scrolled",
        text(&render(&app, SMALL.width, SMALL.height))
    );
    let launched = launch(None, FirstPolicy::X, Theme::monochrome());
    let start = start_app(launched, SMALL, Duration::ZERO);
    insta::assert_snapshot!(
        "screen_small_start",
        text(&render(&start, SMALL.width, SMALL.height))
    );
}

#[test]
fn q_quits_at_once_in_a_window_too_small_to_ask() {
    let mut big = people_on(Rules::new(19, 19, 5).unwrap());
    key(&mut big, Key::Enter);
    resize(&mut big, 60, 20);
    key(&mut big, Key::Char('q'));
    assert!(
        big.end.is_some(),
        "60x20 is too small for 19x19: nothing could ask"
    );

    let mut app = two_people();
    key(&mut app, Key::Enter);
    resize(&mut app, 40, 10);
    key(&mut app, Key::Char('q'));
    assert!(app.end.is_some());
}

#[test]
fn screen_redraws_larger_on_resize() {
    let mut app = two_people();
    resize(&mut app, 120, 40);
    let large = render(&app, 120, 40);
    assert!(text(&large).contains("Players"));
    resize(&mut app, layout::MIN_WIDTH, layout::MIN_HEIGHT);
    assert!(
        text(&render(&app, layout::MIN_WIDTH, layout::MIN_HEIGHT)).contains("Players"),
        "the smallest size still draws"
    );
}

/// Cells of the buffer whose symbol is `symbol`, as (x, y).
fn cells_with(buffer: &Buffer, symbol: &str) -> Vec<(u16, u16)> {
    let area = buffer.area;
    (0..area.height)
        .flat_map(|y| (0..area.width).map(move |x| (x, y)))
        .filter(|&(x, y)| buffer[(x, y)].symbol() == symbol)
        .collect()
}

#[test]
fn monochrome_uses_no_colour_yet_marks_cursor_and_winning_line_stand_out() {
    let app = finished_game(Theme::monochrome());
    let buffer = render(&app, 80, 24);
    let area = buffer.area;
    for y in 0..area.height {
        for x in 0..area.width {
            let cell = &buffer[(x, y)];
            assert!(matches!(cell.fg, Color::Reset), "no colour at {x},{y}");
            assert!(matches!(cell.bg, Color::Reset), "no colour at {x},{y}");
        }
    }
    // The winning line (1, 5, 9) is in reverse video; the other marks are bold only.
    for square in [0, 4, 8] {
        let (x, y) = centre_of(&app, Square::new(square));
        assert!(
            buffer[(x, y)].modifier.contains(Modifier::REVERSED),
            "square {}",
            square + 1
        );
    }
    let (x, y) = centre_of(&app, Square::new(3));
    assert!(!buffer[(x, y)].modifier.contains(Modifier::REVERSED));
    assert!(
        buffer[(x, y - 1)].modifier.contains(Modifier::BOLD),
        "O is bold"
    );
    // During a game, the cursor is in reverse video.
    let playing = render(&two_people(), 80, 24);
    let (x, y) = centre_of(&two_people(), Square::new(4));
    assert!(playing[(x, y)].modifier.contains(Modifier::REVERSED));
}

#[test]
fn colour_gives_x_and_o_their_own_colours() {
    // X wins on the top row; its mark on 7 is off the line.
    let app = play_out(Theme::colour(), &['7', '4', '1', '5', '2', '8', '3']);
    assert_eq!(app.session.score().x_wins, 1);
    let buffer = render(&app, 80, 24);
    let x_colours: Vec<Color> = cells_with(&buffer, "╲")
        .iter()
        .map(|&(x, y)| buffer[(x, y)].fg)
        .collect();
    let o_colours: Vec<Color> = cells_with(&buffer, "╭")
        .iter()
        .map(|&(x, y)| buffer[(x, y)].fg)
        .collect();
    assert!(x_colours.contains(&Color::Cyan), "{x_colours:?}");
    assert!(o_colours.contains(&Color::Yellow), "{o_colours:?}");
    assert!(
        x_colours.contains(&Color::Green),
        "the winning line is green"
    );
}

#[test]
fn games_between_two_computers_follow_one_another_up_to_the_limit() {
    let seats = Some((
        Seat::Computer(Strength::Perfect),
        Seat::Computer(Strength::Rules),
    ));
    let mut launch = launch(seats, FirstPolicy::Alternate, Theme::monochrome());
    launch.settings = launch.settings.with_games(2).unwrap();
    let mut now = Duration::ZERO;
    let mut app = start_app(launch, AREA, now);
    for _ in 0..200 {
        now += COMPUTER_PAUSE.max(NEXT_GAME_PAUSE);
        if let Some(thinking) = tick(&mut app, now) {
            app.receive(thinking.think(), now);
        }
    }
    assert_eq!(
        app.session.score().games(),
        2,
        "both games played, and no more"
    );
    assert!(app.end.is_none(), "the last board stays up until q");
}

#[test]
fn a_computer_pause_is_short() {
    assert!(
        COMPUTER_PAUSE >= Duration::from_millis(200) && COMPUTER_PAUSE <= Duration::from_secs(1)
    );
}

#[test]
fn screen_gomoku_with_axes_and_the_last_move_underlined() {
    let mut app = people_on(Rules::new(15, 15, 5).unwrap());
    key(&mut app, Key::Enter);
    key(&mut app, Key::Right);
    key(&mut app, Key::Enter);
    let buffer = render(&app, 80, 24);
    insta::assert_snapshot!(text(&buffer));
    let last = centre_of(&app, Square::new(7 * 15 + 8));
    assert_eq!(buffer[last].symbol(), "O");
    assert!(
        buffer[last].modifier.contains(Modifier::UNDERLINED),
        "the last move stands out"
    );
    let (x, y) = centre_of(&app, Square::new(7 * 15 + 7));
    assert!(
        !buffer[(x, y)].modifier.contains(Modifier::UNDERLINED),
        "the earlier X does not"
    );
}

#[test]
fn nothing_but_quitting_acts_while_the_window_is_too_small() {
    let mut app = two_people();
    resize(&mut app, 40, 12);
    for digit in ['5', '3'] {
        key(&mut app, Key::Char(digit));
    }
    key(&mut app, Key::Enter);
    click(&mut app, 10, 5);
    resize(&mut app, AREA.width, AREA.height);
    assert!(
        app.position().history().is_empty(),
        "no move was played unseen"
    );

    let mut start = start_app(
        launch(None, FirstPolicy::X, Theme::monochrome()),
        AREA,
        Duration::ZERO,
    );
    resize(&mut start, 40, 12);
    key(&mut start, Key::Enter);
    key(&mut start, Key::Right);
    click(&mut start, 10, 5);
    resize(&mut start, AREA.width, AREA.height);
    assert!(!in_game(&start), "no game was started unseen");
    assert_eq!(
        menu(&start).choices.opponent,
        Opponent::Computer(Strength::Rules)
    );

    // Nor does the computer move while its move cannot be seen.
    let begin = Duration::ZERO;
    let seats = Some((Seat::Computer(Strength::Rules), Seat::Human));
    let mut computer = start_app(
        launch(seats, FirstPolicy::X, Theme::monochrome()),
        AREA,
        begin,
    );
    resize(&mut computer, 40, 12);
    assert!(tick(&mut computer, begin + COMPUTER_PAUSE * 2).is_none());
    resize(&mut computer, AREA.width, AREA.height);
    assert!(tick(&mut computer, begin + COMPUTER_PAUSE * 2).is_some());
}

#[test]
fn the_start_screen_offers_only_what_the_board_allows_and_never_refuses_in_silence() {
    let mut app = start_app(
        launch(None, FirstPolicy::X, Theme::monochrome()),
        AREA,
        Duration::ZERO,
    );
    for _ in 0..BOARDS.len() {
        for _ in 0..Opponent::ALL.len() {
            let rules = menu(&app).choices.rules;
            if let Opponent::Computer(strength) = menu(&app).choices.opponent {
                assert!(
                    strength.check(rules).is_ok(),
                    "{strength} offered on {rules}"
                );
            }
            let mut started = start_app(
                launch(None, FirstPolicy::X, Theme::monochrome()),
                AREA,
                Duration::ZERO,
            );
            menu_mut(&mut started).choices = menu(&app).choices.clone();
            key(&mut started, Key::Enter);
            assert!(
                in_game(&started),
                "{:?} on {rules}",
                menu(&app).choices.opponent
            );
            menu_mut(&mut app).line = 0;
            key(&mut app, Key::Right);
        }
        menu_mut(&mut app).line = 4;
        key(&mut app, Key::Right);
    }
    // Perfect play chosen on 3x3, then a board too big for it: the opponent follows,
    // and the screen says so.
    let mut app = start_app(
        launch(None, FirstPolicy::X, Theme::monochrome()),
        AREA,
        Duration::ZERO,
    );
    menu_mut(&mut app).choices.opponent = Opponent::Computer(Strength::Perfect);
    menu_mut(&mut app).line = 4;
    while menu(&app).choices.rules.square_count() <= 16 {
        key(&mut app, Key::Right);
    }
    assert_eq!(
        menu(&app).choices.opponent,
        Opponent::Computer(Strength::Search)
    );
    assert!(
        app.status.text.contains("impossible"),
        "{}",
        app.status.text
    );
}

#[test]
fn the_tally_covers_every_game_of_the_run() {
    let mut app = two_people();
    for digit in ['1', '4', '2', '5', '3'] {
        key(&mut app, Key::Char(digit));
    }
    assert_eq!(app.session.score().x_wins, 1);
    key(&mut app, Key::Char('m'));
    menu_mut(&mut app).line = StartLine::ALL.len() - 1;
    key(&mut app, Key::Enter);
    assert!(in_game(&app));
    assert_eq!(
        app.session.score().games(),
        1,
        "the game before the start screen still counts"
    );
    assert!(screen_text(&app).contains("X 1"), "{}", screen_text(&app));
}

#[test]
fn a_slow_hint_is_worked_out_off_the_interface_thread() {
    let mut app = people_on(Rules::new(4, 4, 4).unwrap());
    app.place(Square::new(5), Duration::ZERO);
    key(&mut app, Key::Char('H'));
    assert!(
        game(&app).hints.is_none(),
        "nothing is worked out on the key press"
    );
    assert!(
        app.status.text.contains("Working out"),
        "{}",
        app.status.text
    );
    let job = app.take_job().unwrap();
    assert!(app.take_job().is_none(), "one job at a time");
    // Keys still act while it works: a move makes its answer stale.
    key(&mut app, Key::Char('H'));
    assert!(
        app.status.text.contains("Still working"),
        "{}",
        app.status.text
    );
    let done = std::thread::spawn(move || job.run()).join().unwrap();
    app.finish_job(done);
    assert_eq!(game(&app).hints.as_ref().map(Vec::len), Some(15));

    key(&mut app, Key::Char('H'));
    let job = app.take_job().unwrap();
    key(&mut app, Key::Char('1'));
    key(&mut app, Key::Char('2'));
    let done = job.run();
    app.finish_job(done);
    assert!(
        game(&app).hints.is_none(),
        "a hint for a position left behind is dropped"
    );
}

/// `text` without whitespace or box lines: what a wrapped or centred drawing must still
/// hold, in order, when nothing is cut off.
fn squashed(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && !('\u{2500}'..='\u{257f}').contains(c))
        .collect()
}

/// The text drawn in `area` of `buffer`, a line per row.
fn text_in(buffer: &Buffer, area: Rect) -> String {
    (area.top()..area.bottom())
        .map(|y| {
            (area.left()..area.right())
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Asserts that each of `needles` is drawn whole at the smallest size: in the side
/// panel for a game's status, anywhere on the screen otherwise.
fn assert_shows(app: &App, needles: &[&str], what: &str) {
    let (width, height) = (layout::MIN_WIDTH, layout::MIN_HEIGHT);
    let buffer = render(app, width, height);
    let screen = if what.contains("status") && in_game(app) {
        let panel = layout::screen(buffer.area, app.rules()).unwrap().panel;
        text_in(&buffer, panel)
    } else {
        text(&buffer)
    };
    for needle in needles {
        assert!(
            squashed(&screen).contains(&squashed(needle)),
            "{what} on {}: {needle:?} is not whole at {width}x{height}:\n{screen}",
            app.rules()
        );
    }
}

#[test]
fn every_text_fits_whole_at_the_smallest_size_on_every_board() {
    let (width, height) = (layout::MIN_WIDTH, layout::MIN_HEIGHT);
    let messages = [
        "The impossible computer plays boards of up to 16 squares: now the computer, hard.",
        "Type a square, as h10: played once its name is whole (Enter where it could go on); Esc cancels.",
        "X wins. That was the last game: r for its review, q to quit.",
        "Computer (impossible) is thinking…",
        "Choose, then Start: the score goes on.",
        "Still working out the review…",
        "The computer could not move: the game is over: there is no move to choose.",
    ];
    for &(columns, rows, k, win) in &BOARDS {
        let rules = Rules::new(columns, rows, k).unwrap().with_win_rule(win);
        let setup = launch_on(rules, None, FirstPolicy::X, Theme::monochrome());
        let mut start = start_app(setup, Rect::new(0, 0, width, height), Duration::ZERO);
        assert_shows(
            &start,
            &[
                "↑↓ choose · ←→ or click: change · Enter: start · ?: help · q: quit",
                "Play against",
                "[ Start ]",
            ],
            "the start screen",
        );
        for message in messages {
            start.status.text = message.to_owned();
            assert_shows(&start, &[message], "the start screen's status");
        }
        start.overlay = Some(Overlay::Help);
        assert_shows(
            &start,
            &["Press any key, or click, to close.", "Ctrl-C"],
            "the help",
        );

        let setup = launch_on(
            rules,
            Some((Seat::Human, Seat::Human)),
            FirstPolicy::X,
            Theme::monochrome(),
        );
        let mut game = start_app(setup, Rect::new(0, 0, width, height), Duration::ZERO);
        assert_shows(&game, &[&super::ui::footer(rules)], "the game screen");
        // The hint's words, or why there is none (4x4's exact hint takes seconds here).
        if rules.square_count() != 16 {
            key(&mut game, Key::Char('H'));
            work(&mut game);
            let hint = game.status.text.clone();
            assert!(
                hint.starts_with("Hint") || hint.starts_with("No hint"),
                "{hint}"
            );
            assert_shows(&game, &[&hint], "the hint in the status");
        }
        for message in messages {
            game.status.text = message.to_owned();
            assert_shows(&game, &[message], "the game's status");
        }
        game.overlay = Some(Overlay::Help);
        let help: Vec<String> = [
            "arrows, hjkl, wasd move the cursor",
            "digits, t           type a square's name (5, 3 2, h8); Esc cancels",
            "q, Esc quit (asks during a game)",
            "Press any key, or click, to close.",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_shows(
            &game,
            &help.iter().map(String::as_str).collect::<Vec<_>>(),
            "the help",
        );
        game.overlay = Some(Overlay::Confirm(Leave::Quit));
        assert_shows(
            &game,
            &[
                "A game is in progress.",
                "Quit anyway?",
                "[ y: quit ]  [ other keys: keep playing ]",
            ],
            "the question before quitting",
        );
        let review = [
            "Review of the moves that changed the value of the game:",
            "  move 2, O at 4: a draw became a loss; 5 held the draw.",
        ];
        game.overlay = Some(Overlay::Review(review.map(str::to_owned).to_vec()));
        assert_shows(&game, &review, "the review");
    }
}

#[test]
fn the_start_screen_says_what_holds_for_the_chosen_opponent_and_board() {
    let mut app = start_app(
        launch(None, FirstPolicy::X, Theme::monochrome()),
        AREA,
        Duration::ZERO,
    );
    menu_mut(&mut app).choices.opponent = Opponent::Friend;
    assert_eq!(
        menu(&app).choices.line(StartLine::Letter).1,
        "X and O, taking turns"
    );
    menu_mut(&mut app).line = 1;
    key(&mut app, Key::Right);
    assert_eq!(menu(&app).choices.letter, Mark::X);
    assert!(
        app.status.text.contains("take turns"),
        "{}",
        app.status.text
    );

    let keys = |rules: Rules| {
        let mut choices = menu(&app).choices.clone();
        choices.rules = rules;
        choices.line(StartLine::Naming).1
    };
    assert_eq!(keys(Rules::default()), "1-9 row by row");
    assert_eq!(keys(Rules::new(7, 6, 4).unwrap()), "letter and row, as c2");
    assert_eq!(
        keys(Rules::new(15, 15, 5).unwrap()),
        "letter and row, as c2"
    );
    menu_mut(&mut app).choices.rules = Rules::new(15, 15, 5).unwrap();
    menu_mut(&mut app).line = 3;
    key(&mut app, Key::Right);
    assert_eq!(menu(&app).choices.naming, SquareNaming::Numbers);
    assert!(
        app.status.text.contains("letter and row"),
        "{}",
        app.status.text
    );
}

#[test]
fn big_boards_list_moves_in_columns_and_offer_no_hint_in_the_footer() {
    let mut app = people_on(Rules::new(15, 15, 5).unwrap());
    let rules = app.rules();
    // h8, then a square with a three-character name, then two more.
    for (column, row) in [(7, 7), (0, 14), (1, 1), (7, 8)] {
        app.place(rules.square(column, row).unwrap(), Duration::ZERO);
    }
    let screen = screen_text(&app);
    let moves: Vec<&str> = screen
        .lines()
        .filter_map(|line| line.split('│').nth(1))
        .filter(|panel| panel.trim_start().starts_with(['1', '2']) && panel.contains(". X"))
        .collect();
    assert_eq!(moves.len(), 2, "{screen}");
    let column_of_o = |line: &str| line.find(" O ").unwrap();
    assert_eq!(column_of_o(moves[0]), column_of_o(moves[1]), "{moves:?}");
    // No hint where perfect play is out of reach; the review is the threat search's.
    assert!(
        !screen.contains("H hint") && screen.contains("r review"),
        "{screen}"
    );
    assert!(screen.contains("? help · q quit"));
}

#[test]
fn new_game_and_start_screen_ask_before_throwing_a_game_away() {
    let mut app = two_people();
    key(&mut app, Key::Char('5'));
    key(&mut app, Key::Char('n'));
    assert_eq!(app.overlay, Some(Overlay::Confirm(Leave::NewGame)));
    key(&mut app, Key::Char('x'));
    assert!(app.overlay.is_none());
    assert_eq!(
        app.position().history().len(),
        1,
        "any other key keeps the game"
    );
    key(&mut app, Key::Char('n'));
    key(&mut app, Key::Char('y'));
    assert!(app.position().history().is_empty(), "y starts the new game");

    key(&mut app, Key::Char('5'));
    key(&mut app, Key::Char('m'));
    assert_eq!(app.overlay, Some(Overlay::Confirm(Leave::Menu)));
    assert!(in_game(&app));
    key(&mut app, Key::Enter);
    assert!(!in_game(&app));

    // With no game under way, nothing is lost and nothing is asked.
    let mut done = two_people();
    for digit in ['1', '4', '2', '5', '3'] {
        key(&mut done, Key::Char(digit));
    }
    key(&mut done, Key::Char('n'));
    assert!(done.overlay.is_none() && done.position().history().is_empty());
}

fn people_on(rules: Rules) -> App {
    start_app(
        launch_on(
            rules,
            Some((Seat::Human, Seat::Human)),
            FirstPolicy::X,
            Theme::monochrome(),
        ),
        AREA,
        Duration::ZERO,
    )
}

fn typed(app: &mut App, text: &str) {
    for character in text.chars() {
        key(app, Key::Char(character));
    }
}

#[test]
fn any_square_name_the_line_mode_reads_can_be_typed_shown_as_typed() {
    let gomoku = Rules::new(15, 15, 5).unwrap();
    let mut app = people_on(gomoku);
    key(&mut app, Key::Char('t'));
    typed(&mut app, "h1");
    assert!(app.position().history().is_empty(), "h1 might become h12");
    assert!(app.status.text.contains("h1_"), "{}", app.status.text);
    assert!(
        screen_text(&app).contains("h1_"),
        "the name shows as it is typed"
    );
    key(&mut app, Key::Backspace);
    typed(&mut app, "8");
    assert_eq!(app.position().history(), &[gomoku.square(7, 7).unwrap()]);
    assert_eq!(app.status.text, "X played h8.");
    // Column and row numbers, then Enter, as the line mode reads them.
    typed(&mut app, "3 12");
    key(&mut app, Key::Enter);
    assert_eq!(app.position().history()[1], gomoku.square(2, 11).unwrap());

    // On 7x6 digits mean what they mean in the line mode: square numbers row by row.
    let seven = Rules::new(7, 6, 4).unwrap();
    let mut app = people_on(seven);
    typed(&mut app, "10");
    key(&mut app, Key::Enter);
    assert_eq!(app.position().history(), &[Square::new(9)]);
    typed(&mut app, "4");
    assert_eq!(app.position().history().len(), 1, "4 might become 40");
    key(&mut app, Key::Enter);
    assert_eq!(app.position().history()[1], Square::new(3));
    // 5 is square 5, or column 5 and a row: as the error below offers.
    typed(&mut app, "5");
    assert_eq!(app.position().history().len(), 2, "5 might become 5 3");
    typed(&mut app, " 3");
    assert_eq!(app.position().history()[2], seven.square(4, 2).unwrap());
    typed(&mut app, "7");
    key(&mut app, Key::Enter);
    assert_eq!(app.position().history()[3], Square::new(6));
    typed(&mut app, "tz");
    assert!(app.status.warning);
    assert_eq!(
        app.status.text,
        "Square: _  (Esc cancels). 'z' is not a square: type a1 to g6, or column and row from 1 1 to 7 6, or a number from 1 to 42."
    );
    assert_eq!(app.position().history().len(), 4);
}

#[test]
fn esc_during_a_half_typed_square_cancels_it_and_asks_nothing() {
    let mut app = people_on(Rules::new(15, 15, 5).unwrap());
    key(&mut app, Key::Char('t'));
    typed(&mut app, "h");
    key(&mut app, Key::Esc);
    assert_eq!(app.overlay, None, "no quit dialog");
    assert_eq!(game(&app).entry, None);
    // The letters are keys again.
    key(&mut app, Key::Char('h'));
    assert_eq!(
        game(&app).cursor,
        Rules::new(15, 15, 5).unwrap().square(6, 7).unwrap()
    );
}

#[test]
fn a_mistyped_square_keeps_the_name_open_and_the_enter_after_it_plays_nothing() {
    let gomoku = Rules::new(15, 15, 5).unwrap();
    let mut app = people_on(gomoku);
    // "9" might become column 9 and a row; "99" names nothing on 15x15. The second 9 is
    // refused where it is typed, and the Enter meant to end the name does not play under
    // the cursor.
    key(&mut app, Key::Char('t'));
    typed(&mut app, "99");
    key(&mut app, Key::Enter);
    assert!(app.position().history().is_empty(), "{}", app.status.text);
    assert!(app.status.warning, "{}", app.status.text);
    assert_eq!(
        app.status.text,
        "Square: 9_  (Esc cancels). '9' is not a square: type a1 to o15, or column and row \
         from 1 1 to 15 15."
    );
    assert_eq!(game(&app).entry.as_deref(), Some("9"), "still typing");
    typed(&mut app, "99");
    assert_eq!(
        app.status.text,
        "Square: 9_  (Esc cancels). '99' is not a square: type a1 to o15, or column and row \
         from 1 1 to 15 15."
    );
    // What was typed before the refused character stays, to go on from.
    typed(&mut app, " 8");
    assert_eq!(app.position().history(), &[gomoku.square(8, 7).unwrap()]);
    assert_eq!(game(&app).entry, None);
    // Esc gives the keys back to the board.
    key(&mut app, Key::Char('t'));
    typed(&mut app, "h");
    key(&mut app, Key::Esc);
    assert_eq!(game(&app).entry, None);
    // A digit that starts no name types nothing: it is refused and the keys stay the
    // board's (Enter plays under the cursor, here on i8, taken).
    typed(&mut app, "0");
    assert_eq!(game(&app).entry, None);
    assert_eq!(
        app.status.text,
        "'0' is not a square: type a1 to o15, or column and row from 1 1 to 15 15."
    );
    key(&mut app, Key::Enter);
    assert_eq!(app.status.text, "Square i8 is taken by X.");
}

#[test]
fn undo_takes_back_the_losing_move_after_the_end_and_the_tally_forgets_the_game() {
    let mut app = two_people();
    typed(&mut app, "14253");
    assert_eq!(app.session.score().x_wins, 1);
    key(&mut app, Key::Char('u'));
    assert_eq!(app.status.text, "Took back 3.");
    assert_eq!(app.position().history().len(), 4);
    assert_eq!(app.session.score().games(), 0);
    typed(&mut app, "6");
    assert_eq!(app.position().history().len(), 5, "the game goes on");
}

#[test]
fn every_refusal_is_said_and_changes_nothing() {
    let mut app = two_people();
    let refused = |app: &mut App, keys: &str, message: &str| {
        let before = app.position().clone();
        typed(app, keys);
        assert!(app.status.warning, "{keys}: {}", app.status.text);
        assert_eq!(app.status.text, message, "after {keys}");
        assert_eq!(app.position().history(), before.history());
    };
    refused(&mut app, "u", "Nothing to undo.");
    refused(&mut app, "r", "The review comes when the game is over.");
    typed(&mut app, "5");
    refused(&mut app, "5", "Square 5 is taken by X.");
    typed(&mut app, "1426");
    assert!(app.position().is_over());
    refused(&mut app, " ", "The game is over: press n for a new game.");
    refused(&mut app, "H", "The game is over: press r for its review.");

    let mut one = start_app(
        Launch {
            settings: launch(
                Some((Seat::Human, Seat::Human)),
                FirstPolicy::X,
                Theme::monochrome(),
            )
            .settings
            .with_games(1)
            .unwrap(),
            theme: Theme::monochrome(),
        },
        AREA,
        Duration::ZERO,
    );
    typed(&mut one, "14253");
    refused(&mut one, "n", "That was the last game: press q to quit.");

    // While the computer thinks, nothing can be taken back or restarted under it.
    let mut computer = start_app(
        launch(
            Some((Seat::Human, Seat::Computer(Strength::Perfect))),
            FirstPolicy::X,
            Theme::monochrome(),
        ),
        AREA,
        Duration::ZERO,
    );
    typed(&mut computer, "5");
    let thinking = tick(&mut computer, COMPUTER_PAUSE).unwrap();
    refused(&mut computer, "1", "It is the computer's turn.");
    refused(&mut computer, "u", "Wait for the computer to move.");
    refused(&mut computer, "n", "Wait for the computer to move.");
    computer.receive(thinking.think(), COMPUTER_PAUSE);
    assert_eq!(computer.position().history().len(), 2);
}

#[test]
fn the_tally_goes_on_through_the_start_screen_and_a_change_of_board() {
    let mut app = two_people();
    typed(&mut app, "14253");
    key(&mut app, Key::Char('m'));
    assert!(!in_game(&app));
    menu_mut(&mut app).line = 4;
    key(&mut app, Key::Right);
    key(&mut app, Key::Enter);
    assert_eq!(app.rules(), Rules::new(4, 4, 4).unwrap());
    assert!(app.position().history().is_empty());
    assert_eq!(app.session.score().x_wins, 1);
    // A game left for the start screen comes back when nothing was changed.
    typed(&mut app, "a1");
    key(&mut app, Key::Enter);
    assert_eq!(app.position().history().len(), 1, "{}", app.status.text);
    key(&mut app, Key::Char('m'));
    key(&mut app, Key::Char('y'));
    key(&mut app, Key::Enter);
    assert_eq!(app.position().history().len(), 1);
    assert_eq!(app.status.text, "Back to the game.");
}

#[test]
fn a_mouse_or_a_finger_alone_reaches_every_action() {
    let mut app = two_people();
    let footer_row = AREA.height - 1;
    let column_of = |entry: &str| {
        let footer = super::footer(Rules::default());
        let at = footer.find(entry).unwrap();
        footer[..at].chars().count() as u16 + 1
    };
    let (x, y) = centre_of(&app, Square::new(4));
    click(&mut app, x, y);
    click(&mut app, column_of("u undo"), footer_row);
    assert_eq!(app.status.text, "Took back 5.");
    click(&mut app, column_of("H hint"), footer_row);
    work(&mut app);
    assert!(app.status.text.starts_with("Hint:"), "{}", app.status.text);
    click(&mut app, x, y);
    // Leaving a game in progress asks; a click on the answer line says yes.
    click(&mut app, column_of("n new"), footer_row);
    assert_eq!(app.overlay, Some(Overlay::Confirm(Leave::NewGame)));
    let (_, lines) = super::ui::overlay_text(
        app.overlay.as_ref().unwrap(),
        false,
        super::ui::help_lines,
        Front::Terminal,
    );
    let rect = super::ui::overlay_rect(AREA, &lines);
    let answer = lines.last().unwrap();
    let answer_row = rect.y + lines.len() as u16;
    // The text starts inside the frame and its padding.
    let column_in_box =
        |text: &str| rect.x + 2 + answer[..answer.find(text).unwrap()].chars().count() as u16 + 1;
    // "keep playing" on the answer line keeps the game.
    click(&mut app, column_in_box("keep playing"), answer_row);
    assert_eq!(app.overlay, None);
    assert_eq!(app.position().history().len(), 1, "the game goes on");
    click(&mut app, column_of("n new"), footer_row);
    click(&mut app, column_in_box("new game"), answer_row);
    assert_eq!(app.overlay, None);
    assert!(app.position().history().is_empty(), "the new game began");
    // Anywhere else, a click closes the box and keeps the game.
    click(&mut app, x, y);
    click(&mut app, column_of("q quit"), footer_row);
    click(&mut app, rect.x + 3, rect.y + 1);
    assert_eq!(app.end, None);
    assert_eq!(app.position().history().len(), 1);
    click(&mut app, column_of("? help"), footer_row);
    assert_eq!(app.overlay, Some(Overlay::Help));
}

/// The smallest upright window: a phone held upright.
const TALL: Rect = Rect::new(0, 0, layout::TALL_MIN_WIDTH, layout::TALL_MIN_HEIGHT);

/// Asserts that each of `needles` is drawn in `area` of the upright screen, wrapped
/// perhaps, but whole and in order.
fn assert_drawn_in(buffer: &Buffer, area: Rect, needles: &[&str], what: &str) {
    let drawn = squashed(&text_in(buffer, area));
    for needle in needles {
        assert!(
            drawn.contains(&squashed(needle)),
            "{what}: {needle:?} is not drawn in {area:?}:\n{}",
            text_in(buffer, area)
        );
    }
}

#[test]
fn an_upright_window_puts_the_panel_under_the_board_and_every_text_fits() {
    for &(columns, rows, k, win) in BOARDS.iter().chain(&[(20, 20, 5, WinRule::Freestyle)]) {
        let rules = Rules::new(columns, rows, k).unwrap().with_win_rule(win);
        let setup = launch_on(rules, None, FirstPolicy::X, Theme::monochrome());
        let start = start_app(setup, TALL, Duration::ZERO);
        assert!(!start.too_small(TALL), "{rules}");
        let buffer = render(&start, TALL.width, TALL.height);
        let keys = [
            "↑↓ choose",
            "←→ or click: change",
            "Enter: start",
            "?: help",
            "q: quit",
        ];
        assert_drawn_in(&buffer, TALL, &keys, "the start screen's keys");
        // Each line of the menu whole on its row, the longest values included.
        for line in text(&buffer).lines().filter(|line| line.contains('‹')) {
            assert!(line.contains('›'), "{rules}: cut: {line}");
        }

        let setup = launch_on(
            rules,
            Some((Seat::Human, Seat::Computer(Strength::Mcts))),
            FirstPolicy::X,
            Theme::monochrome(),
        );
        let mut game = start_app(setup, TALL, Duration::ZERO);
        let screen = layout::screen(TALL, rules).unwrap();
        assert_eq!(screen.shape, layout::Shape::Tall);
        let geometry = layout::board(TALL, rules).unwrap_or_else(|| panic!("{rules} fits"));
        assert_eq!(
            geometry.outer().bottom(),
            screen.panel.y,
            "{rules}: the panel right under the board, no blank band between them"
        );
        let message =
            "The impossible computer plays boards of up to 16 squares: now the computer, hard.";
        game.status.text = message.to_owned();
        let buffer = render(&game, TALL.width, TALL.height);
        assert_drawn_in(
            &buffer,
            screen.panel,
            &[
                "X  You",
                "O  Computer (tricky)",
                "Turn",
                "X to move: You",
                "Score",
                message,
            ],
            "the panel",
        );
        for (shown, _) in super::ui::footer_items(rules) {
            let rows = text_in(&buffer, screen.footer);
            assert!(
                rows.lines().any(|row| row.contains(shown)),
                "{rules}: {shown} in\n{rows}"
            );
        }
        game.overlay = Some(Overlay::Help);
        let buffer = render(&game, TALL.width, TALL.height);
        assert_drawn_in(
            &buffer,
            TALL,
            &["Press any key, or click, to close.", "Ctrl-C"],
            "the help",
        );
    }
}

/// The smallest window: a desktop page zoomed to 200%, or a small terminal pane.
const SMALL: Rect = Rect::new(0, 0, layout::SMALL_MIN_WIDTH, layout::SMALL_MIN_HEIGHT);

/// Every line of the box over `app`'s screen, seen by scrolling it from top to bottom
/// with the down arrow (the box stays open throughout).
fn scrolled_through(app: &mut App) -> String {
    let mut seen = String::new();
    for _ in 0..40 {
        seen.push_str(&text(&render(app, app.area.width, app.area.height)));
        let overlay = app.overlay.clone().expect("a box is open");
        if app.scroll == super::ui::overlay_hidden_rows(app, &overlay, app.area) {
            break;
        }
        key(app, Key::Down);
        assert!(
            app.overlay.is_some(),
            "the arrow scrolls, and does not close the box"
        );
    }
    seen
}

#[test]
fn a_small_window_shows_the_boards_up_to_7x7_and_every_text_by_scrolling_its_boxes() {
    for &(columns, rows, k, win) in BOARDS.iter().chain(&[(20, 20, 5, WinRule::Freestyle)]) {
        let rules = Rules::new(columns, rows, k).unwrap().with_win_rule(win);
        let seats = Some((Seat::Human, Seat::Computer(Strength::Mcts)));
        let setup = launch_on(rules, None, FirstPolicy::X, Theme::monochrome());
        let mut start = start_app(setup, SMALL, Duration::ZERO);
        assert!(!start.too_small(SMALL), "{rules}");
        let buffer = render(&start, SMALL.width, SMALL.height);
        let keys = [
            "↑↓ choose",
            "←→ or click: change",
            "Enter: start",
            "?: help",
        ];
        assert_drawn_in(&buffer, SMALL, &keys, "the start screen's keys");
        // Each line of the menu whole on its row, the longest values included.
        for opponent in [Opponent::Computer(Strength::Perfect), Opponent::Friend] {
            if opponent.plays_on(rules).is_ok() {
                menu_mut(&mut start).choices.opponent = opponent;
            }
            menu_mut(&mut start).choices.naming = SquareNaming::Coords;
            let shown = text(&render(&start, SMALL.width, SMALL.height));
            let menu_lines = shown.lines().filter(|line| line.contains('‹'));
            assert_eq!(menu_lines.clone().count(), 5, "{rules}:\n{shown}");
            for line in menu_lines {
                assert!(line.contains('›'), "{rules}: cut: {line}");
            }
            assert!(shown.contains("[ Start ]"), "{rules}:\n{shown}");
        }
        start.open(Overlay::Help);
        let help = squashed(&scrolled_through(&mut start));
        for line in super::ui::start_help_lines(Front::Terminal) {
            assert!(
                help.contains(&squashed(&line)),
                "{rules}: {line:?} never shown"
            );
        }
        assert!(help.contains(&squashed(Front::Terminal.close())));

        let setup = launch_on(rules, seats, FirstPolicy::X, Theme::monochrome());
        let mut game = start_app(setup, SMALL, Duration::ZERO);
        if rules.width() > 7 {
            // Too big for the window: it asks for a bigger one (a page makes its font
            // smaller).
            assert!(game.too_small(SMALL), "{rules}");
            let shown = text(&render(&game, SMALL.width, SMALL.height));
            assert!(
                shown.contains(&format!("Window too small for {rules}")),
                "{shown}"
            );
            continue;
        }
        let screen = layout::screen(SMALL, rules).unwrap();
        assert_eq!(screen.shape, layout::Shape::Small);
        let geometry = layout::board(SMALL, rules).unwrap_or_else(|| panic!("{rules} fits"));
        assert!(
            geometry.outer().right() <= screen.panel.x,
            "{rules}: beside the panel"
        );
        game.status.text = "Computer (tricky) played d4.".to_owned();
        let buffer = render(&game, SMALL.width, SMALL.height);
        assert_drawn_in(
            &buffer,
            screen.panel,
            &[
                "X  You",
                "Turn",
                "X to move",
                "Score",
                "Computer (tricky) played d4.",
            ],
            "the panel",
        );
        // A little wider, the board grows and the panel narrows: the score stays whole.
        let wider = Rect::new(0, 0, 50, 16);
        resize(&mut game, wider.width, wider.height);
        let panel = layout::screen(wider, rules).unwrap().panel;
        let shown = text_in(&render(&game, wider.width, wider.height), panel);
        assert!(shown.contains("draws 0"), "{rules}:\n{shown}");
        resize(&mut game, SMALL.width, SMALL.height);
        let footer = text_in(&buffer, screen.footer);
        for (shown, _) in super::ui::footer_items(rules) {
            assert!(
                footer.lines().any(|row| row.contains(shown)),
                "{rules}: {shown} in\n{footer}"
            );
        }
        game.open(Overlay::Help);
        let help = squashed(&scrolled_through(&mut game));
        for line in super::ui::help_lines(Front::Terminal) {
            assert!(
                help.contains(&squashed(&line)),
                "{rules}: {line:?} never shown"
            );
        }
        // Any other key closes the box, scrolled or not.
        key(&mut game, Key::Char('x'));
        assert_eq!(game.overlay, None);
    }
}

#[test]
fn in_an_upright_window_the_key_list_s_second_line_is_buttons_too() {
    let mut app = two_people();
    resize(&mut app, TALL.width, TALL.height);
    let (x, y) = centre_of(&app, Square::new(4));
    click(&mut app, x, y);
    assert_eq!(app.position().history().len(), 1, "{}", app.status.text);
    let footer = layout::screen(TALL, app.rules()).unwrap().footer;
    let buffer = render(&app, TALL.width, TALL.height);
    let rows: Vec<String> = text_in(&buffer, footer)
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    let (row, line) = rows
        .iter()
        .enumerate()
        .find(|(_, line)| line.contains("u undo"))
        .unwrap();
    let column = line[..line.find("u undo").unwrap()].chars().count() as u16;
    click(&mut app, footer.x + column, footer.y + row as u16);
    assert!(app.position().history().is_empty(), "{}", app.status.text);
    let (row, line) = rows
        .iter()
        .enumerate()
        .find(|(_, line)| line.contains("? help"))
        .unwrap();
    assert_eq!(row, 1, "help is on the second line: {rows:?}");
    let column = line[..line.find("? help").unwrap()].chars().count() as u16;
    click(&mut app, footer.x + column, footer.y + 1);
    assert_eq!(app.overlay, Some(Overlay::Help));
}

#[test]
fn screen_upright() {
    let mut app = two_people();
    resize(&mut app, TALL.width, TALL.height);
    for digit in ['5', '1', '9'] {
        key(&mut app, Key::Char(digit));
    }
    insta::assert_snapshot!(text(&render(&app, TALL.width, TALL.height)));
}

#[test]
fn an_engine_that_cannot_move_loses_the_game_in_words_and_stays_on_the_start_screen() {
    let start = Duration::ZERO;
    let engine = Seat::Engine("brain:/opt/pbrain-stub".parse().unwrap());
    let gomoku = Rules::new(15, 15, 5).unwrap();
    let seats = Some((Seat::Human, engine));
    let mut app = start_app(
        launch_on(gomoku, seats, FirstPolicy::X, Theme::monochrome()),
        AREA,
        start,
    );
    app.place(Square::new(112), start);
    let thinking = tick(&mut app, start + COMPUTER_PAUSE).unwrap();
    assert!(
        app.status
            .text
            .starts_with("Engine pbrain-stub is thinking")
    );
    // No launcher was lent, as on a web page: the engine cannot move and forfeits.
    app.receive(thinking.think(), start + COMPUTER_PAUSE);
    assert!(
        app.status
            .text
            .starts_with("O forfeits: outside engines cannot run here. You win! "),
        "{}",
        app.status.text
    );
    assert_eq!(app.session().score().x_wins, 1);
    assert!(screen_text(&app).contains("You win!"));
    // The start screen offers the engine again, with the other opponents.
    key(&mut app, Key::Char('m'));
    assert_eq!(menu(&app).choices.opponent, Opponent::Engine);
    assert!(screen_text(&app).contains("the engine pbrain-stub"));
    let change = |app: &mut App, line: StartLine| {
        let index = StartLine::ALL
            .iter()
            .position(|&each| each == line)
            .unwrap();
        menu_mut(app).line = index;
        key(app, Key::Right);
    };
    let mut offered = Vec::new();
    for _ in 0..Opponent::ALL.len() {
        change(&mut app, StartLine::Opponent);
        offered.push(menu(&app).choices.opponent);
    }
    assert_eq!(offered.last(), Some(&Opponent::Engine), "{offered:?}");
    assert!(!offered.contains(&Opponent::Computer(Strength::Perfect)));
    // On a board it cannot play, the engine is swapped for the hard computer.
    while !menu(&app).choices.rules.is_tic_tac_toe() {
        change(&mut app, StartLine::Board);
    }
    assert_eq!(
        menu(&app).choices.opponent,
        Opponent::Computer(Strength::Search)
    );
    assert!(
        app.status
            .text
            .starts_with("An outside engine plays five in a row")
    );
}

#[test]
fn the_start_screen_opens_with_last_run_s_choices_the_record_and_the_unfinished_game() {
    use crate::records::{GameRecord, Remembered, Stats};
    use crate::session::Table;
    let area = Rect::new(0, 0, 100, 30);
    let search = Seat::Computer(Strength::Search);
    let remembered = Remembered {
        table: Table {
            rules: Rules::new(7, 7, 5).unwrap(),
            x: search.clone(),
            o: Seat::Human,
            first: FirstPolicy::Alternate,
        },
        naming: SquareNaming::Keypad,
    };
    let mut app = start_app(
        launch(None, FirstPolicy::Random, Theme::monochrome()),
        area,
        Duration::ZERO,
    )
    .with_remembered(&remembered);
    let choices = &menu(&app).choices;
    assert_eq!(
        (
            choices.opponent,
            choices.letter,
            choices.first,
            choices.rules
        ),
        (
            Opponent::Computer(Strength::Search),
            Mark::O,
            FirstPolicy::Alternate,
            Rules::new(7, 7, 5).unwrap()
        )
    );
    assert_eq!(app.remembered(), Some(remembered.clone()));
    // Seats fixed on the command line: nothing is taken from last run, nor remembered.
    let fixed = start_app(
        launch(
            Some((Seat::Human, Seat::Human)),
            FirstPolicy::X,
            Theme::monochrome(),
        ),
        area,
        Duration::ZERO,
    )
    .with_remembered(&remembered);
    assert!(in_game(&fixed));
    assert_eq!(fixed.remembered(), None);

    // The record against the chosen opponent, from the kept games.
    let mut lost = GameRecord::new(Rules::default(), search.clone(), Seat::Human, Mark::X, 1);
    lost.moves = [4, 0, 1, 2, 7].map(Square::new).to_vec();
    lost.finish(ttt_core::Outcome::Win(Mark::X), 2);
    assert_eq!(app.record_line(), None);
    app.set_stats(Stats::of(&[lost]));
    let line = app.record_line().unwrap();
    assert_eq!(
        line,
        "Your record against the computer, hard: 0 won, 1 lost, 0 drawn"
    );
    assert!(screen_text(&app).contains(&line));

    // An unfinished game on offer: r takes it up, once.
    let mut unfinished = GameRecord::new(Rules::default(), Seat::Human, Seat::Human, Mark::X, 3);
    unfinished.moves = [4, 0].map(Square::new).to_vec();
    app.offer(unfinished);
    assert!(
        screen_text(&app)
            .contains("r: resume the unfinished game (3x3, k=3, X human against O human, 2 moves)")
    );
    assert!(!app.take_resumed());
    key(&mut app, Key::Char('r'));
    assert!(in_game(&app));
    assert_eq!(app.position().history(), &[Square::new(4), Square::new(0)]);
    assert!(app.take_resumed());
    assert!(!app.take_resumed());
    assert_eq!(app.offer_line(), None);
}

#[test]
fn resuming_keeps_the_first_move_chosen_on_the_start_screen() {
    use crate::records::GameRecord;
    let mut app = start_app(
        launch(None, FirstPolicy::Random, Theme::monochrome()),
        AREA,
        Duration::ZERO,
    );
    menu_mut(&mut app).choices.first = FirstPolicy::Alternate;
    let mut unfinished = GameRecord::new(Rules::default(), Seat::Human, Seat::Human, Mark::X, 3);
    unfinished.moves = [4, 0].map(Square::new).to_vec();
    app.offer(unfinished);
    key(&mut app, Key::Char('r'));
    assert!(in_game(&app));
    assert_eq!(app.session().table().first, FirstPolicy::Alternate);
    assert_eq!(
        app.remembered().unwrap().table.first,
        FirstPolicy::Alternate
    );
}

#[test]
fn a_start_screen_note_goes_with_the_next_change() {
    let mut app = start_app(
        launch(None, FirstPolicy::Random, Theme::monochrome()),
        AREA,
        Duration::ZERO,
    );
    let change = |app: &mut App, line: StartLine, key_pressed: Key| {
        let index = StartLine::ALL
            .iter()
            .position(|&each| each == line)
            .unwrap();
        menu_mut(app).line = index;
        key(app, key_pressed);
    };
    while menu(&app).choices.opponent != Opponent::Computer(Strength::Perfect) {
        change(&mut app, StartLine::Opponent, Key::Right);
    }
    // A board the impossible computer cannot play: it is swapped, and the note says so.
    let mut steps = 0;
    while menu(&app).choices.opponent == Opponent::Computer(Strength::Perfect) {
        change(&mut app, StartLine::Board, Key::Right);
        steps += 1;
        assert!(steps < BOARDS.len(), "some board is out of its reach");
    }
    assert!(app.status.text.contains("now"), "{:?}", app.status.text);
    // Back to 3x3 and the impossible computer again: the note no longer holds.
    while !menu(&app).choices.rules.is_tic_tac_toe() {
        change(&mut app, StartLine::Board, Key::Left);
    }
    while menu(&app).choices.opponent != Opponent::Computer(Strength::Perfect) {
        change(&mut app, StartLine::Opponent, Key::Right);
    }
    assert!(!app.status.text.contains("now"), "{:?}", app.status.text);
}

#[test]
fn help_on_the_start_screen_lists_the_start_screen_s_keys() {
    let mut app = start_app(
        launch(None, FirstPolicy::Random, Theme::monochrome()),
        AREA,
        Duration::ZERO,
    );
    key(&mut app, Key::Char('?'));
    let shown = screen_text(&app);
    assert!(shown.contains("start the game"), "{shown}");
    assert!(!shown.contains("place your mark"), "{shown}");
    key(&mut app, Key::Char('x'));
    key(&mut app, Key::Enter);
    key(&mut app, Key::Char('?'));
    assert!(screen_text(&app).contains("place your mark"));
}

#[test]
fn the_panel_names_each_player_whole_at_80x24() {
    for (width, height, k, rule) in BOARDS {
        let rules = Rules::new(width, height, k).unwrap().with_win_rule(rule);
        // The computer to move: its name is on the turn line too.
        let seats = Some((Seat::Computer(Strength::Mcts), Seat::Human));
        let app = start_app(
            launch_on(rules, seats, FirstPolicy::X, Theme::monochrome()),
            AREA,
            Duration::ZERO,
        );
        let shown = screen_text(&app);
        assert_eq!(
            shown.matches("Computer (tri").count(),
            shown.matches("Computer (tricky)").count(),
            "{rules}:\n{shown}"
        );
        assert!(shown.contains("Computer (tricky)"), "{rules}:\n{shown}");
    }
}

#[test]
fn the_offered_game_shows_whole_on_a_phone_and_a_tap_on_it_resumes() {
    use crate::records::GameRecord;
    for (width, height) in [(52, 56), (80, 24), (120, 40)] {
        let mut app = start_app(
            launch(None, FirstPolicy::Random, Theme::monochrome()),
            Rect::new(0, 0, width, height),
            Duration::ZERO,
        );
        let mut unfinished =
            GameRecord::new(Rules::default(), Seat::Human, Seat::Human, Mark::X, 3);
        unfinished.moves = [4, 0].map(Square::new).to_vec();
        app.offer(unfinished);
        let offer = app.offer_line().unwrap();
        let shown = text(&render(&app, width, height));
        // Every word of the offer is on the screen, none cut.
        let words: Vec<&str> = shown.split_whitespace().collect();
        for word in offer.split_whitespace() {
            assert!(
                words.contains(&word),
                "{width}x{height}: {word:?} in\n{shown}"
            );
        }
        // A tap on any of its lines takes the game up.
        let row = shown
            .lines()
            .position(|line| line.contains("resume"))
            .unwrap() as u16;
        let column = shown
            .lines()
            .nth(usize::from(row))
            .unwrap()
            .find("resume")
            .unwrap() as u16;
        click(&mut app, column, row);
        assert!(in_game(&app), "{width}x{height}");
        assert_eq!(app.position().history().len(), 2);
    }
}

#[test]
fn a_front_end_that_draws_marks_itself_gets_them_where_no_box_covers_the_board() {
    let mut app = two_people().with_marks_outside();
    key(&mut app, Key::Char('5'));
    key(&mut app, Key::Char('1'));
    let shown = app.shown_marks(AREA);
    let cells: Vec<(Mark, bool)> = shown.iter().map(|shown| (shown.mark, shown.last)).collect();
    assert_eq!(cells, [(Mark::O, true), (Mark::X, false)]);
    let (x, y) = centre_of(&app, Square::new(4));
    assert!(shown[1].cell.contains((x, y).into()));
    // The app draws no glyph where the front end draws the mark.
    let drawn = screen_text(&app);
    assert!(!drawn.contains('╳') && !drawn.contains('╭'), "{drawn}");
    // A box over the board: the front end draws none (they would cover the box), the app
    // draws them under the box again.
    key(&mut app, Key::Char('?'));
    assert!(app.shown_marks(AREA).is_empty());
    // An app that draws its own marks lists none.
    let mut own = two_people();
    key(&mut own, Key::Char('5'));
    assert!(own.shown_marks(AREA).is_empty());
    assert!(screen_text(&own).contains('╳'));
}

#[test]
fn the_board_in_words_names_every_square_with_its_row_column_and_mark() {
    let mut app = two_people();
    key(&mut app, Key::Char('5'));
    let squares = app.shown_squares(AREA);
    assert_eq!(squares.len(), 9);
    assert_eq!(squares[4].words, "5: row 2, column 2, X, the cursor");
    assert_eq!((squares[5].row, squares[5].column), (1, 2));
    assert!(
        squares[5].words.starts_with("6: row 2, column 3, empty"),
        "{:?}",
        squares[5]
    );
    let (x, y) = centre_of(&app, Square::new(5));
    assert!(squares[5].cell.contains((x, y).into()));
    key(&mut app, Key::Char('?'));
    assert!(
        app.shown_squares(AREA).is_empty(),
        "no board in words under a box"
    );
}

#[test]
fn i_tells_what_the_hard_computer_thought_for_its_last_move() {
    let rules = Rules::new(9, 9, 5).unwrap();
    let mut launched = launch_on(
        rules,
        Some((Seat::Human, Seat::Computer(Strength::Search))),
        FirstPolicy::X,
        Theme::monochrome(),
    );
    launched.settings = launched.settings.with_limits(ttt_players::Limits {
        think: Duration::from_millis(100),
        ..ttt_players::Limits::default()
    });
    let mut app = start_app(launched, Rect::new(0, 0, 100, 40), Duration::ZERO);
    key(&mut app, Key::Char('i'));
    assert!(
        app.status().text.starts_with("Nothing to tell"),
        "{:?}",
        app.status()
    );
    key(&mut app, Key::Enter);
    let thinking = tick(&mut app, COMPUTER_PAUSE).expect("the computer's turn");
    app.receive(thinking.think(), COMPUTER_PAUSE);
    key(&mut app, Key::Char('i'));
    let Some(Overlay::Thought(told)) = app.overlay().cloned() else {
        panic!("no box of what it thought: {:?}", app.overlay());
    };
    let square = app.position().history().last().copied().unwrap();
    let played = app.naming().label(square, app.rules());
    assert!(
        told[0].ends_with(&format!("for its move {played}:")),
        "{told:?}"
    );
    assert!(
        told.iter().any(|line| line.ends_with("a second.")),
        "{told:?}"
    );
    assert!(screen_text(&app).contains("Thought"), "the box is drawn");
    // Esc closes the box, as any key does, and asks nothing: the game goes on.
    key(&mut app, Key::Esc);
    assert!(app.overlay().is_none(), "{:?}", app.overlay());
    key(&mut app, Key::Char('?'));
    assert!(
        matches!(app.overlay(), Some(Overlay::Help)),
        "the next key is the game's: {:?}",
        app.overlay()
    );
    key(&mut app, Key::Esc);
    // Undone, the move it was about is gone, and so is what it thought.
    key(&mut app, Key::Char('u'));
    key(&mut app, Key::Char('i'));
    assert!(
        app.status().text.starts_with("Nothing to tell"),
        "{:?}",
        app.status()
    );
}
