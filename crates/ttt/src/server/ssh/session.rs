//! One SSH session: the client asks for a terminal and a shell (or a command: `join CODE`,
//! `watch CODE`, `replay [GAME]`, `help`), and the session drives an app of its own
//! until the person quits, the connection ends, they stay silent too long or the server
//! stops; then the client's terminal is given back as it was, with the score on its
//! normal screen, as at home.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use crate::store::{Keeping, Kept, Store};
use russh::server::Msg;
use russh::{Channel, ChannelMsg, ChannelWriteHalf};
use tokio::sync::mpsc;
use tokio::time::Instant;
use ttt_online::protocol::RoomCode;
use ttt_play::app::{self, App, Input, KeptGames, ReplayScreen, Theme};
use ttt_play::records::{Recorder, Remembered};
use ttt_play::replay::Replay;
use ttt_play::session::Thought;
use ttt_play::{Seats, Settings};

use super::online::Online;
use super::screen::{ENTER, LEAVE, Outgoing, Screen};
use super::{Context, KeyReader, Person};

/// How often the session looks at the time with nothing happening: clocks and a
/// computer's move due.
const TICK: Duration = Duration::from_millis(100);

/// How long the last words may take to reach a client before the session closes anyway.
pub(super) const LAST_WORDS: Duration = Duration::from_secs(2);

/// What the person asked the session for, by the command given to `ssh`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Start {
    /// The start screen (no command).
    Menu,
    /// A room, by its code.
    Join(RoomCode),
    /// A room to watch, by its code.
    Watch(RoomCode),
    /// A kept game: its number, `last` or its id.
    Replay(String),
    /// What the commands are.
    Help,
}

impl std::str::FromStr for Start {
    type Err = String;

    fn from_str(command: &str) -> Result<Start, String> {
        let words: Vec<&str> = command.split_whitespace().collect();
        let code = |code: &str| {
            code.parse::<RoomCode>()
                .map_err(|error| format!("{error}."))
        };
        match words.as_slice() {
            [] | ["play"] => Ok(Start::Menu),
            ["join", room] => code(room).map(Start::Join),
            ["watch", room] => code(room).map(Start::Watch),
            ["replay"] => Ok(Start::Replay("last".to_owned())),
            ["replay", game] => Ok(Start::Replay((*game).to_owned())),
            ["help" | "--help" | "-h"] => Ok(Start::Help),
            _ => Err(format!(
                "'{}' is not a ttt command here: {}",
                ttt_core::Shown(command.trim()),
                USAGE.lines().next().unwrap_or_default()
            )),
        }
    }
}

/// What `help` says.
const USAGE: &str = "Commands: none (the start screen), join CODE, watch CODE, replay [GAME], help.
  ssh -t HOST -p PORT join K7QX-2M   plays in a friend's room
  ssh -t HOST -p PORT watch K7QX-2M  watches it
  ssh -t HOST -p PORT replay 3       steps through your third kept game (last by default)
Your key is who you are: your games are kept under it. As guest@HOST, nothing is kept.";

/// How a session ended.
enum Ending {
    /// The person quit.
    Quit,
    /// The connection closed: nobody to say anything to.
    Gone,
    /// The client's input ended (its end of file), the screen still read.
    EndOfInput,
    /// The person typed nothing for too long.
    Idle,
    /// The server is stopping.
    Stopping,
}

/// Runs the session of `person` on `channel` until it ends.
pub(super) async fn run(
    channel: Channel<Msg>,
    person: Person,
    context: Arc<Context>,
    address: IpAddr,
) {
    let (mut reader, writer) = channel.split();
    let Some((size, command)) = asked(&mut reader, context.limits.login).await else {
        let _ = writer.close().await;
        return;
    };
    let start = match command.parse::<Start>() {
        Ok(Start::Help) => return finish(&writer, format!("{USAGE}\r\n").as_bytes(), 0).await,
        Ok(start) => start,
        Err(error) => return finish(&writer, format!("{error}\r\n").as_bytes(), 2).await,
    };
    let Some((width, height)) = size else {
        let said = "ttt plays full screen: ask ssh for a terminal (ssh -t).\r\n";
        return finish(&writer, said.as_bytes(), 1).await;
    };
    let Ok(screen) = Screen::new(width, height) else {
        return finish(&writer, b"The screen could not be made.\r\n", 1).await;
    };
    let writer = Arc::new(writer);
    let outgoing = Arc::new(Outgoing::default());
    let carrier = tokio::spawn(carry(writer.clone(), outgoing.clone()));
    let folder = context
        .players
        .as_ref()
        .zip(person.folder.as_ref())
        .map(|(players, folder)| players.join(folder));
    let mut drive = Drive {
        context: &context,
        reader: &mut reader,
        screen,
        outgoing: &outgoing,
        keys: KeyReader::default(),
        last_key: Instant::now(),
        last_frame: None,
    };
    let said = match start {
        Start::Replay(game) => replay(&mut drive, folder.as_deref(), &game).await,
        start => play(&mut drive, &person, folder.as_deref(), address, start).await,
    };
    match said {
        Some((said, status)) => {
            outgoing.push(LEAVE);
            outgoing.push(said.as_bytes());
            // The last words, given a moment to leave.
            let _ = tokio::time::timeout(LAST_WORDS, async {
                while !outgoing.ready() {
                    outgoing.taken.notified().await;
                }
            })
            .await;
            finish(&writer, &[], status).await;
        }
        None => {
            let _ = writer.close().await;
        }
    }
    carrier.abort();
}

/// Waits for the client's terminal and its shell or command: the terminal's size (none
/// without one) and the command (empty for a shell). `None` when the client closes or
/// takes too long.
async fn asked(
    reader: &mut russh::ChannelReadHalf,
    within: Duration,
) -> Option<(Option<(u16, u16)>, String)> {
    let mut size = None;
    let asked = async {
        while let Some(message) = reader.wait().await {
            match message {
                ChannelMsg::RequestPty {
                    col_width,
                    row_height,
                    ..
                }
                | ChannelMsg::WindowChange {
                    col_width,
                    row_height,
                    ..
                } => size = Some(cells(col_width, row_height)),
                ChannelMsg::RequestShell { .. } => return Some(String::new()),
                ChannelMsg::Exec { command, .. } => {
                    return Some(String::from_utf8_lossy(&command).into_owned());
                }
                ChannelMsg::Eof | ChannelMsg::Close => return None,
                _ => {}
            }
        }
        None
    };
    let command = tokio::time::timeout(within, asked).await.ok()??;
    Some((size, command))
}

/// A terminal's size in cells, as the app takes it.
fn cells(width: u32, height: u32) -> (u16, u16) {
    let cell = |count: u32| u16::try_from(count).unwrap_or(u16::MAX);
    (cell(width), cell(height))
}

/// Ends the session with `status`, after `said` (what the full screen did not send, if
/// anything): within a moment, whether the client reads or not.
async fn finish(writer: &ChannelWriteHalf<Msg>, said: &[u8], status: u32) {
    let _ = tokio::time::timeout(LAST_WORDS, async {
        if !said.is_empty() {
            let _ = writer.data_bytes(said.to_vec()).await;
        }
        let _ = writer.exit_status(status).await;
        let _ = writer.eof().await;
    })
    .await;
    let _ = writer.close().await;
}

/// The writer: sends each frame the session hands it, one at a time, for as long as the
/// client takes them.
async fn carry(writer: Arc<ChannelWriteHalf<Msg>>, outgoing: Arc<Outgoing>) {
    loop {
        outgoing.waiting.notified().await;
        let frame = outgoing.take();
        if !frame.is_empty() && writer.data_bytes(frame).await.is_err() {
            return;
        }
        outgoing.sent();
    }
}

/// What drives a session's screen: the client's bytes in, frames out.
struct Drive<'a> {
    context: &'a Arc<Context>,
    reader: &'a mut russh::ChannelReadHalf,
    screen: Screen,
    outgoing: &'a Outgoing,
    keys: KeyReader,
    /// When the person last typed or clicked (a new window size is not them at the keys).
    last_key: Instant,
    /// When the last frame was drawn.
    last_frame: Option<Instant>,
}

/// What the client did.
enum Heard {
    Inputs(Vec<Input>),
    Ended(Ending),
    Nothing,
}

impl Drive<'_> {
    /// Draws `widget` if the client has the last frame and the frame rate allows: when
    /// the rate held it back, the time to draw it.
    fn draw(&mut self, widget: impl ratatui::widgets::Widget) -> std::io::Result<Option<Instant>> {
        let every = Duration::from_secs(1) / self.context.limits.frames_per_second.max(1);
        let due = self.last_frame.map_or_else(Instant::now, |at| at + every);
        if !self.outgoing.ready() {
            // Drawn when the client has taken the last.
            return Ok(None);
        }
        if due > Instant::now() {
            return Ok(Some(due));
        }
        let frame = self.screen.draw(widget)?;
        if !frame.is_empty() {
            self.last_frame = Some(Instant::now());
            self.outgoing.push(&frame);
        }
        Ok(None)
    }

    /// What a message of the client's channel says.
    fn take(&mut self, message: Option<ChannelMsg>) -> Heard {
        match message {
            Some(ChannelMsg::Data { data }) => {
                self.last_key = Instant::now();
                Heard::Inputs(self.keys.read(&data))
            }
            Some(ChannelMsg::WindowChange {
                col_width,
                row_height,
                ..
            }) => {
                let (width, height) = cells(col_width, row_height);
                self.screen.resize(width, height);
                let area = self.screen.area();
                Heard::Inputs(vec![Input::Resize {
                    width: area.width,
                    height: area.height,
                }])
            }
            Some(ChannelMsg::Eof) => Heard::Ended(Ending::EndOfInput),
            Some(ChannelMsg::Close) | None => Heard::Ended(Ending::Gone),
            Some(_) => Heard::Nothing,
        }
    }

    /// Whether the person has been silent too long.
    fn idle(&self) -> bool {
        self.last_key.elapsed() >= self.context.limits.idle
    }
}

/// Runs `work` on a blocking thread once one of the server's thinkers is free, holding it
/// until the work is done (also when the session ends meanwhile).
fn on_a_thinker<T: Send + 'static>(
    context: &Context,
    work: impl FnOnce() -> T + Send + 'static,
) -> impl Future<Output = Result<T, tokio::task::JoinError>> + Send + 'static {
    let thinkers = context.thinkers.clone();
    async move {
        let turn = thinkers.acquire_owned().await;
        tokio::task::spawn_blocking(move || {
            let _turn = turn;
            work()
        })
        .await
    }
}

/// Has `work` done on a thinker, its answer sent to `sender` (dropped if the session ended).
fn hand_out<T: Send + 'static>(
    context: &Context,
    sender: &mpsc::Sender<T>,
    work: impl FnOnce() -> T + Send + 'static,
) {
    let (sender, done) = (sender.clone(), on_a_thinker(context, work));
    tokio::spawn(async move {
        if let Ok(done) = done.await {
            let _ = sender.send(done).await;
        }
    });
}

/// The words for how a session ended, after the score (if there is one): `None` when
/// nobody hears them.
fn last_words(ending: &Ending, score: Option<String>) -> Option<(String, u32)> {
    let (why, status) = match ending {
        Ending::Gone => return None,
        Ending::Quit => ("", 0),
        Ending::Idle => (
            "The session ended: nothing was typed for a long time.\r\n",
            1,
        ),
        Ending::Stopping => ("The server is stopping.\r\n", 1),
        Ending::EndOfInput => ("The input ended: the session ends.\r\n", 1),
    };
    let said = match score {
        Some(score) => format!("{score}\r\n{why}"),
        None => why.to_owned(),
    };
    Some((said, status))
}

/// Plays: the start screen (or a room first), until the session ends; the score and why
/// it ended, for the normal screen.
async fn play(
    drive: &mut Drive<'_>,
    person: &Person,
    folder: Option<&std::path::Path>,
    address: IpAddr,
    start: Start,
) -> Option<(String, u32)> {
    let context = drive.context;
    let clock = std::time::Instant::now();
    let settings = Settings::new(ttt_core::Rules::default(), Seats::Ask { letter: None }).ok()?;
    // No launcher: a person over SSH runs no program on the server.
    let mut app = App::new(
        settings,
        Theme::new(true),
        drive.screen.area(),
        clock.elapsed(),
    )
    .with_online(&person.name);
    let store = folder.and_then(|folder| Store::open(folder).ok());
    let remembered: Option<Remembered> = store
        .as_ref()
        .and_then(|store| store.choices().ok().flatten());
    if let Some(remembered) = &remembered {
        app = app.with_remembered(remembered);
    }
    let mut keeping = Keeping::new(store.clone(), remembered);
    if let Some(store) = &store {
        let games = store.load().map(|(kept, _)| kept).unwrap_or_default();
        let offered = Kept::unfinished(&games, true).cloned();
        let games = games
            .into_iter()
            .map(|kept| (kept.id, kept.record))
            .collect();
        let recorder = Recorder::new(Box::new(store.clone()));
        let mut kept = KeptGames::new(recorder, games, &mut app);
        if let Some(offered) = offered {
            kept.offer(&mut app, &offered.id, &offered.record);
        }
        keeping.kept = Some(kept);
    }
    let mut online = Online::new(context, address, person.name.clone(), folder, store.clone());
    match start {
        Start::Join(code) => online.join(code, &mut app),
        Start::Watch(code) => online.watch(code, &mut app),
        _ => {}
    }
    drive.outgoing.push(ENTER);
    let (thought_sender, mut thoughts) = mpsc::channel::<Thought>(2);
    let (job_sender, mut jobs) = mpsc::channel::<app::Done>(2);
    let mut stopping = context.stopping.clone();
    let ending = loop {
        keeping.observe(&mut app);
        if app.end().is_some() {
            break Ending::Quit;
        }
        if drive.idle() {
            break Ending::Idle;
        }
        let Ok(held) = drive.draw(&app) else {
            break Ending::Gone;
        };
        if let Some(thinking) = app.take_thinking() {
            hand_out(context, &thought_sender, move || thinking.think());
        }
        if let Some(job) = app.take_job() {
            hand_out(context, &job_sender, move || job.run());
        }
        online.asks(&mut app);
        // Time matters to a computer's move, a game to come, a room's clocks; a frame
        // waiting for the client is drawn when it has taken the last.
        let timed = app.next_due().is_some() || matches!(app.screen(), app::Screen::Online(_));
        let mut wake = if timed && drive.outgoing.ready() {
            Instant::now() + TICK
        } else {
            Instant::now() + Duration::from_secs(1)
        };
        if let Some(due) = held {
            wake = due;
        }
        if let Some(again) = online.next_due() {
            wake = wake.min(again);
        }
        let heard = tokio::select! {
            message = drive.reader.wait() => drive.take(message),
            Some(thought) = thoughts.recv() => {
                app.receive(thought, clock.elapsed());
                Heard::Nothing
            }
            Some(done) = jobs.recv() => {
                app.finish_job(done);
                Heard::Nothing
            }
            heard = online.heard() => {
                online.take(heard, &mut app);
                Heard::Nothing
            }
            () = drive.outgoing.taken.notified() => Heard::Nothing,
            () = tokio::time::sleep_until(wake) => Heard::Nothing,
            _ = stopping.changed() => Heard::Ended(Ending::Stopping),
        };
        match heard {
            Heard::Inputs(inputs) => {
                for input in inputs {
                    app.handle(input, clock.elapsed());
                }
            }
            Heard::Ended(ending) => break ending,
            Heard::Nothing => {}
        }
        app.handle(Input::Tick, clock.elapsed());
        online.poll();
    };
    keeping.leave(&app);
    let mut score = online
        .tally()
        .unwrap_or_else(|| app.session().score().to_string());
    if matches!(ending, Ending::Gone) {
        online.dropped();
    } else {
        online.close_down();
    }
    if let Some(trouble) = keeping.trouble.take() {
        score = format!("{score}\r\n{}", ttt_play::words::capitalised(&trouble));
    }
    if keeping.kept_unfinished {
        score.push_str("\r\nThe unfinished game is kept: it is offered on the start screen.");
    }
    last_words(&ending, Some(score))
}

/// Steps through a kept game of the person's, until they quit it.
async fn replay(
    drive: &mut Drive<'_>,
    folder: Option<&std::path::Path>,
    game: &str,
) -> Option<(String, u32)> {
    let found = match folder.map(Store::open) {
        None => Err("A guest keeps no games: log in with your SSH key to keep them.".to_owned()),
        Some(Err(error)) => Err(format!("Your games cannot be read: {error}.")),
        Some(Ok(store)) => match store.load() {
            Err(error) => Err(format!("Your games cannot be read: {error}.")),
            Ok((mut kept, _)) => {
                Kept::in_listing_order(&mut kept);
                Kept::find(&kept, game)
                    .map(|kept| kept.record.clone())
                    .map_err(|error| format!("{}.", ttt_play::words::capitalised(&error.0)))
            }
        },
    };
    let record = match found {
        Ok(record) => record,
        Err(said) => return Some((format!("{said}\r\n"), 1)),
    };
    let reviewed = on_a_thinker(drive.context, move || {
        let rules = record.rules;
        let replay = Replay::new(record).map_err(|error| error.to_string())?;
        Ok::<_, String>(if rules.square_count() <= ttt_solver::MAX_SOLVED_SQUARES {
            replay.with_review(&mut ttt_solver::Solver::new())
        } else {
            replay.with_threats()
        })
    });
    let replay = match reviewed.await {
        Ok(Ok(replay)) => replay,
        Ok(Err(error)) => {
            return Some((format!("That game cannot be replayed: {error}.\r\n"), 1));
        }
        Err(_) => return Some(("That game cannot be replayed.\r\n".to_owned(), 1)),
    };
    let mut screen = ReplayScreen::new(replay, Theme::new(true));
    drive.outgoing.push(ENTER);
    let mut stopping = drive.context.stopping.clone();
    let ending = loop {
        if screen.is_done() {
            break Ending::Quit;
        }
        if drive.idle() {
            break Ending::Idle;
        }
        let Ok(held) = drive.draw(&screen) else {
            break Ending::Gone;
        };
        let wake = held.unwrap_or_else(|| Instant::now() + Duration::from_secs(1));
        let heard = tokio::select! {
            message = drive.reader.wait() => drive.take(message),
            () = drive.outgoing.taken.notified() => Heard::Nothing,
            () = tokio::time::sleep_until(wake) => Heard::Nothing,
            _ = stopping.changed() => Heard::Ended(Ending::Stopping),
        };
        match heard {
            Heard::Inputs(inputs) => inputs.into_iter().for_each(|input| screen.handle(input)),
            Heard::Ended(ending) => break ending,
            Heard::Nothing => {}
        }
    };
    last_words(&ending, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_given_to_ssh() {
        let code: RoomCode = "K7QX-2M".parse().unwrap_or_else(|_| unreachable!());
        assert_eq!("".parse(), Ok(Start::Menu));
        assert_eq!("  play ".parse(), Ok(Start::Menu));
        assert_eq!("join K7QX-2M".parse(), Ok(Start::Join(code)));
        assert_eq!("watch k7qx2m".parse(), Ok(Start::Watch(code)));
        assert_eq!("replay".parse(), Ok(Start::Replay("last".to_owned())));
        assert_eq!("replay 3".parse(), Ok(Start::Replay("3".to_owned())));
        assert_eq!("help".parse(), Ok(Start::Help));
        let refused = "rm -rf /".parse::<Start>().unwrap_err();
        assert!(
            refused.starts_with("'rm -rf /' is not a ttt command here: Commands:"),
            "{refused}"
        );
        assert!("join nonsense".parse::<Start>().is_err());
    }
}
