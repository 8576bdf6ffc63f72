//! The play layer of `ttt`: what turns the rules and the players into games for people,
//! whatever shows them.
//!
//! - [`settings`]: the command line's choices, validated once into [`Settings`], and the
//!   one function that settles who sits where.
//! - [`matches`](mod@matches): the rules of a run of games as a state machine with no I/O, no players
//!   and no randomness: who may do what ([`matches::Actor`], [`matches::Command`]), what
//!   happened ([`matches::Event`]), and a snapshot that serialises and restores.
//! - [`session`]: a run of games at one keyboard: the match's host, and the runtime of
//!   its computer seats.
//! - [`analysis`]: what a finished game teaches (reviews by the solver or the threat
//!   search), as data.
//! - [`words`]: every sentence the game says, for both modes, from data.
//! - [`records`]: games kept across runs ([`records::GameRecord`]), their text form and
//!   the statistics read off them; a front end's store keeps them.
//! - [`replay`]: stepping through a kept game, with notes from the solver or the threat
//!   search.
//! - [`app`]: the full-screen app (start screen, game, overlays), driven by its own
//!   [`app::Input`] and a clock passed in, drawn with ratatui into any buffer: the terminal
//!   front end and a browser front end drive the same app.
//!
//! Nothing here reads, writes, sleeps or spawns: the front ends do.

pub mod analysis;
pub mod app;
pub mod matches;
pub mod records;
pub mod replay;
pub mod session;
pub mod settings;
pub mod words;

pub use session::{Forfeit, Launcher, Refusal, Score, Session, Table};
pub use settings::{EngineCommand, FirstPolicy, Seat, Seats, Settings};
