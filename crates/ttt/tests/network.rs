//! Network play as people run it, over loopback: `ttt serve`, then `ttt host` in one
//! terminal and `ttt join CODE` in another, a whole game typed line by line, then both
//! leave and the server stops on a signal. Every wait is bounded and every process is
//! stopped at the end, whatever happens.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};

use tempfile::TempDir;

/// The longest any one step may take.
const PATIENCE: Duration = Duration::from_secs(15);

/// A `ttt` process whose output is gathered line by line as it comes.
struct Running {
    child: Child,
    input: Option<ChildStdin>,
    lines: Arc<Mutex<Vec<String>>>,
    /// The threads reading its output and its errors, each to the end.
    readers: Vec<std::thread::JoinHandle<()>>,
    /// Its data folder, held until the process is ended.
    _home: Arc<TempDir>,
}

impl Running {
    fn start(arguments: &[&str]) -> Running {
        let home = home();
        let mut child = Command::new(env!("CARGO_BIN_EXE_ttt"))
            .args(arguments)
            .env("NO_COLOR", "1")
            // Seats' tokens kept apart from the person's own, one folder for the tests
            // running at once as for one machine.
            .env("TTT_HOME", home.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let readers = [
            Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ]
        .map(|stream| {
            let lines = lines.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines() {
                    let Ok(line) = line else { break };
                    lines.lock().unwrap().push(line);
                }
            })
        })
        .into();
        let input = child.stdin.take();
        Running {
            child,
            input,
            lines,
            readers,
            _home: home,
        }
    }

    /// The first line printed that contains `needle`, waiting for it.
    fn wait_for(&self, needle: &str) -> String {
        self.wait_for_nth(needle, 1)
    }

    /// The `nth` line printed that contains `needle` (from 1), waiting for it.
    fn wait_for_nth(&self, needle: &str, nth: usize) -> String {
        let start = Instant::now();
        while start.elapsed() < PATIENCE {
            if let Some(line) = self
                .lines
                .lock()
                .unwrap()
                .iter()
                .filter(|line| line.contains(needle))
                .nth(nth - 1)
            {
                return line.clone();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!(
            "{needle:?} never came; printed:\n{}",
            self.lines.lock().unwrap().join("\n")
        );
    }

    /// Everything printed so far, a line each.
    fn printed(&self) -> String {
        self.lines.lock().unwrap().join("\n")
    }

    fn type_line(&mut self, line: &str) {
        let input = self.input.as_mut().unwrap();
        writeln!(input, "{line}").unwrap();
        input.flush().unwrap();
    }

    /// The exit code, waiting for the end, and for its output to be read to the end (a
    /// line printed just before it ended may not be in yet when it ends).
    fn exit_code(&mut self) -> Option<i32> {
        let start = Instant::now();
        while start.elapsed() < PATIENCE {
            if let Some(status) = self.child.try_wait().unwrap()
                && self
                    .readers
                    .iter()
                    .all(std::thread::JoinHandle::is_finished)
            {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("still running");
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The data folder of the `ttt`s these tests run, one for all the tests running at once:
/// a temporary folder, removed when the last [`Running`] (or test) holding it is dropped,
/// at the latest when its test ends, passed or failed. Tests after that have a new one.
fn home() -> Arc<TempDir> {
    static SHARED: Mutex<Weak<TempDir>> = Mutex::new(Weak::new());
    let mut shared = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(home) = shared.upgrade() {
        return home;
    }
    let home = Arc::new(common::temporary("ttt-network-"));
    *shared = Arc::downgrade(&home);
    home
}

/// The address a `ttt serve` says it serves on.
fn served_at(server: &Running) -> String {
    let line = server.wait_for("ttt serves on ");
    let address = line.trim_start_matches("ttt serves on ");
    address[..address.find(": ").unwrap()].to_owned()
}

/// Ann hosts a room on the server at `address`; her client, and the room's code.
fn ann_hosts(address: &str) -> (Running, String) {
    let ann = Running::start(&["host", "--server", address, "--name", "Ann"]);
    let invitation = ann.wait_for("A friend joins with: ttt join ");
    (ann, code_in(&invitation))
}

/// The room's code in the host's invitation ("… ttt join K7QX-2M --server …").
fn code_in(invitation: &str) -> String {
    let after = &invitation[invitation.find("ttt join ").unwrap() + "ttt join ".len()..];
    after.split(' ').next().unwrap().to_owned()
}

/// Moves that end a game quickly with a win for whoever moves first, as the line "Game 1:
/// X moves first." (or O) says.
fn quick_win(first: &str) -> [(&'static str, &'static str); 5] {
    if first.contains("X moves first") {
        [("X", "1"), ("O", "4"), ("X", "2"), ("O", "5"), ("X", "3")]
    } else {
        [("O", "4"), ("X", "1"), ("O", "5"), ("X", "2"), ("O", "6")]
    }
}

/// Ann (X) and Bob (O) type `moves` in turn, each waiting until both are told it.
fn play(ann: &mut Running, bob: &mut Running, moves: &[(&str, &str)]) {
    for &(mark, square) in moves {
        let player = if mark == "X" { &mut *ann } else { &mut *bob };
        player.type_line(square);
        let played = format!("{mark} played {square}.");
        ann.wait_for(&played);
        bob.wait_for(&played);
    }
}

#[test]
fn two_people_in_two_terminals_play_a_game_through_the_server() {
    let mut server = Running::start(&["serve", "--listen", "127.0.0.1:0", "--no-store"]);
    let address = served_at(&server);
    assert!(address.starts_with("127.0.0.1:"), "{address}");

    let (mut ann, code) = ann_hosts(&address);
    assert_eq!(code.len(), 7, "{code}");
    let mut bob = Running::start(&[
        "join",
        &code.to_lowercase(),
        "--server",
        &address,
        "--name",
        "Bob",
    ]);
    assert!(bob.wait_for("Room ").contains("you play O"));
    ann.wait_for("Bob came in and plays O.");

    // Who moves first was drawn; X (Ann) wins on the top row either way.
    let first = ann.wait_for("Game 1: ");
    let mut moves = vec![("X", "1"), ("O", "4"), ("X", "2"), ("O", "5"), ("X", "3")];
    if first.contains("O moves first") {
        moves = vec![
            ("O", "4"),
            ("X", "1"),
            ("O", "5"),
            ("X", "2"),
            ("O", "9"),
            ("X", "3"),
        ];
    }
    // Bob tries to move for Ann first, and is told no.
    let x_first = first.contains("X moves first");
    if x_first {
        bob.type_line("5");
        bob.wait_for("It is the other side's turn.");
    }
    play(&mut ann, &mut bob, &moves);
    ann.wait_for("X wins.");
    bob.wait_for("X wins.");

    // Bob leaves, giving his seat up between games; Ann is told, then leaves too; the
    // server stops on a signal.
    bob.type_line("quit");
    bob.wait_for("You left the room.");
    assert_eq!(bob.exit_code(), Some(0));
    ann.wait_for("Bob left the room: the seat of O is free for another player.");
    ann.type_line("quit");
    assert_eq!(ann.exit_code(), Some(0));
    // Each kept the game in their own store (one data folder here, as on one machine):
    // finished, marked online in the room, with both names, and counted by `ttt stats`.
    let mut games = Running::start(&["games", "--json"]);
    assert_eq!(games.exit_code(), Some(0));
    let listed: serde_json::Value = serde_json::from_str(&games.printed()).unwrap();
    let kept: Vec<&serde_json::Value> = listed["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|game| game["online"] == code.as_str())
        .collect();
    assert_eq!(kept.len(), 2, "Ann's and Bob's: {listed}");
    for game in kept {
        assert_eq!((&game["x"], &game["o"]), (&"Ann".into(), &"Bob".into()));
        assert_eq!(game["result"], "x_won");
    }
    let mut stats = Running::start(&["stats"]);
    assert_eq!(stats.exit_code(), Some(0));
    stats.wait_for("Bob online");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(server.child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    server.wait_for("Stopped.");
    assert_eq!(server.exit_code(), Some(0));
}

#[test]
fn a_code_no_room_has_or_a_server_not_there_is_one_line_and_exit_1() {
    let server = Running::start(&["serve", "--listen", "127.0.0.1:0", "--no-store"]);
    let address = served_at(&server);
    let mut lost = Running::start(&["join", "zzzz-zz", "--server", &address]);
    assert_eq!(lost.exit_code(), Some(1));
    lost.wait_for(
        "ttt: No room has the code ZZZZ-ZZ: it may have closed, or the code is mistyped.",
    );
    let mut mistyped = Running::start(&["join", "NOPE", "--server", &address]);
    assert_eq!(mistyped.exit_code(), Some(2));
    mistyped.wait_for("'NOPE' is not a room code: six letters and digits, like K7QX-2M (no I, L, O, 0 or 1, which look alike)");
    // A port where nothing listens (the server's, once it has stopped).
    drop(server);
    let mut nowhere = Running::start(&["join", "ZZZZ-ZZ", "--server", &address]);
    assert_eq!(nowhere.exit_code(), Some(1));
    nowhere.wait_for("ttt: cannot reach a ttt server at");
}

/// A loopback relay to `target` whose connections can all be cut at once, as a network
/// drops them; it takes new ones after.
struct Relay {
    address: String,
    open: Arc<Mutex<Vec<TcpStream>>>,
}

impl Relay {
    fn to(target: &str) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let open = Arc::new(Mutex::new(Vec::new()));
        let target = target.to_owned();
        std::thread::spawn({
            let open = open.clone();
            move || {
                // At most 10 connections in a test's life: the loop ends by itself.
                for client in listener.incoming().take(10) {
                    let Ok(client) = client else { break };
                    let Ok(server) = TcpStream::connect(&target) else {
                        break;
                    };
                    let streams = [client.try_clone().unwrap(), server.try_clone().unwrap()];
                    open.lock().unwrap().extend(streams);
                    for (mut from, mut to) in [
                        (client.try_clone().unwrap(), server.try_clone().unwrap()),
                        (server, client),
                    ] {
                        std::thread::spawn(move || {
                            let _ = std::io::copy(&mut from, &mut to);
                            let _ = to.shutdown(Shutdown::Both);
                        });
                    }
                }
            }
        });
        Relay { address, open }
    }

    /// Drops every connection open through the relay.
    fn cut(&self) {
        for stream in self.open.lock().unwrap().drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }
}

#[test]
fn a_player_whose_connection_drops_comes_back_to_the_seat_and_plays_on() {
    let server = Running::start(&["serve", "--listen", "127.0.0.1:0", "--no-store"]);
    let address = served_at(&server);
    let relay = Relay::to(&address);
    let (mut ann, code) = ann_hosts(&address);
    // Bob's way to the server runs through the relay, which the network cuts.
    let mut bob = Running::start(&["join", &code, "--server", &relay.address, "--name", "Bob"]);
    bob.wait_for("you play O");
    ann.wait_for("Game 1: ");
    relay.cut();
    bob.wait_for("The connection to the server was lost: coming back…");
    ann.wait_for("Bob lost the connection: waiting 60 s for them to come back.");
    ann.wait_for("Bob is back.");
    // Welcomed a second time, in the same seat.
    assert_eq!(
        bob.wait_for_nth("Room ", 2),
        format!("Room {code}: you play O.")
    );
    // Back in his seat, Bob plays on: the game goes to its end.
    let first = ann.wait_for("Game 1: ");
    let moves = quick_win(&first);
    play(&mut ann, &mut bob, &moves);
    bob.wait_for(" wins.");
    bob.type_line("quit");
    assert_eq!(bob.exit_code(), Some(0));
}

#[test]
fn the_end_of_a_players_input_mid_game_steps_away_keeping_the_seat() {
    let server = Running::start(&["serve", "--listen", "127.0.0.1:0", "--no-store"]);
    let address = served_at(&server);
    let (mut ann, code) = ann_hosts(&address);
    let mut bob = Running::start(&["join", &code, "--server", &address, "--name", "Bob"]);
    bob.wait_for("you play O");
    ann.wait_for("Game 1: ");
    // A script's input ends: a quit, said to the room as one.
    bob.input = None;
    bob.wait_for("Left the room; your seat is kept for the game under way");
    assert_eq!(bob.exit_code(), Some(0));
    ann.wait_for("Bob stepped away: their seat is kept");
    ann.type_line("quit");
}

#[test]
fn a_player_whose_client_was_killed_joins_again_and_takes_back_the_seat() {
    let server = Running::start(&["serve", "--listen", "127.0.0.1:0", "--no-store"]);
    let address = served_at(&server);
    // Ann and Bob play in two terminals of one machine, one data folder between them.
    let (mut ann, code) = ann_hosts(&address);
    let join = || Running::start(&["join", &code, "--server", &address, "--name", "Bob"]);
    let mut bob = join();
    // Ann's kept token does not take her seat from her: Bob gets the other.
    bob.wait_for("you play O");
    let first = ann.wait_for("Game 1: ");
    let moves = quick_win(&first);
    play(&mut ann, &mut bob, &moves[..2]);
    // Bob's terminal is killed; he runs the same command again.
    drop(bob);
    ann.wait_for("Bob lost the connection: waiting 60 s");
    let mut bob = join();
    assert_eq!(bob.wait_for("Room "), format!("Room {code}: you play O."));
    ann.wait_for("Bob is back.");
    play(&mut ann, &mut bob, &moves[2..]);
    bob.wait_for(" wins.");
    // Claiming a game that is over, or from someone who is here, is refused.
    ann.type_line("claim");
    ann.wait_for("There is no game under way to claim.");
}

#[test]
fn a_server_killed_mid_game_and_started_again_has_the_game_and_both_players_come_back() {
    let home = home();
    let store = home.path().join("killed-server");
    let store = store.to_str().unwrap().to_owned();
    // A port of its own, to start the server on again.
    let address = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().to_string()
    };
    let serve = || Running::start(&["serve", "--listen", &address, "--store", &store]);
    let server = serve();
    served_at(&server);
    let (mut ann, code) = ann_hosts(&address);
    let mut bob = Running::start(&["join", &code, "--server", &address, "--name", "Bob"]);
    bob.wait_for("you play O");
    let first = ann.wait_for("Game 1: ");
    let moves = quick_win(&first);
    play(&mut ann, &mut bob, &moves[..3]);
    // SIGKILL, and the same command again.
    drop(server);
    let server = serve();
    assert!(server.wait_for("Rooms are kept in ").ends_with("(1 open)."));
    for player in [&ann, &bob] {
        player.wait_for("The connection to the server was lost: coming back…");
        player.wait_for_nth("Room ", 2);
    }
    // The three moves are on the board both find; the game goes on to its end.
    play(&mut ann, &mut bob, &moves[3..]);
    bob.wait_for(" wins.");
    ann.wait_for(" wins.");
}

#[test]
fn a_host_with_no_server_serves_the_room_itself_for_a_friend_to_join() {
    let mut ann = Running::start(&["host", "--listen", "127.0.0.1:0", "--name", "Ann"]);
    let invitation = ann.wait_for("A friend joins with: ttt join ");
    // The invitation names the host's own server, on the port the system gave it.
    let server = invitation.split("--server ").nth(1).unwrap().to_owned();
    assert!(server.starts_with("127.0.0.1:"), "{invitation}");
    let code = code_in(&invitation);
    let mut bob = Running::start(&["join", &code, "--server", &server, "--name", "Bob"]);
    bob.wait_for("you play O");
    let first = ann.wait_for("Game 1: ");
    let moves = quick_win(&first);
    play(&mut ann, &mut bob, &moves);
    bob.wait_for(" wins.");
    // The host leaves: the room and its server go with her, and Bob is told so.
    ann.type_line("quit");
    assert_eq!(ann.exit_code(), Some(0));
    bob.wait_for("The server stopped, and its rooms with it.");
    assert_eq!(bob.exit_code(), Some(1));
}

#[test]
fn a_host_against_the_servers_computer_is_told_so_and_a_watcher_sees_its_moves() {
    let mut ann = Running::start(&[
        "host",
        "--listen",
        "127.0.0.1:0",
        "--computer",
        "easy",
        "--name",
        "Ann",
    ]);
    let welcome = ann.wait_for("against Computer (easy). Others watch with: ttt watch ");
    let code = welcome[welcome.find("ttt watch ").unwrap() + "ttt watch ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .to_owned();
    let server = welcome.split("--server ").nth(1).unwrap().to_owned();
    let eve = Running::start(&["watch", &code, "--server", &server, "--name", "Eve"]);
    eve.wait_for("you watch.");
    // Ann plays the first free square on her turn; the computer's answer comes without
    // anyone typing it, and Eve sees it.
    ann.wait_for("Your move (X):");
    for square in 1..=9 {
        ann.type_line(&square.to_string());
        std::thread::sleep(Duration::from_millis(200));
        if ann
            .lines
            .lock()
            .unwrap()
            .iter()
            .any(|line| line.starts_with("X played"))
        {
            break;
        }
    }
    eve.wait_for("X played ");
    eve.wait_for("O played ");
    ann.type_line("quit");
    assert_eq!(ann.exit_code(), Some(0));
}

#[test]
fn a_bot_listed_on_the_server_takes_on_whoever_joins_on_the_rooms_clock() {
    let server = Running::start(&["serve", "--listen", "127.0.0.1:0", "--no-store"]);
    let address = served_at(&server);
    let mut bot = Running::start(&[
        "bot", "--server", &address, "--public", "--player", "rules", "--clock", "1+1", "--games",
        "1",
    ]);
    let code = code_in(&bot.wait_for("rules bot waits in room "));
    // The lobby lists it, with its board and clock.
    let rooms = Running::start(&["rooms", "--server", &address]);
    rooms.wait_for(&format!("  {code}  rules bot, 3x3, k=3, clock 1+1"));
    rooms.wait_for(&format!("Join one with: ttt join CODE --server {address}"));
    let mut ann = Running::start(&["join", &code, "--server", &address, "--name", "Ann"]);
    ann.wait_for(&format!("Room {code}, clock 1+1: you play "));
    ann.wait_for("Clocks (1+1): X 1:00");
    bot.wait_for("Ann came to play.");
    // Ann plays the first free square on each of her turns; the bot answers each.
    for square in 1..=9 {
        if ann.printed().contains("Score:") {
            break;
        }
        ann.type_line(&square.to_string());
        std::thread::sleep(Duration::from_millis(300));
    }
    ann.wait_for("Score: ");
    bot.wait_for("Score: ");
    assert_eq!(bot.exit_code(), Some(0), "{}", bot.printed());
    // Its room no longer waits for anyone.
    let rooms = Running::start(&["rooms", "--server", &address]);
    rooms.wait_for("No public room waits for a player");
    // The page's link names the server: watching by it needs no --server.
    let eve = Running::start(&["watch", &format!("http://{address}/#{code}"), "--plain"]);
    eve.wait_for(&format!("Room {code}, clock 1+1: you watch."));
    ann.type_line("quit");
    assert_eq!(ann.exit_code(), Some(0));
}

/// The number of lines printed so far that contain `needle`.
fn count(running: &Running, needle: &str) -> usize {
    running
        .lines
        .lock()
        .unwrap()
        .iter()
        .filter(|line| line.contains(needle))
        .count()
}

/// Types squares from 1 up until O's `nth` move is played (the others taken or refused).
fn o_plays(player: &mut Running, nth: usize) {
    for square in 1..=9 {
        if count(player, "O played") >= nth {
            return;
        }
        player.type_line(&square.to_string());
        let start = Instant::now();
        while start.elapsed() < Duration::from_millis(500) && count(player, "O played") < nth {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    player.wait_for_nth("O played", nth);
}

#[test]
fn a_bot_lets_a_move_be_taken_back_plays_on_and_opens_a_new_room_when_its_opponent_goes() {
    let server = Running::start(&["serve", "--listen", "127.0.0.1:0", "--no-store"]);
    let address = served_at(&server);
    let bot = Running::start(&["bot", "--server", &address, "--player", "random"]);
    let code = code_in(&bot.wait_for("random bot waits in room "));
    let mut ann = Running::start(&["join", &code, "--server", &address, "--name", "Ann"]);
    ann.wait_for("you play O");
    // Ann moves, the bot answers; Ann takes her move back (the bot says yes), and plays
    // again: the bot answers again on the same turn.
    ann.wait_for("Your move (O):");
    // The bot moved first, or not: it waits for Ann now either way.
    let first = count(&ann, "X played");
    o_plays(&mut ann, 1);
    ann.wait_for_nth("X played", first + 1);
    ann.type_line("undo");
    ann.wait_for("Taken back: 2 moves.");
    o_plays(&mut ann, 2);
    ann.wait_for_nth("X played", first + 2);
    // Ann resigns and goes: the bot gives the room up and opens another.
    ann.type_line("resign");
    ann.wait_for("O resigned: X wins.");
    ann.type_line("quit");
    assert_eq!(ann.exit_code(), Some(0));
    bot.wait_for("The opponent left: a new room.");
    bot.wait_for_nth("random bot waits in room ", 2);
    let first_room = Running::start(&["join", &code, "--server", &address]);
    first_room.wait_for("No room has the code");
}
