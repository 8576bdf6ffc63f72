//! The play layer under the `ttt` program: sessions of games, the line mode, signals.
//!
//! The program itself (`main.rs`) adds the command line, the commands and the
//! full-screen mode; this library holds what they share and what the fuzz targets drive.

pub mod failure;
pub mod line;
pub mod session;
pub mod signals;
pub mod words;
