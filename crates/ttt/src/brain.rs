//! `ttt brain`: the Piskvork / Gomocup protocol on standard input and output, so that `ttt`
//! plays as a `pbrain-*` engine under any Gomocup manager.
//!
//! [`Brain`] is the protocol's state, one command line at a time, with no I/O of its own;
//! [`run`] reads the lines (on a thread of their own, so that `END` or `INFO time_left`
//! are read while the engine thinks), lets the computer think on another thread and
//! writes the replies. Coordinates are `x,y`: column then row, from 0 at the top left.
//!
//! The rule is freestyle (five or more wins) unless `INFO rule` sets bit 0, Gomocup's
//! "exactly five": then an overline wins nothing. It holds for the game in progress and
//! the next ones, whether it comes before or after `START`.

use std::io::{self, BufRead, Write};
use std::sync::mpsc;
use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::StdRng;
use ttt_core::{Board, Mark, Position, Rules, Shown, Square, WinRule};
use ttt_players::{Limits, Player, Search, Strength};

use crate::line::input::{Input, Interruption, Line};
use crate::signals::Interrupts;

/// The line length that wins: five (or more, unless the rule is exactly five).
const K: usize = 5;

/// What the brain asks of the loop after a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Nothing to say.
    Nothing,
    /// A line for the manager.
    Say(String),
    /// Choose a move in this position (the brain's stones are X, and X is to move), within
    /// these limits, and answer `x,y`.
    Think(Position, Limits),
    /// `END`: stop at once.
    End,
}

/// Who holds a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stone {
    Own,
    Opponent,
}

/// The protocol's state: the board, the stones, the time and memory the manager allows.
#[derive(Debug, Clone)]
pub struct Brain {
    rules: Option<Rules>,
    stones: Vec<Option<Stone>>,
    /// Lines of `BOARD` … `DONE` being read.
    reading_board: bool,
    /// The stones before the `BOARD` being read, back in place if it is refused.
    before_board: Option<Vec<Option<Stone>>>,
    timeout_turn: Option<Duration>,
    timeout_match: Option<Duration>,
    time_left: Option<Duration>,
    max_memory: Option<usize>,
    /// The threads a move may think on (`INFO thread_num`; one until told).
    threads: usize,
    /// Freestyle, or exactly five after `INFO rule` with bit 0 set.
    win_rule: WinRule,
    /// The memory bound given on the command line.
    memory: usize,
}

impl Brain {
    /// A brain with no board yet; `memory` bounds its tables unless the manager says less.
    pub fn new(memory: usize) -> Brain {
        Brain {
            rules: None,
            stones: Vec::new(),
            reading_board: false,
            before_board: None,
            timeout_turn: None,
            timeout_match: None,
            time_left: None,
            max_memory: None,
            threads: 1,
            win_rule: WinRule::Freestyle,
            memory,
        }
    }

    /// Handles one line from the manager.
    pub fn handle(&mut self, line: &str) -> Action {
        let line = line.trim();
        if self.reading_board {
            return self.board_line(line);
        }
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match word.to_ascii_uppercase().as_str() {
            "" => Action::Nothing,
            "START" => match rest.parse::<usize>() {
                Ok(size) => self.start(size, size),
                Err(_) => error(format!("START needs a board size, not '{}'", Shown(rest))),
            },
            "RECTSTART" => match pair(rest) {
                Some((width, height)) => self.start(width, height),
                None => error(format!(
                    "RECTSTART needs width,height, not '{}'",
                    Shown(rest)
                )),
            },
            "RESTART" => match self.rules {
                Some(rules) => self.start(rules.width(), rules.height()),
                None => error("RESTART before START: there is no board".to_owned()),
            },
            "BEGIN" => self.think(),
            "TURN" => match self.square(rest) {
                Ok(square) if self.stones[square.index()].is_some() => {
                    error(format!("TURN {}: that square is taken", Shown(rest)))
                }
                Ok(square) => {
                    self.stones[square.index()] = Some(Stone::Opponent);
                    let action = self.think();
                    if matches!(action, Action::Say(_)) {
                        // Refused: the stone is not placed.
                        self.stones[square.index()] = None;
                    }
                    action
                }
                Err(message) => error(message),
            },
            "BOARD" => {
                if self.rules.is_none() {
                    return error("BOARD before START: there is no board".to_owned());
                }
                let empty = vec![None; self.stones.len()];
                self.before_board = Some(std::mem::replace(&mut self.stones, empty));
                self.reading_board = true;
                Action::Nothing
            }
            "TAKEBACK" => match self.square(rest) {
                Ok(square) if self.stones[square.index()].is_some() => {
                    self.stones[square.index()] = None;
                    Action::Say("OK".to_owned())
                }
                Ok(_) => error(format!("TAKEBACK {}: that square is empty", Shown(rest))),
                Err(message) => error(message),
            },
            "INFO" => self.info(rest),
            "END" => Action::End,
            "ABOUT" => Action::Say(format!(
                "name=\"ttt\", version=\"{}\", author=\"the ttt developers\", country=\"\"",
                env!("CARGO_PKG_VERSION")
            )),
            _ => Action::Say(format!("UNKNOWN command '{}'", Shown(word))),
        }
    }

    fn start(&mut self, width: usize, height: usize) -> Action {
        match Rules::new(width, height, K) {
            Ok(rules) => {
                self.rules = Some(rules.with_win_rule(self.win_rule));
                self.stones = vec![None; rules.square_count()];
                self.reading_board = false;
                Action::Say("OK".to_owned())
            }
            Err(why) => error(format!("unsupported board {width}x{height}: {why}")),
        }
    }

    fn board_line(&mut self, line: &str) -> Action {
        if line.eq_ignore_ascii_case("END") {
            return Action::End;
        }
        if line.eq_ignore_ascii_case("DONE") {
            self.reading_board = false;
            let before = self.before_board.take();
            let action = self.think();
            if let (Action::Say(_), Some(before)) = (&action, before) {
                // Refused: the board is as it was before BOARD.
                self.stones = before;
            }
            return action;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let [x, y, field] = fields.as_slice() else {
            return error(format!("a BOARD line is x,y,field, not '{}'", Shown(line)));
        };
        let stone = match *field {
            "1" => Stone::Own,
            // 3 marks a stone of a continuous game's winning line: a square no one can use.
            "2" | "3" => Stone::Opponent,
            _ => {
                return error(format!(
                    "a BOARD line is x,y,field with field 1, 2 or 3, not '{}'",
                    Shown(line)
                ));
            }
        };
        match self.square(&format!("{x},{y}")) {
            Ok(square) if self.stones[square.index()].is_some() => {
                error(format!("BOARD {}: {x},{y} was given already", Shown(line)))
            }
            Ok(square) => {
                self.stones[square.index()] = Some(stone);
                Action::Nothing
            }
            Err(message) => error(message),
        }
    }

    fn info(&mut self, rest: &str) -> Action {
        let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let (key, value) = (key.to_ascii_lowercase(), value.trim());
        let number = value.parse::<u64>();
        let read = match key.as_str() {
            "timeout_turn" => number.map(|ms| self.timeout_turn = Some(Duration::from_millis(ms))),
            "timeout_match" => {
                number.map(|ms| self.timeout_match = Some(Duration::from_millis(ms)))
            }
            "time_left" => number.map(|ms| self.time_left = Some(Duration::from_millis(ms))),
            "max_memory" => number.map(|bytes| {
                self.max_memory = (bytes > 0).then(|| usize::try_from(bytes).unwrap_or(usize::MAX));
            }),
            // At least one, and at most what the search takes.
            "thread_num" => number.map(|threads| {
                self.threads =
                    Limits::clamp_threads(usize::try_from(threads).unwrap_or(usize::MAX));
            }),
            "rule" => number.map(|rule| {
                self.win_rule = if rule & 1 == 1 {
                    WinRule::Exact
                } else {
                    WinRule::Freestyle
                };
                // The game in progress follows too.
                self.rules = self.rules.map(|rules| rules.with_win_rule(self.win_rule));
            }),
            // game_type, evaluate, folder and the rest change nothing here.
            _ => Ok(()),
        };
        match read {
            Ok(()) => Action::Nothing,
            // Said, not refused: the manager expects no answer to INFO, and a MESSAGE line
            // is one it shows at any time and otherwise passes over.
            Err(_) => Action::Say(format!(
                "MESSAGE INFO {key} '{}' ignored: not a whole number",
                Shown(value)
            )),
        }
    }

    /// The square named `x,y`, checked against the board.
    fn square(&self, text: &str) -> Result<Square, String> {
        let rules = self.rules.ok_or("there is no board: START first")?;
        let (x, y) = pair(text).ok_or_else(|| format!("'{}' is not x,y", Shown(text)))?;
        rules
            .square(x, y)
            .ok_or_else(|| format!("{x},{y} is not on the {rules} board"))
    }

    /// The position to move in, the brain's stones as X and X to move.
    fn position(&self) -> Result<Position, String> {
        let rules = self.rules.ok_or("there is no board: START first")?;
        let mut board = Board::empty(rules);
        for (index, stone) in self.stones.iter().enumerate() {
            let mark = stone.map(|stone| match stone {
                Stone::Own => Mark::X,
                Stone::Opponent => Mark::O,
            });
            board.set(Square::new(index), mark);
        }
        let (own, opponent) = (board.count(Mark::X), board.count(Mark::O));
        if own != opponent && own + 1 != opponent {
            return Err(format!(
                "impossible counts: {own} own stones and {opponent} of the opponent's; to \
                 move, the brain has as many stones as the opponent or one fewer"
            ));
        }
        let first = if own == opponent { Mark::X } else { Mark::O };
        let position = Position::from_board(board, first).map_err(|why| why.to_string())?;
        if position.to_move() != Mark::X || position.is_over() {
            return Err(format!(
                "no move to make: {own} own stones and {opponent} of the opponent's{}",
                if position.is_over() {
                    ", and the game is over"
                } else {
                    ""
                }
            ));
        }
        Ok(position)
    }

    /// The bound on the engine's tables now: see [`table_memory`].
    pub fn memory_bound(&self) -> usize {
        table_memory(self.memory, self.max_memory)
    }

    /// The board's rules once one is set up (`START` or `RECTSTART`, and `INFO rule`).
    pub fn rules(&self) -> Option<Rules> {
        self.rules
    }

    /// The time for this move: the turn's limit, and a share of what is left of the match,
    /// less a margin for the answer to reach the manager.
    fn think_time(&self) -> Duration {
        let mut think = self.timeout_turn.map_or(Duration::from_secs(5), turn_think);
        let left = self
            .time_left
            .or(self.timeout_match.filter(|time| !time.is_zero()));
        if let Some(left) = left {
            // As if a quarter of the board's squares were still to be played by each side.
            let moves = self
                .rules
                .map_or(50, |rules| rules.square_count() / 8)
                .max(10);
            think = think.min(turn_think(left / u32::try_from(moves).unwrap_or(50)));
        }
        think.clamp(Limits::MIN_THINK, Limits::MAX_THINK)
    }

    fn think(&mut self) -> Action {
        match self.position() {
            Ok(position) => Action::Think(
                position,
                Limits {
                    think: self.think_time(),
                    memory: self.memory_bound(),
                    threads: self.threads,
                },
            ),
            Err(message) => error(message),
        }
    }

    /// Records the brain's own move, once chosen.
    pub fn played(&mut self, square: Square) {
        if let Some(stone) = self.stones.get_mut(square.index()) {
            *stone = Some(Stone::Own);
        }
    }

    /// A quick move by simple rules (a win, a block, else near the marks), for a turn the
    /// engine lost; none where there is no move to make.
    pub fn fallback_move(&self) -> Option<Square> {
        let position = self.position().ok()?;
        Strength::Rules
            .player(Limits::default())
            .choose(&position, &mut StdRng::seed_from_u64(0))
            .ok()
    }

    /// `x,y` for a square.
    pub fn name(&self, square: Square) -> String {
        let rules = self.rules.unwrap_or_default();
        format!("{},{}", rules.column(square), rules.row(square))
    }
}

fn error(message: String) -> Action {
    Action::Say(format!("ERROR {message}"))
}

fn pair(text: &str) -> Option<(usize, usize)> {
    let (a, b) = text.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// Speaks the protocol on `input` and `output` until `END`, the end of input or a signal.
///
/// # Errors
/// Only errors writing the replies.
pub fn run(
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
    memory: usize,
    interrupts: &Interrupts,
) -> io::Result<()> {
    let mut lines = Input::spawn(input, interrupts);
    let mut brain = Brain::new(memory);
    let mut thinking: Option<mpsc::Receiver<(Option<Square>, Search)>> = None;
    // The engine, kept from move to move with what its tables learnt, and made ready for
    // a new board or memory bound between turns rather than in a turn's time.
    let mut engine: Option<Search> = None;
    // Commands that came while the engine thought, for after its answer (bounded).
    let mut waiting: std::collections::VecDeque<String> = std::collections::VecDeque::new();
    let mut seed = 0_u64;
    loop {
        match thinking.as_ref().map(answer_of) {
            None | Some(Answer::NotYet) => {}
            Some(Answer::Chosen(answer, search)) => {
                thinking = None;
                // What it thought, as Gomocup engines say it, before the move.
                if let Some(thought) = search.thought().filter(|_| answer.is_some()) {
                    writeln!(output, "MESSAGE {thought}")?;
                }
                engine = Some(*search);
                match answer {
                    Some(square) => {
                        brain.played(square);
                        writeln!(output, "{}", brain.name(square))?;
                    }
                    None => writeln!(output, "ERROR no move could be chosen")?,
                }
                output.flush()?;
            }
            Some(Answer::Lost) => {
                // The thinking thread ended without an answer: the engine is gone with
                // it (a new one is made for the next turn), and a quick move keeps the
                // game going rather than leave the manager waiting.
                thinking = None;
                match brain.fallback_move() {
                    Some(square) => {
                        brain.played(square);
                        writeln!(
                            output,
                            "MESSAGE the engine stopped without choosing a move: a move by simple rules instead"
                        )?;
                        writeln!(output, "{}", brain.name(square))?;
                    }
                    None => writeln!(output, "ERROR the engine stopped without choosing a move")?,
                }
                output.flush()?;
            }
        }
        if thinking.is_none() {
            // Between turns, once the last reply is out (a cheap check when nothing
            // changed).
            engine = between_turns(&brain, engine.take());
        }
        let queued = if thinking.is_none() {
            waiting.pop_front()
        } else {
            None
        };
        let wait = if thinking.is_some() { 5 } else { 50 };
        let polled = match queued {
            Some(line) => Some(Ok(Line::Text(line))),
            None => lines.poll(Duration::from_millis(wait)),
        };
        let line = match polled {
            None => continue,
            Some(Ok(Line::Text(line))) => line,
            Some(Ok(Line::End) | Err(Interruption::Signal(_))) => return Ok(()),
            Some(Err(Interruption::Io(error))) => return Err(error),
            Some(Ok(Line::TooLong | Line::NotText)) => {
                writeln!(output, "ERROR the line was too long or not text")?;
                output.flush()?;
                continue;
            }
        };
        let action = if thinking.is_some() && !is_info_or_end(&line) {
            if waiting.len() >= MAX_WAITING {
                Action::Say(format!(
                    "ERROR more than {MAX_WAITING} commands came while thinking: '{}' was dropped",
                    Shown(&line)
                ))
            } else {
                waiting.push_back(line);
                Action::Nothing
            }
        } else {
            brain.handle(&line)
        };
        match action {
            Action::Nothing => {}
            Action::Say(reply) => writeln!(output, "{reply}")?,
            Action::End => return Ok(()),
            Action::Think(position, limits) => {
                let mut search = ready(engine.take(), limits);
                let (sender, thought) = mpsc::channel();
                seed += 1;
                std::thread::spawn(move || {
                    let choice = search.choose(&position, &mut StdRng::seed_from_u64(seed));
                    let _ = sender.send((choice.ok(), search));
                });
                thinking = Some(thought);
            }
        }
        output.flush()?;
    }
}

/// What the thinking thread has for the brain so far.
enum Answer {
    /// Still thinking.
    NotYet,
    /// Its move (none if no move could be chosen), and the engine back.
    Chosen(Option<Square>, Box<Search>),
    /// It ended without an answer (it panicked): waiting longer would hang the brain.
    Lost,
}

/// The thinking thread's answer, if it has one, without waiting for it.
fn answer_of(thought: &mpsc::Receiver<(Option<Square>, Search)>) -> Answer {
    match thought.try_recv() {
        Ok((square, search)) => Answer::Chosen(square, Box::new(search)),
        Err(mpsc::TryRecvError::Empty) => Answer::NotYet,
        Err(mpsc::TryRecvError::Disconnected) => Answer::Lost,
    }
}

/// The engine kept (a new one if there is none yet), ready between turns for the board
/// and the memory bound now set, so that neither costs a turn's time.
fn between_turns(brain: &Brain, kept: Option<Search>) -> Option<Search> {
    let Some(rules) = brain.rules() else {
        return kept;
    };
    let limits = Limits {
        memory: brain.memory_bound(),
        ..Limits::default()
    };
    let mut search = ready(kept, limits);
    search.prepare(rules);
    Some(search)
}

/// The engine kept, within `limits` from now on, or a new one if there is none yet.
fn ready(kept: Option<Search>, limits: Limits) -> Search {
    match kept {
        Some(mut search) => {
            search.set_limits(limits);
            search
        }
        None => Search::new(limits),
    }
}

/// The bound `ttt brain` puts on its tables: `hash` (the command line's `--hash`), or half
/// the manager's `max_memory` if that is less (the rest is for everything else).
///
/// ```
/// assert_eq!(ttt::brain::table_memory(64 << 20, None), 64 << 20);
/// assert_eq!(ttt::brain::table_memory(64 << 20, Some(64 << 20)), 32 << 20);
/// ```
#[must_use]
pub fn table_memory(hash: usize, max_memory: Option<usize>) -> usize {
    max_memory
        .map_or(hash, |most| hash.min(most / 2))
        .max(Limits::MIN_MEMORY)
}

/// The time `ttt brain` thinks on a turn of `limit` (`INFO timeout_turn`): the limit less
/// a margin for the answer to reach the manager, a twentieth and 20 ms more (the search
/// itself ends by 97% of what it is given: see `ttt_players::Search`). A match that
/// runs `search` in the same process at equal time gives it this much, as the brain would.
///
/// ```
/// use std::time::Duration;
///
/// assert_eq!(ttt::brain::turn_think(Duration::from_millis(1000)), Duration::from_millis(930));
/// assert_eq!(ttt::brain::turn_think(Duration::from_millis(20)), Duration::ZERO);
/// ```
#[must_use]
pub fn turn_think(limit: Duration) -> Duration {
    limit.saturating_sub(limit / 20 + Duration::from_millis(20))
}

/// The most commands kept while the engine thinks (a manager sends one at a time).
const MAX_WAITING: usize = 1024;

fn is_info_or_end(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    word.eq_ignore_ascii_case("INFO") || word.eq_ignore_ascii_case("END")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use super::*;

    #[test]
    fn a_thinking_thread_that_ends_without_an_answer_is_lost_not_awaited() {
        let (sender, thought) = mpsc::channel::<(Option<Square>, Search)>();
        assert!(matches!(answer_of(&thought), Answer::NotYet));
        // As a thread that panics drops its sender.
        std::thread::spawn(move || drop(sender)).join().unwrap();
        assert!(matches!(answer_of(&thought), Answer::Lost));
        // The turn is still played: a win where there is one.
        let mut brain = Brain::new(Limits::DEFAULT_MEMORY);
        brain.handle("START 15");
        brain.handle("BOARD");
        for line in [
            "0,0,1", "0,5,2", "1,0,1", "1,5,2", "2,0,1", "2,5,2", "3,0,1", "3,5,2", "DONE",
        ] {
            brain.handle(line);
        }
        assert_eq!(
            brain.fallback_move().map(|square| brain.name(square)),
            Some("4,0".to_owned())
        );
    }

    fn said(action: Action) -> String {
        match action {
            Action::Say(text) => text,
            other => panic!("said nothing: {other:?}"),
        }
    }

    #[test]
    fn a_manager_s_commands_get_the_protocol_s_answers() {
        let mut brain = Brain::new(Limits::DEFAULT_MEMORY);
        assert!(
            said(brain.handle("TURN 7,7")).starts_with("ERROR"),
            "no board yet"
        );
        assert_eq!(said(brain.handle("START 20")), "OK");
        assert!(said(brain.handle("START 4")).starts_with("ERROR unsupported board 4x4"));
        assert_eq!(said(brain.handle("RECTSTART 20,15")), "OK");
        assert_eq!(said(brain.handle("start 15")), "OK");
        assert_eq!(brain.handle("INFO timeout_turn 1000"), Action::Nothing);
        assert_eq!(brain.handle("INFO time_left 60000"), Action::Nothing);
        assert_eq!(brain.handle("INFO folder /tmp"), Action::Nothing);
        let Action::Think(position, limits) = brain.handle("TURN 7,7") else {
            panic!("TURN asks for a move")
        };
        assert_eq!(position.board().count(Mark::O), 1);
        assert_eq!(position.to_move(), Mark::X);
        // The turn's limit, less the margin for the answer: the match has time to spare.
        assert_eq!(limits.think, turn_think(Duration::from_millis(1000)));
        assert!(limits.think < Duration::from_millis(1000), "{limits:?}");
        brain.played(Square::new(0));
        assert!(said(brain.handle("TURN 7,7")).contains("taken"));
        assert!(said(brain.handle("TURN 15,0")).contains("not on the"));
        assert!(said(brain.handle("TURN seven")).contains("is not x,y"));
        assert_eq!(said(brain.handle("TAKEBACK 0,0")), "OK");
        assert!(said(brain.handle("TAKEBACK 0,0")).contains("empty"));
        assert!(said(brain.handle("DANCE")).starts_with("UNKNOWN"));
        assert!(said(brain.handle("ABOUT")).starts_with("name=\"ttt\""));
        assert_eq!(brain.handle("END"), Action::End);
    }

    #[test]
    fn a_board_is_read_to_done_and_counts_settle_who_moves() {
        let mut brain = Brain::new(Limits::DEFAULT_MEMORY);
        brain.handle("START 15");
        assert_eq!(brain.handle("BOARD"), Action::Nothing);
        assert_eq!(brain.handle("7,7,2"), Action::Nothing);
        assert_eq!(brain.handle("8,8,1"), Action::Nothing);
        assert_eq!(brain.handle("9,9,2"), Action::Nothing);
        assert!(said(brain.handle("9,9")).starts_with("ERROR"));
        assert_eq!(
            said(brain.handle("1,1,7")),
            "ERROR a BOARD line is x,y,field with field 1, 2 or 3, not '1,1,7'"
        );
        // A square given twice keeps its first stone.
        assert_eq!(
            said(brain.handle("8,8,2")),
            "ERROR BOARD 8,8,2: 8,8 was given already"
        );
        let Action::Think(position, _) = brain.handle("DONE") else {
            panic!("DONE asks for a move")
        };
        assert_eq!(position.first(), Mark::O, "the opponent has one stone more");
        // Two stones more is no position of alternate moves.
        brain.handle("BOARD");
        brain.handle("1,1,2");
        brain.handle("2,2,2");
        let refused = said(brain.handle("DONE"));
        assert!(refused.starts_with("ERROR impossible counts"), "{refused}");
        // In the protocol's words: stones are the brain's own and the opponent's.
        assert!(
            refused.contains("0 own stones and 2 of the opponent's"),
            "{refused}"
        );
    }

    #[test]
    fn info_rule_sets_exactly_five_before_or_after_start() {
        let think = |brain: &mut Brain, line: &str| match brain.handle(line) {
            Action::Think(position, _) => position,
            other => panic!("{line} asks for a move, not {other:?}"),
        };
        let exact = Rules::new(15, 15, 5).unwrap().with_win_rule(WinRule::Exact);
        // Before START: the game starts under it.
        let mut brain = Brain::new(Limits::DEFAULT_MEMORY);
        assert_eq!(brain.handle("INFO rule 1"), Action::Nothing, "no MESSAGE");
        brain.handle("START 15");
        assert_eq!(think(&mut brain, "BEGIN").rules(), exact);
        // After START, for the game in progress; RESTART keeps it; rule 0 takes it back.
        let mut brain = Brain::new(Limits::DEFAULT_MEMORY);
        brain.handle("START 15");
        assert_eq!(
            think(&mut brain, "BEGIN").rules().win_rule(),
            WinRule::Freestyle
        );
        brain.handle("INFO rule 3");
        assert_eq!(think(&mut brain, "TURN 7,7").rules(), exact);
        brain.handle("RESTART");
        assert_eq!(think(&mut brain, "BEGIN").rules(), exact);
        brain.handle("INFO rule 4");
        assert_eq!(
            think(&mut brain, "TURN 8,8").rules().win_rule(),
            WinRule::Freestyle
        );
    }

    #[test]
    fn under_exactly_five_an_overline_on_the_board_has_not_ended_the_game() {
        // The opponent has six in a row: a win under freestyle, nothing under exactly five.
        let mut brain = Brain::new(Limits::DEFAULT_MEMORY);
        brain.handle("START 15");
        brain.handle("BOARD");
        for x in 0..6 {
            brain.handle(&format!("{x},0,2"));
            brain.handle(&format!("{},4,1", 2 * x));
        }
        assert!(said(brain.handle("DONE")).contains("the game is over"));
        brain.handle("INFO rule 1");
        brain.handle("BOARD");
        for x in 0..6 {
            brain.handle(&format!("{x},0,2"));
            brain.handle(&format!("{},4,1", 2 * x));
        }
        let Action::Think(position, _) = brain.handle("DONE") else {
            panic!("DONE asks for a move under exactly five")
        };
        assert_eq!(position.outcome(), None);
    }

    #[test]
    fn a_match_clock_shares_the_time_left() {
        let mut brain = Brain::new(Limits::DEFAULT_MEMORY);
        brain.handle("START 20");
        brain.handle("INFO timeout_turn 5000");
        brain.handle("INFO time_left 10000");
        let Action::Think(_, limits) = brain.handle("BEGIN") else {
            panic!("BEGIN asks for a move")
        };
        assert!(limits.think < Duration::from_millis(500), "{limits:?}");
        brain.handle("INFO max_memory 8388608");
        let Action::Think(_, limits) = brain.handle("TURN 0,0") else {
            panic!("TURN asks for a move")
        };
        assert_eq!(limits.memory, 4 << 20, "half the manager's bound");
    }

    #[test]
    fn thread_num_sets_the_threads_a_move_thinks_on() {
        let threads = |told: Option<&str>| {
            let mut brain = Brain::new(Limits::DEFAULT_MEMORY);
            brain.handle("START 15");
            if let Some(told) = told {
                brain.handle(&format!("INFO thread_num {told}"));
            }
            let Action::Think(_, limits) = brain.handle("BEGIN") else {
                panic!("BEGIN asks for a move")
            };
            limits.threads
        };
        assert_eq!(threads(None), 1, "one until told");
        assert_eq!(threads(Some("2")), 2);
        assert_eq!(threads(Some("0")), 1, "at least one");
        assert_eq!(threads(Some("100000")), Limits::MAX_THREADS);
        assert_eq!(threads(Some("many")), 1, "not a number: unchanged");
    }

    #[test]
    fn an_unreadable_number_in_info_is_said_once_and_changes_nothing() {
        let mut brain = Brain::new(Limits::DEFAULT_MEMORY);
        brain.handle("START 15");
        brain.handle("INFO timeout_turn 1000");
        for (key, value) in [
            ("timeout_turn", "soon"),
            ("timeout_match", "-5"),
            ("time_left", ""),
            ("max_memory", "1e9"),
            ("thread_num", "two"),
            ("rule", "renju"),
        ] {
            let said = said(brain.handle(&format!("INFO {key} {value}")));
            assert_eq!(
                said,
                format!("MESSAGE INFO {key} '{value}' ignored: not a whole number")
            );
        }
        // Keys read as text, or not read at all, say nothing.
        assert_eq!(brain.handle("INFO folder /tmp/a b"), Action::Nothing);
        assert_eq!(brain.handle("INFO evaluate 7,7"), Action::Nothing);
        let Action::Think(_, limits) = brain.handle("BEGIN") else {
            panic!("BEGIN asks for a move")
        };
        assert_eq!(limits.think, turn_think(Duration::from_millis(1000)));
        assert_eq!((limits.threads, limits.memory), (1, Limits::DEFAULT_MEMORY));
        assert_eq!(
            brain.rules().map(|rules| rules.win_rule()),
            Some(WinRule::Freestyle)
        );
    }

    #[test]
    fn a_refused_command_changes_nothing() {
        let mut brain = Brain::new(Limits::DEFAULT_MEMORY);
        assert_eq!(said(brain.handle("START 15")), "OK");
        assert!(matches!(brain.handle("TURN 7,7"), Action::Think(..)));
        // A second stone of the opponent's before ours: refused, and not placed.
        let refused = said(brain.handle("TURN 0,0"));
        assert!(refused.starts_with("ERROR impossible counts"), "{refused}");
        assert!(
            said(brain.handle("TAKEBACK 0,0")).starts_with("ERROR"),
            "0,0 stayed empty"
        );
        // A whole board refused at DONE leaves the board as it was.
        assert_eq!(brain.handle("BOARD"), Action::Nothing);
        for line in ["1,1,1", "2,2,1", "3,3,1"] {
            assert_eq!(brain.handle(line), Action::Nothing);
        }
        let refused = said(brain.handle("DONE"));
        assert!(refused.starts_with("ERROR impossible counts"), "{refused}");
        assert_eq!(
            said(brain.handle("TAKEBACK 7,7")),
            "OK",
            "7,7 is still there"
        );
        assert!(said(brain.handle("TAKEBACK 1,1")).starts_with("ERROR"));
    }

    #[test]
    fn end_ends_even_inside_a_board() {
        let mut brain = Brain::new(Limits::DEFAULT_MEMORY);
        assert_eq!(said(brain.handle("START 15")), "OK");
        assert_eq!(brain.handle("BOARD"), Action::Nothing);
        assert_eq!(brain.handle("7,7,1"), Action::Nothing);
        assert_eq!(brain.handle("end"), Action::End);
    }

    #[test]
    fn answers_show_control_characters_escaped() {
        let mut brain = Brain::new(Limits::DEFAULT_MEMORY);
        for line in ["\u{1b}]0;OWNED\u{7}\u{1b}[2J", "START \u{0}\u{1b}[2J"] {
            let answer = said(brain.handle(line));
            assert!(
                !answer.chars().any(char::is_control),
                "{line:?} answered {answer:?}"
            );
        }
        assert_eq!(said(brain.handle("START 15")), "OK");
        assert_eq!(brain.handle("BOARD"), Action::Nothing);
        let answer = said(brain.handle("1,1,\u{1b}[2J"));
        assert!(!answer.chars().any(char::is_control), "{answer:?}");
    }
}
