//! `ttt`: noughts and crosses in the terminal.
//!
//! `main` only parses the command line, runs, and turns the result into an exit code and
//! at most one line on standard error; the work is in the modules.

mod cli;
mod commands;
mod tui;

use ttt::{failure, line, signals, store};

use std::io::{self, ErrorKind, IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;
use ttt_online::visit::Visit;
use ttt_play::{Seats, Settings};

use cli::{Cli, Command, PlayArgs};
use failure::{BAD_INPUT, BadInput};
use line::{Ending, LineOptions, Palette, Resume};
use signals::Interrupts;
use ttt_play::app::Theme;
use ttt_play::records::Recorder;
use tui::online::Online;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let ran = run(cli);
    // An engine still thinking on another thread is never dropped: end it here.
    ttt::engine::end_all();
    match ran {
        Ok(code) => code,
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) if error.is::<BadInput>() => {
            ttt::failure::say(error);
            ExitCode::from(BAD_INPUT)
        }
        Err(error) => {
            ttt::failure::say(format_args!("{error:#}"));
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    match cli.command {
        Some(Command::Play(args)) => play(&args, &mut out),
        None => play(&cli.play, &mut out),
        Some(Command::Analyze(args)) => {
            commands::analyze::run(&args, &mut out).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Move(args)) => {
            commands::choose::run(&args, &mut out).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Solve(args)) => commands::solve::run(&args, &mut out),
        Some(Command::Count(args)) => {
            commands::count::run(&args, &mut out).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Stats(args)) => {
            commands::records::stats(&args, &args.store, &mut io::stdin().lock(), &mut out)
        }
        Some(Command::Games(args)) => commands::records::games(&args, &args.store, &mut out),
        Some(Command::Export(args)) => commands::records::export(&args, &args.store, &mut out),
        Some(Command::Import(args)) => commands::records::import(&args, &args.store, &mut out),
        Some(Command::Verify(args)) => commands::verify::run(&args, &mut out),
        Some(Command::Serve(args)) => commands::serve::run(&args, &mut out),
        Some(Command::Host(args)) => {
            let entry = ttt::client::Entry::Host {
                rules: args.board.rules()?,
                computer: args.computer,
                clock: args.clock,
                public: args.public,
            };
            play_online(&args.client, entry, Some(args.listen), &mut out)
        }
        Some(Command::Rooms(args)) => commands::serve::rooms(&args, &mut out),
        Some(Command::Bot(args)) => commands::serve::bot(&args, &mut out),
        Some(Command::Join(args)) => {
            let client = args.client_of_link();
            let entry = ttt::client::Entry::Join(args.code.code);
            play_online(&client, entry, None, &mut out)
        }
        Some(Command::Watch(args)) => {
            let client = args.client_of_link();
            let entry = ttt::client::Entry::Watch(args.code.code);
            play_online(&client, entry, None, &mut out)
        }
        Some(Command::Replay(args)) => {
            let replay = commands::records::replay_of(&args, &args.store)?;
            if args.plain || !full_screen_possible() {
                commands::records::print_replay(&replay, &mut out)
            } else {
                let interrupts = Interrupts::watch()?;
                let screen =
                    ttt_play::app::ReplayScreen::new(replay, Theme::new(!line::no_color()));
                Ok(match tui::replay(screen, &interrupts)? {
                    Some(signal) => signal.exit_code(),
                    None => ExitCode::SUCCESS,
                })
            }
        }
        Some(Command::Brain(args)) => {
            let interrupts = Interrupts::watch()?;
            let memory = cli::memory_bound(args.hash)?;
            ttt::brain::run(
                io::BufReader::new(io::stdin()),
                &mut out,
                memory,
                &interrupts,
            )?;
            Ok(match interrupts.received() {
                Some(signal) => signal.exit_code(),
                None => ExitCode::SUCCESS,
            })
        }
    }
    .and_then(|code| {
        out.flush()?;
        Ok(code)
    })
}

/// `ttt host`, `ttt join` and `ttt watch`: full screen in a terminal, in lines otherwise
/// (`--plain`, a pipe).
fn play_online(
    client: &commands::serve::ClientArgs,
    entry: ttt::client::Entry,
    own: Option<std::net::SocketAddr>,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    if client.plain || !full_screen_possible() {
        commands::serve::play(client, entry, own, out)
    } else {
        online_full_screen(client, entry, own, out)
    }
}

fn play(args: &PlayArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let rules = args.board.rules()?;
    let (store, kept) = open_store(args);
    // The unfinished game kept last, to take up now (--resume); the one to offer, as
    // both front ends choose it.
    let latest = |offered: bool| store::Kept::unfinished(&kept, offered).cloned();
    let (settings, resume) = if args.resume {
        let Some(kept) = latest(false) else {
            // Not a mistake in the flags: there is simply nothing to take up (exit 1).
            anyhow::bail!("there is no unfinished game to resume");
        };
        let seats = Seats::Fixed {
            x: kept.record.x.clone(),
            o: kept.record.o.clone(),
        };
        (
            args.settings_with(kept.record.rules, seats)?,
            Some(Resume::Now(kept)),
        )
    } else {
        let settings = args.settings(rules)?;
        // Offered where the person is asked who plays: not when the flags say so.
        let asking = matches!(settings.seats(), Seats::Ask { .. });
        let offer = latest(true).filter(|_| asking).map(Resume::Offer);
        (settings, offer)
    };
    let recorder = store.clone().map(|store| Recorder::new(Box::new(store)));
    for engine in settings.engines() {
        // A command that cannot even start is the person's mistake, said before any game.
        ttt::engine::Engine::start(engine.command(), settings.limits())
            .map_err(|error| BadInput(error.to_string()))?;
    }
    if !args.plain && full_screen_possible() {
        let seats = commands::serve::seats(&args.store);
        let games = store.clone();
        let online = Online::new(None, ttt::client::default_name(), seats, None, games);
        return full_screen(settings, (store, kept), resume, online, out);
    }
    let options = LineOptions {
        style: args.style,
        palette: Palette::detect(),
        echo_input: !io::stdin().is_terminal(),
        review: !args.no_review,
    };
    let interrupts = Interrupts::watch()?;
    let ending = line::run(
        io::BufReader::new(io::stdin()),
        out,
        settings,
        options,
        recorder,
        resume,
        &interrupts,
    );
    // A signal decides the exit code even when it also broke the input or output: a
    // closed terminal window fails reads and writes (EIO) and sends SIGHUP, in either
    // order, so a failure of the terminal waits a moment for its signal.
    #[cfg(unix)]
    let hung_up = ending
        .as_ref()
        .is_err_and(|error| error.raw_os_error() == Some(nix::libc::EIO));
    #[cfg(not(unix))]
    let hung_up = false;
    let mut waits = if hung_up { 20 } else { 0 };
    loop {
        if let Some(signal) = interrupts.received() {
            return Ok(signal.exit_code());
        }
        if waits == 0 {
            break;
        }
        waits -= 1;
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    Ok(match ending? {
        Ending::Finished => ExitCode::SUCCESS,
        Ending::CutShort => ExitCode::FAILURE,
        Ending::Signalled(signal) => signal.exit_code(),
    })
}

/// The full-screen mode, with the kept games, the one to take up or offer, and the
/// rooms online; the score (or the room's) said after it.
fn full_screen(
    settings: Settings,
    (store, kept): (Option<store::Store>, Vec<store::Kept>),
    resume: Option<Resume>,
    online: Online,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    let interrupts = Interrupts::watch()?;
    let theme = Theme::new(!line::no_color());
    let remembered = match store.as_ref().map(store::Store::choices) {
        Some(Ok(remembered)) => remembered,
        Some(Err(set_aside)) => {
            ttt::failure::say(set_aside);
            None
        }
        None => None,
    };
    let memory = tui::Memory {
        recorder: store.clone().map(|store| Recorder::new(Box::new(store))),
        store,
        games: kept
            .into_iter()
            .map(|kept| (kept.id, kept.record))
            .collect(),
        remembered,
        resume,
    };
    // What was said before (the host's own server's address) stays readable after.
    out.flush()?;
    let exit = tui::run(settings, theme, memory, online, &interrupts)?;
    let tally = exit.room.unwrap_or_else(|| exit.score.to_string());
    let Some(signal) = exit.signal else {
        writeln!(out, "{tally}")?;
        return Ok(ExitCode::SUCCESS);
    };
    // After SIGHUP the terminal may be gone: the exit code still tells what happened.
    let _ = writeln!(io::stdout(), "{tally}");
    Ok(signal.exit_code())
}

/// Plays in a room on a server in the full-screen mode (`ttt host`, `ttt join`, `ttt
/// watch` in a terminal): the room first, then the start screen as `ttt play` shows it.
fn online_full_screen(
    client: &commands::serve::ClientArgs,
    entry: ttt::client::Entry,
    own: Option<std::net::SocketAddr>,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    let (server, own) = commands::serve::server(client, own, out)?;
    let (store, kept) = open_store_in(false, client.store.data_dir.as_deref());
    let seats = commands::serve::seats(&client.store);
    let name = commands::serve::name(client);
    let games = store.clone();
    let mut online = Online::new(client.server.clone(), name.clone(), seats, own, games);
    let visit = match entry {
        ttt::client::Entry::Host {
            rules,
            computer,
            clock,
            public,
        } => match computer {
            None => Visit::host(rules, &name),
            Some(computer) => Visit::host_against(rules, &name, &computer.to_string()),
        }
        .with_clock(clock)
        .listed(public),
        ttt::client::Entry::Join(code) => online.join(code, &server),
        ttt::client::Entry::Watch(code) => Visit::watch(code, &name),
    };
    online.first(visit, server);
    let settings = Settings::new(ttt_core::Rules::default(), Seats::Ask { letter: None })?;
    full_screen(settings, (store, kept), None, online, out)
}

/// The store of kept games and the games in it, unless `--no-save`; a store that cannot
/// be opened is said in one line and the games go on unkept. Files in it that cannot be
/// read are set aside and said, one line each.
fn open_store(args: &PlayArgs) -> (Option<store::Store>, Vec<store::Kept>) {
    open_store_in(args.no_save, args.store.data_dir.as_deref())
}

/// The store in `data_dir` (or the default folder) and the games in it, unless
/// `no_save`, as [`open_store`] says.
fn open_store_in(
    no_save: bool,
    data_dir: Option<&std::path::Path>,
) -> (Option<store::Store>, Vec<store::Kept>) {
    if no_save {
        return (None, Vec::new());
    }
    match store::Store::open_and_load(data_dir) {
        Ok((store, kept, set_aside)) => {
            for line in set_aside {
                ttt::failure::say(line);
            }
            (Some(store), kept)
        }
        Err(error) => {
            ttt::failure::say(format_args!("games will not be kept: {error}"));
            (None, Vec::new())
        }
    }
}

/// Whether standard input and output are a terminal that can show the full-screen mode.
fn full_screen_possible() -> bool {
    let dumb = std::env::var("TERM").map_or(true, |term| term.is_empty() || term == "dumb");
    !dumb && io::stdin().is_terminal() && io::stdout().is_terminal()
}

/// Whether the error is a write to a pipe whose reader has gone: not a failure of ours.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        let kind = cause
            .downcast_ref::<io::Error>()
            .map(io::Error::kind)
            // JSON written straight to the output carries the output's error inside.
            .or_else(|| cause.downcast_ref::<serde_json::Error>()?.io_error_kind());
        kind == Some(ErrorKind::BrokenPipe)
    })
}
