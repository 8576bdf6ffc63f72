//! A load test of the server of network play, over loopback: the server alone in a child
//! process (this program started again as `load serve`), holding to the limits `ttt
//! serve` holds to; then ROOMS rooms of two players (WebSocket clients, in this process),
//! every room opened and joined before any game begins, each pair playing GAMES games of
//! tic-tac-toe at once, a player moving about PAUSE milliseconds after the other's move
//! came (from half of it to one and a half, at random: people do not all move in the same
//! millisecond). The round trip of each move is timed: sent, until the mover is told it
//! was played.
//! It prints the connections held, the moves a second, the round trips' median, 99th
//! percentile and worst, and the server process's memory (resident with every room open,
//! and its peak) and CPU time.
//!
//! ```text
//! cargo run --release -p ttt --example load -- 5000 3 1000
//! cargo run --release -p ttt --example load -- 500 3 1000 /tmp/ttt-load-store
//! ```
//!
//! With `ssh` first, the SSH side instead (`ttt serve --ssh`): SESSIONS guests at 80x24
//! terminals (from loopback addresses of their own, 8 an address), every one on the start
//! screen before any key, then for SECONDS each pressing an arrow about PAUSE
//! milliseconds after the last frame came (half to one and a half of it): each key moves
//! the start screen's choice, and its frame is timed from the key's sending to the first
//! bytes back. It prints the sessions held, the frames a second and their bytes, the
//! round trips, and the server's memory (a session's share) and CPU.
//!
//! ```text
//! cargo run --release -p ttt --example load -- ssh 200 20 1000
//! ```
//!
//! ROOMS defaults to 200, GAMES to 3, PAUSE to 1000; with a fourth argument, the rooms
//! are kept in that folder (emptied first) as `ttt serve` keeps them: every change flushed
//! to the disk before anyone is told it. Each address may hold 16 connections and host 8
//! rooms, as on a real server: the players of 8 rooms share one loopback address
//! (127.1.x.y), so 5,000 rooms come from 625 addresses. The clients need a file
//! descriptor each (`ulimit -n` above 2 × ROOMS), and so does the server.
//!
//! Linux only (the server's memory and CPU are read from /proc). Every wait is bounded: a
//! step that takes more than 30 s ends the run with a message, and the server is stopped
//! whatever happens.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "an example ends on any failure, saying where"
)]

use std::io::{BufRead, BufReader};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use tokio_tungstenite::{MaybeTlsStream, client_async};
use ttt::server::{Config, Limits, ServerStore};
use ttt_online::protocol::{Happening, ToClient, ToServer};

#[path = "../tests/support/mod.rs"]
#[allow(dead_code, reason = "the tests' support: the example uses part of it")]
mod support;

use support::websocket::{Client, PATIENCE, next, send};

/// Rooms hosted from one address, as the server allows.
const ROOMS_AN_ADDRESS: usize = 8;

/// Connections opened at once while the rooms are set up.
const OPENING: usize = 64;

fn main() {
    let mut arguments = std::env::args().skip(1);
    let first = arguments.next();
    if first.as_deref() == Some("serve") {
        return serve(arguments.next().map(std::path::PathBuf::from));
    }
    if first.as_deref() == Some("serve-ssh") {
        return serve_ssh(
            arguments
                .next()
                .map_or(256, |text| text.parse().expect("SESSIONS")),
        );
    }
    if first.as_deref() == Some("ssh") {
        let mut number = |default: u64, what: &str| {
            arguments
                .next()
                .map_or(default, |text| text.parse().expect(what))
        };
        let sessions = number(200, "SESSIONS") as usize;
        let seconds = Duration::from_secs(number(20, "SECONDS"));
        let pause = Duration::from_millis(number(1000, "PAUSE (ms)"));
        let mut server = Server::start_ssh(sessions);
        let runtime = runtime();
        return runtime.block_on(ssh::run(&mut server, sessions, seconds, pause));
    }
    let rooms: usize = first.map_or(200, |text| text.parse().expect("ROOMS"));
    let games: u32 = arguments
        .next()
        .map_or(3, |text| text.parse().expect("GAMES"));
    let pause = Duration::from_millis(
        arguments
            .next()
            .map_or(1000, |text| text.parse().expect("PAUSE (ms)")),
    );
    let store = arguments.next();
    let mut server = Server::start(store.as_deref());
    let runtime = runtime();
    runtime.block_on(run(&mut server, rooms, games, pause));
}

/// A runtime of two worker threads, as `ttt serve`'s.
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// The server in a child process, stopped when dropped.
struct Server {
    child: Child,
    address: SocketAddr,
}

impl Server {
    /// This program started again as `load serve`, once it says where it listens.
    fn start(store: Option<&str>) -> Server {
        Server::started(&["serve"], store)
    }

    /// This program started again as `load serve-ssh SESSIONS`: `address` is its SSH
    /// side's.
    fn start_ssh(sessions: usize) -> Server {
        Server::started(&["serve-ssh"], Some(&sessions.to_string()))
    }

    fn started(command: &[&str], argument: Option<&str>) -> Server {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(command)
            .args(argument)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .trim()
            .strip_prefix("listening on ")
            .expect("the server says where it listens")
            .parse()
            .unwrap();
        Server { child, address }
    }

    /// A figure of `/proc/PID/status` (`VmRSS`, `VmHWM`), in KB.
    fn status_kb(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status.lines().find(|line| line.starts_with(field)).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    /// The CPU time the server has used, user and system.
    fn cpu(&self) -> Duration {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap();
        // After the command's name in parentheses: utime and stime are fields 14 and 15,
        // in the kernel's clock ticks (USER_HZ, 100 a second).
        let after = &stat[stat.rfind(')').unwrap() + 2..];
        let fields: Vec<u64> = after
            .split(' ')
            .skip(11)
            .take(2)
            .map(|field| field.parse().unwrap())
            .collect();
        Duration::from_millis((fields[0] + fields[1]) * 10)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The child: `ttt serve`'s server on a free loopback port, with its limits, until killed.
fn serve(store: Option<std::path::PathBuf>) {
    let runtime = runtime();
    runtime.block_on(async {
        let limits = Limits::default();
        let kept = store.map(|folder| {
            let _ = std::fs::remove_dir_all(&folder);
            let (lobby, store, _) =
                ServerStore::open(&folder, limits.lobby, ttt::server::wall_clock()).unwrap();
            (lobby, store)
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        println!("listening on {}", listener.local_addr().unwrap());
        let config = Config {
            web: None,
            limits,
            seed: None,
        };
        ttt::server::serve(listener, None, config, kept, std::future::pending())
            .await
            .unwrap();
    });
}

/// The child of `load ssh`: `ttt serve`'s server with its SSH side on free loopback
/// ports, with room for `sessions` sessions, until killed; it says the SSH address.
fn serve_ssh(sessions: usize) {
    let runtime = runtime();
    runtime.block_on(async {
        let folder = std::env::temp_dir().join(format!("ttt-load-ssh-{}", std::process::id()));
        let (host_key, _) = ttt::server::ssh::host_key::load_or_make(&folder).unwrap();
        let _ = std::fs::remove_dir_all(&folder);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let ssh = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        println!("listening on {}", ssh.local_addr().unwrap());
        let door = ttt::server::ssh::Door {
            listener: ssh,
            host_key,
            players: None,
            limits: ttt::server::ssh::Limits {
                sessions: sessions.max(256),
                ..ttt::server::ssh::Limits::default()
            },
        };
        let config = Config {
            web: None,
            limits: Limits::default(),
            seed: None,
        };
        ttt::server::serve(listener, Some(door), config, None, std::future::pending())
            .await
            .unwrap();
    });
}

async fn run(server: &mut Server, rooms: usize, games: u32, pause: Duration) {
    let before = server.status_kb("VmRSS:");
    let opening = Instant::now();
    let address = server.address;
    // Every room opened and joined before any game begins, a few at a time.
    let pairs: Vec<(Client, Client)> = futures_util::stream::iter(0..rooms)
        .map(|room| open_room(address, room))
        .buffer_unordered(OPENING)
        .collect()
        .await;
    let opened_in = opening.elapsed();
    let open = server.status_kb("VmRSS:");
    let (cpu_before, start) = (server.cpu(), Instant::now());
    let plays: Vec<_> = pairs
        .into_iter()
        .map(|(host, guest)| tokio::spawn(play_games(host, guest, games, pause)))
        .collect();
    let mut moves = 0;
    let mut trips = Vec::new();
    for play in plays {
        let (played, timed) = play.await.unwrap();
        moves += played;
        trips.extend(timed);
    }
    let seconds = start.elapsed().as_secs_f64();
    let cpu = (server.cpu() - cpu_before).as_secs_f64();
    let peak = server.status_kb("VmHWM:");
    trips.sort_unstable();
    println!(
        "{} connections held ({rooms} rooms, opened in {:.1} s); {rooms} games at once, {games} \
         each, a move about {} ms after the other's",
        rooms * 2,
        opened_in.as_secs_f64(),
        pause.as_millis()
    );
    println!(
        "{moves} moves in {seconds:.1} s: {:.0} moves a second; round trip {}",
        moves as f64 / seconds,
        spread(&trips),
    );
    let memory = Memory { before, open, peak };
    println!(
        "server: {}",
        memory.said("room open", "connection", rooms * 2, cpu, seconds)
    );
}

/// The median, 99th percentile and worst of `sorted` (round trips, in order), in words.
fn spread(sorted: &[Duration]) -> String {
    let at = |share: f64| {
        let index = ((sorted.len() as f64 * share).ceil() as usize).clamp(1, sorted.len()) - 1;
        sorted
            .get(index)
            .map_or(0.0, |trip| trip.as_secs_f64() * 1000.0)
    };
    format!(
        "p50 {:.2} ms, p99 {:.2} ms, worst {:.1} ms",
        at(0.5),
        at(0.99),
        at(1.0)
    )
}

/// The server's resident memory, in KB: before the clients came, with all of them there,
/// and at its peak.
struct Memory {
    before: u64,
    open: u64,
    peak: u64,
}

impl Memory {
    /// In words, with a share for each of `count` `what`s (all of them `open`), and the
    /// CPU time `cpu` the server took in `seconds`.
    fn said(&self, open: &str, what: &str, count: usize, cpu: f64, seconds: f64) -> String {
        format!(
            "{:.1} MB resident before, {:.1} MB with every {open} ({:.1} KB a {what}), {:.1} \
             MB at its peak; CPU {cpu:.1} s in {seconds:.1} s ({:.0}% of one core)",
            self.before as f64 / 1024.0,
            self.open as f64 / 1024.0,
            self.open.saturating_sub(self.before) as f64 / count.max(1) as f64,
            self.peak as f64 / 1024.0,
            cpu / seconds * 100.0,
        )
    }
}

/// Room number `room`: a host opens it and a guest joins, both from the room's address.
async fn open_room(server: SocketAddr, room: usize) -> (Client, Client) {
    let group = room / ROOMS_AN_ADDRESS;
    let from = IpAddr::V4(Ipv4Addr::new(
        127,
        1,
        (group / 250) as u8,
        (group % 250 + 1) as u8,
    ));
    let mut host = connect(server, from).await;
    let hosting = ToServer::Host {
        rules: "3x3, k=3".to_owned(),
        name: "H".to_owned(),
        computer: None,
        clock: None,
        public: false,
    };
    send(&mut host, &hosting).await;
    let ToClient::Welcome { code, .. } = next(&mut host).await else {
        panic!("no welcome")
    };
    let mut guest = connect(server, from).await;
    let join = ToServer::Join {
        code,
        name: "G".to_owned(),
        tokens: Vec::new(),
    };
    send(&mut guest, &join).await;
    (host, guest)
}

/// A connection to the server from the loopback address `from`.
async fn connect(server: SocketAddr, from: IpAddr) -> Client {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    let stream = tokio::time::timeout(PATIENCE, socket.connect(server))
        .await
        .expect("connects in time")
        .expect("connects");
    let (client, _) = tokio::time::timeout(
        PATIENCE,
        client_async(format!("ws://{server}/ws"), MaybeTlsStream::Plain(stream)),
    )
    .await
    .expect("opens in time")
    .expect("opens");
    client
}

/// The two players of a room play `games` games: each plays the lowest free square on
/// its turn, about `pause` after the other's move came (from half of it to one and a
/// half, at random), so that whoever moves first wins on
/// the diagonal 3-5-7 with the game's seventh move; then both ask for another game.
/// Returns the moves played, and the round trip of each move timed: from its sending
/// until its player was told it (the last of the last game may go untimed, the room
/// ending as the host is told the end).
async fn play_games(
    mut host: Client,
    mut guest: Client,
    games: u32,
    pause: Duration,
) -> (usize, Vec<Duration>) {
    let (mut moves, mut trips) = (0, Vec::new());
    let mut board = [false; 9];
    // The host took the first seat, X; the guest the other.
    let seats = ["X", "O"];
    let mut finished = 0;
    // When each player's move in flight was sent.
    let mut sent: [Option<Instant>; 2] = [None; 2];
    // The player to move next, and when.
    let mut due: Option<(usize, tokio::time::Instant)> = None;
    loop {
        // Whoever is told something next, or a move that is due.
        let at = due.map_or_else(tokio::time::Instant::now, |(_, at)| at);
        let (who, message) = tokio::select! {
            message = next(&mut host) => (0, message),
            message = next(&mut guest) => (1, message),
            () = tokio::time::sleep_until(at), if due.is_some() => {
                let (player, _) = due.take().unwrap();
                let square = board.iter().position(|taken| !taken).unwrap();
                let client = if player == 0 { &mut host } else { &mut guest };
                sent[player] = Some(Instant::now());
                send(client, &ToServer::Play { square }).await;
                continue;
            }
        };
        let mut mover: Option<usize> = None;
        if let ToClient::Happened {
            happening: Happening::Played { .. },
            ..
        } = message
        {
            trips.extend(sent[who].take().map(|at| at.elapsed()));
        }
        match message {
            ToClient::Happened { happening, .. } => match happening {
                // Both are told each happening: the game goes on from the host's copy.
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
                        return (moves, trips);
                    }
                    send(&mut host, &ToServer::Rematch).await;
                    send(&mut guest, &ToServer::Rematch).await;
                }
                _ => {}
            },
            ToClient::Refused { reason, .. } | ToClient::Bye { reason, .. } => {
                panic!("refused: {reason}")
            }
            ToClient::Welcome { .. }
            | ToClient::Done { .. }
            | ToClient::Pong { .. }
            | ToClient::Rooms { .. } => {}
        }
        if let Some(player) = mover {
            // People do not all move in the same millisecond: half the pause either way.
            let think = pause.mul_f64(rand::random_range(0.5..1.5));
            due = Some((player, tokio::time::Instant::now() + think));
        }
    }
}

/// `load ssh`: guests at SSH terminals, pressing keys.
mod ssh {
    use std::net::{IpAddr, Ipv4Addr, SocketAddr};
    use std::time::{Duration, Instant};

    use futures_util::StreamExt;
    use russh::{ChannelMsg, client};

    use super::support::ssh;
    use super::support::websocket::PATIENCE;
    use super::{OPENING, Server};

    /// Sessions from one loopback address (it may hold 16 connections).
    const AN_ADDRESS: usize = 8;

    /// One guest's session, on the start screen.
    struct Guest {
        _session: client::Handle<super::support::ssh::Trusting>,
        channel: russh::Channel<client::Msg>,
    }

    /// What one guest measured: frames, their bytes, and the round trip of each key.
    #[derive(Default)]
    struct Measured {
        frames: usize,
        bytes: usize,
        trips: Vec<Duration>,
    }

    pub async fn run(server: &mut Server, sessions: usize, seconds: Duration, pause: Duration) {
        let before = server.status_kb("VmRSS:");
        let opening = Instant::now();
        let address = server.address;
        let guests: Vec<Guest> = futures_util::stream::iter(0..sessions)
            .map(|number| open(address, number))
            .buffer_unordered(OPENING)
            .collect()
            .await;
        let opened_in = opening.elapsed();
        // The first frames drawn and sent: the sessions as they stay.
        tokio::time::sleep(Duration::from_secs(1)).await;
        let open = server.status_kb("VmRSS:");
        let (cpu_before, start) = (server.cpu(), Instant::now());
        let pressing: Vec<_> = guests
            .into_iter()
            .enumerate()
            .map(|(number, guest)| tokio::spawn(press(guest, number, seconds, pause)))
            .collect();
        let mut all = Measured::default();
        for measured in pressing {
            let measured = measured.await.unwrap();
            all.frames += measured.frames;
            all.bytes += measured.bytes;
            all.trips.extend(measured.trips);
        }
        let elapsed = start.elapsed().as_secs_f64();
        let cpu = (server.cpu() - cpu_before).as_secs_f64();
        let peak = server.status_kb("VmHWM:");
        all.trips.sort_unstable();
        println!(
            "{sessions} SSH sessions held (opened in {:.1} s), a key about {} ms after the \
             last frame, for {:.0} s",
            opened_in.as_secs_f64(),
            pause.as_millis(),
            seconds.as_secs_f64()
        );
        println!(
            "{} frames in {elapsed:.1} s: {:.0} frames a second, {:.0} bytes a frame; key to \
             frame {}",
            all.frames,
            all.frames as f64 / elapsed,
            all.bytes as f64 / all.frames.max(1) as f64,
            super::spread(&all.trips),
        );
        let memory = super::Memory { before, open, peak };
        let said = memory.said("session open", "session", sessions, cpu, elapsed);
        println!("server: {said}");
    }

    /// Guest number `number` logs in from its address and waits for its start screen.
    async fn open(server: SocketAddr, number: usize) -> Guest {
        let group = number / AN_ADDRESS;
        let from = IpAddr::V4(Ipv4Addr::new(
            127,
            2,
            (group / 250) as u8,
            (group % 250 + 1) as u8,
        ));
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::new(from, 0)).unwrap();
        let stream = tokio::time::timeout(PATIENCE, socket.connect(server))
            .await
            .expect("connects in time")
            .expect("connects");
        let (mut session, _) = ssh::connect(stream, client::Config::default()).await;
        assert!(ssh::log_in(&mut session, ttt::server::ssh::GUEST, None).await);
        let mut channel = ssh::open(&session, Some((80, 24)), None).await;
        // The start screen: its first bytes, and the rest that follows within a moment.
        let mut until = tokio::time::Instant::now() + PATIENCE;
        let mut shown = 0;
        loop {
            match tokio::time::timeout_at(until, channel.wait()).await {
                Ok(Some(ChannelMsg::Data { data })) => {
                    shown += data.len();
                    until = tokio::time::Instant::now() + Duration::from_millis(200);
                }
                Ok(Some(_)) => {}
                Err(_) if shown > 0 => break,
                other => panic!("guest {number}: no start screen ({other:?})"),
            }
        }
        Guest {
            _session: session,
            channel,
        }
    }

    /// Presses Up and Down in turn for `seconds`, each about `pause` after the last frame.
    async fn press(
        mut guest: Guest,
        number: usize,
        seconds: Duration,
        pause: Duration,
    ) -> Measured {
        let mut measured = Measured::default();
        let end = tokio::time::Instant::now() + seconds;
        // A pause from half to one and a half of `pause`, varied by guest and key.
        let mut seed = number as u64 * 2_654_435_761 + 1;
        let mut next_pause = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            pause.mul_f64(0.5 + (seed >> 11) as f64 / (1u64 << 53) as f64)
        };
        // The choice starts on Start, at the bottom: up first.
        let mut down = false;
        while tokio::time::Instant::now() < end {
            tokio::time::sleep(next_pause()).await;
            let key: &[u8] = if down { b"\x1b[B" } else { b"\x1b[A" };
            down = !down;
            let sent = Instant::now();
            guest.channel.data(key).await.unwrap();
            let until = tokio::time::Instant::now() + PATIENCE;
            let mut timed = false;
            // The frame of the key, and whatever else comes within a moment.
            loop {
                let wait = if timed {
                    tokio::time::Instant::now() + Duration::from_millis(20)
                } else {
                    until
                };
                match tokio::time::timeout_at(wait, guest.channel.wait()).await {
                    Ok(Some(ChannelMsg::Data { data })) => {
                        if !timed {
                            measured.trips.push(sent.elapsed());
                            timed = true;
                        }
                        measured.frames += 1;
                        measured.bytes += data.len();
                    }
                    Ok(Some(_)) => {}
                    Ok(None) => panic!("guest {number}: the session closed"),
                    Err(_) if timed => break,
                    Err(_) => panic!("guest {number}: no frame for a key"),
                }
            }
        }
        measured
    }
}
