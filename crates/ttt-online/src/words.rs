//! What a client says of each happening in its room, in one sentence, for every front end
//! (the terminal's lines, the full-screen app's status line, the page): who came, who
//! left, who played where. What to type or tap next is the front end's to add.
//!
//! ```
//! use ttt_online::mirror::Mirror;
//! use ttt_online::protocol::Happening;
//! use ttt_online::words;
//!
//! let left = Happening::Left { name: "Bob".into(), seat: Some("O".into()), wait: Some(60), chose: false };
//! assert_eq!(
//!     words::told(&left, &Mirror::default()).as_deref(),
//!     Some("Bob lost the connection: waiting 60 s for them to come back."),
//! );
//! ```

use std::time::Duration;

use ttt_core::{Mark, Shown, ShownLine, Square, SquareNaming};
use ttt_play::app::Clocks;

use crate::mirror::Mirror;
use crate::protocol::{DEFAULT_SERVER, Happening};

/// What a client says on coming into its room (or back to it), once `mirror` has taken
/// the welcome: the seat, and while the host waits for a friend, how the friend comes
/// in: by `ttt join` on `server` (`HOST:PORT`, named unless it is the default one), or by
/// `link`, the page's address for the room, when the front end has one to give.
/// A server that speaks another version of the protocol is said to.
///
/// ```
/// use ttt_online::mirror::Mirror;
/// use ttt_online::words;
///
/// let mut mirror = Mirror::default();
/// mirror.code = Some("K7QX-2M".into());
/// mirror.version = 2;
/// assert!(words::welcome(&mirror, "127.0.0.1:7878", None).ends_with(
///     "(The server speaks the protocol's version 2, this ttt version 3: some things may not work. Run the same ttt on both.)"
/// ));
/// mirror.version = ttt_online::protocol::VERSION;
/// assert_eq!(words::welcome(&mirror, "127.0.0.1:7878", None), "Room K7QX-2M: you watch.");
/// mirror.clocks = Some(ttt_online::protocol::Clocks { control: "5+3".into(), x: 300_000, o: 300_000, running: None });
/// assert_eq!(words::welcome(&mirror, "127.0.0.1:7878", None), "Room K7QX-2M, clock 5+3: you watch.");
/// mirror.clocks = None;
/// mirror.seat = Some(ttt_core::Mark::X);
/// assert_eq!(
///     words::welcome(&mirror, "10.0.0.2:7878", None),
///     "Room K7QX-2M: you play X. A friend joins with: ttt join K7QX-2M --server 10.0.0.2:7878",
/// );
/// ```
pub fn welcome(mirror: &Mirror, server: &str, link: Option<&str>) -> String {
    let code = mirror.code.as_deref().unwrap_or("?");
    // The room's clock, said with its code: "Room K7QX-2M, clock 5+3: you play X."
    let room = match &mirror.clocks {
        Some(clocks) => format!("Room {code}, clock {}", Shown(&clocks.control)),
        None => format!("Room {code}"),
    };
    let on = server_flag(server);
    let said = match (mirror.seat, mirror.computer()) {
        (Some(mark), None) if mirror.position.is_none() => match link {
            Some(link) => format!(
                "{room}: you play {mark}. Invite a friend: send them this page's address \
                 ({link}), or the code for ttt join {code}{on}."
            ),
            // No full stop: the command is copied as it stands.
            None => {
                format!("{room}: you play {mark}. A friend joins with: ttt join {code}{on}")
            }
        },
        (Some(mark), Some(computer)) => format!(
            "{room}: you play {mark} against {}. Others watch with: ttt watch {code}{on}",
            Shown(computer)
        ),
        (Some(mark), None) => format!("{room}: you play {mark}."),
        (None, _) => format!("{room}: you watch."),
    };
    if mirror.version == crate::protocol::VERSION {
        said
    } else {
        format!(
            "{said} (The server speaks the protocol's version {}, this ttt version {}: some \
             things may not work. Run the same ttt on both.)",
            mirror.version,
            crate::protocol::VERSION
        )
    }
}

/// The room's score in words, for the last line after a full screen: none before the
/// room has a code.
///
/// ```
/// use ttt_online::mirror::Mirror;
/// use ttt_online::words;
///
/// let mut mirror = Mirror::default();
/// assert_eq!(words::tally(&mirror), None);
/// mirror.code = Some("K7QX-2M".into());
/// assert_eq!(words::tally(&mirror).as_deref(), Some("Room K7QX-2M: no game was played."));
/// ```
pub fn tally(mirror: &Mirror) -> Option<String> {
    let code = mirror.code.as_deref()?;
    if mirror.game == 0 {
        return Some(format!("Room {code}: no game was played."));
    }
    let [x, o, draws] = mirror.score;
    // A seat given up since is nobody's now.
    let name = |mark| {
        mirror
            .name_of(mark)
            .map_or_else(|| "nobody".to_owned(), |name| Shown(name).to_string())
    };
    Some(format!(
        "Room {code}: {} (X) {x}, {} (O) {o}, draws {draws}.",
        name(Mark::X),
        name(Mark::O)
    ))
}

/// The flag that names `server` (`HOST:PORT`) after a command a person is told to type,
/// with its space before it: none for the default server.
///
/// ```
/// use ttt_online::words::server_flag;
///
/// assert_eq!(server_flag("127.0.0.1:7878"), "");
/// assert_eq!(server_flag("localhost:7878"), "");
/// assert_eq!(server_flag("10.0.0.2:7878"), " --server 10.0.0.2:7878");
/// ```
pub fn server_flag(server: &str) -> String {
    // The page names the server as the browser was given it: localhost is the default
    // server too.
    let port = DEFAULT_SERVER.rsplit_once(':').map_or("", |(_, port)| port);
    if server == DEFAULT_SERVER || server.eq_ignore_ascii_case(&format!("localhost:{port}")) {
        String::new()
    } else {
        format!(" --server {server}")
    }
}

/// The clocks of a room with a time control, `since` after the server told them: each
/// player's time left, whose runs; none in a room without clocks.
///
/// ```
/// use std::time::Duration;
/// use ttt_online::mirror::Mirror;
/// use ttt_online::protocol::Clocks;
/// use ttt_online::words;
///
/// let mut mirror = Mirror::default();
/// assert_eq!(words::clocks(&mirror, Duration::ZERO), None);
/// mirror.clocks = Some(Clocks { control: "5+3".into(), x: 293_000, o: 300_000, running: Some("O".into()) });
/// assert_eq!(
///     words::clocks(&mirror, Duration::from_secs(5)).as_deref(),
///     Some("Clocks (5+3): X 4:53; O 4:55 (running)."),
/// );
/// ```
pub fn clocks(mirror: &Mirror, since: Duration) -> Option<String> {
    let clocks = mirror.clocks.as_ref()?.to_app();
    let shown = |mark: Mark| {
        let left = Clocks::written(clocks.left(mark, since));
        let running = if clocks.running == Some(mark) {
            " (running)"
        } else {
            ""
        };
        format!("{mark} {left}{running}")
    };
    Some(format!(
        "Clocks ({}): {}; {}.",
        Shown(&clocks.control),
        shown(Mark::X),
        shown(Mark::O)
    ))
}

/// The sentence for `happening`, said once `mirror` has taken it; none for what changes
/// nothing a person sees.
pub fn told(happening: &Happening, mirror: &Mirror) -> Option<String> {
    Some(match happening {
        Happening::Entered { name, seat: None } => format!(
            "{} came in to watch ({} watching).",
            Shown(name),
            mirror.watchers()
        ),
        Happening::Entered {
            name,
            seat: Some(mark),
        } => format!("{} came in and plays {}.", Shown(name), Shown(mark)),
        Happening::Left {
            name,
            wait: Some(wait),
            chose: true,
            ..
        } => format!(
            "{} stepped away: their seat is kept, and the game can be claimed if they are \
             not back in {wait} s.",
            Shown(name)
        ),
        Happening::Left {
            name,
            seat: Some(_),
            chose: true,
            ..
        } => format!("{} stepped away: their seat is kept.", Shown(name)),
        Happening::Left {
            name, chose: true, ..
        } => format!("{} left.", Shown(name)),
        Happening::Left {
            name,
            wait: Some(wait),
            ..
        } => format!(
            "{} lost the connection: waiting {wait} s for them to come back.",
            Shown(name)
        ),
        Happening::Left { name, .. } => format!("{} lost the connection.", Shown(name)),
        Happening::Returned { name, .. } => format!("{} is back.", Shown(name)),
        Happening::Gone {
            name,
            seat: Some(mark),
        } => format!(
            "{} left the room: the seat of {} is free for another player.",
            Shown(name),
            Shown(mark)
        ),
        Happening::Gone { name, seat: None } => format!("{} stopped watching.", Shown(name)),
        Happening::GameStarted { first, number } => {
            format!("Game {number}: {} moves first.", Shown(first))
        }
        Happening::Played { mark, square } => {
            let rules = mirror.rules?;
            let label = SquareNaming::Numbers
                .on_board(rules)
                .label(Square::new(*square), rules);
            format!("{} played {label}.", Shown(mark))
        }
        Happening::UndoAsked { by } => format!("{} asks to take back their move.", Shown(by)),
        Happening::UndoRefused => "The undo was refused: play on.".to_owned(),
        Happening::Undone { squares } => format!(
            "Taken back: {}.",
            ttt_play::words::count(squares.len(), "move")
        ),
        Happening::RematchAsked { by } if by.parse().ok() == mirror.seat => {
            "You asked for another game: it starts when the other player asks too.".to_owned()
        }
        Happening::RematchAsked { by } => format!("{} asks for another game.", Shown(by)),
        // Said with the end, which always follows at once.
        Happening::Forfeited { .. } => return None,
        Happening::Ended { outcome } => {
            let [x, o, draws] = mirror.score;
            let name = |mark| Shown(mirror.name_of(mark).unwrap_or("?")).to_string();
            let why = mirror
                .forfeit()
                .map(|reason| format!("{}: ", ShownLine(reason)))
                .unwrap_or_default();
            format!(
                "{why}{}. Score: {} (X) {x}, {} (O) {o}, draws {draws}.",
                Shown(outcome),
                name(ttt_core::Mark::X),
                name(ttt_core::Mark::O)
            )
        }
        Happening::TableChanged => return None,
        Happening::Said { name, text } => format!("{}: {}", Shown(name), ShownLine(text)),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use super::*;
    use crate::protocol::{ToClient, ToServer};
    use crate::room::{Fresh, Limits, Lobby, MemberId};

    #[test]
    fn a_game_that_ended_early_says_why_with_its_end_once() {
        let mut lobby = Lobby::new(Limits::default());
        let mut mirror = Mirror::default();
        let mut said = Vec::new();
        let asks = [
            (
                1,
                ToServer::Host {
                    rules: "3x3, k=3".into(),
                    name: "Ann".into(),
                    computer: None,
                    clock: None,
                    public: false,
                },
            ),
            (
                2,
                ToServer::Join {
                    code: "K7QX-2M".into(),
                    name: "Bob".into(),
                    tokens: vec![],
                },
            ),
            (1, ToServer::Resign),
        ];
        for (id, ask) in asks {
            let fresh = Fresh {
                code: "K7QX-2M".parse().unwrap(),
                token: format!("t{id}"),
                coin: Mark::X,
                now: 0,
            };
            for delivery in lobby.handle(MemberId(id), ask.into(), fresh) {
                if delivery.to != MemberId(2) {
                    continue;
                }
                mirror.take(&delivery.message).unwrap();
                if let ToClient::Happened { happening, .. } = &delivery.message {
                    said.extend(told(happening, &mirror));
                }
            }
        }
        assert_eq!(
            said.last().map(String::as_str),
            Some("X resigned: O wins. Score: Ann (X) 0, Bob (O) 1, draws 0.")
        );
        assert_eq!(
            said.iter().filter(|line| line.contains("resigned")).count(),
            1
        );
    }
}
