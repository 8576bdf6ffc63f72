//! `ttt solve`: proves a position's result with perfect play from both sides.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use clap::Args;
use serde::Serialize;
use ttt_core::{Outcome, Position, Rules, SquareNaming};
use ttt_play::words::grouped;
use ttt_players::Limits;
use ttt_solver::{
    Claim, GameResult, Progress, Proof, ProofError, ProofLimits, ProofSearch, ProofTable,
    write_proof,
};

use super::{PositionArgs, ending, mark_name, status};
use crate::cli::memory_bound;
use crate::failure::BadInput;
use crate::signals::{Interrupts, Signal};

/// Arguments of `ttt solve`.
#[derive(Debug, Clone, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub position: PositionArgs,

    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,

    /// The search that proves it: alpha-beta (the fastest on most boards) or df-pn (proof-number search, ahead on the largest).
    #[arg(long, value_name = "SEARCH", default_value_t = ProofSearch::AlphaBeta)]
    pub search: ProofSearch,

    /// The most memory the transposition table may take, in megabytes: 1 up to the machine's memory.
    #[arg(long, value_name = "MB", default_value_t = 256, value_parser = Limits::parse_megabytes)]
    pub hash: usize,

    /// Also write the proof to this new file, for `ttt verify FILE` to check.
    #[arg(long, value_name = "FILE")]
    pub proof: Option<std::path::PathBuf>,

    /// Keep what the proof has proved in this file: every --checkpoint-every seconds, when stopped, and at the end.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,

    /// Go on from the --checkpoint file an earlier run kept.
    #[arg(long, requires = "checkpoint")]
    pub resume: bool,

    /// How often the checkpoint is kept, in seconds.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 600,
        requires = "checkpoint"
    )]
    pub checkpoint_every: u64,
}

/// What `solve --json` prints: the fields `analyze --json` shares have the same meaning.
#[derive(Debug, Serialize)]
struct ProofJson {
    position: String,
    /// The search that proved it: `alpha-beta` or `df-pn`.
    search: String,
    to_move: Option<&'static str>,
    status: &'static str,
    /// The side to move's result; `None` once the game is over.
    result: Option<&'static str>,
    best_move: Option<usize>,
    best_move_name: Option<String>,
    nodes: u64,
    seconds: f64,
    /// `None` when interrupted.
    table_entries: Option<usize>,
    /// `None` when interrupted.
    memory_bytes: Option<usize>,
    /// Stopped by Ctrl-C or another signal: only `result` may be known, never the move.
    interrupted: bool,
}

impl ProofJson {
    /// The fields every answer about `position` shares, with nothing proved yet.
    fn about(position: &Position, search: ProofSearch) -> ProofJson {
        ProofJson {
            position: position.board().to_string(),
            search: search.to_string(),
            to_move: (!position.is_over()).then(|| mark_name(position.to_move())),
            status: status(position),
            result: None,
            best_move: None,
            best_move_name: None,
            nodes: 0,
            seconds: 0.0,
            table_entries: None,
            memory_bytes: None,
            interrupted: false,
        }
    }

    fn write(&self, out: &mut impl Write) -> anyhow::Result<()> {
        serde_json::to_writer(&mut *out, self)?;
        writeln!(out)?;
        Ok(())
    }
}

/// Runs `ttt solve`; Ctrl-C or another ending signal stops the proof, which reports how
/// far it got and exits with 128 + the signal (130 for Ctrl-C).
pub fn run(args: &SolveArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let position = args.position.position()?;
    let rules = position.rules();
    if let Some(outcome) = position.outcome() {
        return finished(&position, outcome, args, out).map(|()| ExitCode::SUCCESS);
    }
    let table_bytes = memory_bound(args.hash)?;
    // Where the proof and the checkpoints go is checked before a long search, not after.
    if let Some(path) = &args.proof {
        super::refuse_existing(path)?;
        super::check_folder(path)?;
    }
    if let Some(path) = &args.checkpoint {
        super::check_folder(path)?;
        // What a run killed while writing its checkpoint left beside it.
        ttt::store::remove_stale_temporaries(path);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let interrupts = Interrupts::watch()?;
    let handler_stop = Arc::clone(&stop);
    interrupts.on_signal(move |_| handler_stop.store(true, Ordering::Relaxed));
    let figures = Arc::new(Progress::default());
    // Positions searched by the runs a checkpoint stopped, before the last one.
    let earlier = Arc::new(AtomicU64::new(0));
    let progress = Spinner::start(&figures, &earlier);
    let limits = ProofLimits {
        table_bytes,
        stop: &stop,
        progress: &figures,
        max_nodes: None,
    };
    let mut table = checkpoint_table(args, rules)?;
    let due = Arc::new(AtomicBool::new(false));
    if args.checkpoint.is_some() {
        // The proof is stopped when a checkpoint is due, kept, and taken up again.
        let (due, stop) = (Arc::clone(&due), Arc::clone(&stop));
        let every = Duration::from_secs(args.checkpoint_every.max(1));
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(every);
                due.store(true, Ordering::Relaxed);
                stop.store(true, Ordering::Relaxed);
            }
        });
    }
    let started = Instant::now();
    let proof = loop {
        let proof = args.search.prove_with(&position, limits, &mut table);
        let checkpoint_due = due.swap(false, Ordering::Relaxed);
        if let (Some(path), Err(ProofError::Stopped { nodes, .. })) = (&args.checkpoint, &proof)
            && checkpoint_due
            && interrupts.received().is_none()
        {
            earlier.fetch_add(*nodes, Ordering::Relaxed);
            keep_checkpoint(path, &table)?;
            stop.store(false, Ordering::Relaxed);
            continue;
        }
        // The whole run's figures, across checkpoints.
        let earlier = earlier.load(Ordering::Relaxed);
        break match proof {
            Ok(proof) => Ok(Proof {
                nodes: proof.nodes + earlier,
                elapsed: started.elapsed(),
                ..proof
            }),
            Err(ProofError::Stopped { result, nodes, .. }) => Err(ProofError::Stopped {
                result,
                nodes: nodes + earlier,
                seconds: started.elapsed().as_secs_f64(),
            }),
            Err(other) => Err(other),
        };
    };
    drop(progress);
    // Whatever ended the proof, what it proved is kept.
    if let Some(path) = &args.checkpoint {
        keep_checkpoint(path, &table)?;
    }
    let interrupted = interrupts.received().unwrap_or(Signal::INTERRUPT);
    let proof = match proof {
        Ok(proof) => proof,
        Err(ProofError::Board(_)) => {
            let message = format!(
                "ttt solve proves boards of up to {} squares, and {rules} has {}: play it with the search player instead",
                ttt_solver::MAX_SQUARES,
                rules.square_count()
            );
            return Err(BadInput(message).into());
        }
        // The checkpoint was read and checked against the board and search above.
        Err(ProofError::Table(reason)) => {
            return Err(BadInput(format!("the checkpoint cannot be taken up: {reason}")).into());
        }
        Err(ProofError::Stopped {
            result,
            nodes,
            seconds,
        }) => {
            if args.json {
                ProofJson {
                    result: result.map(GameResult::as_str),
                    nodes,
                    seconds,
                    interrupted: true,
                    ..ProofJson::about(&position, args.search)
                }
                .write(out)?;
            } else if let Some(result) = result {
                writeln!(
                    out,
                    "Interrupted after {} positions and {seconds:.1} s: the result is proved ({}), the best move is not.",
                    grouped(nodes),
                    verdict(result, &position)
                )?;
            } else {
                writeln!(
                    out,
                    "Interrupted after {} positions and {seconds:.1} s, before a proof.",
                    grouped(nodes)
                )?;
            }
            if let Some(path) = args.checkpoint.as_ref().filter(|_| !args.json) {
                writeln!(
                    out,
                    "What was proved is kept in {}: the same command with --resume goes on from it.",
                    path.display()
                )?;
            }
            return Ok(interrupted.exit_code());
        }
    };
    let naming = SquareNaming::Numbers.on_board(rules);
    if args.json {
        ProofJson {
            result: Some(proof.result.as_str()),
            best_move: proof.best_move.map(|square| square.index() + 1),
            best_move_name: proof.best_move.map(|square| naming.label(square, rules)),
            nodes: proof.nodes,
            seconds: proof.elapsed.as_secs_f64(),
            table_entries: Some(proof.table_entries),
            memory_bytes: Some(proof.table_bytes),
            ..ProofJson::about(&position, args.search)
        }
        .write(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    for line in text(&proof, &position, naming, args.search) {
        writeln!(out, "{line}")?;
    }
    if let Some(path) = &args.proof {
        let written = match write_proofs(&position, proof.result, limits, path) {
            Ok(written) => written,
            // A signal stopped the proof's writing: nothing is written, and the exit code
            // says which signal.
            Err(_) if let Some(signal) = interrupts.received() => {
                writeln!(
                    out,
                    "Interrupted while writing the proof: {} was not written.",
                    path.display()
                )?;
                return Ok(signal.exit_code());
            }
            Err(error) => return Err(error),
        };
        writeln!(
            out,
            "Proof written to {} ({}): `ttt verify {}` checks it.",
            path.display(),
            positions(written as u64),
            path.display()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The table to prove with: a fresh one, or the checkpoint at `--checkpoint` with
/// `--resume`. A checkpoint file is never written over without `--resume`.
fn checkpoint_table(args: &SolveArgs, rules: Rules) -> Result<ProofTable, BadInput> {
    let Some(path) = &args.checkpoint else {
        return Ok(ProofTable::new(args.search));
    };
    if !args.resume {
        if path.exists() {
            return Err(BadInput(format!(
                "{} exists already: add --resume to go on from it, or give a new name",
                path.display()
            )));
        }
        return Ok(ProofTable::new(args.search));
    }
    // A checkpoint that does not fit the machine's memory cannot be resumed here, and a
    // FIFO or a device is no checkpoint at all.
    let limit = crate::cli::machine_memory()
        .and_then(|bytes| u64::try_from(bytes).ok())
        .unwrap_or(u64::MAX);
    let bytes = ttt::files::read_bounded(path, limit)
        .map_err(|error| BadInput(format!("cannot read {}: {error}", path.display())))?;
    let table = ProofTable::from_bytes(&bytes)
        .map_err(|error| BadInput(format!("{}: {error}", path.display())))?;
    if table.rules().is_some_and(|kept| kept != rules) {
        return Err(BadInput(format!(
            "{} holds a proof on {}, not {rules}",
            path.display(),
            table
                .rules()
                .map(|kept| kept.to_string())
                .unwrap_or_default()
        )));
    }
    if !table.is_empty() && table.search() != args.search {
        return Err(BadInput(format!(
            "{} was kept by {search}: add --search {search} to go on from it",
            path.display(),
            search = table.search()
        )));
    }
    Ok(table)
}

/// Keeps `table` at `path`, replacing the last checkpoint whole.
fn keep_checkpoint(path: &std::path::Path, table: &ProofTable) -> anyhow::Result<()> {
    ttt::store::write_atomically(path, &table.to_bytes())?;
    Ok(())
}

/// Writes the proof of `result` from `position` into the new file at `path`: for a win
/// or a loss, that the winner wins; for a draw, that neither side can win. Returns how
/// many positions it holds.
fn write_proofs(
    position: &Position,
    result: GameResult,
    limits: ProofLimits<'_>,
    path: &std::path::Path,
) -> anyhow::Result<usize> {
    let mover = position.to_move();
    let claims = match result {
        GameResult::Win => vec![Claim::Wins(mover)],
        GameResult::Loss => vec![Claim::Wins(!mover)],
        GameResult::Draw => vec![Claim::CannotWin(mover), Claim::CannotWin(!mover)],
    };
    let mut text = format!(
        "# A proof by ttt solve, for ttt verify: {}, from {position}\n",
        position.rules()
    );
    for claim in claims {
        let written = write_proof(position, claim, limits)
            .map_err(|error| anyhow::anyhow!("the proof could not be written out: {error}"))?;
        text.push_str(&written);
    }
    super::write_new_file(path, &text)?;
    Ok(text.lines().filter(|line| line.contains(" | ")).count())
}

/// A finished position: nothing to prove, only how it ended.
fn finished(
    position: &Position,
    outcome: Outcome,
    args: &SolveArgs,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    if args.json {
        ProofJson::about(position, args.search).write(out)?;
    } else {
        writeln!(out, "{}, position {}", position.rules(), position.board())?;
        writeln!(out, "Result: the game is already over: {}", ending(outcome))?;
    }
    Ok(())
}

/// `1 position`, `2,171 positions`.
fn positions(count: u64) -> String {
    let noun = if count == 1 { "position" } else { "positions" };
    format!("{} {noun}", grouped(count))
}

/// The result in words: who wins, or a draw.
fn verdict(result: GameResult, position: &Position) -> String {
    let empty = position.ply() == 0;
    match (result, empty, position.to_move()) {
        (GameResult::Win, true, _) => "first player wins".to_owned(),
        (GameResult::Loss, true, _) => "second player wins".to_owned(),
        (GameResult::Draw, _, _) => "draw".to_owned(),
        (GameResult::Win, false, mark) => format!("{mark} (to move) wins"),
        (GameResult::Loss, false, mark) => format!("{} wins ({mark} to move loses)", !mark),
    }
}

fn text(
    proof: &Proof,
    position: &Position,
    naming: SquareNaming,
    search: ProofSearch,
) -> Vec<String> {
    let rules = position.rules();
    let mut lines = vec![
        format!("{rules}, position {}", position.board()),
        format!(
            "Result: {}, with perfect play from both sides",
            verdict(proof.result, position)
        ),
    ];
    if let Some(square) = proof.best_move {
        let how = match proof.result {
            GameResult::Win => "wins",
            GameResult::Draw => "holds the draw",
            GameResult::Loss => "loses least badly",
        };
        lines.push(format!(
            "Best move: {} (square {}), which {how}",
            naming.label(square, rules),
            square.index() + 1
        ));
    }
    lines.push(format!(
        "Searched {} by {search} in {:.3} s; table {}, about {:.1} MB",
        positions(proof.nodes),
        proof.elapsed.as_secs_f64(),
        positions(proof.table_entries as u64),
        proof.table_bytes as f64 / f64::from(1 << 20)
    ));
    lines
}

/// A spinner with the proof's running figures (positions searched; of the table's, those
/// proved and those still open; the table's memory), on a terminal only; nothing when
/// piped.
///
/// The line stays shorter than the terminal, so the `^C` the terminal echoes lands on it
/// rather than wrapping below, and clearing the line clears both. Dropping the spinner
/// stops it and clears its line before anything else is printed.
struct Spinner {
    done: Arc<AtomicBool>,
    drawer: Option<JoinHandle<()>>,
}

impl Spinner {
    const FRAMES: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
    const TICK: Duration = Duration::from_millis(120);

    fn start(figures: &Arc<Progress>, earlier: &Arc<AtomicU64>) -> Option<Spinner> {
        if !io::stderr().is_terminal() {
            return None;
        }
        let done = Arc::new(AtomicBool::new(false));
        let (figures, earlier, stop) =
            (Arc::clone(figures), Arc::clone(earlier), Arc::clone(&done));
        let drawer = std::thread::spawn(move || {
            let start = Instant::now();
            let mut stderr = io::stderr();
            for frame in Spinner::FRAMES.iter().cycle() {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let line = format!(
                    "{frame} {}",
                    progress_line(start.elapsed(), &figures, &earlier)
                );
                let _ = write!(stderr, "\r\x1b[2K{}", fit_to_terminal(&line));
                let _ = stderr.flush();
                std::thread::park_timeout(Spinner::TICK);
            }
            let _ = write!(stderr, "\r\x1b[2K");
            let _ = stderr.flush();
        });
        Some(Spinner {
            done,
            drawer: Some(drawer),
        })
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(drawer) = self.drawer.take() {
            drawer.thread().unpark();
            let _ = drawer.join();
        }
    }
}

/// The spinner's words: `proving… 12 s, 33 MB: 19,660,800 searched, 1,032,114 proved,
/// 417,530 open`, the time and memory first so that a narrow terminal cuts the least
/// telling figure; the positions counted with those of the runs (`earlier`) that
/// checkpoints stopped.
fn progress_line(elapsed: Duration, figures: &Progress, earlier: &AtomicU64) -> String {
    let read = |figure: &AtomicU64| grouped(figure.load(Ordering::Relaxed));
    let megabytes = figures.table_bytes.load(Ordering::Relaxed) >> 20;
    let searched = figures.nodes.load(Ordering::Relaxed) + earlier.load(Ordering::Relaxed);
    format!(
        "proving… {} s, {megabytes} MB: {} searched, {} proved, {} open",
        elapsed.as_secs(),
        grouped(searched),
        read(&figures.settled),
        read(&figures.open),
    )
}

/// `line` cut to leave the terminal's last columns free.
fn fit_to_terminal(line: &str) -> String {
    let columns = ratatui::crossterm::terminal::size()
        .ok()
        .map(|(columns, _)| columns);
    fit_to(line, columns)
}

/// `line` cut to leave the last columns of a terminal `columns` wide free; 80 wide where
/// the width is not known, or said to be none (a terminal with no size set, as `script`
/// makes).
fn fit_to(line: &str, columns: Option<u16>) -> String {
    let width = columns.filter(|&columns| columns > 0).unwrap_or(80);
    let room = usize::from(width).saturating_sub(4);
    line.chars().take(room).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_line_fits_the_terminal_and_a_terminal_of_no_width_is_taken_as_80() {
        let line = "x".repeat(200);
        assert_eq!(fit_to(&line, Some(40)).len(), 36);
        assert_eq!(fit_to(&line, Some(0)).len(), 76);
        assert_eq!(fit_to(&line, None).len(), 76);
    }

    #[test]
    fn the_progress_line_says_what_was_searched_proved_left_open_and_held() {
        let figures = Progress::default();
        figures.nodes.store(19_000_000, Ordering::Relaxed);
        figures.settled.store(1_032_114, Ordering::Relaxed);
        figures.open.store(417_530, Ordering::Relaxed);
        figures.table_bytes.store(33 << 20, Ordering::Relaxed);
        assert_eq!(
            progress_line(
                Duration::from_millis(12_400),
                &figures,
                &AtomicU64::new(660_800)
            ),
            "proving… 12 s, 33 MB: 19,660,800 searched, 1,032,114 proved, 417,530 open"
        );
        // Whole on an 80-column terminal.
        let line = progress_line(
            Duration::from_millis(12_400),
            &figures,
            &AtomicU64::new(660_800),
        );
        assert_eq!(fit_to(&line, Some(80)), line);
    }
}
