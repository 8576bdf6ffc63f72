//! The full-screen mode in a terminal: the play layer's [`App`] driven by crossterm.
//!
//! The app holds the state, takes inputs and draws itself; this module only turns
//! crossterm's events into the app's [`Input`]s, runs the slow work on threads, and
//! restores the terminal on every way out: quitting, Ctrl-C, a signal (SIGTERM, SIGHUP,
//! SIGQUIT, SIGINT from `kill`), an error or a panic.

pub mod online;
mod watchdog;

use std::io::{self, IsTerminal};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEvent, KeyEventKind,
    KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::crossterm::{cursor, execute};
use ttt_play::app::{App, End, Input, KeptGames, Key, ReplayScreen, Theme};
use ttt_play::session::{Score, Thought};
use ttt_play::{Settings, app};

use crate::signals::{Interrupts, Signal};
use online::Online;
use ttt::engine::EngineLauncher;
use ttt::line::Resume;
use ttt::store::{Keeping, Store};
use ttt_play::records::{GameRecord, Recorder, Remembered};
use watchdog::Watchdog;

/// How often the loop wakes with nothing happening, to notice a due computer move.
const TICK: Duration = Duration::from_millis(50);

/// How the full-screen mode ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exit {
    /// The score of every game of the run.
    pub score: Score,
    /// The signal that ended it (Ctrl-C among them), or `None` when the person quit.
    pub signal: Option<Signal>,
    /// The score of the room online the person was in at the end, in words.
    pub room: Option<String>,
}

/// Runs the full-screen mode until the person quits or a signal in `interrupts` arrives,
/// and returns the score.
///
/// # Errors
/// Only errors of the terminal itself; the terminal is restored before returning.
pub fn run(
    settings: Settings,
    theme: Theme,
    memory: Memory,
    mut online: Online,
    interrupts: &Interrupts,
) -> io::Result<Exit> {
    let watchdog = Watchdog::start(interrupts)?;
    let terminal = ratatui::init();
    let guard = MouseGuard::enable();
    let mut keeping = Keeping::new(memory.store.clone(), memory.remembered.clone());
    let result = guard.and_then(|_guard| {
        event_loop(
            terminal,
            settings,
            theme,
            &mut keeping,
            memory,
            &mut online,
            interrupts,
            &watchdog,
        )
    });
    ratatui::restore();
    // Said once the terminal is itself again.
    if let Some(trouble) = keeping.trouble {
        crate::failure::say(trouble);
    }
    if keeping.kept_unfinished {
        // Nothing to say it to when the terminal is gone.
        let _ = std::io::Write::write_all(
            &mut std::io::stdout(),
            b"The unfinished game is kept: `ttt play --resume` takes it up.\n",
        );
    }
    result
}

/// What the full-screen mode remembers across runs, as the front end read it.
#[derive(Debug, Default)]
pub struct Memory {
    /// Keeps the games, unless the run saves nothing.
    pub recorder: Option<Recorder>,
    /// Where the start screen's choices are remembered.
    pub store: Option<Store>,
    /// The games kept, by id: the start screen's record line and the game it offers.
    pub games: Vec<(String, GameRecord)>,
    /// The start screen's choices of the last run.
    pub remembered: Option<Remembered>,
    /// An unfinished game to take up now, or to offer on the start screen.
    pub resume: Option<Resume>,
}

/// Mouse capture and a hidden cursor for as long as it lives, undone on drop and on panic
/// (ratatui's own hook restores raw mode and the main screen).
struct MouseGuard;

impl MouseGuard {
    fn enable() -> io::Result<MouseGuard> {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let _ = execute!(io::stdout(), DisableMouseCapture, cursor::Show);
            previous(info);
        }));
        execute!(io::stdout(), EnableMouseCapture)?;
        Ok(MouseGuard)
    }
}

impl Drop for MouseGuard {
    fn drop(&mut self) {
        let _ = execute!(io::stdout(), DisableMouseCapture, cursor::Show);
    }
}

#[allow(
    clippy::too_many_arguments,
    reason = "each is one thing the loop is given"
)]
fn event_loop(
    mut terminal: DefaultTerminal,
    settings: Settings,
    theme: Theme,
    keeping: &mut Keeping,
    memory: Memory,
    online: &mut Online,
    interrupts: &Interrupts,
    watchdog: &Watchdog,
) -> io::Result<Exit> {
    let clock = Instant::now();
    let size = terminal.size()?;
    let mut app = App::new(
        settings,
        theme,
        ratatui::layout::Rect::new(0, 0, size.width, size.height),
        clock.elapsed(),
    )
    .with_launcher(Box::new(EngineLauncher))
    .with_online(online.name());
    if let Some(remembered) = &memory.remembered {
        app = app.with_remembered(remembered);
    }
    keeping.kept = memory
        .recorder
        .map(|recorder| KeptGames::new(recorder, memory.games, &mut app));
    if let (Some(Resume::Offer(offered)), Some(kept)) = (&memory.resume, &mut keeping.kept) {
        kept.offer(&mut app, &offered.id, &offered.record);
    }
    if let Some(Resume::Now(resumed)) = memory.resume {
        match app.resume(&resumed.record, clock.elapsed()) {
            Ok(()) => {
                if let Some(kept) = &mut keeping.kept {
                    kept.resumed(&app, &resumed.id, resumed.record.started);
                }
            }
            Err(refusal) => {
                keeping
                    .trouble
                    .get_or_insert(format!("that game cannot be taken up: {refusal}"));
            }
        }
    }
    online.begin(&mut app);
    let (sender, thoughts) = mpsc::channel::<Thought>();
    let (job_sender, finished_jobs) = mpsc::channel::<app::Done>();
    loop {
        keeping.observe(&mut app);
        let score = app.session().score();
        watchdog.record(score);
        let signal = if let Some(signal) = interrupts.received() {
            Some(signal)
        } else if !io::stdin().is_terminal() {
            // The terminal hung up without a SIGHUP reaching us: its input now reads as an
            // endless end of file, which would spin here for ever.
            Some(Signal::HANG_UP)
        } else {
            match app.end() {
                Some(End::Interrupted) => Some(Signal::INTERRUPT),
                Some(End::Quit) => {
                    keeping.leave(&app);
                    let room = online.tally();
                    online.close_down();
                    return Ok(Exit {
                        score,
                        signal: None,
                        room,
                    });
                }
                None => None,
            }
        };
        if signal.is_some() {
            keeping.leave(&app);
            let room = online.tally();
            online.close_down();
            return Ok(Exit {
                score,
                signal,
                room,
            });
        }
        terminal.draw(|frame| frame.render_widget(&app, frame.area()))?;
        app.handle(Input::Tick, clock.elapsed());
        if let Some(thinking) = app.take_thinking() {
            let sender = sender.clone();
            std::thread::spawn(move || {
                let _ = sender.send(thinking.think());
            });
        }
        // Hints and reviews too: the screen, keys and Ctrl-C stay live while they work.
        if let Some(job) = app.take_job() {
            let sender = job_sender.clone();
            std::thread::spawn(move || {
                let _ = sender.send(job.run());
            });
        }
        if event::poll(TICK)? {
            let event = event::read()?;
            if is_suspend(&event) {
                suspend(&mut terminal)?;
            }
            for input in inputs(event) {
                app.handle(input, clock.elapsed());
            }
        }
        online.asks(&mut app);
        online.poll(&mut app);
        while let Ok(thought) = thoughts.try_recv() {
            app.receive(thought, clock.elapsed());
        }
        while let Ok(done) = finished_jobs.try_recv() {
            app.finish_job(done);
        }
    }
}

/// Shows `screen`, a kept game's replay, until the person quits it or a signal in
/// `interrupts` arrives (returned); the terminal is restored on every way out.
///
/// # Errors
/// Only errors of the terminal itself; the terminal is restored before returning.
pub fn replay(mut screen: ReplayScreen, interrupts: &Interrupts) -> io::Result<Option<Signal>> {
    let _watchdog = Watchdog::start(interrupts)?;
    let mut terminal = ratatui::init();
    let result = (|| {
        loop {
            if let Some(signal) = interrupts.received() {
                return Ok(Some(signal));
            }
            if !io::stdin().is_terminal() {
                return Ok(Some(Signal::HANG_UP));
            }
            if screen.is_done() {
                return Ok(screen.was_interrupted().then_some(Signal::INTERRUPT));
            }
            terminal.draw(|frame| frame.render_widget(&screen, frame.area()))?;
            if event::poll(TICK)? {
                let event = event::read()?;
                if is_suspend(&event) {
                    suspend(&mut terminal)?;
                }
                for input in inputs(event) {
                    screen.handle(input);
                }
            }
        }
    })();
    ratatui::restore();
    result
}

/// The app's inputs for a terminal event, those the app knows. Esc then a key typed
/// quickly reach us as Alt with the key (tmux and most terminals join them, and no key of
/// the app uses Alt): that is the two keys, Esc acting at once.
fn inputs(event: Event) -> Vec<Input> {
    match event {
        Event::Key(key) if key.modifiers.contains(KeyModifiers::ALT) => {
            let mut alone = key;
            alone.modifiers.remove(KeyModifiers::ALT);
            match key_input(alone) {
                Some(key) if key != Key::Interrupt => vec![Input::Key(Key::Esc), Input::Key(key)],
                _ => Vec::new(),
            }
        }
        Event::Key(key) => key_input(key).map(Input::Key).into_iter().collect(),
        Event::Mouse(mouse) if mouse.kind == MouseEventKind::Down(MouseButton::Left) => {
            vec![Input::Click {
                column: mouse.column,
                row: mouse.row,
            }]
        }
        Event::Resize(width, height) => vec![Input::Resize { width, height }],
        _ => Vec::new(),
    }
}

/// Whether the event is Ctrl-Z, which raw mode turns from the terminal's SIGTSTP into a key.
fn is_suspend(event: &Event) -> bool {
    matches!(event, Event::Key(key)
        if key.kind != KeyEventKind::Release
            && key.modifiers.contains(KeyModifiers::CONTROL)
            && matches!(key.code, KeyCode::Char('z' | 'Z')))
}

/// Suspends the program as a shell's job, as Ctrl-Z does outside raw mode: the terminal
/// is given back as it was (main screen, line editing, no mouse reports, a cursor), the
/// program stops, and once the shell continues it (`fg`) the screen is taken again and
/// drawn whole.
#[cfg(unix)]
fn suspend(terminal: &mut DefaultTerminal) -> io::Result<()> {
    use ratatui::crossterm::terminal::{
        EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
    };
    execute!(
        io::stdout(),
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    )?;
    disable_raw_mode()?;
    // Stops here until SIGCONT; SIGTSTP's own action, since nothing here catches it.
    nix::sys::signal::raise(nix::sys::signal::Signal::SIGTSTP).map_err(io::Error::from)?;
    enable_raw_mode()?;
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        cursor::Hide
    )?;
    terminal.clear()
}

/// Without job control there is nothing to suspend to: Ctrl-Z does nothing.
#[cfg(not(unix))]
fn suspend(_terminal: &mut DefaultTerminal) -> io::Result<()> {
    Ok(())
}

fn key_input(key: KeyEvent) -> Option<Key> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        // Raw mode turns Ctrl-C into a key: it ends the program as SIGINT would.
        return (key.code == KeyCode::Char('c')).then_some(Key::Interrupt);
    }
    Some(match key.code {
        KeyCode::Char(character) => Key::Char(character),
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Tab => Key::Tab,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_keys_become_the_apps_keys() {
        let press = |code, modifiers| key_input(KeyEvent::new(code, modifiers));
        assert_eq!(
            press(KeyCode::Char('c'), KeyModifiers::CONTROL),
            Some(Key::Interrupt)
        );
        assert_eq!(press(KeyCode::Char('x'), KeyModifiers::CONTROL), None);
        assert_eq!(
            press(KeyCode::Char('H'), KeyModifiers::SHIFT),
            Some(Key::Char('H'))
        );
        assert_eq!(press(KeyCode::F(1), KeyModifiers::NONE), None);
        let mut release = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
        release.kind = KeyEventKind::Release;
        assert_eq!(key_input(release), None);
    }

    #[test]
    fn esc_then_a_key_read_as_alt_is_esc_then_the_key() {
        let alt_q = Event::Key(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::ALT));
        assert_eq!(
            inputs(alt_q),
            [Input::Key(Key::Esc), Input::Key(Key::Char('q'))]
        );
        let ctrl_z = Event::Key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL));
        assert!(is_suspend(&ctrl_z));
        assert!(inputs(ctrl_z).is_empty());
    }
}
