//! A load test of the server of network play, over loopback, in one process: the server,
//! then ROOMS rooms of two players (WebSocket clients) who each play GAMES games of
//! tic-tac-toe as fast as the server answers. It prints the moves and messages a second
//! and the memory the process holds with every room open.
//!
//! ```text
//! cargo run --release -p ttt --example load -- 200 5
//! cargo run --release -p ttt --example load -- 200 5 /tmp/ttt-load-store
//! ```
//!
//! With a third argument, the rooms are kept in that folder (emptied first) as `ttt
//! serve` keeps them: every change flushed to the disk before anyone is told it.
//!
//! Linux only for the memory (read from /proc/self/status). Every wait is bounded: a
//! step that takes more than 30 s ends the run with a message.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "an example ends on any failure, saying where"
)]

use std::time::Instant;

use ttt::server::{Config, Limits, ServerStore};
use ttt_online::protocol::{Happening, ToClient, ToServer};

#[path = "../tests/support/websocket.rs"]
mod websocket;

use websocket::{Client, PATIENCE, connect, next, send, start, start_keeping};

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut arguments = std::env::args().skip(1);
    let rooms: usize = arguments
        .next()
        .map_or(200, |text| text.parse().expect("ROOMS"));
    let games: u32 = arguments
        .next()
        .map_or(5, |text| text.parse().expect("GAMES"));
    // A folder to keep the rooms in, as `ttt serve` does by default: every change
    // written and flushed to the disk before it is told.
    let store = arguments.next().map(std::path::PathBuf::from);
    // Every client comes from 127.0.0.1: the per-address bound is lifted for the test.
    let limits = Limits {
        per_address: rooms * 2 + 10,
        rooms_per_address: rooms,
        messages_per_second: 1000,
        ..Limits::default()
    };
    let config = Config {
        web: None,
        limits,
        seed: Some(1),
    };
    let kept = store.map(|folder| {
        let _ = std::fs::remove_dir_all(&folder);
        let (lobby, store, _) =
            ServerStore::open(&folder, limits.lobby, ttt::store::now()).expect("a store");
        (lobby, store)
    });
    let address = match kept {
        Some(kept) => start_keeping(config, Some(kept)).await,
        None => start(config).await,
    };
    let before = resident_kb();

    // Every room opened and joined before any game begins.
    let mut pairs = Vec::new();
    for _ in 0..rooms {
        let mut host = connect(address).await;
        send(
            &mut host,
            &ToServer::Host {
                rules: "3x3, k=3".to_owned(),
                name: "H".to_owned(),
                computer: None,
                clock: None,
                public: false,
            },
        )
        .await;
        let ToClient::Welcome { code, .. } = next(&mut host).await else {
            panic!("no welcome")
        };
        let mut guest = connect(address).await;
        send(
            &mut guest,
            &ToServer::Join {
                code,
                name: "G".to_owned(),
                tokens: Vec::new(),
            },
        )
        .await;
        pairs.push((host, guest));
    }
    let opened = resident_kb();
    let start = Instant::now();
    let plays: Vec<_> = pairs
        .into_iter()
        .map(|(host, guest)| tokio::spawn(play_games(host, guest, games)))
        .collect();
    let mut moves = 0;
    let mut messages = 0;
    for play in plays {
        let (played, told) = tokio::time::timeout(PATIENCE * 4, play)
            .await
            .expect("the games end in time")
            .unwrap();
        moves += played;
        messages += told;
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{rooms} rooms ({} players), {games} games each: {moves} moves in {seconds:.2} s, \
         {:.0} moves a second, {:.0} messages a second to the players",
        rooms * 2,
        moves as f64 / seconds,
        messages as f64 / seconds,
    );
    if let (Some(before), Some(opened)) = (before, opened) {
        println!(
            "memory: {:.1} MB before, {:.1} MB with every room open (server and clients in \
             one process): {:.0} KB a player",
            before as f64 / 1024.0,
            opened as f64 / 1024.0,
            opened.saturating_sub(before) as f64 / (rooms * 2) as f64,
        );
    }
}

/// The two players of a room play `games` games: each plays the lowest free square on
/// its turn, so whoever moves first wins on the diagonal 3-5-7 with the game's seventh
/// move; then both ask for another game. Returns
/// the moves played and the messages the two were told.
async fn play_games(mut host: Client, mut guest: Client, games: u32) -> (u64, u64) {
    let (mut moves, mut told) = (0, 0);
    let mut board = [false; 9];
    // The host took the first seat, X; the guest the other.
    let seats = ["X", "O"];
    let mut finished = 0;
    loop {
        // Whoever is told something next: the host, then the guest.
        let message = tokio::select! {
            message = next(&mut host) => (0, message),
            message = next(&mut guest) => (1, message),
        };
        told += 1;
        let (who, message) = message;
        let mut mover: Option<usize> = None;
        match message {
            ToClient::Welcome { .. } => {}
            ToClient::Happened { happening, .. } => match happening {
                // Both are told each happening: act on the host's copy only.
                _ if who == 1 => {}
                Happening::GameStarted { first, .. } => {
                    board = [false; 9];
                    mover = seats.iter().position(|seat| *seat == first);
                }
                Happening::Played { square, mark } => {
                    board[square] = true;
                    moves += 1;
                    // The seventh move ends the game: nobody moves after it.
                    if board.iter().filter(|taken| **taken).count() < 7 {
                        let next = if mark == "X" { "O" } else { "X" };
                        mover = seats.iter().position(|seat| *seat == next);
                    }
                }
                Happening::Ended { .. } => {
                    finished += 1;
                    if finished == games {
                        return (moves, told);
                    }
                    send(&mut host, &ToServer::Rematch).await;
                    send(&mut guest, &ToServer::Rematch).await;
                }
                _ => {}
            },
            ToClient::Refused { reason, .. } | ToClient::Bye { reason, .. } => {
                panic!("refused: {reason}")
            }
            ToClient::Done { .. } | ToClient::Pong { .. } | ToClient::Rooms { .. } => {}
        }
        if let Some(player) = mover {
            let square = board.iter().position(|taken| !taken).unwrap();
            let client = if player == 0 { &mut host } else { &mut guest };
            send(client, &ToServer::Play { square }).await;
        }
    }
}

/// The process's resident memory, in KB, where /proc says it.
fn resident_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
