//! A session of games between two seats: who plays which mark, who goes first, the score,
//! and the position of the game under way. Both the line mode and any other interface
//! drive this one type; none of them re-implements turns, scoring or undo.

use std::fmt;
use std::str::FromStr;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// A computer player the session can lend to another thread.
type Computer = Box<dyn Player + Send>;
use ttt_core::{Mark, Outcome, PlayError, Position, Rules, Shown, Square};
use ttt_players::{Limits, Player, PlayerError, Strength};

/// Who sits at one side of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    /// A person typing or clicking.
    Human,
    /// A computer player of this strength.
    Computer(Strength),
}

impl Seat {
    /// Whether a person plays this seat.
    pub fn is_human(self) -> bool {
        self == Seat::Human
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Computer(strength) => strength.fmt(f),
        }
    }
}

/// The seat name is neither `human` nor a computer player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSeatError(String);

impl fmt::Display for ParseSeatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a player: use human, random (easy), rules (medium), search (hard), mcts or perfect (impossible)",
            Shown(&self.0)
        )
    }
}

impl std::error::Error for ParseSeatError {}

impl FromStr for Seat {
    type Err = ParseSeatError;

    fn from_str(text: &str) -> Result<Seat, ParseSeatError> {
        if text.trim().eq_ignore_ascii_case("human") {
            return Ok(Seat::Human);
        }
        text.parse()
            .map(Seat::Computer)
            .map_err(|_| ParseSeatError(text.to_owned()))
    }
}

/// Who moves first in each game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FirstPolicy {
    /// X always.
    X,
    /// O always.
    O,
    /// Drawn at random for every game.
    #[default]
    Random,
    /// Drawn at random for the first game, then swapped every game.
    Alternate,
}

impl FromStr for FirstPolicy {
    type Err = String;

    fn from_str(text: &str) -> Result<FirstPolicy, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "x" => Ok(FirstPolicy::X),
            "o" => Ok(FirstPolicy::O),
            "random" => Ok(FirstPolicy::Random),
            "alternate" => Ok(FirstPolicy::Alternate),
            _ => Err(format!(
                "'{}' is not a first-player policy: use x, o, random or alternate",
                Shown(text)
            )),
        }
    }
}

/// Why a person's move was not played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// A computer is to move.
    #[error("it is the computer's turn")]
    ComputersTurn,
    /// The square holds a mark already.
    #[error("square {square} is taken by {mark}")]
    Occupied {
        /// The square asked for.
        square: Square,
        /// The mark on it.
        mark: Mark,
    },
    /// The square is not on this board.
    #[error("square {square} is not on the board")]
    OffBoard {
        /// The square asked for.
        square: Square,
    },
}

/// Games won by each mark and drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Score {
    /// Games X won.
    pub x_wins: u32,
    /// Games O won.
    pub o_wins: u32,
    /// Games drawn.
    pub draws: u32,
}

impl Score {
    /// Games finished.
    pub fn games(&self) -> u32 {
        self.x_wins + self.o_wins + self.draws
    }

    fn record(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win(Mark::X) => self.x_wins += 1,
            Outcome::Win(Mark::O) => self.o_wins += 1,
            Outcome::Draw => self.draws += 1,
        }
    }
}

impl std::ops::Add for Score {
    type Output = Score;

    fn add(self, other: Score) -> Score {
        Score {
            x_wins: self.x_wins + other.x_wins,
            o_wins: self.o_wins + other.o_wins,
            draws: self.draws + other.draws,
        }
    }
}

impl fmt::Display for Score {
    /// `X wins: 2, O wins: 0, draws: 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "X wins: {}, O wins: {}, draws: {}",
            self.x_wins, self.o_wins, self.draws
        )
    }
}

/// Everything that fixes how a session plays, validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionConfig {
    /// The board.
    pub rules: Rules,
    /// Who plays X.
    pub x: Seat,
    /// Who plays O.
    pub o: Seat,
    /// Who moves first.
    pub first: FirstPolicy,
    /// A computer that moves first takes the centre.
    pub open_centre: bool,
    /// Seed for every random choice, or `None` for a fresh one.
    pub seed: Option<u64>,
    /// What a thinking computer may spend per move.
    pub limits: Limits,
}

/// What an undo took back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Undo {
    /// These moves, most recent first.
    TookBack(Vec<Square>),
    /// There was no move of a person's to take back.
    Nothing,
}

/// A run of games between two seats, with the score.
pub struct Session {
    config: SessionConfig,
    /// The computer at each seat (X, O); `None` for a person, or while lent out to think.
    players: [Option<Computer>; 2],
    rng: StdRng,
    score: Score,
    position: Position,
    last_first: Option<Mark>,
    recorded: bool,
}

impl Session {
    /// A session with no game started yet.
    pub fn new(config: SessionConfig) -> Session {
        let rng = match config.seed {
            Some(seed) => StdRng::seed_from_u64(seed),
            None => rand::make_rng(),
        };
        let player = |seat| match seat {
            Seat::Human => None,
            Seat::Computer(strength) if config.open_centre => {
                Some(strength.player_opening_centre(config.limits))
            }
            Seat::Computer(strength) => Some(strength.player(config.limits)),
        };
        Session {
            players: [player(config.x), player(config.o)],
            config,
            rng,
            score: Score::default(),
            position: Position::new(config.rules, Mark::X),
            last_first: None,
            recorded: false,
        }
    }

    /// The configuration the session was made with.
    pub fn config(&self) -> &SessionConfig {
        &self.config
    }

    /// Starts a new game and returns the mark that moves first.
    pub fn start_game(&mut self) -> Mark {
        let first = match (self.config.first, self.last_first) {
            (FirstPolicy::X, _) => Mark::X,
            (FirstPolicy::O, _) => Mark::O,
            (FirstPolicy::Alternate, Some(previous)) => !previous,
            (FirstPolicy::Random | FirstPolicy::Alternate, _) => {
                if self.rng.random_bool(0.5) {
                    Mark::X
                } else {
                    Mark::O
                }
            }
        };
        self.last_first = Some(first);
        self.position = Position::new(self.config.rules, first);
        self.recorded = false;
        first
    }

    /// The game under way (or just finished).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The score of the finished games.
    pub fn score(&self) -> Score {
        self.score
    }

    /// Who plays `mark`.
    pub fn seat(&self, mark: Mark) -> Seat {
        match mark {
            Mark::X => self.config.x,
            Mark::O => self.config.o,
        }
    }

    /// Whether any person plays in this session.
    pub fn has_human(&self) -> bool {
        self.config.x.is_human() || self.config.o.is_human()
    }

    /// The mark of the only person playing, when exactly one plays against the computer.
    pub fn lone_human(&self) -> Option<Mark> {
        match (self.config.x.is_human(), self.config.o.is_human()) {
            (true, false) => Some(Mark::X),
            (false, true) => Some(Mark::O),
            _ => None,
        }
    }

    /// Whether a game has started and not finished.
    pub fn in_progress(&self) -> bool {
        self.last_first.is_some() && !self.position.is_over()
    }

    /// Plays a square chosen by the person to move: the one place the rules of play are
    /// checked for people, whatever the interface.
    ///
    /// # Errors
    /// [`Refusal`] when the game is over, a computer is to move, or the square is not
    /// free; nothing changes then.
    pub fn play_human(&mut self, square: Square) -> Result<(), Refusal> {
        if self.position.is_over() {
            return Err(Refusal::GameOver);
        }
        if !self.seat(self.position.to_move()).is_human() {
            return Err(Refusal::ComputersTurn);
        }
        self.position.play(square).map_err(|error| match error {
            PlayError::Occupied { mark, .. } => Refusal::Occupied { square, mark },
            PlayError::GameOver => Refusal::GameOver,
            PlayError::OffBoard(_) => Refusal::OffBoard { square },
        })?;
        self.record_if_over();
        Ok(())
    }

    /// Lets the computer seated at the side to move choose and play its square, here and
    /// now.
    ///
    /// # Errors
    /// [`PlayerError::NoMove`] when the game is over or a person is to move.
    pub fn play_computer(&mut self) -> Result<Square, PlayerError> {
        let thinking = self.begin_computer_turn().ok_or(PlayerError::NoMove)?;
        self.conclude(thinking.think())
    }

    /// Hands the computer to move its player, the position and a random generator of its
    /// own, so that it can choose on another thread while the interface stays live. `None`
    /// when the game is over, a person is to move, or the computer is already thinking.
    pub fn begin_computer_turn(&mut self) -> Option<Thinking> {
        if self.position.is_over() {
            return None;
        }
        let player = self.players[seat_index(self.position.to_move())].take()?;
        Some(Thinking {
            player,
            position: self.position.clone(),
            rng: StdRng::seed_from_u64(self.rng.random()),
        })
    }

    /// Takes the player back from a finished [`Thinking`] and plays its choice, if the game
    /// is still where it was when the thinking began.
    ///
    /// # Errors
    /// The player's own error, or [`PlayerError::NoMove`] when the game has moved on.
    pub fn conclude(&mut self, thought: Thought) -> Result<Square, PlayerError> {
        let Thought {
            player,
            position,
            choice,
        } = thought;
        self.players[seat_index(position.to_move())] = Some(player);
        let square = choice?;
        if position != self.position {
            return Err(PlayerError::NoMove);
        }
        self.position
            .play(square)
            .map_err(|_| PlayerError::NoMove)?;
        self.record_if_over();
        Ok(square)
    }

    /// Whether a computer is thinking (its player lent out).
    pub fn is_thinking(&self) -> bool {
        let mark = self.position.to_move();
        !self.position.is_over()
            && !self.seat(mark).is_human()
            && self.players[seat_index(mark)].is_none()
    }

    /// Takes back moves so that the person to move gets their last turn again: against the
    /// computer, the last move of each side; between two people, the last move.
    pub fn undo(&mut self) -> Undo {
        if self.position.is_over() {
            return Undo::Nothing;
        }
        // Back to and including the last move a person made: then that person is to move.
        let history = self.position.history();
        let first = self.position.first();
        let mover = |index: usize| {
            if index.is_multiple_of(2) {
                first
            } else {
                !first
            }
        };
        let Some(last_human) = (0..history.len())
            .rev()
            .find(|&index| self.seat(mover(index)).is_human())
        else {
            return Undo::Nothing;
        };
        let taken = (last_human..history.len())
            .filter_map(|_| self.position.undo())
            .collect();
        Undo::TookBack(taken)
    }

    fn record_if_over(&mut self) {
        if let (Some(outcome), false) = (self.position.outcome(), self.recorded) {
            self.score.record(outcome);
            self.recorded = true;
        }
    }
}

const fn seat_index(mark: Mark) -> usize {
    match mark {
        Mark::X => 0,
        Mark::O => 1,
    }
}

/// A computer's turn, lent out of the session: run [`think`](Thinking::think) anywhere
/// and hand the [`Thought`] back to [`Session::conclude`].
pub struct Thinking {
    player: Computer,
    position: Position,
    rng: StdRng,
}

impl Thinking {
    /// Chooses the square (this is where the time goes on big boards).
    pub fn think(mut self) -> Thought {
        let choice = self.player.choose(&self.position, &mut self.rng);
        Thought {
            player: self.player,
            position: self.position,
            choice,
        }
    }
}

/// The outcome of [`Thinking::think`], to be handed back to the session.
pub struct Thought {
    player: Computer,
    position: Position,
    choice: Result<Square, PlayerError>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(x: Seat, o: Seat, first: FirstPolicy) -> SessionConfig {
        SessionConfig {
            rules: Rules::default(),
            x,
            o,
            first,
            open_centre: false,
            seed: Some(1),
            limits: Limits::default(),
        }
    }

    #[test]
    fn a_person_plays_only_on_their_turn_in_a_game_going_on_on_a_free_square() {
        let mut session = Session::new(config(
            Seat::Human,
            Seat::Computer(Strength::Perfect),
            FirstPolicy::X,
        ));
        session.start_game();
        session.play_human(Square::new(4)).unwrap();
        assert_eq!(
            session.play_human(Square::new(0)),
            Err(Refusal::ComputersTurn),
            "O is the computer's"
        );
        let reply = session.play_computer().unwrap();
        assert_eq!(
            session.play_human(reply),
            Err(Refusal::Occupied {
                square: reply,
                mark: Mark::O
            })
        );
        assert_eq!(
            session.play_human(Square::new(9)),
            Err(Refusal::OffBoard {
                square: Square::new(9)
            })
        );
        assert_eq!(
            session.position().ply(),
            2,
            "nothing refused changed the game"
        );

        let mut friends = Session::new(config(Seat::Human, Seat::Human, FirstPolicy::X));
        friends.start_game();
        for square in [0, 3, 1, 4, 2] {
            friends.play_human(Square::new(square)).unwrap();
        }
        assert_eq!(friends.play_human(Square::new(8)), Err(Refusal::GameOver));
        assert_eq!(friends.score().x_wins, 1);
    }

    #[test]
    fn undo_against_the_computer_takes_back_both_moves() {
        let mut session = Session::new(config(
            Seat::Human,
            Seat::Computer(Strength::Perfect),
            FirstPolicy::X,
        ));
        session.start_game();
        assert_eq!(session.undo(), Undo::Nothing);
        session.play_human(Square::new(0)).unwrap();
        let reply = session.play_computer().unwrap();
        assert_eq!(session.undo(), Undo::TookBack(vec![reply, Square::new(0)]));
        assert_eq!(session.position().ply(), 0);
        assert_eq!(session.position().to_move(), Mark::X);
    }

    #[test]
    fn undo_when_the_computer_opened_keeps_its_opening() {
        let mut session = Session::new(config(
            Seat::Computer(Strength::Random),
            Seat::Human,
            FirstPolicy::X,
        ));
        session.start_game();
        let opening = session.play_computer().unwrap();
        assert_eq!(session.undo(), Undo::Nothing);
        session
            .play_human(if opening.index() == 4 {
                Square::new(0)
            } else {
                Square::new(4)
            })
            .unwrap();
        session.play_computer().unwrap();
        let Undo::TookBack(taken) = session.undo() else {
            panic!("a person's move was there to take back")
        };
        assert_eq!(taken.len(), 2);
        assert_eq!(session.position().history(), &[opening]);
    }

    #[test]
    fn undo_between_two_people_takes_back_one_move() {
        let mut session = Session::new(config(Seat::Human, Seat::Human, FirstPolicy::O));
        assert_eq!(session.start_game(), Mark::O);
        session.play_human(Square::new(4)).unwrap();
        session.play_human(Square::new(0)).unwrap();
        assert_eq!(session.undo(), Undo::TookBack(vec![Square::new(0)]));
        assert_eq!(session.position().to_move(), Mark::X);
    }

    #[test]
    fn alternate_swaps_the_first_player_and_the_score_counts_each_game_once() {
        let mut session = Session::new(config(
            Seat::Computer(Strength::Perfect),
            Seat::Computer(Strength::Perfect),
            FirstPolicy::Alternate,
        ));
        let mut firsts = Vec::new();
        for _ in 0..4 {
            firsts.push(session.start_game());
            while !session.position().is_over() {
                session.play_computer().unwrap();
            }
            assert_eq!(session.undo(), Undo::Nothing);
        }
        assert!(firsts.windows(2).all(|pair| pair[0] != pair[1]));
        assert_eq!(
            session.score(),
            Score {
                x_wins: 0,
                o_wins: 0,
                draws: 4
            }
        );
    }

    #[test]
    fn a_computer_can_think_on_another_thread_and_is_not_lost_when_the_game_moved_on() {
        let mut session = Session::new(config(
            Seat::Computer(Strength::Perfect),
            Seat::Human,
            FirstPolicy::X,
        ));
        session.start_game();
        let thinking = session.begin_computer_turn().unwrap();
        assert!(session.is_thinking());
        assert!(
            session.begin_computer_turn().is_none(),
            "one thought at a time"
        );
        let thought = std::thread::spawn(move || thinking.think()).join().unwrap();
        let square = session.conclude(thought).unwrap();
        assert_eq!(session.position().history(), &[square]);
        assert!(!session.is_thinking());
        // A thought about a position that has since changed is dropped, its player kept.
        session
            .play_human(if square.index() == 4 {
                Square::new(0)
            } else {
                Square::new(4)
            })
            .unwrap();
        let stale = session.begin_computer_turn().unwrap().think();
        session.undo();
        assert_eq!(session.conclude(stale), Err(PlayerError::NoMove));
        assert_eq!(session.position().history(), &[square]);
        let reply = session.position().legal_moves()[0];
        session.play_human(reply).unwrap();
        assert!(
            session.begin_computer_turn().is_some(),
            "the player came back"
        );
    }

    #[test]
    fn seats_parse_by_name_and_alias() {
        assert_eq!("human".parse(), Ok(Seat::Human));
        assert_eq!("impossible".parse(), Ok(Seat::Computer(Strength::Perfect)));
        assert_eq!("EASY".parse(), Ok(Seat::Computer(Strength::Random)));
        assert!("alien".parse::<Seat>().is_err());
    }
}
