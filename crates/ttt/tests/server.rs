//! The server of network play, over loopback: clients on WebSocket host, join, watch
//! (two players and two watchers see whole games on 3x3 and 15x15),
//! play a game, drop and come back; a client that stops reading does not hold the others
//! up; the page is served, or a line says how to build it. Every wait is bounded.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

mod support;

mod common;

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;
use ttt::server::{Config, Limits};
use ttt_core::Mark;
use ttt_online::protocol::{Happening, ToClient, ToServer};

use support::websocket::{Client, PATIENCE, connect, host_3x3, next, send, start};
use tokio::net::TcpStream;

fn config() -> Config {
    Config {
        web: None,
        limits: Limits::default(),
        seed: Some(7),
    }
}

/// Reads until a message that `wanted` picks, and returns it (at most 100 messages).
async fn until(client: &mut Client, wanted: impl Fn(&ToClient) -> bool) -> ToClient {
    for _ in 0..100 {
        let message = next(client).await;
        if wanted(&message) {
            return message;
        }
    }
    panic!("not in 100 messages");
}

/// Ann connects and hosts a 3x3 room; her welcome.
async fn ann_hosts(address: std::net::SocketAddr) -> (Client, ToClient) {
    host_3x3(address, "Ann").await
}

fn happened(message: &ToClient, wanted: impl Fn(&Happening) -> bool) -> bool {
    matches!(message, ToClient::Happened { happening, .. } if wanted(happening))
}

fn welcome(message: &ToClient) -> (String, String, Option<String>) {
    match message {
        ToClient::Welcome {
            code, token, seat, ..
        } => (code.clone(), token.clone(), seat.clone()),
        other => panic!("not a welcome: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_elsewhere_play_a_game_a_watcher_sees_it_and_a_dropped_player_returns() {
    let address = start(config()).await;
    let (mut ann, welcomed) = ann_hosts(address).await;
    let (code, _, seat) = welcome(&welcomed);
    assert_eq!(seat.as_deref(), Some("X"));
    assert_eq!(code.len(), 7, "{code}");

    let mut bob = connect(address).await;
    let join = |name: &str| ToServer::Join {
        code: code.clone(),
        name: name.to_owned(),
        tokens: Vec::new(),
    };
    send(&mut bob, &join("Bob")).await;
    let (_, token, seat) = welcome(&next(&mut bob).await);
    assert_eq!(seat.as_deref(), Some("O"));
    let mut eve = connect(address).await;
    send(&mut eve, &join("Eve")).await;
    let (_, _, seat) = welcome(&next(&mut eve).await);
    assert_eq!(seat, None, "a third comer watches");

    // Who moves first was drawn; the other cannot move for them.
    let started = until(&mut ann, |message| {
        happened(message, |happening| {
            matches!(happening, Happening::GameStarted { .. })
        })
    })
    .await;
    let ToClient::Happened {
        happening: Happening::GameStarted { first, .. },
        ..
    } = started
    else {
        unreachable!()
    };
    let ann_first = first == "X";
    let second = if ann_first { &mut bob } else { &mut ann };
    let refused = |message: &ToClient| matches!(message, ToClient::Refused { .. });
    send(second, &ToServer::Play { square: 4 }).await;
    assert_eq!(
        until(second, refused).await,
        ToClient::Refused {
            reason: "It is the other side's turn.".to_owned(),
            re: None,
        }
    );
    send(&mut eve, &ToServer::Play { square: 4 }).await;
    until(&mut eve, refused).await;
    // Not JSON of the protocol: refused, in words.
    eve.send(Message::text("{\"type\":\"fly\"}")).await.unwrap();
    let ToClient::Refused { reason, .. } = until(&mut eve, refused).await else {
        panic!("refused")
    };
    assert!(
        reason.starts_with("That is not a message of this server"),
        "{reason}"
    );

    // The first player wins on the top row; everyone is told each move, in order.
    for (mover, square) in [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)] {
        let client = if (mover == 0) == ann_first {
            &mut ann
        } else {
            &mut bob
        };
        send(client, &ToServer::Play { square }).await;
        for watcher in [&mut ann, &mut bob, &mut eve] {
            until(watcher, |message| {
                happened(message, |happening| {
                    matches!(happening, Happening::Played { square: played, .. } if *played == square)
                })
            })
            .await;
        }
    }
    let ended = until(&mut eve, |message| {
        happened(message, |happening| {
            matches!(happening, Happening::Ended { .. })
        })
    })
    .await;
    assert!(matches!(
        ended,
        ToClient::Happened { happening: Happening::Ended { ref outcome }, .. } if outcome.ends_with("wins")
    ));

    // Bob's connection drops without a word; he comes back by his token, in his seat.
    drop(bob);
    until(&mut ann, |message| {
        happened(message, |happening| {
            matches!(happening, Happening::Left { .. })
        })
    })
    .await;
    let mut again = connect(address).await;
    send(
        &mut again,
        &ToServer::Rejoin {
            code: code.clone(),
            token,
            name: None,
        },
    )
    .await;
    let ToClient::Welcome { seat, snapshot, .. } = next(&mut again).await else {
        panic!("welcomed back")
    };
    assert_eq!(seat.as_deref(), Some("O"));
    assert_eq!(snapshot.moves, [0, 3, 1, 4, 2]);
    until(&mut ann, |message| {
        happened(message, |happening| {
            matches!(happening, Happening::Returned { .. })
        })
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_holds_nobody_up() {
    // Room in the queues for the whole burst: what is measured is whether Sam, who does
    // not read, holds Ann up once the system's buffers towards him are full.
    let limits = Limits {
        messages_per_second: 100_000,
        queue: 30_000,
        ..Limits::default()
    };
    let address = start(Config { limits, ..config() }).await;
    let (ann, welcomed) = ann_hosts(address).await;
    let (code, _, _) = welcome(&welcomed);
    // Sam joins and never reads again.
    let mut sam = connect(address).await;
    send(
        &mut sam,
        &ToServer::Join {
            code: code.clone(),
            name: "Sam".to_owned(),
            tokens: Vec::new(),
        },
    )
    .await;
    // Ann says 20,000 long lines (8 MB, more than the system buffers towards Sam), each
    // told to Sam too, while she reads: she hears every one, in order, to the last.
    const LINES: usize = 20_000;
    let (mut writer, mut reader) = ann.split();
    let listener = tokio::spawn(async move {
        let mut heard = 0;
        while heard < LINES {
            let message = tokio::time::timeout(PATIENCE, reader.next())
                .await
                .expect("Ann hears in time")
                .expect("Ann's connection is open")
                .expect("a message");
            let Message::Text(text) = message else {
                continue;
            };
            if let ToClient::Happened {
                happening: Happening::Said { text, .. },
                ..
            } = serde_json::from_str(text.as_str()).unwrap()
            {
                let number: usize = text[..text.find(' ').unwrap()].parse().unwrap();
                assert_eq!(number, heard, "in order");
                heard += 1;
            }
        }
        heard
    });
    for line in 0..LINES {
        let text = format!("{line} {}", "x".repeat(280));
        let say = serde_json::to_string(&ToServer::Say { text }).unwrap();
        writer.send(Message::text(say)).await.unwrap();
    }
    let heard = tokio::time::timeout(PATIENCE, listener)
        .await
        .expect("in time")
        .unwrap();
    assert_eq!(heard, LINES);
    drop(sam);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_is_served_or_a_line_says_how_to_build_it() {
    let address = start(config()).await;
    let answer = get(address, "/").await;
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("build it with web/build.sh"), "{answer}");

    // Removed when dropped, at the end of the test or while a failure unwinds.
    let folder = common::temporary("ttt-serve-");
    std::fs::write(folder.path().join("index.html"), "<title>ttt</title>").unwrap();
    let address = start(Config {
        web: Some(folder.path().to_path_buf()),
        ..config()
    })
    .await;
    let answer = get(address, "/").await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("<title>ttt</title>"), "{answer}");
}

/// A plain HTTP GET of `path`, the whole answer as text.
async fn get(address: std::net::SocketAddr, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::time::timeout(PATIENCE, TcpStream::connect(address))
        .await
        .unwrap()
        .unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut answer))
        .await
        .unwrap()
        .unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_from_another_site_cannot_open_a_websocket_here() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let address = start(config()).await;
    let open_from = |origin: &str| {
        let mut request = format!("ws://{address}/ws").into_client_request().unwrap();
        request
            .headers_mut()
            .insert("Origin", origin.parse().unwrap());
        tokio::time::timeout(PATIENCE, tokio_tungstenite::connect_async(request))
    };
    let refused = open_from("https://evil.example").await.unwrap();
    let Err(tokio_tungstenite::tungstenite::Error::Http(answer)) = refused else {
        panic!("not refused: {refused:?}");
    };
    assert_eq!(answer.status(), 403);
    // The server's own page is let in.
    let (mut page, _) = open_from(&format!("http://{address}"))
        .await
        .unwrap()
        .unwrap();
    send(&mut page, &ToServer::Ping).await;
    assert_eq!(next(&mut page).await, ToClient::Pong { re: None });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_may_host_so_many_rooms_and_try_so_many_wrong_codes() {
    let limits = Limits {
        rooms_per_address: 2,
        wrong_codes: 3,
        ..Limits::default()
    };
    let address = start(Config { limits, ..config() }).await;
    let mut hosts = Vec::new();
    for _ in 0..2 {
        let (ann, welcomed) = ann_hosts(address).await;
        let (code, _, _) = welcome(&welcomed);
        hosts.push((ann, code));
    }
    let (_, third) = ann_hosts(address).await;
    assert_eq!(
        third,
        ToClient::Refused {
            reason: "You have as many rooms open as one address may: finish one first.".to_owned(),
            re: None
        }
    );
    let mut guesser = connect(address).await;
    let guess = |code: &str| ToServer::Join {
        code: code.to_owned(),
        name: "Guess".to_owned(),
        tokens: Vec::new(),
    };
    for code in ["AAAA-AA", "AAAA-AB", "AAAA-AC"] {
        send(&mut guesser, &guess(code)).await;
        let ToClient::Refused { reason, .. } = next(&mut guesser).await else {
            panic!("refused");
        };
        assert!(reason.starts_with("No room has the code"), "{reason}");
    }
    // Even the right code is refused for the rest of the minute.
    send(&mut guesser, &guess(&hosts[0].1)).await;
    assert_eq!(
        next(&mut guesser).await,
        ToClient::Refused {
            reason: "Too many codes that lead nowhere: wait a minute, then try again.".to_owned(),
            re: None
        }
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_keeps_sending_what_is_not_the_protocol_is_told_goodbye_and_cut_off() {
    let limits = Limits {
        strikes: 3,
        ..Limits::default()
    };
    let address = start(Config { limits, ..config() }).await;
    let mut noisy = connect(address).await;
    for _ in 0..3 {
        noisy.send(Message::text("hello?")).await.unwrap();
    }
    // Each is refused in words; the third time, the server says goodbye.
    for _ in 0..3 {
        assert!(matches!(next(&mut noisy).await, ToClient::Refused { .. }));
    }
    assert!(matches!(
        next(&mut noisy).await,
        ToClient::Bye { again: false, .. }
    ));
    let closed = tokio::time::timeout(PATIENCE, noisy.next()).await.unwrap();
    assert!(
        matches!(closed, None | Some(Ok(Message::Close(_))) | Some(Err(_))),
        "{closed:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_does_not_answer_pings_is_closed() {
    let limits = Limits {
        ping: std::time::Duration::from_millis(100),
        idle: std::time::Duration::from_millis(400),
        ..Limits::default()
    };
    let address = start(Config { limits, ..config() }).await;
    let (mut ann, _) = ann_hosts(address).await;
    // Ann's library answers each ping as she reads: she stays.
    let mut bob = connect(address).await;
    let pings = tokio::time::timeout(PATIENCE, async {
        let mut pings = 0;
        while pings < 6 {
            if let Some(Ok(Message::Ping(_))) = ann.next().await {
                pings += 1;
            }
        }
        pings
    })
    .await
    .unwrap();
    assert_eq!(pings, 6);
    // Bob read nothing all that while, so answered no ping: he was cut off.
    let mut ended = false;
    for _ in 0..20 {
        match tokio::time::timeout(PATIENCE, bob.next()).await.unwrap() {
            Some(Ok(Message::Ping(_))) => {}
            _ => {
                ended = true;
                break;
            }
        }
    }
    assert!(ended, "Bob's connection ended");
    send(&mut ann, &ToServer::Ping).await;
    assert_eq!(next(&mut ann).await, ToClient::Pong { re: None });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_plays_the_servers_perfect_computer_and_never_wins() {
    let address = start(config()).await;
    let mut ann = connect(address).await;
    let host = ToServer::Host {
        rules: "3x3, k=3".to_owned(),
        name: "Ann".to_owned(),
        computer: Some("impossible".to_owned()),
        clock: None,
        public: false,
    };
    send(&mut ann, &host).await;
    let ToClient::Welcome {
        members, snapshot, ..
    } = next(&mut ann).await
    else {
        panic!("welcomed");
    };
    assert!(
        members
            .iter()
            .any(|member| member.name == "Computer (impossible)")
    );
    // Ann plays the first free square whenever it is her turn, two games.
    let mut board: Vec<bool> = vec![false; 9];
    board
        .iter_mut()
        .zip(0..)
        .for_each(|(taken, index)| *taken = snapshot.moves.contains(&index));
    let mut to_move = snapshot.first.clone();
    let mut outcomes = Vec::new();
    for _ in 0..200 {
        if outcomes.len() == 2 {
            break;
        }
        if to_move.as_deref() == Some("X") {
            let square = board.iter().position(|taken| !taken).unwrap();
            send(&mut ann, &ToServer::Play { square }).await;
            to_move = None;
        }
        let ToClient::Happened { happening, .. } = next(&mut ann).await else {
            continue;
        };
        match happening {
            Happening::GameStarted { first, .. } => {
                board = vec![false; 9];
                to_move = Some(first);
            }
            Happening::Played { mark, square } => {
                board[square] = true;
                to_move = Some(if mark == "X" { "O" } else { "X" }.to_owned());
            }
            Happening::Ended { outcome } => {
                to_move = None;
                outcomes.push(outcome);
                send(&mut ann, &ToServer::Rematch).await;
            }
            _ => {}
        }
    }
    assert_eq!(outcomes.len(), 2, "two games played");
    assert!(
        outcomes.iter().all(|outcome| outcome != "X wins"),
        "{outcomes:?}"
    );
}

/// A clock runs out on the server's own time, while nobody moves: a clock of 1.2 s, the
/// first mover's falls, both are told, and the clocks say so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_runs_out_on_the_servers_time_while_nobody_moves() {
    let address = start(config()).await;
    let mut ann = connect(address).await;
    let host = ToServer::Host {
        rules: "3x3, k=3".to_owned(),
        name: "Ann".to_owned(),
        computer: None,
        clock: Some("0.02+0".to_owned()),
        public: false,
    };
    send(&mut ann, &host).await;
    let (code, _, _) = welcome(&next(&mut ann).await);
    let mut bob = connect(address).await;
    let join = ToServer::Join {
        code,
        name: "Bob".to_owned(),
        tokens: Vec::new(),
    };
    send(&mut bob, &join).await;
    let ToClient::Welcome {
        clock: Some(clocks),
        seat,
        ..
    } = until(&mut bob, |message| {
        matches!(message, ToClient::Welcome { .. })
    })
    .await
    else {
        panic!("Bob's welcome has no clocks");
    };
    let begun = std::time::Instant::now();
    assert_eq!((clocks.x, clocks.o), (1_200, 1_200));
    let first = clocks
        .running
        .clone()
        .expect("the first mover's clock runs");
    // Nobody moves: the first mover's time runs out, and both are told.
    for player in [&mut bob, &mut ann] {
        let fell = until(player, |message| {
            happened(message, |happening| {
                matches!(happening, Happening::Forfeited { .. })
            })
        })
        .await;
        let ToClient::Happened {
            happening: Happening::Forfeited { loser, reason },
            clock: Some(clock),
            ..
        } = fell
        else {
            panic!("{fell:?}");
        };
        assert_eq!(loser, first);
        let name = if seat.as_deref() == Some(first.as_str()) {
            "Bob"
        } else {
            "Ann"
        };
        assert_eq!(reason, format!("{name} ran out of time"));
        assert_eq!(clock.running, None, "no clock runs once the game is over");
        let [x, o] = [clock.x, clock.o];
        assert_eq!(if first == "X" { (x, o) } else { (o, x) }, (0, 1_200));
    }
    assert!(begun.elapsed() >= std::time::Duration::from_millis(1_000));
}

/// Reads `client`'s messages into its mirror until `done` says its room is as wanted (at
/// most 200 messages); every happening must follow the last.
async fn follow(
    client: &mut Client,
    mirror: &mut ttt_online::mirror::Mirror,
    done: impl Fn(&ttt_online::mirror::Mirror) -> bool,
) {
    for _ in 0..200 {
        if done(mirror) {
            return;
        }
        let message = next(client).await;
        mirror.take(&message).expect("in step");
    }
    panic!("not done in 200 messages");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_and_two_watchers_see_whole_games_on_3x3_and_15x15() {
    use ttt_online::mirror::Mirror;
    let address = start(config()).await;
    for (rules, width, k) in [("3x3, k=3", 3, 3), ("15x15, k=5", 15, 5)] {
        let mut people = Vec::new();
        let mut ann = connect(address).await;
        let host = ToServer::Host {
            rules: rules.to_owned(),
            name: "Ann".to_owned(),
            computer: None,
            clock: None,
            public: false,
        };
        send(&mut ann, &host).await;
        let mut mirror = Mirror::default();
        follow(&mut ann, &mut mirror, |mirror| mirror.code.is_some()).await;
        let code = mirror.code.clone().unwrap();
        people.push((ann, mirror));
        for name in ["Bob", "Eve", "Dan"] {
            let mut client = connect(address).await;
            let join = ToServer::Join {
                code: code.clone(),
                name: name.to_owned(),
                tokens: Vec::new(),
            };
            send(&mut client, &join).await;
            let mut mirror = Mirror::default();
            follow(&mut client, &mut mirror, |mirror| mirror.code.is_some()).await;
            people.push((client, mirror));
        }
        assert_eq!(people[1].1.seat, Some(Mark::O));
        assert!(
            people[2].1.seat.is_none() && people[3].1.seat.is_none(),
            "two watch"
        );
        // The first mover fills the top row, the other the third, until k in a row.
        for (client, mirror) in &mut people {
            follow(client, mirror, |mirror| mirror.position.is_some()).await;
        }
        let first = people[0].1.position.as_ref().unwrap().first();
        for turn in 0..2 * k - 1 {
            let (mark, row) = if turn % 2 == 0 {
                (first, 0)
            } else {
                (!first, 2)
            };
            let square = row * width + turn / 2;
            let player = if mark == Mark::X { 0 } else { 1 };
            send(&mut people[player].0, &ToServer::Play { square }).await;
            for (client, mirror) in &mut people {
                follow(client, mirror, |mirror| mirror.ply() == turn + 1).await;
            }
        }
        for (client, mirror) in &mut people {
            follow(client, mirror, |mirror| mirror.ended().is_some()).await;
            assert_eq!(
                mirror.ended(),
                Some(ttt_core::Outcome::Win(first)),
                "{rules}"
            );
            assert_eq!(mirror.position.as_ref().unwrap().history().len(), 2 * k - 1);
        }
        let tallies: Vec<[u32; 3]> = people.iter().map(|(_, mirror)| mirror.score).collect();
        assert!(
            tallies.iter().all(|tally| *tally == tallies[0]),
            "{tallies:?}"
        );
    }
}
