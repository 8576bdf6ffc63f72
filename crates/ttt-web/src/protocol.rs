//! What the page and its web worker say to each other: the slow work (a computer's move,
//! a hint, a review) as one line of text each way. The worker runs the same wasm as the
//! page; the page keeps the app, the worker only computes.
//!
//! ```text
//! move  <strength> <think µs> <memory bytes> <open centre 0|1> <seed> <game>
//! hint  <naming> <game>          review <naming> <game>
//! game: <width> <height> <k> <rule freestyle|exact> <first x|o> <moves as square indices, comma-separated>
//! ```
//!
//! Fields are separated by tabs. Replies: `move <square>`, `hint <square:W|D|L:plies>;…`,
//! `review <lines separated by U+001F>`, or `error <message>`.

use std::time::Duration;

use ttt_core::{Mark, Position, Rules, Square, SquareNaming, WinRule};
use ttt_play::app::{Answer, Job, Purpose};
use ttt_play::session::{KeptPlayer, Order};
use ttt_players::{Limits, Strength};
use ttt_solver::{GameResult, MoveValue, Solver, Value};

/// A request the worker can carry out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// A computer's move.
    Move(Order),
    /// A hint or a review, with the naming of squares for its words.
    Job(Purpose, SquareNaming, Position),
}

/// What came back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// The computer's square.
    Move(Square),
    /// A hint or review.
    Answer(Answer),
    /// Why there is none, in words.
    Error(String),
}

const SEPARATOR: char = '\u{1f}';

fn game(position: &Position) -> String {
    let rules = position.rules();
    let moves: Vec<String> = position
        .history()
        .iter()
        .map(|square| square.index().to_string())
        .collect();
    format!(
        "{}\t{}\t{}\t{}\t{}\t{}",
        rules.width(),
        rules.height(),
        rules.k(),
        rules.win_rule(),
        position.first(),
        moves.join(",")
    )
}

fn read_game<'a>(fields: &mut impl Iterator<Item = &'a str>) -> Result<Position, String> {
    let mut number = |what: &str| -> Result<usize, String> {
        fields
            .next()
            .and_then(|field| field.parse().ok())
            .ok_or_else(|| format!("no {what}"))
    };
    let (width, height, k) = (number("width")?, number("height")?, number("k")?);
    let win: WinRule = fields
        .next()
        .and_then(|field| field.parse().ok())
        .ok_or("no win rule")?;
    let rules = Rules::new(width, height, k)
        .map_err(|error| error.to_string())?
        .with_win_rule(win);
    let first: Mark = fields
        .next()
        .and_then(|field| field.parse().ok())
        .ok_or("no first mover")?;
    let moves = fields
        .next()
        .unwrap_or("")
        .split(',')
        .filter(|part| !part.is_empty())
        .map(|part| {
            part.parse()
                .map(Square::new)
                .map_err(|_| "bad move".to_owned())
        })
        .collect::<Result<Vec<_>, _>>()?;
    Position::from_moves(rules, first, &moves).map_err(|error| error.to_string())
}

impl Request {
    /// The request as one line.
    pub fn encode(&self) -> String {
        match self {
            Request::Move(order) => format!(
                "move\t{}\t{}\t{}\t{}\t{}\t{}",
                order.strength,
                order.limits.think.as_micros(),
                order.limits.memory,
                u8::from(order.open_centre),
                order.seed,
                game(&order.position)
            ),
            Request::Job(purpose, naming, position) => {
                let word = match purpose {
                    Purpose::Hint => "hint",
                    Purpose::Review => "review",
                };
                format!("{word}\t{naming}\t{}", game(position))
            }
        }
    }

    /// Reads a line written by [`encode`](Request::encode).
    ///
    /// # Errors
    /// What is wrong with the line, in words.
    pub fn decode(line: &str) -> Result<Request, String> {
        let mut fields = line.split('\t');
        match fields.next() {
            Some("move") => {
                let strength: Strength = fields
                    .next()
                    .and_then(|field| field.parse().ok())
                    .ok_or("no player")?;
                let mut number = |what: &str| -> Result<u64, String> {
                    fields
                        .next()
                        .and_then(|field| field.parse().ok())
                        .ok_or_else(|| format!("no {what}"))
                };
                let think = Duration::from_micros(number("thinking time")?);
                let memory = usize::try_from(number("memory")?).map_err(|e| e.to_string())?;
                let open_centre = number("centre opening")? == 1;
                let seed = number("seed")?;
                let position = read_game(&mut fields)?;
                Ok(Request::Move(Order {
                    strength,
                    limits: Limits { think, memory },
                    open_centre,
                    seed,
                    position,
                }))
            }
            Some(word @ ("hint" | "review")) => {
                let purpose = if word == "hint" {
                    Purpose::Hint
                } else {
                    Purpose::Review
                };
                let naming: SquareNaming = fields
                    .next()
                    .and_then(|field| field.parse().ok())
                    .ok_or("no naming")?;
                Ok(Request::Job(purpose, naming, read_game(&mut fields)?))
            }
            _ => Err(format!("unknown request '{line}'")),
        }
    }

    /// Does the work (in the worker: this is where the time goes), with what the worker
    /// keeps from one request to the next.
    pub fn carry_out(self, worker: &mut Worker) -> Reply {
        match self {
            Request::Move(order) => match worker.player.carry_out(&order) {
                Ok(square) => Reply::Move(square),
                Err(error) => Reply::Error(error.to_string()),
            },
            Request::Job(purpose, naming, position) => {
                let solver = std::mem::take(&mut worker.solver);
                let done = Job::new(purpose, position, naming, solver).run();
                worker.solver = done.solver;
                match done.answer {
                    Ok(answer) => Reply::Answer(answer),
                    Err(message) => Reply::Error(message),
                }
            }
        }
    }
}

/// What a worker keeps from one request to the next: the computer player of the last move
/// (with its tables: a new one at every move would make them again and forget what they
/// learnt) and the solver of hints and reviews.
#[derive(Debug, Default)]
pub struct Worker {
    player: KeptPlayer,
    solver: Solver,
}

fn result_letter(result: GameResult) -> char {
    match result {
        GameResult::Win => 'W',
        GameResult::Draw => 'D',
        GameResult::Loss => 'L',
    }
}

impl Reply {
    /// The reply as one line.
    pub fn encode(&self) -> String {
        match self {
            Reply::Move(square) => format!("move\t{}", square.index()),
            Reply::Answer(Answer::Hint(moves)) => {
                let moves: Vec<String> = moves
                    .iter()
                    .map(|rated| {
                        format!(
                            "{}:{}:{}",
                            rated.square.index(),
                            result_letter(rated.value.result),
                            rated.value.plies
                        )
                    })
                    .collect();
                format!("hint\t{}", moves.join(";"))
            }
            Reply::Answer(Answer::Review(lines)) => {
                format!("review\t{}", lines.join(&SEPARATOR.to_string()))
            }
            Reply::Error(message) => format!("error\t{message}"),
        }
    }

    /// Reads a line written by [`encode`](Reply::encode).
    ///
    /// # Errors
    /// What is wrong with the line, in words.
    pub fn decode(line: &str) -> Result<Reply, String> {
        let (word, rest) = line.split_once('\t').unwrap_or((line, ""));
        match word {
            "move" => rest
                .parse()
                .map(|index| Reply::Move(Square::new(index)))
                .map_err(|_| format!("bad square '{rest}'")),
            "hint" => rest
                .split(';')
                .filter(|part| !part.is_empty())
                .map(|part| {
                    let mut fields = part.split(':');
                    let square = fields.next().and_then(|field| field.parse().ok());
                    let result = match fields.next() {
                        Some("W") => Some(GameResult::Win),
                        Some("D") => Some(GameResult::Draw),
                        Some("L") => Some(GameResult::Loss),
                        _ => None,
                    };
                    let plies = fields.next().and_then(|field| field.parse().ok());
                    match (square, result, plies) {
                        (Some(square), Some(result), Some(plies)) => Ok(MoveValue {
                            square: Square::new(square),
                            value: Value::new(result, plies),
                        }),
                        _ => Err(format!("bad hint '{part}'")),
                    }
                })
                .collect::<Result<Vec<_>, _>>()
                .map(|moves| Reply::Answer(Answer::Hint(moves))),
            "review" => Ok(Reply::Answer(Answer::Review(
                rest.split(SEPARATOR).map(str::to_owned).collect(),
            ))),
            "error" => Ok(Reply::Error(rest.to_owned())),
            _ => Err(format!("unknown reply '{line}'")),
        }
    }
}

std::thread_local! {
    /// The worker's own: one worker runs one request at a time on its one thread.
    static WORKER: std::cell::RefCell<Worker> = std::cell::RefCell::default();
}

/// The worker's whole job: a request line in, a reply line out.
pub fn answer(request: &str) -> String {
    match Request::decode(request) {
        Ok(request) => WORKER.with(|worker| request.carry_out(&mut worker.borrow_mut()).encode()),
        Err(message) => Reply::Error(message).encode(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use super::*;

    fn game() -> Position {
        let rules = Rules::default();
        Position::from_moves(rules, Mark::O, &[Square::new(4), Square::new(0)]).unwrap()
    }

    #[test]
    fn requests_travel_whole() {
        let order = Order {
            strength: Strength::Perfect,
            limits: Limits::default(),
            open_centre: true,
            seed: 42,
            position: game(),
        };
        let exact = Rules::new(15, 15, 5).unwrap().with_win_rule(WinRule::Exact);
        let exact = Position::from_moves(exact, Mark::X, &[Square::new(112)]).unwrap();
        for request in [
            Request::Move(order.clone()),
            Request::Move(Order {
                position: exact,
                ..order
            }),
            Request::Job(Purpose::Hint, SquareNaming::Keypad, game()),
            Request::Job(Purpose::Review, SquareNaming::Numbers, game()),
        ] {
            let decoded = Request::decode(&request.encode()).unwrap();
            assert_eq!(decoded, request, "the rules, exactly five too, travel");
            let (Request::Move(Order { position: sent, .. }) | Request::Job(_, _, sent)) = &request;
            let (Request::Move(Order { position, .. }) | Request::Job(_, _, position)) = decoded;
            assert_eq!(position.history(), sent.history(), "the moves travel too");
        }
        assert!(Request::decode("move\tperfect").is_err());
        assert!(Request::decode("dance").is_err());
    }

    #[test]
    fn the_worker_answers_as_the_app_would_here() {
        let order = Order {
            strength: Strength::Perfect,
            limits: Limits::default(),
            open_centre: false,
            seed: 1,
            position: game(),
        };
        let expected = order.carry_out().unwrap();
        assert_eq!(
            Reply::decode(&answer(&Request::Move(order).encode())),
            Ok(Reply::Move(expected))
        );
        let hint = Reply::decode(&answer(
            &Request::Job(Purpose::Hint, SquareNaming::Numbers, game()).encode(),
        ))
        .unwrap();
        let here = Job::new(Purpose::Hint, game(), SquareNaming::Numbers, Solver::new())
            .run()
            .answer
            .unwrap();
        assert_eq!(hint, Reply::Answer(here));
        let big = Position::new(Rules::new(15, 15, 5).unwrap(), Mark::X);
        let refused = answer(&Request::Job(Purpose::Hint, SquareNaming::Numbers, big).encode());
        assert!(refused.starts_with("error\tNo hint here"), "{refused}");
        assert!(answer("nonsense").starts_with("error\t"));
    }
}
