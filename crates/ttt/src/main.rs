//! `ttt`: noughts and crosses in the terminal.
//!
//! `main` only parses the command line, runs, and turns the result into an exit code and
//! at most one line on standard error; the work is in the modules.

mod cli;
mod commands;
mod failure;
mod line;
mod session;

use std::io::{self, ErrorKind, IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;
use ttt_core::Rules;

use cli::{Cli, Command, PlayArgs};
use failure::{BAD_INPUT, BadInput};
use line::{Ending, LineOptions, Palette, Setup};
use session::SessionConfig;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) if error.is::<BadInput>() => {
            eprintln!("ttt: {error}");
            ExitCode::from(BAD_INPUT)
        }
        Err(error) => {
            eprintln!("ttt: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let rules = Rules::default();
    let mut out = io::BufWriter::new(io::stdout().lock());
    match cli.command {
        Some(Command::Play(args)) => play(&args, rules, &mut out),
        None => play(&cli.play, rules, &mut out),
        Some(Command::Analyze(args)) => {
            commands::analyze::run(&args, rules, &mut out).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Move(args)) => {
            commands::choose::run(&args, rules, &mut out).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Count(args)) => {
            commands::count::run(&args, rules, &mut out).map(|()| ExitCode::SUCCESS)
        }
    }
    .and_then(|code| {
        out.flush()?;
        Ok(code)
    })
}

fn play(args: &PlayArgs, rules: Rules, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let setup = Setup {
        config: SessionConfig {
            rules,
            x: session::Seat::Human,
            o: session::Seat::Human,
            first: args.first,
            open_centre: args.open_centre,
            seed: args.seed,
        },
        x: args.x,
        o: args.o,
    };
    let options = LineOptions {
        style: args.style,
        naming: args.squares,
        palette: Palette::detect(),
        games: args.games,
        echo_input: !io::stdin().is_terminal(),
        review: !args.no_review,
    };
    Ok(match line::run(io::stdin().lock(), out, setup, options)? {
        Ending::Finished => ExitCode::SUCCESS,
        Ending::CutShort => ExitCode::FAILURE,
    })
}

/// Whether the error is a write to a pipe whose reader has gone: not a failure of ours.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .filter_map(|cause| cause.downcast_ref::<io::Error>())
        .any(|io| io.kind() == ErrorKind::BrokenPipe)
}
