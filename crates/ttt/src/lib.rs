//! The line mode, the Gomocup brain protocol (both sides of it) and the process plumbing under the `ttt`
//! program: signals, failures.
//!
//! The rules, players and play layer live in their own crates (`ttt-core`, `ttt-players`,
//! `ttt-solver`, `ttt-play`); the program itself (`main.rs`) adds the command line, the
//! commands and the terminal front end of the full-screen app. This library holds what the
//! fuzz targets drive.

pub mod bot;
pub mod brain;
pub mod client;
pub mod engine;
pub mod failure;
pub mod files;
pub mod line;
pub mod server;
pub mod signals;
pub mod store;
#[cfg(test)]
mod testing;
