//! Errors the binary reports, and the exit code each one means.

use std::fmt;

/// Input the program cannot use: a bad position, move list or option value. Reported in
/// one line with exit code 2, like a bad flag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// The exit code for bad input, as for bad flags.
pub const BAD_INPUT: u8 = 2;

/// Says `message` on standard error as `ttt: message`; when standard error is gone (a
/// closed terminal window, a closed pipe) there is no one to tell, and nothing happens:
/// `eprintln!` would panic there.
pub fn say(message: impl fmt::Display) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "ttt: {message}");
}
