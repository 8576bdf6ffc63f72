//! What the page and its web workers say to each other: the slow work (a computer's move,
//! a hint, a review) as one JSON message each way, serde's types below. The worker runs
//! the same wasm as the page; the page keeps the app, the worker only computes.
//!
//! ```
//! use ttt_core::{Mark, Position, Rules, SquareNaming};
//! use ttt_play::app::Purpose;
//! use ttt_web::protocol::Request;
//!
//! let hint = Request::Job(Purpose::Hint, SquareNaming::Numbers, Position::new(Rules::default(), Mark::X));
//! assert_eq!(
//!     hint.encode(),
//!     r#"{"kind":"hint","naming":"numbers","game":{"width":3,"height":3,"k":3,"rule":"freestyle","first":"X","moves":[]}}"#
//! );
//! assert_eq!(Request::decode(&hint.encode()), Ok(hint));
//! ```

use std::time::Duration;

use serde::{Deserialize, Serialize};
use ttt_core::{Mark, Position, Rules, Square, SquareNaming, WinRule};
use ttt_play::app::{Answer, Job, Purpose};
use ttt_play::session::{KeptPlayer, Order, Said};
use ttt_players::{Judgement, Limits};
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
    /// The computer's square, and what it said it thought.
    Move(Square, Option<Said>),
    /// A hint or review.
    Answer(Answer),
    /// Why there is none, in words.
    Error(String),
}

/// A game as it travels: the rules, who moved first and the moves as square indices.
/// Names are the words `ttt` reads everywhere (`freestyle`, `X`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Game {
    width: usize,
    height: usize,
    k: usize,
    rule: String,
    first: String,
    moves: Vec<usize>,
}

impl Game {
    fn of(position: &Position) -> Game {
        let rules = position.rules();
        Game {
            width: rules.width(),
            height: rules.height(),
            k: rules.k(),
            rule: rules.win_rule().to_string(),
            first: position.first().to_string(),
            moves: position
                .history()
                .iter()
                .map(|square| square.index())
                .collect(),
        }
    }

    fn position(&self) -> Result<Position, String> {
        let win: WinRule = self.rule.parse().map_err(|_| "no win rule".to_owned())?;
        let rules = Rules::new(self.width, self.height, self.k)
            .map_err(|error| error.to_string())?
            .with_win_rule(win);
        let first: Mark = self
            .first
            .parse()
            .map_err(|_| "no first mover".to_owned())?;
        let moves: Vec<Square> = self.moves.iter().copied().map(Square::new).collect();
        Position::from_moves(rules, first, &moves).map_err(|error| error.to_string())
    }
}

/// A request as it travels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Sent {
    Move {
        player: String,
        think_micros: u64,
        memory: usize,
        open_centre: bool,
        seed: u64,
        game: Game,
    },
    Hint {
        naming: String,
        game: Game,
    },
    Review {
        naming: String,
        game: Game,
    },
}

/// A square's value under perfect play, as it travels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Rated {
    square: usize,
    result: Outcome,
    plies: u32,
}

/// A result for the side to move, as it travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Outcome {
    Win,
    Draw,
    Loss,
}

/// What a search said it thought, as it travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct SaidJson {
    depth: u32,
    nodes: u64,
    threat_nodes: u64,
    time_micros: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    judgement: Option<JudgementJson>,
}

/// A search's judgement, as it travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum JudgementJson {
    Score(i64),
    Win(Option<u32>),
    Loss(Option<u32>),
}

impl SaidJson {
    fn of(said: &Said) -> SaidJson {
        SaidJson {
            depth: said.depth,
            nodes: said.nodes,
            threat_nodes: said.threat_nodes,
            time_micros: u64::try_from(said.time.as_micros()).unwrap_or(u64::MAX),
            judgement: said.judgement.map(|judgement| match judgement {
                Judgement::Score(score) => JudgementJson::Score(score),
                Judgement::Win(plies) => JudgementJson::Win(plies),
                Judgement::Loss(plies) => JudgementJson::Loss(plies),
            }),
        }
    }

    fn said(self) -> Said {
        Said {
            depth: self.depth,
            nodes: self.nodes,
            threat_nodes: self.threat_nodes,
            time: Duration::from_micros(self.time_micros),
            judgement: self.judgement.map(|judgement| match judgement {
                JudgementJson::Score(score) => Judgement::Score(score),
                JudgementJson::Win(plies) => Judgement::Win(plies),
                JudgementJson::Loss(plies) => Judgement::Loss(plies),
            }),
        }
    }
}

/// A reply as it travels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Answered {
    Move {
        square: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        thought: Option<SaidJson>,
    },
    Hint {
        moves: Vec<Rated>,
    },
    Review {
        lines: Vec<String>,
    },
    Error {
        message: String,
    },
}

impl Request {
    /// The request as one JSON message.
    pub fn encode(&self) -> String {
        let sent = match self {
            Request::Move(order) => Sent::Move {
                player: order.strength.to_string(),
                think_micros: u64::try_from(order.limits.think.as_micros()).unwrap_or(u64::MAX),
                memory: order.limits.memory,
                open_centre: order.open_centre,
                seed: order.seed,
                game: Game::of(&order.position),
            },
            Request::Job(Purpose::Hint, naming, position) => Sent::Hint {
                naming: naming.to_string(),
                game: Game::of(position),
            },
            Request::Job(Purpose::Review, naming, position) => Sent::Review {
                naming: naming.to_string(),
                game: Game::of(position),
            },
        };
        // A value of plain fields and strings: serde_json cannot fail on it.
        serde_json::to_string(&sent).unwrap_or_default()
    }

    /// Reads a message written by [`encode`](Request::encode).
    ///
    /// # Errors
    /// What is wrong with the message, in words.
    pub fn decode(text: &str) -> Result<Request, String> {
        let sent: Sent =
            serde_json::from_str(text).map_err(|error| format!("bad request: {error}"))?;
        let naming = |name: &str| -> Result<SquareNaming, String> {
            name.parse().map_err(|_| format!("no naming '{name}'"))
        };
        Ok(match sent {
            Sent::Move {
                player,
                think_micros,
                memory,
                open_centre,
                seed,
                game,
            } => Request::Move(Order {
                strength: player.parse().map_err(|_| "no player".to_owned())?,
                limits: Limits {
                    think: Duration::from_micros(think_micros),
                    memory,
                    // A page's worker thinks on its one thread.
                    threads: 1,
                },
                open_centre,
                seed,
                position: game.position()?,
            }),
            Sent::Hint { naming: name, game } => {
                Request::Job(Purpose::Hint, naming(&name)?, game.position()?)
            }
            Sent::Review { naming: name, game } => {
                Request::Job(Purpose::Review, naming(&name)?, game.position()?)
            }
        })
    }

    /// Does the work (in the worker: this is where the time goes), with what the worker
    /// keeps from one request to the next.
    pub fn carry_out(self, worker: &mut Worker) -> Reply {
        match self {
            Request::Move(order) => match worker.player.carry_out(&order) {
                Ok(square) => Reply::Move(square, worker.player.said()),
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

impl Reply {
    /// The reply as one JSON message.
    pub fn encode(&self) -> String {
        let answered = match self {
            Reply::Move(square, said) => Answered::Move {
                square: square.index(),
                thought: said.as_ref().map(SaidJson::of),
            },
            Reply::Answer(Answer::Hint(moves)) => Answered::Hint {
                moves: moves
                    .iter()
                    .map(|rated| Rated {
                        square: rated.square.index(),
                        result: match rated.value.result {
                            GameResult::Win => Outcome::Win,
                            GameResult::Draw => Outcome::Draw,
                            GameResult::Loss => Outcome::Loss,
                        },
                        plies: rated.value.plies,
                    })
                    .collect(),
            },
            Reply::Answer(Answer::Review(lines)) => Answered::Review {
                lines: lines.clone(),
            },
            Reply::Error(message) => Answered::Error {
                message: message.clone(),
            },
        };
        // Plain fields and strings: serde_json cannot fail on them.
        serde_json::to_string(&answered).unwrap_or_default()
    }

    /// Reads a message written by [`encode`](Reply::encode).
    ///
    /// # Errors
    /// What is wrong with the message, in words.
    pub fn decode(text: &str) -> Result<Reply, String> {
        let answered: Answered =
            serde_json::from_str(text).map_err(|error| format!("bad reply: {error}"))?;
        Ok(match answered {
            Answered::Move { square, thought } => {
                Reply::Move(Square::new(square), thought.map(SaidJson::said))
            }
            Answered::Hint { moves } => Reply::Answer(Answer::Hint(
                moves
                    .into_iter()
                    .map(|rated| MoveValue {
                        square: Square::new(rated.square),
                        value: Value::new(
                            match rated.result {
                                Outcome::Win => GameResult::Win,
                                Outcome::Draw => GameResult::Draw,
                                Outcome::Loss => GameResult::Loss,
                            },
                            rated.plies,
                        ),
                    })
                    .collect(),
            )),
            Answered::Review { lines } => Reply::Answer(Answer::Review(lines)),
            Answered::Error { message } => Reply::Error(message),
        })
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
    use ttt_players::Strength;

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
        assert!(Request::decode(r#"{"kind":"move","player":"perfect"}"#).is_err());
        assert!(Request::decode("dance").is_err());
        let off_board = r#"{"kind":"hint","naming":"numbers","game":{"width":3,"height":3,"k":3,"rule":"freestyle","first":"X","moves":[9]}}"#;
        assert!(Request::decode(off_board).is_err());
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
            Ok(Reply::Move(expected, None)),
            "the perfect player says nothing of what it thought"
        );
        // A search says what it thought, and it travels whole.
        let search = Order {
            strength: Strength::Search,
            limits: Limits {
                think: Duration::from_millis(50),
                ..Limits::default()
            },
            open_centre: false,
            seed: 1,
            position: Position::from_moves(
                Rules::new(15, 15, 5).unwrap(),
                Mark::X,
                &[Square::new(112)],
            )
            .unwrap(),
        };
        let reply = Reply::decode(&answer(&Request::Move(search).encode())).unwrap();
        let Reply::Move(_, Some(said)) = reply.clone() else {
            panic!("{reply:?}");
        };
        assert!(said.depth >= 1 && said.judgement.is_some(), "{said:?}");
        assert_eq!(Reply::decode(&reply.encode()), Ok(reply));
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
        assert!(
            matches!(Reply::decode(&refused), Ok(Reply::Error(message)) if message.starts_with("No hint here")),
            "{refused}"
        );
        assert!(matches!(
            Reply::decode(&answer("nonsense")),
            Ok(Reply::Error(_))
        ));
    }
}
