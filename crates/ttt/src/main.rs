//! `ttt`: noughts and crosses in the terminal.
//!
//! `main` only parses the command line, runs, and turns the result into an exit code and
//! at most one line on standard error; the work is in the modules.

mod cli;
mod line;
mod session;

use std::io::{self, ErrorKind, IsTerminal};
use std::process::ExitCode;

use clap::Parser;
use ttt_core::Rules;

use cli::{Cli, Command, PlayArgs};
use line::{Ending, LineOptions, Palette, Setup};
use session::SessionConfig;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("ttt: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Some(Command::Play(args)) => play(&args),
        None => play(&cli.play),
    }
}

fn play(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    let setup = Setup {
        config: SessionConfig {
            rules: Rules::default(),
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
    };
    let stdin = io::stdin().lock();
    let stdout = io::BufWriter::new(io::stdout().lock());
    Ok(match line::run(stdin, stdout, setup, options)? {
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
