//! The command line: flags as typed, turned once into validated settings.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use ttt_core::{BoardSize, Rules, SquareNaming, WinRule};
use ttt_players::Limits;

use crate::commands::analyze::AnalyzeArgs;
use crate::commands::choose::MoveArgs;
use crate::commands::count::CountArgs;
use crate::commands::records::{ExportArgs, GamesArgs, ImportArgs, ReplayArgs, StatsArgs};
use crate::commands::serve::{BotArgs, HostArgs, RoomArgs, RoomsArgs, ServeArgs};
use crate::commands::solve::SolveArgs;
use crate::commands::verify::VerifyArgs;
use crate::failure::BadInput;
use crate::line::BoardStyle;
use ttt_play::{FirstPolicy, Seat, Seats, Settings};

/// Noughts and crosses (tic-tac-toe) in the terminal, from a friendly game to perfect play.
#[derive(Debug, Parser)]
#[command(name = "ttt", version, about, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// What to do; without one, play.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Play settings, when no subcommand is given.
    #[command(flatten)]
    pub play: PlayArgs,
}

/// Where games are kept between runs, for the commands that keep or read them.
#[derive(Debug, Clone, Args)]
pub struct StoreArgs {
    /// The folder games are kept in [default: $TTT_HOME, else the platform's data folder: ~/.local/share/ttt on Linux].
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play games at the keyboard (the default).
    Play(PlayArgs),
    /// Show a position's value under perfect play, and every move's.
    Analyze(AnalyzeArgs),
    /// Print the square a computer player would choose in a position, and nothing else.
    Move(MoveArgs),
    /// Count the games, nodes and positions of the game, and value the empty board.
    Count(CountArgs),
    /// Prove a position's result (win, draw or loss) with perfect play, on boards up to 64 squares.
    Solve(SolveArgs),
    /// Play as a Gomocup (Piskvork protocol) engine on standard input and output.
    Brain(BrainArgs),
    /// Show the wins, losses and draws of the kept games, by opponent, board and letter.
    Stats(StatsArgs),
    /// List the kept games, numbered as other commands name them.
    Games(GamesArgs),
    /// Write a kept game (or all) as SGF or Piskvork's PSQ.
    #[command(override_usage = "ttt export [OPTIONS] <GAME>\n       ttt export [OPTIONS] --all")]
    Export(ExportArgs),
    /// Keep the games of SGF or PSQ files written by ttt or other gomoku programs.
    Import(ImportArgs),
    /// Step through a kept game (or a file) with the arrow keys, with each move's value.
    Replay(ReplayArgs),
    /// Check a proof that `ttt solve --proof` wrote, knowing only the rules.
    Verify(VerifyArgs),
    /// Serve network play: rooms where people on other machines play each other, and the
    /// web page.
    Serve(ServeArgs),
    /// Open a room on a server for a friend elsewhere to join, and play there.
    Host(HostArgs),
    /// Join a friend's room on a server by its code, and play there.
    Join(RoomArgs),
    /// Watch a room on a server by its code.
    Watch(RoomArgs),
    /// List the public rooms on a server that wait for a player.
    Rooms(RoomsArgs),
    /// Play people online as a computer: host rooms on a server and take on whoever joins.
    Bot(BotArgs),
}

/// `ttt brain`: the manager sets the board, the time and the memory.
#[derive(Debug, Clone, Copy, Args)]
pub struct BrainArgs {
    /// The most memory the engine's tables may take together, in megabytes (less if the manager's
    /// max_memory says so).
    #[arg(long, value_name = "MB", default_value_t = Limits::DEFAULT_MEMORY >> 20, value_parser = Limits::parse_megabytes)]
    pub hash: usize,
}

/// The board: its size and the length of a winning line, for the commands that play or
/// study a game. Each command takes only the flags it uses: the kept games' commands and
/// `brain` (whose manager says the board) take none of these.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct BoardArgs {
    /// Board size, WIDTHxHEIGHT, each side 3 to 20 [default: 3x3, or a position's own].
    #[arg(long, value_name = "WxH")]
    pub size: Option<BoardSize>,

    /// How many in a row win, 3 up to the longer side [default: 3].
    #[arg(long, value_name = "K")]
    pub k: Option<usize>,

    /// Gomoku: 15x15 with five in a row (instead of --size and --k).
    #[arg(long, conflicts_with_all = ["size", "k"])]
    pub gomoku: bool,

    /// Only exactly K in a row wins: a longer line (an overline) wins nothing, as in Gomocup's "exactly five".
    #[arg(long)]
    pub exact: bool,
}

impl BoardArgs {
    /// The rules these flags describe, checked.
    pub fn rules(&self) -> Result<Rules, BadInput> {
        let size = self.size.unwrap_or(BoardSize {
            width: 3,
            height: 3,
        });
        self.rules_sized(size)
    }

    /// The rules these flags describe on a board of `size` when no flag gives one: the
    /// size of a position written out.
    pub fn rules_sized(&self, size: BoardSize) -> Result<Rules, BadInput> {
        let rules = if self.gomoku {
            Rules::new(15, 15, 5)
        } else {
            let size = self.size.unwrap_or(size);
            Rules::new(size.width, size.height, self.k.unwrap_or(3))
        };
        let win = if self.exact {
            WinRule::Exact
        } else {
            WinRule::Freestyle
        };
        rules
            .map(|rules| rules.with_win_rule(win))
            .map_err(|error| BadInput(error.to_string()))
    }

    /// Whether a flag names the board's size (`--size` or `--gomoku`).
    pub fn sized(&self) -> bool {
        self.size.is_some() || self.gomoku
    }

    /// Checks that the flags given agree with `rules`, which a position said itself.
    pub fn agree_with(&self, rules: Rules) -> Result<(), BadInput> {
        let given = BoardArgs {
            size: Some(self.size.unwrap_or(BoardSize {
                width: rules.width(),
                height: rules.height(),
            })),
            k: Some(self.k.unwrap_or(rules.k())),
            gomoku: self.gomoku,
            exact: self.exact || rules.win_rule() == WinRule::Exact,
        }
        .rules()?;
        if given == rules {
            Ok(())
        } else {
            Err(BadInput(format!(
                "the position is on {rules}, but the flags say {given}: give one or the other"
            )))
        }
    }
}

/// How to play.
#[derive(Debug, Clone, Args)]
pub struct PlayArgs {
    /// Who plays X: human, random (easy), rules (medium), search (hard), mcts (tricky), perfect (impossible), or brain:COMMAND (a Gomocup engine).
    #[arg(long = "x", value_name = "PLAYER")]
    pub x: Option<Seat>,

    /// Who plays O: human, random (easy), rules (medium), search (hard), mcts (tricky), perfect (impossible), or brain:COMMAND (a Gomocup engine).
    #[arg(long = "o", value_name = "PLAYER")]
    pub o: Option<Seat>,

    /// Who moves first: x, o, random, or alternate (swap every game).
    #[arg(long, value_name = "WHO", default_value = "random")]
    pub first: FirstPolicy,

    /// How squares are named: numbers (1-9 row by row), keypad (7 8 9 on top) or coords ("column row").
    #[arg(long, value_name = "SCHEME", default_value = "numbers")]
    pub squares: SquareNaming,

    /// How the board is drawn: numbered, plain, boxes or compact [default: numbered on 3x3, compact on bigger boards].
    #[arg(long, value_name = "STYLE")]
    pub style: Option<BoardStyle>,

    /// A computer that moves first always takes the centre.
    #[arg(long = "open-center", visible_alias = "open-centre")]
    pub open_centre: bool,

    /// Play this many games in a row, then print the score (otherwise: ask "Play again?").
    #[arg(long, value_name = "N", value_parser = parse_games)]
    pub games: Option<u32>,

    /// Seed for every random choice (who goes first, computer moves), to repeat a session.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Skip the review of each game's mistakes after it ends.
    #[arg(long)]
    pub no_review: bool,

    /// Use the line mode (questions and answers) even on a terminal that could show the full-screen board.
    #[arg(long)]
    pub plain: bool,

    /// Take up the unfinished game kept last (its board and players), where it was left.
    #[arg(long, conflicts_with_all = ["x", "o", "no_save", "size", "k", "gomoku", "exact"])]
    pub resume: bool,

    /// What a thinking computer may spend per move.
    #[command(flatten)]
    pub limits: LimitArgs,

    /// The board.
    #[command(flatten)]
    pub board: BoardArgs,

    /// Where games are kept.
    #[command(flatten)]
    pub store: StoreArgs,

    /// Keep nothing from this run: no game is saved.
    #[arg(long)]
    pub no_save: bool,
}

impl PlayArgs {
    /// The flags as one validated value, for `rules`: the low-level flags end here.
    pub fn settings(&self, rules: Rules) -> Result<Settings, BadInput> {
        self.settings_with(rules, Seats::resolve(self.x.clone(), self.o.clone()))
    }

    /// The flags with the board and seats of a game being resumed.
    pub fn settings_with(&self, rules: Rules, seats: Seats) -> Result<Settings, BadInput> {
        if self.squares == SquareNaming::Keypad && !rules.is_tic_tac_toe() {
            return Err(BadInput(format!(
                "--squares keypad names the squares of 3x3 only; on {rules} a square is a letter and a number (c2), or a column and a row (3 2)"
            )));
        }
        let settings = Settings::new(rules, seats)
            .map_err(|error| BadInput(error.to_string()))?
            .with_first(self.first)
            .with_open_centre(self.open_centre)
            .with_seed(self.seed)
            .with_limits(self.limits.limits()?)
            .with_naming(self.squares);
        match self.games {
            Some(games) => settings
                .with_games(games)
                .map_err(|error| BadInput(error.to_string())),
            None => Ok(settings),
        }
    }
}

/// What a thinking computer (search, mcts) may spend on each move.
#[derive(Debug, Clone, Copy, Args)]
pub struct LimitArgs {
    /// The most a thinking computer (search, mcts) may take per move, in seconds: 0.0001 to 600.
    #[arg(long, value_name = "SECONDS", default_value = "1", value_parser = parse_think)]
    pub think: Duration,

    /// The most memory a thinking computer's tables or tree may take, in megabytes: 1 up to the machine's memory.
    #[arg(long, value_name = "MB", default_value_t = Limits::DEFAULT_MEMORY >> 20, value_parser = Limits::parse_megabytes)]
    pub hash: usize,

    /// The threads a search computer thinks on each move: 1 to 64, at most the machine's cores (a brain: engine is told it).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = Limits::parse_threads)]
    pub threads: usize,
}

impl LimitArgs {
    /// The players' limits these flags set, checked against this machine's memory.
    pub fn limits(&self) -> Result<Limits, BadInput> {
        Ok(Limits {
            think: self.think,
            memory: memory_bound(self.hash)?,
            threads: self.threads,
        })
    }
}

/// A thinking time: seconds within [`Limits::MIN_THINK`]..=[`Limits::MAX_THINK`].
fn parse_think(text: &str) -> Result<Duration, String> {
    let (low, high) = (Limits::MIN_THINK, Limits::MAX_THINK);
    let range = format!(
        "the thinking time must be a number of seconds from {} to {}",
        low.as_secs_f64(),
        high.as_secs_f64()
    );
    match text.trim().parse::<f64>() {
        Ok(seconds) if seconds.is_finite() => {
            let think = Duration::try_from_secs_f64(seconds).map_err(|_| range.clone())?;
            if (low..=high).contains(&think) {
                Ok(think)
            } else {
                Err(range)
            }
        }
        _ => Err(range),
    }
}

/// `megabytes` in bytes, refused when it is more than this machine's memory.
pub fn memory_bound(megabytes: usize) -> Result<usize, BadInput> {
    let bytes = megabytes.saturating_mul(1 << 20);
    match machine_memory() {
        Some(total) if bytes > total => Err(BadInput(format!(
            "--hash {megabytes} is more memory than this machine has ({} MB)",
            total >> 20
        ))),
        _ => Ok(bytes),
    }
}

/// The machine's memory in bytes, where the system says (`MemTotal` on Linux).
pub fn machine_memory() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|line| line.starts_with("MemTotal:"))?;
    let kilobytes: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kilobytes.checked_mul(1024)
}

/// A number of games: a whole number from 1 up.
fn parse_games(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(games) if games >= 1 => Ok(games),
        _ => Err(format!(
            "the number of games must be a whole number from 1 to {}",
            u32::MAX
        )),
    }
}
