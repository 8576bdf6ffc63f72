//! The full-screen game over SSH (`ttt serve --ssh`), with a russh client over loopback
//! and a terminal of its own (vt100) that shows what the client was sent: a whole game
//! against the computer, kept under the player's key; an SSH player and a WebSocket client
//! in one room, with a resize in the middle; a client gone without a word leaving the room
//! as a dropped connection does; a client that stops reading holding nobody up; a guest;
//! the host key the same after a restart. Every wait is bounded.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

mod common;
mod support;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use russh::keys::PrivateKey;
use russh::keys::ssh_key::private::{Ed25519Keypair, KeypairData};
use russh::{ChannelMsg, client};
use tokio::time::Instant;
use ttt::server::{Config, Limits, ssh};
use ttt_online::protocol::{Happening, ToClient, ToServer};

use support::ssh as ssh_client;
use support::ssh::Trusting;
use support::websocket::{
    Client, PATIENCE, WithSsh, connect, host_3x3, next, send, start_with_ssh,
};

fn config() -> Config {
    Config {
        web: None,
        limits: Limits::default(),
        seed: Some(11),
    }
}

/// The key `seed` makes.
fn key(seed: u8) -> PrivateKey {
    PrivateKey::new(
        KeypairData::Ed25519(Ed25519Keypair::from_seed(&[seed; 32])),
        "",
    )
    .unwrap()
}

/// One person at an SSH client: the session, its channel, and the screen it was sent.
struct Player {
    _session: client::Handle<Trusting>,
    channel: russh::Channel<client::Msg>,
    screen: vt100::Parser,
    exit: Option<u32>,
    closed: bool,
    /// The host key's fingerprint the client was shown.
    host_key: Option<String>,
}

impl Player {
    /// `user` logs in at `address` (with `key`, or none), asks for a terminal of `size`
    /// (none for `None`) and a shell, or `command`.
    async fn open(
        address: SocketAddr,
        user: &str,
        key: Option<&PrivateKey>,
        command: Option<&str>,
        size: Option<(u16, u16)>,
        client_config: client::Config,
    ) -> Player {
        let stream = tokio::time::timeout(PATIENCE, tokio::net::TcpStream::connect(address))
            .await
            .unwrap()
            .unwrap();
        let (session, seen) = ssh_client::connect(stream, client_config).await;
        let mut session = session;
        assert!(
            ssh_client::log_in(&mut session, user, key).await,
            "{user} logs in"
        );
        let channel = ssh_client::open(&session, size, command).await;
        let (width, height) = size.unwrap_or((80, 24));
        let host_key = seen.lock().unwrap().clone();
        Player {
            _session: session,
            channel,
            screen: vt100::Parser::new(cells(height), cells(width), 0),
            exit: None,
            closed: false,
            host_key,
        }
    }

    /// Logs in as `user` with `key` and asks for an 80x24 terminal and a shell.
    async fn keyed(address: SocketAddr, user: &str, key: &PrivateKey) -> Player {
        Player::open(
            address,
            user,
            Some(key),
            None,
            Some((80, 24)),
            client::Config::default(),
        )
        .await
    }

    /// [`keyed`](Player::keyed), once the start screen shows.
    async fn at_start(address: SocketAddr, user: &str, key: &PrivateKey) -> Player {
        let mut player = Player::keyed(address, user, key).await;
        player.wait_for("Play against").await;
        player
    }

    /// Logs in as `user` with `key` and asks for an 80x24 terminal and `command`.
    async fn command(address: SocketAddr, user: &str, key: &PrivateKey, command: &str) -> Player {
        let config = client::Config::default();
        Player::open(
            address,
            user,
            Some(key),
            Some(command),
            Some((80, 24)),
            config,
        )
        .await
    }

    /// Types `bytes`.
    async fn typed(&mut self, bytes: &[u8]) {
        self.channel.data(bytes).await.unwrap();
    }

    /// Takes one message of the channel, waiting until `until`: false once nothing more
    /// comes.
    async fn take(&mut self, until: Instant) -> bool {
        let Ok(message) = tokio::time::timeout_at(until, self.channel.wait()).await else {
            return true;
        };
        match message {
            Some(ChannelMsg::Data { data }) => self.screen.process(&data),
            Some(ChannelMsg::ExitStatus { exit_status }) => self.exit = Some(exit_status),
            Some(ChannelMsg::Close) | None => {
                self.closed = true;
                return false;
            }
            Some(_) => {}
        }
        true
    }

    /// Reads what comes for `time`.
    async fn read_for(&mut self, time: Duration) {
        let until = Instant::now() + time;
        while Instant::now() < until && self.take(until).await {}
    }

    /// Reads until the screen shows `text`, and returns the screen.
    async fn wait_for(&mut self, text: &str) -> String {
        let until = Instant::now() + PATIENCE;
        loop {
            let shown = self.text();
            if shown.contains(text) {
                return shown;
            }
            assert!(
                Instant::now() < until && !self.closed,
                "waited for {text:?}; the screen shows:\n{shown}"
            );
            self.take(until).await;
        }
    }

    /// Reads until the session closes: its exit status, and the screen as it was left.
    async fn wait_closed(&mut self) -> (Option<u32>, String) {
        let until = Instant::now() + PATIENCE;
        while !self.closed {
            assert!(
                Instant::now() < until,
                "the session closes:\n{}",
                self.text()
            );
            self.take(until).await;
        }
        (self.exit, self.text())
    }

    /// The screen as the client's terminal shows it.
    fn text(&self) -> String {
        self.screen.screen().contents()
    }
}

/// A count of cells, never none.
fn cells(count: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(count.max(1)).unwrap()
}

const VERDICTS: [&str; 3] = ["You win!", "The computer wins.", "Draw."];
const UP: &[u8] = b"\x1b[A";
const RIGHT: &[u8] = b"\x1b[C";

/// A fresh folder for a server's host key and players: not there yet (the server makes
/// it), and removed when dropped.
fn folder() -> common::Home {
    common::home()
}

/// A server with SSH and the usual limits, in a fresh folder (given too).
async fn serve() -> (common::Home, WithSsh) {
    let folder = folder();
    let served = start_with_ssh(config(), &folder, ssh::Limits::default()).await;
    (folder, served)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_keyed_player_plays_the_computer_to_the_end_resizing_midway_and_the_game_is_kept() {
    let (folder, served) = serve().await;
    let address = served.ssh;
    let mut alice = Player::at_start(address, "alice", &key(1)).await;
    // The impossible computer, chosen on the start screen with the keys.
    for key in [UP, UP, UP, UP, UP, RIGHT, RIGHT, RIGHT, b"\r"] {
        alice.typed(key).await;
    }
    alice.wait_for("Computer (impossible)").await;
    // A larger window in the middle of the game: drawn again whole, in the new size.
    alice.typed(b"5").await;
    alice.read_for(Duration::from_millis(800)).await;
    alice.channel.window_change(100, 30, 0, 0).await.unwrap();
    alice.screen.set_size(cells(30), cells(100));
    // The new size's frame: the bottom line of keys on the 30th row.
    let until = Instant::now() + PATIENCE;
    while alice.text().lines().count() < 30 && Instant::now() < until {
        alice.read_for(Duration::from_millis(50)).await;
    }
    let resized = alice.text();
    let lines: Vec<&str> = resized.lines().collect();
    assert!(
        lines.len() == 30
            && lines[29].contains("q quit")
            && resized.contains("Computer (impossible)"),
        "drawn in 100x30:\n{resized}"
    );
    // The old size's screen was cleared, not drawn over: one line of keys.
    assert_eq!(resized.matches("q quit").count(), 1, "{resized}");
    // Every square in reading order: a free one takes the mark, a taken one is refused.
    let mut verdict = None;
    for square in b'1'..=b'9' {
        alice.typed(&[square]).await;
        alice.read_for(Duration::from_millis(700)).await;
        let shown = alice.text();
        verdict = VERDICTS.into_iter().find(|verdict| shown.contains(verdict));
        if verdict.is_some() {
            break;
        }
    }
    let verdict = verdict.unwrap_or_else(|| panic!("no verdict:\n{}", alice.text()));
    assert_ne!(verdict, "You win!", "nobody beats the impossible computer");
    alice.typed(b"q").await;
    let (status, left) = alice.wait_closed().await;
    assert_eq!(status, Some(0));
    let tally = if verdict == "Draw." {
        "X wins: 0, O wins: 0, draws: 1"
    } else {
        "X wins: 0, O wins: 1, draws: 0"
    };
    assert!(
        left.contains(tally),
        "the tally on the main screen:\n{left}"
    );
    assert!(!alice.screen.screen().alternate_screen(), "the main screen");
    assert!(!alice.screen.screen().hide_cursor(), "a cursor");
    assert_eq!(
        alice.screen.screen().mouse_protocol_mode(),
        vt100::MouseProtocolMode::None
    );
    // Kept under the key, as a local player's games are.
    let players: Vec<_> = std::fs::read_dir(folder.join("ssh-players"))
        .unwrap()
        .collect();
    assert_eq!(players.len(), 1, "one key, one folder");
    let games = players[0].as_ref().unwrap().path().join("games");
    assert_eq!(
        std::fs::read_dir(games).unwrap().count(),
        1,
        "the game is kept"
    );

    // Back with the same key: the start screen remembers the choice and the record.
    let mut again = Player::keyed(address, "alice", &key(1)).await;
    let record = if verdict == "Draw." {
        "Your record against the computer, impossible: 0 won, 0 lost, 1 drawn"
    } else {
        "Your record against the computer, impossible: 0 won, 1 lost, 0 drawn"
    };
    again.wait_for(record).await;
}

/// Ann hosts a 3x3 room over WebSocket; her client and the room's code.
async fn ann_hosts(address: SocketAddr) -> (Client, String) {
    let (ann, welcome) = host_3x3(address, "Ann").await;
    let ToClient::Welcome { code, .. } = welcome else {
        panic!("welcomed")
    };
    (ann, code)
}

/// Reads Ann's messages until one that `wanted` picks (at most 100).
async fn until(client: &mut Client, wanted: impl Fn(&Happening) -> bool) -> Happening {
    for _ in 0..100 {
        if let ToClient::Happened { happening, .. } = next(client).await
            && wanted(&happening)
        {
            return happening;
        }
    }
    panic!("not in 100 messages");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ssh_player_and_a_websocket_client_play_a_game_in_one_room() {
    let (_folder, served) = serve().await;
    let (web, address) = (served.web, served.ssh);
    let (mut ann, code) = ann_hosts(web).await;
    let mut bob = Player::command(address, "bob", &key(2), &format!("join {code}")).await;
    let Happening::GameStarted { first, .. } = until(&mut ann, |happening| {
        matches!(happening, Happening::GameStarted { .. })
    })
    .await
    else {
        unreachable!()
    };
    bob.wait_for("bob (you)").await;
    let ann_first = first == "X";
    // The first player wins on the top row; Bob types his squares' names.
    for (mover, square) in [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)] {
        if (mover == 0) == ann_first {
            send(&mut ann, &ToServer::Play { square }).await;
        } else {
            let name = b'1' + u8::try_from(square).unwrap();
            bob.typed(&[name]).await;
        }
        until(&mut ann, |happening| {
            matches!(happening, Happening::Played { square: played, .. } if *played == square)
        })
        .await;
    }
    until(&mut ann, |happening| {
        matches!(happening, Happening::Ended { .. })
    })
    .await;
    let shown = bob.wait_for(" wins.").await;
    let winner = if ann_first { "Ann (X) 1" } else { "bob (O) 1" };
    let shown_joined = shown.replace('\n', " ");
    assert!(shown_joined.contains("Score"), "{shown}");
    bob.typed(b"q").await;
    let (status, left) = bob.wait_closed().await;
    assert_eq!(status, Some(0));
    assert!(
        left.contains(&format!("Room {code}")) && left.contains(winner),
        "{left}"
    );
    // Leaving on purpose is said as such.
    until(&mut ann, |happening| {
        matches!(happening, Happening::Left { chose: true, .. })
    })
    .await;
}

/// A loopback proxy to `to`: its address, and the task to abort to cut every connection
/// through it without a word.
async fn proxy(to: SocketAddr) -> (SocketAddr, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let (mut near, _) = listener.accept().await.unwrap();
        let mut far = tokio::net::TcpStream::connect(to).await.unwrap();
        let _ = tokio::io::copy_bidirectional(&mut near, &mut far).await;
    });
    (address, task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_gone_without_a_word_leaves_the_room_as_a_dropped_connection_does() {
    let (_folder, served) = serve().await;
    let (web, address) = (served.web, served.ssh);
    let (mut ann, code) = ann_hosts(web).await;
    let (through, cut) = proxy(address).await;
    let mut bob = Player::open(
        through,
        "bob",
        Some(&key(3)),
        Some(&format!("join {code}")),
        Some((80, 24)),
        client::Config::default(),
    )
    .await;
    bob.wait_for("bob (you)").await;
    until(&mut ann, |happening| {
        matches!(happening, Happening::GameStarted { .. })
    })
    .await;
    cut.abort();
    // Not meant: the seat waits for Bob's return.
    let left = until(&mut ann, |happening| {
        matches!(happening, Happening::Left { .. })
    })
    .await;
    assert!(
        matches!(
            left,
            Happening::Left {
                chose: false,
                wait: Some(_),
                ..
            }
        ),
        "{left:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_holds_nobody_up() {
    let (_folder, served) = serve().await;
    let (web, address) = (served.web, served.ssh);
    let (mut ann, code) = ann_hosts(web).await;
    // Eve watches on a large screen, and never reads again: her client stops taking
    // what the server sends once one message waits.
    let stalled = client::Config {
        channel_buffer_size: 1,
        window_size: 4096,
        ..client::Config::default()
    };
    let _eve = Player::open(
        address,
        "eve",
        Some(&key(4)),
        Some(&format!("watch {code}")),
        Some((400, 200)),
        stalled,
    )
    .await;
    // Bob plays through SSH, and Ann talks a lot: every line is a new frame for Eve.
    let mut bob = Player::command(address, "bob", &key(5), &format!("join {code}")).await;
    bob.wait_for("bob (you)").await;
    let Happening::GameStarted { first, .. } = until(&mut ann, |happening| {
        matches!(happening, Happening::GameStarted { .. })
    })
    .await
    else {
        unreachable!()
    };
    // As fast as a connection may send (20 a second).
    let started = Instant::now();
    for line in 0..60 {
        send(
            &mut ann,
            &ToServer::Say {
                text: format!("line {line}"),
            },
        )
        .await;
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
    bob.wait_for("line 59").await;
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the room went on: {:?}",
        started.elapsed()
    );
    // And the game goes on at once: Bob's move in the centre, after Ann's if she is first.
    if first == "X" {
        send(&mut ann, &ToServer::Play { square: 0 }).await;
    }
    bob.wait_for("your move").await;
    bob.typed(b"5").await;
    until(&mut ann, |happening| {
        matches!(happening, Happening::Played { square: 4, .. })
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_plays_without_a_key_and_a_client_without_a_terminal_is_told_how() {
    let (folder, served) = serve().await;
    let address = served.ssh;
    let mut guest = Player::open(
        address,
        ssh::GUEST,
        None,
        None,
        Some((80, 24)),
        client::Config::default(),
    )
    .await;
    guest.wait_for("Play against").await;
    guest.typed(b"q").await;
    let (status, _) = guest.wait_closed().await;
    assert_eq!(status, Some(0));
    assert!(
        !folder.join("ssh-players").exists(),
        "a guest keeps nothing"
    );

    // Without a terminal: one line saying how, and a failure.
    let mut piped = Player::open(
        address,
        "carol",
        Some(&key(6)),
        None,
        None,
        client::Config::default(),
    )
    .await;
    let (status, said) = piped.wait_closed().await;
    assert_eq!(status, Some(1));
    assert!(said.contains("ssh -t"), "{said}");
    // A command that is not one: said, exit 2.
    let mut wrong = Player::command(address, "carol", &key(6), "rm -rf /").await;
    let (status, said) = wrong.wait_closed().await;
    assert_eq!(status, Some(2));
    assert!(said.contains("is not a ttt command here"), "{said}");

    // Someone else's name without a key: refused.
    let stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let (mut session, _) = ssh_client::connect(stream, client::Config::default()).await;
    assert!(!ssh_client::log_in(&mut session, "alice", None).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_key_is_the_same_after_a_restart() {
    let folder = folder();
    let mut seen = Vec::new();
    for _ in 0..2 {
        let served = start_with_ssh(config(), &folder, ssh::Limits::default()).await;
        let mut player = Player::at_start(served.ssh, "alice", &key(7)).await;
        seen.push(player.host_key.clone().expect("a host key"));
        // Stopped before the next starts: a restart.
        served.stop().await;
        player.wait_closed().await;
    }
    assert_eq!(seen[0], seen[1]);
    let kept = ssh::host_key::load_or_make(&folder).unwrap().0;
    assert_eq!(seen[0], ssh::host_key::fingerprint(&kept));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_person_is_let_go_and_an_address_has_so_many_connections() {
    let folder = folder();
    let mut config = config();
    config.limits.per_address = 2;
    let limits = ssh::Limits {
        idle: Duration::from_secs(1),
        ..ssh::Limits::default()
    };
    let served = start_with_ssh(config, &folder, limits).await;
    let (web, address) = (served.web, served.ssh);
    let mut quiet = Player::at_start(address, "quiet", &key(8)).await;
    // A second connection from the address, a WebSocket one: the address has its two.
    let _ws = connect(web).await;
    let refused = tokio::time::timeout(PATIENCE, async {
        let stream = tokio::net::TcpStream::connect(address).await.unwrap();
        let config = Arc::new(client::Config::default());
        client::connect_stream(config, stream, Trusting::default())
            .await
            .is_err()
    })
    .await
    .unwrap();
    assert!(refused, "a third connection is closed before a word");
    // Nothing typed for the idle time: told so on the main screen, exit 1.
    let (status, left) = quiet.wait_closed().await;
    assert_eq!(status, Some(1));
    assert!(left.contains("nothing was typed for a long time"), "{left}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_stopping_gives_every_session_its_terminal_back_and_ends() {
    let (_folder, served) = serve().await;
    let address = served.ssh;
    let mut alice = Player::at_start(address, "alice", &key(9)).await;
    let mut bob = Player::at_start(address, "bob", &key(10)).await;
    // And one that logged in and opened nothing.
    let stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let (mut idle, _) = ssh_client::connect(stream, client::Config::default()).await;
    assert!(ssh_client::log_in(&mut idle, "carol", Some(&key(11))).await);
    served.stop().await;
    for player in [&mut alice, &mut bob] {
        let (status, left) = player.wait_closed().await;
        assert_eq!(status, Some(1));
        assert!(left.contains("The server is stopping."), "{left}");
        assert!(!player.screen.screen().alternate_screen());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_end_of_a_clients_input_ends_the_session_with_its_terminal_given_back() {
    let (_folder, served) = serve().await;
    let mut dan = Player::at_start(served.ssh, "dan", &key(12)).await;
    dan.channel.eof().await.unwrap();
    let (status, left) = dan.wait_closed().await;
    assert_eq!(status, Some(1));
    assert!(
        left.contains("The input ended: the session ends."),
        "{left}"
    );
    assert!(!dan.screen.screen().alternate_screen());
}
