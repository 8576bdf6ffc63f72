//! A session of games between two seats: who plays which mark, who goes first, the
//! tally, how many games are left, and the game under way with its history. Both the line
//! mode and the full-screen app drive this one type and only translate. Every rule of play
//! (whose turn, which square, what undo takes back, when the run is over) is the
//! [`Match`]'s: the session is its host, speaking for the people at
//! this keyboard, and runs the computer seats (their players, randomness and threads) as
//! clients of their seats.

use std::fmt;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use ttt_core::{Mark, Outcome, Position, Square};
use ttt_players::{Limits, Player, PlayerError, Strength};

use crate::matches::{Actor, Command, Event, Match};
use crate::records::GameRecord;
use crate::settings::{EngineCommand, FirstPolicy, Seat, Settings};

/// A computer player the session can lend to another thread.
type Computer = Box<dyn Player + Send>;

/// Starts the outside engines that seats name. Starting a program is I/O, which the play
/// layer never does itself: a front end that can run programs lends the session one with
/// [`Session::set_launcher`]. Without one, an engine's seat fails its first move.
pub trait Launcher {
    /// A player that asks `engine` for its moves, within `limits` a move.
    fn launch(&self, engine: &EngineCommand, limits: Limits) -> Computer;
}

/// The player of an engine seat when the front end cannot run programs.
struct Unlaunched;

impl Player for Unlaunched {
    fn choose(
        &mut self,
        _position: &Position,
        _rng: &mut dyn rand::Rng,
    ) -> Result<Square, PlayerError> {
        Err(PlayerError::Engine(
            "outside engines cannot run here".to_owned(),
        ))
    }
}

pub use crate::matches::{Forfeit, Refusal, Score, Table};

/// A run of games between two seats, with the tally.
pub struct Session {
    settings: Settings,
    /// The rules of the run: the table, the game on the board, the tally.
    game: Match,
    /// The computer at each seat (X, O); `None` for a person, or while lent out to think.
    players: [Option<Computer>; 2],
    launcher: Option<Box<dyn Launcher>>,
    rng: StdRng,
    /// What a computer said it thought for its last move, its mark, and the game just
    /// after that move.
    said: Option<(Mark, Said, Position)>,
}

impl Session {
    /// A session with no game started yet, `x` and `o` seated at the settings' board.
    pub fn new(settings: Settings, x: Seat, o: Seat) -> Session {
        let rng = match settings.seed() {
            Some(seed) => StdRng::seed_from_u64(seed),
            None => rand::make_rng(),
        };
        let table = Table {
            rules: settings.rules(),
            x,
            o,
            first: settings.first(),
        };
        // The settings checked that the seats can play the board.
        let game = Match::seated(table, settings.games());
        let mut session = Session {
            players: [None, None],
            said: None,
            launcher: None,
            game,
            settings,
            rng,
        };
        session.seat_players();
        session
    }

    /// Lets `launcher` start the engines the seats name, now and whenever the seats
    /// change; an engine already seated is started again.
    ///
    /// # Errors
    /// [`Refusal::Thinking`] while a computer thinks.
    pub fn set_launcher(&mut self, launcher: Box<dyn Launcher>) -> Result<(), Refusal> {
        if self.is_thinking() {
            return Err(Refusal::Thinking);
        }
        self.launcher = Some(launcher);
        self.seat_players();
        Ok(())
    }

    fn seat_players(&mut self) {
        let (open_centre, limits) = (self.settings.open_centre(), self.settings.limits());
        let player = |seat: &Seat| -> Option<Computer> {
            match seat {
                Seat::Human => None,
                Seat::Computer(strength) if open_centre => {
                    Some(strength.player_opening_centre(limits))
                }
                Seat::Computer(strength) => Some(strength.player(limits)),
                Seat::Engine(engine) => Some(match &self.launcher {
                    Some(launcher) => launcher.launch(engine, limits),
                    None => Box::new(Unlaunched),
                }),
            }
        };
        let table = self.game.table();
        self.players = [player(&table.x), player(&table.o)];
    }

    /// The settings the session was made with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The board, seats and first-player policy of the games from now on.
    pub fn table(&self) -> &Table {
        self.game.table()
    }

    /// Changes the board, seats or first-player policy for the next game, keeping the
    /// tally and the games played: the game on the board, if any, is left.
    ///
    /// # Errors
    /// [`Refusal::Thinking`] while a computer thinks, [`Refusal::CannotPlay`] when a seat
    /// cannot play the table's board; either changes nothing.
    pub fn change_table(&mut self, table: Table) -> Result<(), Refusal> {
        if self.is_thinking() {
            return Err(Refusal::Thinking);
        }
        self.game.apply(Actor::Host, Command::ChangeTable(table))?;
        self.seat_players();
        Ok(())
    }

    /// Games still to play under `--games`, or `None` when there is no limit.
    pub fn games_left(&self) -> Option<u32> {
        self.game.games_left()
    }

    /// Starts a new game and returns the mark that moves first.
    ///
    /// # Errors
    /// [`Refusal::Thinking`] while a computer thinks, [`Refusal::NoGamesLeft`] once
    /// `--games` games have been played.
    pub fn start_game(&mut self) -> Result<Mark, Refusal> {
        if self.is_thinking() {
            return Err(Refusal::Thinking);
        }
        // The coin is flipped only when the policy draws, so that a seeded run's computers
        // see the same random numbers whatever the policy.
        let coin = if self.game.draws_first() && self.rng.random_bool(0.5) {
            Mark::X
        } else {
            Mark::O
        };
        self.game.apply(Actor::Host, Command::NewGame { coin })?;
        Ok(self.game.position().first())
    }

    /// Takes up an unfinished game where it was left: its board, seats and moves (so undo
    /// goes back through them), with its side to move. The tally and the games left stay
    /// the session's; the next game starts under this game's seats and board.
    ///
    /// # Errors
    /// [`Refusal::Thinking`] while a computer thinks; [`Refusal::GameOver`] when the
    /// record is finished; [`Refusal::NotResumable`] when its moves are not legal or its
    /// seats cannot play its board.
    pub fn resume(&mut self, record: &GameRecord) -> Result<(), Refusal> {
        self.resume_with(record, self.table().first)
    }

    /// [`resume`](Session::resume), with `first` deciding who moves first in the games
    /// after it (a game record keeps who went first, not the policy that chose it).
    ///
    /// # Errors
    /// As [`resume`](Session::resume).
    pub fn resume_with(&mut self, record: &GameRecord, first: FirstPolicy) -> Result<(), Refusal> {
        if self.is_thinking() {
            return Err(Refusal::Thinking);
        }
        if record.is_finished() {
            return Err(Refusal::GameOver);
        }
        let table = Table {
            rules: record.rules,
            x: record.x.clone(),
            o: record.o.clone(),
            first,
        };
        self.game.resume(table, record.first, &record.moves)?;
        self.seat_players();
        Ok(())
    }

    /// Tells the game on the board from others: it changes whenever a game starts or is
    /// resumed.
    pub fn game_number(&self) -> u32 {
        self.game.game_number()
    }

    /// The record of the game on the board, started at `started` (seconds since 1970): its
    /// moves so far, and its end at `now` if it is over. `None` before any game.
    pub fn record(&self, started: u64, now: u64) -> Option<GameRecord> {
        if !self.started() {
            return None;
        }
        let table = self.table();
        let position = self.position();
        let mut record = GameRecord::new(
            table.rules,
            table.x.clone(),
            table.o.clone(),
            position.first(),
            started,
        );
        record.moves = position.history().to_vec();
        if let Some(outcome) = self.outcome() {
            record.finish(outcome, now);
            record.forfeit = self.forfeit().map(|forfeit| forfeit.reason.clone());
        }
        Some(record)
    }

    /// Whether a game has been started since the session began or its table changed.
    pub fn started(&self) -> bool {
        self.game.started()
    }

    /// The game under way (or just finished).
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// Whether the game on the board is over: its position ended, or a player forfeited.
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// How the game on the board ended, if it has: as its position says, or a win for the
    /// other side when a player forfeited.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    /// Why the game on the board was lost before its end, if it was.
    pub fn forfeit(&self) -> Option<&Forfeit> {
        self.game.forfeit()
    }

    /// The tally of every finished game of the run.
    pub fn score(&self) -> Score {
        self.game.score()
    }

    /// Who plays `mark`.
    pub fn seat(&self, mark: Mark) -> &Seat {
        self.game.seat(mark)
    }

    /// Whether any person plays in this session.
    pub fn has_human(&self) -> bool {
        self.seat(Mark::X).is_human() || self.seat(Mark::O).is_human()
    }

    /// The mark of the only person playing, when exactly one plays against the computer.
    pub fn lone_human(&self) -> Option<Mark> {
        self.game.lone_human()
    }

    /// The rules of play: the match this session hosts, as data (for words, and for
    /// anything else that reads the game without running it).
    pub fn rules_of_play(&self) -> &Match {
        &self.game
    }

    /// Whether a game has started and not finished.
    pub fn in_progress(&self) -> bool {
        self.started() && !self.is_over()
    }

    /// Plays a square chosen by the person to move: the one place the rules of play are
    /// checked for people, whatever the interface.
    ///
    /// # Errors
    /// [`Refusal`] when the game is over, a computer is to move, or the square is not
    /// free; nothing changes then.
    pub fn play_human(&mut self, square: Square) -> Result<(), Refusal> {
        self.game.apply(Actor::Host, Command::Play(square))?;
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
        if self.is_over() {
            return None;
        }
        let mark = self.position().to_move();
        if self.seat(mark).is_human() {
            return None;
        }
        let strength = self.seat(mark).strength();
        let player = self.players[seat_index(mark)].take()?;
        Some(Thinking {
            player,
            strength,
            limits: self.settings.limits(),
            open_centre: self.settings.open_centre(),
            seed: self.rng.random(),
            position: self.position().clone(),
        })
    }

    /// Takes the player back from a finished [`Thinking`] and plays its choice, if the game
    /// is still where it was when the thinking began. A player that could not choose a
    /// free square loses the game: the session records a [`Forfeit`] and the other side's
    /// win, so that a failing engine never leaves a game stuck.
    ///
    /// # Errors
    /// The player's own error (the game is then forfeited), or [`PlayerError::NoMove`]
    /// when the game has moved on.
    pub fn conclude(&mut self, thought: Thought) -> Result<Square, PlayerError> {
        let Thought {
            player,
            position,
            choice,
            said,
        } = thought;
        let mark = position.to_move();
        self.players[seat_index(mark)] = Some(player);
        self.said = None;
        if self.is_over()
            || position != *self.position()
            || position.history() != self.position().history()
        {
            return Err(PlayerError::NoMove);
        }
        let rules = position.rules();
        let name = |square| self.settings.naming().on_board(rules).label(square, rules);
        // The computer is a client of its seat: its move goes to the match as any seat's.
        let played = choice.and_then(|square| {
            match self.game.apply(Actor::Seat(mark), Command::Play(square)) {
                Ok(_) => Ok(square),
                Err(_) if !position.is_legal(square) => Err(PlayerError::Engine(format!(
                    "it chose {}, which is not a free square",
                    name(square)
                ))),
                Err(refusal) => Err(PlayerError::Engine(refusal.to_string())),
            }
        });
        if played.is_ok() {
            self.said = said.map(|said| (mark, said, self.position().clone()));
        }
        if let Err(error) = &played {
            let forfeit = Forfeit {
                loser: mark,
                reason: error.to_string(),
            };
            // The game goes on (it was checked just above), so the forfeit is taken.
            let _ = self.game.apply(Actor::Host, Command::Forfeit(forfeit));
        }
        played
    }

    /// What the computer that played the last move said it thought for it, and its mark:
    /// none when the last move was not a computer's, or its player says nothing.
    pub fn said(&self) -> Option<(Mark, Said)> {
        let (mark, said, after) = self.said.as_ref()?;
        let unchanged = after == self.position() && after.history() == self.position().history();
        unchanged.then_some((*mark, *said))
    }

    /// Whether a computer is thinking (its player lent out).
    pub fn is_thinking(&self) -> bool {
        let mark = self.position().to_move();
        !self.is_over() && !self.seat(mark).is_human() && self.players[seat_index(mark)].is_none()
    }

    /// Takes back moves so that a person gets their last turn again: against the
    /// computer, the person's last move and the computer's reply (if any); between two
    /// people, the last move. It works after the game has ended too (a finished game then
    /// leaves the tally), and as far back as the game goes. Returns the squares taken
    /// back, most recent first.
    ///
    /// # Errors
    /// [`Refusal::Thinking`] while a computer thinks; [`Refusal::NothingToUndo`] when no
    /// person has moved in this game.
    pub fn undo(&mut self) -> Result<Vec<Square>, Refusal> {
        if self.is_thinking() {
            return Err(Refusal::Thinking);
        }
        let events = self.game.apply(Actor::Host, Command::Undo)?;
        Ok(events
            .into_iter()
            .flat_map(|event| match event {
                Event::Undone { squares } => squares,
                _ => Vec::new(),
            })
            .collect())
    }

    /// The game on the board while it goes on, for a hint.
    ///
    /// # Errors
    /// [`Refusal::GameOver`] once it has ended.
    pub fn game_on(&self) -> Result<&Position, Refusal> {
        if self.is_over() {
            Err(Refusal::GameOver)
        } else {
            Ok(self.position())
        }
    }

    /// The finished game on the board, for a review.
    ///
    /// # Errors
    /// [`Refusal::NotOver`] while it goes on.
    pub fn finished_game(&self) -> Result<&Position, Refusal> {
        if self.is_over() {
            Ok(self.position())
        } else {
            Err(Refusal::NotOver)
        }
    }
}

const fn seat_index(mark: Mark) -> usize {
    match mark {
        Mark::X => 0,
        Mark::O => 1,
    }
}

/// A computer's turn, lent out of the session: run [`think`](Thinking::think) on another
/// thread, or send its [`order`](Thinking::order) to be thought through somewhere else
/// (a web worker) and [`answer`](Thinking::answer) it with the square that came back; then
/// hand the [`Thought`] back to [`Session::conclude`].
pub struct Thinking {
    player: Computer,
    /// The built-in computer thinking, or `None` for an outside engine.
    strength: Option<Strength>,
    limits: Limits,
    open_centre: bool,
    seed: u64,
    position: Position,
}

/// Everything a computer needs to choose its move, as plain data that can travel: which
/// player with which limits, a seed for its random choices, and the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    /// The computer player.
    pub strength: Strength,
    /// What it may spend.
    pub limits: Limits,
    /// Whether it opens in the centre.
    pub open_centre: bool,
    /// The seed of its random choices.
    pub seed: u64,
    /// The game, with its moves.
    pub position: Position,
}

impl Order {
    /// Chooses the square as the order says, with a player made for it alone. Where
    /// orders keep coming (a web worker), a [`KeptPlayer`] carries them out with what its
    /// player learnt from the ones before.
    ///
    /// # Errors
    /// The player's, when it cannot move.
    pub fn carry_out(&self) -> Result<Square, PlayerError> {
        KeptPlayer::default().carry_out(self)
    }

    /// The player the order asks for, and its limits.
    fn kind(&self) -> PlayerKind {
        (self.strength, self.limits, self.open_centre)
    }
}

/// A computer player, its limits, and whether it opens in the centre.
type PlayerKind = (Strength, Limits, bool);

/// A computer player kept from one [`Order`] to the next while they ask for the same one,
/// so that what it keeps between moves (the perfect player's solved positions, the search
/// player's threat table) is not thrown away and made again at every move.
#[derive(Default)]
pub struct KeptPlayer {
    kept: Option<(PlayerKind, Box<dyn Player + Send>)>,
    /// How many players it has made.
    made: usize,
}

impl fmt::Debug for KeptPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeptPlayer")
            .field("kind", &self.kept.as_ref().map(|(kind, _)| kind))
            .field("made", &self.made)
            .finish_non_exhaustive()
    }
}

impl KeptPlayer {
    /// What the kept player said it thought for its last move, if it says.
    pub fn said(&self) -> Option<Said> {
        self.kept.as_ref().and_then(|(_, player)| player.thought())
    }

    /// Chooses the square as `order` says, with the player kept if it is the one asked
    /// for, else with a new one (kept from then on).
    ///
    /// # Errors
    /// The player's, when it cannot move.
    pub fn carry_out(&mut self, order: &Order) -> Result<Square, PlayerError> {
        let kind = order.kind();
        let player = match &mut self.kept {
            Some((kept, player)) if *kept == kind => player,
            kept => {
                // The old player's tables go before the new one's are made, so that the
                // two never take the memory bound twice over.
                *kept = None;
                let player = if order.open_centre {
                    order.strength.player_opening_centre(order.limits)
                } else {
                    order.strength.player(order.limits)
                };
                self.made += 1;
                &mut kept.insert((kind, player)).1
            }
        };
        player.choose(&order.position, &mut StdRng::seed_from_u64(order.seed))
    }
}

impl Thinking {
    /// What to think about, to send elsewhere; `None` for an outside engine, which only
    /// the front end that started it can ask.
    pub fn order(&self) -> Option<Order> {
        Some(Order {
            strength: self.strength?,
            limits: self.limits,
            open_centre: self.open_centre,
            seed: self.seed,
            position: self.position.clone(),
        })
    }

    /// Chooses the square here (this is where the time goes on big boards).
    pub fn think(mut self) -> Thought {
        let mut rng = StdRng::seed_from_u64(self.seed);
        let choice = self.player.choose(&self.position, &mut rng);
        let said = self.player.thought();
        self.answer(choice, said)
    }

    /// The thought, with a choice made elsewhere from the [`order`](Thinking::order), and
    /// what the player said it thought there, if it did.
    pub fn answer(self, choice: Result<Square, PlayerError>, said: Option<Said>) -> Thought {
        Thought {
            player: self.player,
            position: self.position,
            choice,
            said,
        }
    }
}

/// What a computer player says it thought for a move (a search's depth, nodes, time and
/// judgement).
pub type Said = ttt_players::Thought;

/// The outcome of [`Thinking::think`], to be handed back to the session.
pub struct Thought {
    player: Computer,
    position: Position,
    choice: Result<Square, PlayerError>,
    said: Option<Said>,
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        clippy::panic,
        reason = "a test fails by panicking"
    )]

    use ttt_core::Rules;
    use ttt_players::Strength;

    use super::*;
    use crate::settings::Seats;

    const PERFECT: Seat = Seat::Computer(Strength::Perfect);

    #[test]
    fn a_kept_player_chooses_as_a_new_one_would_and_changes_with_the_order() {
        let mut kept = KeptPlayer::default();
        // Within a game the player is kept; each game asks for another.
        for (rules, strength, open_centre) in [
            (Rules::default(), Strength::Perfect, false),
            (Rules::new(4, 4, 4).unwrap(), Strength::Perfect, true),
            (Rules::default(), Strength::Random, true),
            (Rules::new(4, 3, 3).unwrap(), Strength::Perfect, false),
        ] {
            let mut position = Position::new(rules, Mark::X);
            let mut seed = 0;
            while !position.is_over() {
                let order = Order {
                    strength,
                    limits: Limits::default(),
                    open_centre,
                    seed,
                    position: position.clone(),
                };
                let square = kept.carry_out(&order).unwrap();
                assert_eq!(
                    Ok(square),
                    order.carry_out(),
                    "{rules}, {strength}, move {seed}"
                );
                position = position.after(square).unwrap();
                seed += 1;
            }
        }
        assert_eq!(kept.made, 4, "one player a game");
    }

    fn session(x: Seat, o: Seat, first: FirstPolicy) -> Session {
        let seats = Seats::Fixed {
            x: x.clone(),
            o: o.clone(),
        };
        let settings = Settings::new(Rules::default(), seats)
            .unwrap()
            .with_first(first)
            .with_seed(Some(1));
        Session::new(settings, x, o)
    }

    fn squares(indices: &[usize]) -> Vec<Square> {
        indices.iter().map(|&index| Square::new(index)).collect()
    }

    #[test]
    fn a_table_whose_seat_cannot_play_its_board_is_refused_and_changes_nothing() {
        let settings = Settings::new(Rules::default(), Seats::Ask { letter: None }).unwrap();
        let mut session = Session::new(settings, Seat::Human, Seat::Human);
        let before = session.table().clone();
        let gomoku = ttt_core::Rules::new(15, 15, 5).unwrap();
        for seat in [
            Seat::Computer(Strength::Perfect),
            "brain:./engine".parse::<Seat>().unwrap(),
        ] {
            let rules = if matches!(seat, Seat::Engine(_)) {
                Rules::default()
            } else {
                gomoku
            };
            let table = Table {
                rules,
                x: Seat::Human,
                o: seat.clone(),
                first: FirstPolicy::X,
            };
            assert_eq!(
                session.change_table(table),
                Err(Refusal::CannotPlay { rules }),
                "{seat}"
            );
            assert_eq!(session.table(), &before);
        }
        let table = Table {
            rules: gomoku,
            x: Seat::Human,
            o: Seat::Computer(Strength::Search),
            first: FirstPolicy::X,
        };
        assert_eq!(session.change_table(table.clone()), Ok(()));
        assert_eq!(session.table(), &table);
    }

    #[test]
    fn a_person_plays_only_on_their_turn_in_a_game_going_on_on_a_free_square() {
        let mut session = session(Seat::Human, PERFECT, FirstPolicy::X);
        session.start_game().unwrap();
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

        let mut friends = self::session(Seat::Human, Seat::Human, FirstPolicy::X);
        friends.start_game().unwrap();
        for square in [0, 3, 1, 4, 2] {
            friends.play_human(Square::new(square)).unwrap();
        }
        assert_eq!(friends.play_human(Square::new(8)), Err(Refusal::GameOver));
        assert_eq!(friends.score().x_wins, 1);
    }

    #[test]
    fn undo_against_the_computer_takes_back_both_moves() {
        let mut session = session(Seat::Human, PERFECT, FirstPolicy::X);
        session.start_game().unwrap();
        assert_eq!(session.undo(), Err(Refusal::NothingToUndo));
        session.play_human(Square::new(0)).unwrap();
        let reply = session.play_computer().unwrap();
        assert_eq!(session.undo(), Ok(vec![reply, Square::new(0)]));
        assert_eq!(session.position().ply(), 0);
        assert_eq!(session.position().to_move(), Mark::X);
    }

    #[test]
    fn undo_when_the_computer_opened_keeps_its_opening() {
        let mut session = session(
            Seat::Computer(Strength::Random),
            Seat::Human,
            FirstPolicy::X,
        );
        session.start_game().unwrap();
        let opening = session.play_computer().unwrap();
        assert_eq!(session.undo(), Err(Refusal::NothingToUndo));
        let answer = if opening.index() == 4 { 0 } else { 4 };
        session.play_human(Square::new(answer)).unwrap();
        session.play_computer().unwrap();
        assert_eq!(session.undo().map(|taken| taken.len()), Ok(2));
        assert_eq!(session.position().history(), &[opening]);
    }

    #[test]
    fn undo_between_two_people_takes_back_one_move_as_far_back_as_the_game_goes() {
        let mut session = session(Seat::Human, Seat::Human, FirstPolicy::O);
        assert_eq!(session.start_game(), Ok(Mark::O));
        session.play_human(Square::new(4)).unwrap();
        session.play_human(Square::new(0)).unwrap();
        assert_eq!(session.undo(), Ok(squares(&[0])));
        assert_eq!(session.position().to_move(), Mark::X);
        assert_eq!(session.undo(), Ok(squares(&[4])));
        assert_eq!(session.position().to_move(), Mark::O);
        assert_eq!(session.undo(), Err(Refusal::NothingToUndo));
    }

    #[test]
    fn undo_after_a_lost_game_takes_back_the_losing_move_and_the_tally_forgets_it() {
        let mut session = session(Seat::Human, PERFECT, FirstPolicy::X);
        session.start_game().unwrap();
        // X on a side then nowhere useful: perfect play wins.
        let mut played = Vec::new();
        while !session.position().is_over() {
            let square = session.position().legal_moves()[0];
            session.play_human(square).unwrap();
            played.push(square);
            if !session.position().is_over() {
                session.play_computer().unwrap();
            }
        }
        assert_eq!(session.position().outcome(), Some(Outcome::Win(Mark::O)));
        assert_eq!(session.score().o_wins, 1);
        assert_eq!(
            session.finished_game().map(Position::ply),
            Ok(session.position().ply())
        );
        assert_eq!(
            session.game_on(),
            Err(Refusal::GameOver),
            "no hint after the end"
        );
        let winning = *session.position().history().last().unwrap();
        let taken = session.undo().unwrap();
        assert_eq!(taken, vec![winning, *played.last().unwrap()]);
        assert!(!session.position().is_over());
        assert!(session.in_progress());
        assert_eq!(
            session.score(),
            Score::default(),
            "the game is no longer finished"
        );
        assert_eq!(session.finished_game(), Err(Refusal::NotOver));
        assert_eq!(
            session.game_on().map(Position::ply),
            Ok(session.position().ply())
        );
        // Played out again, the game counts once.
        while !session.position().is_over() {
            if session.seat(session.position().to_move()).is_human() {
                let square = session.position().legal_moves()[0];
                session.play_human(square).unwrap();
            } else {
                session.play_computer().unwrap();
            }
        }
        assert_eq!(session.score().games(), 1);
    }

    #[test]
    fn games_left_count_down_and_then_no_game_starts() {
        let settings = Settings::new(
            Rules::default(),
            Seats::Fixed {
                x: PERFECT,
                o: PERFECT,
            },
        )
        .unwrap()
        .with_games(2)
        .unwrap();
        let mut session = Session::new(settings, PERFECT, PERFECT);
        for left in [2, 1] {
            assert_eq!(session.games_left(), Some(left));
            session.start_game().unwrap();
            while !session.position().is_over() {
                session.play_computer().unwrap();
            }
        }
        assert_eq!(session.games_left(), Some(0));
        assert_eq!(session.start_game(), Err(Refusal::NoGamesLeft));
    }

    #[test]
    fn alternate_swaps_the_first_player_and_the_score_counts_each_game_once() {
        let mut session = session(PERFECT, PERFECT, FirstPolicy::Alternate);
        let mut firsts = Vec::new();
        for _ in 0..4 {
            firsts.push(session.start_game().unwrap());
            while !session.position().is_over() {
                session.play_computer().unwrap();
            }
            assert_eq!(session.undo(), Err(Refusal::NothingToUndo));
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
    fn the_tally_lasts_the_whole_run_across_changes_of_board_and_seats() {
        let mut session = session(Seat::Human, Seat::Human, FirstPolicy::X);
        session.start_game().unwrap();
        for square in [0, 3, 1, 4, 2] {
            session.play_human(Square::new(square)).unwrap();
        }
        let seven_by_six = Rules::new(7, 6, 4).unwrap();
        session
            .change_table(Table {
                rules: seven_by_six,
                x: Seat::Computer(Strength::Random),
                o: Seat::Human,
                first: FirstPolicy::O,
            })
            .unwrap();
        assert!(!session.started());
        assert_eq!(session.start_game(), Ok(Mark::O));
        assert_eq!(session.position().rules(), seven_by_six);
        assert_eq!(*session.seat(Mark::X), Seat::Computer(Strength::Random));
        assert_eq!(session.score().x_wins, 1, "the first game still counts");
    }

    #[test]
    fn a_computer_can_think_on_another_thread_and_is_not_lost_when_the_game_moved_on() {
        let mut session = session(PERFECT, Seat::Human, FirstPolicy::X);
        session.start_game().unwrap();
        let thinking = session.begin_computer_turn().unwrap();
        assert!(session.is_thinking());
        assert!(
            session.begin_computer_turn().is_none(),
            "one thought at a time"
        );
        assert_eq!(session.undo(), Err(Refusal::Thinking));
        assert_eq!(session.start_game(), Err(Refusal::Thinking));
        let thought = std::thread::spawn(move || thinking.think()).join().unwrap();
        let square = session.conclude(thought).unwrap();
        assert_eq!(session.position().history(), &[square]);
        assert!(!session.is_thinking());
        let answer = if square.index() == 4 { 0 } else { 4 };
        session.play_human(Square::new(answer)).unwrap();
        let thought = session.begin_computer_turn().unwrap().think();
        assert_eq!(
            session.undo(),
            Err(Refusal::Thinking),
            "the game waits for it"
        );
        let reply = session.conclude(thought).unwrap();
        assert_eq!(session.undo(), Ok(vec![reply, Square::new(answer)]));
        assert_eq!(session.position().history(), &[square]);
        assert!(
            session.begin_computer_turn().is_none(),
            "a person is to move"
        );
    }

    /// Plays the squares it is given in turn, then fails: an engine that crashes.
    struct Scripted(Vec<usize>);

    impl Player for Scripted {
        fn choose(
            &mut self,
            _position: &Position,
            _rng: &mut dyn rand::Rng,
        ) -> Result<Square, PlayerError> {
            match self.0.pop() {
                Some(index) => Ok(Square::new(index)),
                None => Err(PlayerError::Engine("the engine 'stub' stopped".to_owned())),
            }
        }
    }

    /// Seats a [`Scripted`] player for every engine: the moves it will play, last first.
    struct Stubs(Vec<usize>);

    impl Launcher for Stubs {
        fn launch(&self, _engine: &EngineCommand, _limits: Limits) -> Computer {
            Box::new(Scripted(self.0.clone()))
        }
    }

    fn engine_session(launcher: Option<Stubs>) -> Session {
        let engine = Seat::Engine("brain:stub".parse().unwrap());
        let gomoku = Rules::new(7, 7, 5).unwrap();
        let seats = Seats::Fixed {
            x: Seat::Human,
            o: engine.clone(),
        };
        let settings = Settings::new(gomoku, seats)
            .unwrap()
            .with_first(FirstPolicy::X)
            .with_games(3)
            .unwrap();
        let mut session = Session::new(settings, Seat::Human, engine);
        if let Some(launcher) = launcher {
            session.set_launcher(Box::new(launcher)).unwrap();
        }
        session
    }

    #[test]
    fn a_player_that_cannot_move_forfeits_the_game_and_the_next_one_starts_afresh() {
        // It plays 8, then fails; an occupied square would fail it the same way.
        let mut session = engine_session(Some(Stubs(vec![0, 8])));
        assert!(session.begin_computer_turn().is_none(), "no game yet");
        session.start_game().unwrap();
        session.play_human(Square::new(24)).unwrap();
        assert_eq!(session.play_computer(), Ok(Square::new(8)));
        session.play_human(Square::new(0)).unwrap();
        let error = session.play_computer().unwrap_err();
        assert!(
            matches!(&error, PlayerError::Engine(reason) if reason == "it chose a1, which is not a free square"),
            "{error}"
        );
        assert!(session.is_over() && !session.position().is_over());
        assert_eq!(session.outcome(), Some(Outcome::Win(Mark::X)));
        assert_eq!(
            session.forfeit().map(|forfeit| forfeit.loser),
            Some(Mark::O)
        );
        assert_eq!(session.score().x_wins, 1);
        assert_eq!(session.play_human(Square::new(1)), Err(Refusal::GameOver));
        assert!(session.begin_computer_turn().is_none());
        assert_eq!(session.games_left(), Some(2));
        session.start_game().unwrap();
        assert!(session.forfeit().is_none() && !session.is_over());
        session.play_human(Square::new(24)).unwrap();
        // The same player, now with nothing left to play: another forfeit.
        assert!(session.play_computer().is_err());
        assert_eq!(session.score().x_wins, 2);
        // Taking the person's move back takes the forfeit and its win back too.
        assert_eq!(session.undo(), Ok(vec![Square::new(24)]));
        assert!(session.forfeit().is_none());
        assert_eq!(session.score().x_wins, 1);
    }

    #[test]
    fn an_engine_seat_without_a_launcher_forfeits_in_words_and_never_travels() {
        let mut session = engine_session(None);
        session.start_game().unwrap();
        session.play_human(Square::new(24)).unwrap();
        let thinking = session.begin_computer_turn().unwrap();
        assert!(thinking.order().is_none(), "a web worker cannot run it");
        let error = session.conclude(thinking.think()).unwrap_err();
        assert_eq!(error.to_string(), "outside engines cannot run here");
        assert_eq!(session.outcome(), Some(Outcome::Win(Mark::X)));
    }
}
