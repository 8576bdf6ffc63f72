//! The line mode: the game as questions and answers on standard input and output, as the
//! classic tutorials play it. Works the same on a terminal and through pipes.

pub(crate) mod board_style;
pub(crate) mod input;
pub(crate) mod palette;
pub(crate) mod typed;

use std::io::{self, BufRead, Write};
use std::sync::mpsc;
use std::time::Duration;

use std::collections::BTreeMap;

use ttt_core::{Mark, Rules, Square, SquareNaming};
use ttt_players::Strength;
use ttt_solver::Solver;

pub use board_style::{BoardStyle, draw};

pub use palette::{Palette, no_color};

use crate::engine::EngineLauncher;
use crate::signals::{Interrupts, Signal};
use crate::store::{self, Kept};
use input::{Input, Interruption, Line, MAX_LINE};
use ttt_core::Shown;
use ttt_play::records::{self, Recorder};
use ttt_play::session::{Refusal, Score, Session};
use ttt_play::{FirstPolicy, Seat, Seats, Settings, words};
use typed::Typed;

/// How the line mode looks and how long it goes on.
#[derive(Debug, Clone, Copy)]
pub struct LineOptions {
    /// The board drawing; `None`: the board's own (see [`BoardStyle::for_board`]).
    pub style: Option<BoardStyle>,
    /// Colours, or none.
    pub palette: Palette,
    /// Repeat each line read after its prompt, so that a transcript of piped input reads
    /// as a person would have seen it.
    pub echo_input: bool,
    /// Review each finished game for the moves that changed its value.
    pub review: bool,
}

/// An unfinished game kept from an earlier run: to take up at once, or to offer first.
#[derive(Debug, Clone)]
pub enum Resume {
    /// Take it up (`--resume`).
    Now(Kept),
    /// Ask the person first, before anything else.
    Offer(Kept),
}

/// How the line mode ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Every game finished, or the person chose to stop.
    Finished,
    /// Input ended in the middle of a game.
    CutShort,
    /// A signal (Ctrl-C among them) ended it.
    Signalled(Signal),
}

/// The answer to "Play again?".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Again {
    Yes,
    No,
    Undo,
}

/// Why the line mode stops early.
#[derive(Debug)]
enum Stop {
    EndOfInput,
    Quit,
    Signal(Signal),
    Io(io::Error),
}

/// How often a wait for the computer's move looks for a signal.
const LOOK: Duration = Duration::from_millis(50);

impl From<io::Error> for Stop {
    fn from(error: io::Error) -> Stop {
        Stop::Io(error)
    }
}

/// Output that reaches its reader a line at a time, whatever buffer it goes through: a
/// watched game's moves show as they are played, not all at the end.
struct EachLine<W>(W);

impl<W: Write> Write for EachLine<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let written = self.0.write(bytes)?;
        if bytes.iter().take(written).any(|&byte| byte == b'\n') {
            self.0.flush()?;
        }
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Plays the line mode on `input` and `output` with `settings` (seats they leave open are
/// asked for) until the games end, or until a signal in `interrupts` arrives: then the
/// current line is finished and the tally printed.
///
/// # Errors
/// Only errors writing output or reading input (a closed pipe among them).
pub fn run(
    input: impl BufRead + Send + 'static,
    output: impl Write,
    settings: Settings,
    options: LineOptions,
    recorder: Option<Recorder>,
    resume: Option<Resume>,
    interrupts: &Interrupts,
) -> io::Result<Ending> {
    let rules = settings.rules();
    let mut game = LineGame {
        recorder,
        input: Input::spawn(input, interrupts),
        interrupts: interrupts.clone(),
        output: EachLine(output),
        options,
        naming: settings.naming().on_board(rules),
        solver: Solver::new(),
        rules,
    };
    let resume = match resume {
        Some(Resume::Offer(kept)) => match game.offer(&kept) {
            Ok(true) => Some(kept),
            Ok(false) => None,
            Err(stop) => return game.stopped_before_playing(stop),
        },
        Some(Resume::Now(kept)) => Some(kept),
        None => None,
    };
    let seats = match &resume {
        Some(kept) => Ok((kept.record.x.clone(), kept.record.o.clone())),
        None => game.choose_seats(settings.seats().clone()),
    };
    let (x, o) = match seats {
        Ok(seats) => seats,
        Err(stop) => return game.stopped_before_playing(stop),
    };
    let mut session = Session::new(settings, x, o);
    session
        .set_launcher(Box::new(EngineLauncher))
        .map_err(io::Error::other)?;
    let resumed = match &resume {
        Some(kept) => match session.resume(&kept.record) {
            Ok(()) => {
                if let Some(recorder) = &mut game.recorder {
                    recorder.resumed(&session, &kept.id, kept.record.started);
                }
                game.rules = kept.record.rules;
                game.naming = session.settings().naming().on_board(game.rules);
                let mark = session.position().to_move();
                game.say(&format!("\nThe unfinished game goes on: {mark} to move."))?;
                true
            }
            Err(refusal) => {
                game.say(&format!("That game cannot be taken up: {refusal}."))?;
                false
            }
        },
        None => false,
    };
    let played = game.play_session(&mut session, resumed);
    if let Err(Stop::Io(error)) = played {
        return Err(error);
    }
    // Whatever ended the run, the game under way is kept for later.
    let kept = match &mut game.recorder {
        Some(recorder) => match recorder.leave(&session, store::now()) {
            Ok(kept) => kept,
            Err(error) => {
                game.say(&format!("{error}."))?;
                false
            }
        },
        None => false,
    };
    let ending = match played {
        Ok(()) => Ending::Finished,
        Err(Stop::Signal(signal)) => Ending::Signalled(signal),
        Err(Stop::Io(_)) => Ending::Finished,
        Err(Stop::Quit) => {
            if session.in_progress() && !kept {
                game.say("Game abandoned.")?;
            }
            Ending::Finished
        }
        Err(Stop::EndOfInput) if session.in_progress() => {
            game.say("End of input: the game was cut short.")?;
            Ending::CutShort
        }
        Err(Stop::EndOfInput) => {
            game.say("End of input.")?;
            Ending::Finished
        }
    };
    if kept {
        game.say("The unfinished game is kept: `ttt play --resume` takes it up.")?;
    }
    game.say(&session.score().to_string())?;
    game.output.flush()?;
    Ok(ending)
}

/// Whether the run is one game between two computers (no `--games`), for a person to watch.
fn one_game_to_watch(session: &Session) -> bool {
    !session.has_human() && session.games_left().is_none()
}

struct LineGame<W> {
    /// Keeps the games, unless the run saves nothing.
    recorder: Option<Recorder>,
    input: Input,
    interrupts: Interrupts,
    output: W,
    options: LineOptions,
    /// How squares are named on this board.
    naming: SquareNaming,
    /// For hints and reviews; its table lasts the whole session.
    solver: Solver,
    /// The board the games are played on.
    rules: Rules,
}

impl<W: Write> LineGame<W> {
    fn say(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.output, "{line}")
    }

    /// How the run ends when it stops before any game: what is said, and the ending.
    fn stopped_before_playing(&mut self, stop: Stop) -> io::Result<Ending> {
        match stop {
            Stop::Io(error) => return Err(error),
            Stop::EndOfInput => self.say("End of input: no game was played.")?,
            Stop::Quit => self.say("Goodbye.")?,
            Stop::Signal(signal) => {
                self.say(&Score::default().to_string())?;
                self.output.flush()?;
                return Ok(Ending::Signalled(signal));
            }
        }
        Ok(Ending::Finished)
    }

    /// Offers the unfinished game kept last: whether the person takes it up.
    fn offer(&mut self, kept: &Kept) -> Result<bool, Stop> {
        let record = &kept.record;
        self.say(&format!(
            "You left a game unfinished: {}, X {} against O {}, {} played, started {}.",
            record.rules,
            record.x,
            record.o,
            words::count(record.moves.len(), "move"),
            records::utc_date(record.started)
        ))?;
        self.ask("Resume it?", "yes or no", "yes", |answer| match answer {
            "y" | "yes" => Some(true),
            "n" | "no" => Some(false),
            _ => None,
        })
    }

    /// Keeps the game on the board if it has just ended (or its end was taken back); a
    /// store that fails is said in one line and play goes on.
    fn keep(&mut self, session: &Session) -> io::Result<()> {
        let Some(recorder) = &mut self.recorder else {
            return Ok(());
        };
        match recorder.observe(session, store::now()) {
            Ok(_) => Ok(()),
            Err(error) => self.say(&format!("{error}.")),
        }
    }

    /// Prints `prompt` and reads one line of text, trimmed; a line that is not text or is
    /// too long gets a message and the prompt again.
    fn read(&mut self, prompt: &str) -> Result<String, Stop> {
        loop {
            write!(self.output, "{prompt}")?;
            self.output.flush()?;
            let line = match self.input.next() {
                Ok(line) => line,
                Err(Interruption::Signal(signal)) => {
                    // The prompt's line is finished before the tally.
                    writeln!(self.output)?;
                    return Err(Stop::Signal(signal));
                }
                Err(Interruption::Io(error)) => return Err(Stop::Io(error)),
            };
            let refusal = match line {
                Line::Text(text) => {
                    let text = text.trim().to_owned();
                    if self.options.echo_input {
                        writeln!(self.output, "{}", Shown(&text))?;
                    }
                    return Ok(text);
                }
                Line::End => {
                    // The prompt's line was never ended by the person's Enter.
                    writeln!(self.output)?;
                    return Err(Stop::EndOfInput);
                }
                Line::TooLong => {
                    format!("That line is longer than {MAX_LINE} bytes: it was skipped.")
                }
                Line::NotText => "That line is not text (not UTF-8): type it again.".to_owned(),
            };
            if self.options.echo_input {
                writeln!(self.output)?;
            }
            self.say(&refusal)?;
        }
    }

    /// Lets the computer to move think on a thread of its own, watching for signals: its
    /// square, or `None` when it could not move and forfeited the game.
    fn computer_move(&mut self, session: &mut Session) -> Result<Option<Square>, Stop> {
        let thinking = session
            .begin_computer_turn()
            .ok_or_else(|| Stop::Io(io::Error::other(ttt_players::PlayerError::NoMove)))?;
        let (sender, thought) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = sender.send(thinking.think());
        });
        loop {
            if let Some(signal) = self.interrupts.received() {
                return Err(Stop::Signal(signal));
            }
            match thought.recv_timeout(LOOK) {
                Ok(thought) => {
                    return match session.conclude(thought) {
                        Ok(square) => Ok(Some(square)),
                        Err(_) if session.is_over() => Ok(None),
                        Err(error) => Err(Stop::Io(io::Error::other(error))),
                    };
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(Stop::Io(io::Error::other("the computer stopped thinking")));
                }
            }
        }
    }

    /// Asks `question` until the answer is one of `answers`; Enter alone takes `default`.
    fn ask<T>(
        &mut self,
        question: &str,
        answers: &str,
        default: &str,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Result<T, Stop> {
        loop {
            let answer = self.read(&format!("{question} ({answers}) [{default}]: "))?;
            let answer = if answer.is_empty() {
                default.to_owned()
            } else {
                answer
            };
            let lower = answer.to_ascii_lowercase();
            if matches!(lower.as_str(), "quit" | "q" | "exit") {
                return Err(Stop::Quit);
            }
            match parse(&lower) {
                Some(value) => return Ok(value),
                None => self.say(&format!(
                    "'{}' is not an answer here: type {answers}, or quit.",
                    Shown(&answer)
                ))?,
            }
        }
    }

    /// Asks for what the settings left open: the opponent, then (against the computer)
    /// the letter unless it was given.
    fn choose_seats(&mut self, seats: Seats) -> Result<(Seat, Seat), Stop> {
        let letter = match seats {
            Seats::Fixed { x, o } => return Ok((x, o)),
            Seats::Ask { letter } => letter,
        };
        let opponent = self.ask_opponent()?;
        let letter = match (opponent, letter) {
            (None, _) => Mark::X,
            (Some(_), Some(letter)) => letter,
            (Some(_), None) => self.ask("Do you want to be X or O?", "x or o", "x", |answer| {
                answer.parse::<Mark>().ok()
            })?,
        };
        Ok(Seats::chosen(opponent.map(Seat::Computer), letter))
    }

    /// The computer's strength, or `None` for a friend.
    fn ask_opponent(&mut self) -> Result<Option<Strength>, Stop> {
        let rules = self.rules;
        let computer = self.ask(
            "Play against a friend or the computer?",
            "friend or computer",
            "computer",
            |answer| match answer {
                "friend" | "f" | "1" | "human" => Some(false),
                "computer" | "c" | "2" | "cpu" => Some(true),
                _ => None,
            },
        )?;
        if !computer {
            return Ok(None);
        }
        let strength = self.ask(
            "How strong should the computer be?",
            if Seat::Computer(Strength::Perfect).plays_on(rules).is_ok() {
                "easy, medium, hard or impossible"
            } else {
                "easy, medium or hard"
            },
            "medium",
            |answer| {
                answer
                    .parse::<Strength>()
                    .ok()
                    .filter(|&strength| Seat::Computer(strength).plays_on(rules).is_ok())
            },
        )?;
        Ok(Some(strength))
    }

    /// Plays games until the run ends; `going_on`: the game on the board (a resumed one)
    /// is played on before any new game.
    fn play_session(&mut self, session: &mut Session, going_on: bool) -> Result<(), Stop> {
        let one_to_watch = one_game_to_watch(session);
        let watching = session.has_human() || session.games_left() == Some(1) || one_to_watch;
        let mut taken_back = going_on;
        loop {
            if std::mem::take(&mut taken_back) {
                self.play_on(session, watching)?;
            } else {
                self.play_game(session, watching)?;
            }
            match session.games_left() {
                Some(0) => return Ok(()),
                _ if one_to_watch => return Ok(()),
                Some(_) => {}
                None => match self.ask_again(session.has_human())? {
                    Again::Yes => {}
                    Again::No => return Ok(()),
                    Again::Undo => match session.undo() {
                        Ok(squares) => {
                            self.keep(session)?;
                            let labels: Vec<String> =
                                squares.iter().map(|&s| self.label(session, s)).collect();
                            self.say(&format!("Took back {}.", labels.join(" and ")))?;
                            // The same game goes on from there.
                            taken_back = true;
                        }
                        Err(refusal) => self.say(&words::refusal_sentence(&refusal))?,
                    },
                },
            }
        }
    }

    /// "Play again?", where a person can also take back the last move of the game just
    /// ended and play on.
    fn ask_again(&mut self, has_human: bool) -> Result<Again, Stop> {
        let answers = if has_human {
            "yes, no or undo"
        } else {
            "yes or no"
        };
        self.ask("Play again?", answers, "yes", |answer| match answer {
            "y" | "yes" => Some(Again::Yes),
            "n" | "no" => Some(Again::No),
            "u" | "undo" if has_human => Some(Again::Undo),
            _ => None,
        })
    }

    fn play_game(&mut self, session: &mut Session, watching: bool) -> Result<(), Stop> {
        let first = session
            .start_game()
            .map_err(|refusal| Stop::Io(io::Error::other(refusal)))?;
        if watching {
            let how = match (session.table().first, session.score().games()) {
                (FirstPolicy::Random, _) | (FirstPolicy::Alternate, 0) => " (drawn at random)",
                (FirstPolicy::Alternate, _) => " (taking turns)",
                _ => "",
            };
            let who = match session.lone_human() {
                Some(mark) if mark == first => "You go first".to_owned(),
                Some(_) => "The computer goes first".to_owned(),
                None => format!("{first} goes first"),
            };
            let playing = if session.lone_human().is_some() {
                format!(", playing {first}")
            } else {
                String::new()
            };
            self.say(&format!("\n{who}{playing}{how}."))?;
        }
        self.play_on(session, watching)
    }

    /// Plays the game on the board to its end.
    fn play_on(&mut self, session: &mut Session, watching: bool) -> Result<(), Stop> {
        while let Some(mark) = (!session.is_over()).then(|| session.position().to_move()) {
            match session.seat(mark) {
                Seat::Human => {
                    self.human_turn(session)?;
                    self.keep(session)?;
                }
                Seat::Computer(_) | Seat::Engine(_) => {
                    let moved = self.computer_move(session)?;
                    self.keep(session)?;
                    let Some(square) = moved else {
                        // The player forfeited: the result says why.
                        break;
                    };
                    if watching {
                        let who = self.mover_name(session, mark);
                        let label = self.label(session, square);
                        self.say(&format!("{who} plays {label}."))?;
                        // The final board comes with the result.
                        if !session.has_human() && !session.is_over() {
                            self.show_board(session)?;
                        }
                    }
                }
            }
        }
        if watching {
            self.show_result(session)?;
        } else {
            // Unwatched games pass in a line each, once kept: the result and why.
            let game = session.score().games();
            self.say(&format!(
                "Game {game}: {}",
                words::verdict(session.rules_of_play())
            ))?;
        }
        Ok(())
    }

    fn human_turn(&mut self, session: &mut Session) -> Result<(), Stop> {
        self.show_board(session)?;
        let position = session.position();
        let (rules, mark) = (position.rules(), position.to_move());
        let prompt = match session.lone_human() {
            Some(_) => format!("Your move ({mark}): "),
            None => format!("{mark} to move: "),
        };
        loop {
            let line = self.read(&prompt)?;
            match typed::parse(&line, self.naming, rules) {
                Ok(Typed::Square(square)) => match session.play_human(square) {
                    Ok(()) => return Ok(()),
                    Err(refusal @ Refusal::Occupied { .. }) => {
                        let naming = self.naming;
                        let why = words::refusal(&refusal, |s| naming.label(s, rules));
                        self.say(&format!("{why}: choose a free square."))?;
                    }
                    Err(refusal) => self.say(&format!("That move cannot be played: {refusal}."))?,
                },
                Ok(Typed::Help) => self.help(session)?,
                Ok(Typed::Hint) => self.hint(session)?,
                Ok(Typed::Undo) => match session.undo() {
                    Ok(squares) => {
                        let labels: Vec<String> =
                            squares.iter().map(|&s| self.label(session, s)).collect();
                        self.say(&format!("Took back {}.", labels.join(" and ")))?;
                        return Ok(());
                    }
                    Err(refusal) => self.say(&words::refusal_sentence(&refusal))?,
                },
                Ok(Typed::Quit) => return Err(Stop::Quit),
                Err(error) => self.say(&error.message(self.naming, rules))?,
            }
        }
    }

    fn help(&mut self, session: &Session) -> Result<(), Stop> {
        let rules = session.position().rules();
        let expected = words::expected_squares(self.naming, rules);
        let undo = if session.lone_human().is_some() {
            "take back your last move and the computer's reply"
        } else {
            "take back the last move"
        };
        self.say(&format!("Type a square to place your mark: {expected}."))?;
        self.say(&format!(
            "Or a command: help (this text), hint (the value of every free square), undo ({undo}), quit (leave the game)."
        ))?;
        Ok(())
    }

    /// Shows every free square's value for the side to move, on the board and as a list.
    fn hint(&mut self, session: &Session) -> Result<(), Stop> {
        let position = session.position();
        let moves = match self.solver.move_values(position) {
            Ok(moves) => moves,
            Err(error) => return Ok(self.say(&format!("No hint here: {error}."))?),
        };
        let notes: BTreeMap<Square, String> = moves
            .iter()
            .map(|rated| {
                (
                    rated.square,
                    words::short_value(rated.value.result).to_owned(),
                )
            })
            .collect();
        let options = self.options;
        let board = board_style::draw_with_notes(
            position,
            options
                .style
                .unwrap_or(BoardStyle::for_board(position.rules())),
            self.naming,
            options.palette,
            &notes,
        );
        self.say(&format!(
            "Hint for {} with perfect play from both sides (W win, D draw, L loss):",
            position.to_move()
        ))?;
        self.say("")?;
        for line in board {
            self.say(line.trim_end())?;
        }
        self.say("")?;
        let naming = self.naming;
        let rules = position.rules();
        self.say(&words::hint_summary(&moves, |square| {
            naming.label(square, rules)
        }))?;
        Ok(())
    }

    /// Names the moves of the finished game that changed its value, or says there were none;
    /// on a board too big for perfect play, what the threat search says of them.
    fn review(&mut self, session: &Session) -> Result<(), Stop> {
        let Ok(game) = session.finished_game() else {
            return Ok(());
        };
        let (naming, rules) = (self.naming, game.rules());
        let lines = ttt_play::analysis::review_lines(&mut self.solver, game, |square| {
            naming.label(square, rules)
        });
        for line in lines {
            self.say(&line)?;
        }
        Ok(())
    }

    fn show_board(&mut self, session: &Session) -> Result<(), Stop> {
        let options = self.options;
        let lines = board_style::draw(
            session.position(),
            options
                .style
                .unwrap_or(BoardStyle::for_board(session.position().rules())),
            self.naming,
            options.palette,
        );
        self.say("")?;
        for line in lines {
            self.say(line.trim_end())?;
        }
        self.say("")?;
        Ok(())
    }

    fn show_result(&mut self, session: &Session) -> Result<(), Stop> {
        self.show_board(session)?;
        let position = session.position();
        if let Some(line) = position.winning_lines().first() {
            let labels: Vec<String> = line
                .squares()
                .iter()
                .map(|&s| self.label(session, s))
                .collect();
            self.say(&format!("Winning line: {}", labels.join(", ")))?;
        }
        let verdict = words::verdict(session.rules_of_play());
        self.say(&verdict)?;
        if self.options.review {
            self.review(session)?;
        }
        // Where the run ends with this game, the tally that ends it says the score.
        let run_ends = session.games_left() == Some(0) || one_game_to_watch(session);
        if !run_ends {
            self.say(&format!("Score: {}", session.score()))?;
        }
        Ok(())
    }

    fn mover_name(&self, session: &Session, mark: Mark) -> String {
        match (session.lone_human(), session.seat(mark)) {
            (Some(_), Seat::Engine(engine)) => format!("The engine {} ({mark})", engine.name()),
            (Some(_), _) => format!("The computer ({mark})"),
            (None, Seat::Computer(strength)) => format!("{mark} ({strength})"),
            (None, Seat::Engine(engine)) => format!("{mark} ({})", engine.name()),
            (None, Seat::Human) => mark.to_string(),
        }
    }

    fn label(&self, session: &Session, square: Square) -> String {
        self.naming.label(square, session.position().rules())
    }
}
