//! The server killed with SIGKILL at random moments while scripted clients play 200
//! games, and started again each time on its store: no move the server acknowledged is
//! ever lost, and every game is finished. Over loopback; every wait bounded, every loop
//! bounded in count, the server stopped at the end whatever happens.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

mod common;

use std::collections::HashMap;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use ttt_online::mirror::Mirror;
use ttt_online::protocol::{Request, ToClient, ToServer};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Games to finish in all, and rooms playing them at once.
const GAMES: usize = 200;
const ROOMS: usize = 6;
/// The longest the whole test may take, and any one wait.
const DEADLINE: Duration = Duration::from_secs(240);
const PATIENCE: Duration = Duration::from_secs(10);

/// The server's process, started again after each kill.
struct Server {
    child: Child,
    port: u16,
    store: PathBuf,
}

impl Server {
    fn start(port: u16, store: &PathBuf) -> Server {
        let child = Command::new(env!("CARGO_BIN_EXE_ttt"))
            .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--store"])
            .arg(store)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        Server {
            child,
            port,
            store: store.clone(),
        }
    }

    /// SIGKILL, then the same command again.
    fn kill_and_start(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
        *self = Server::start(self.port, &self.store);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One player's side: the connection, what it sees, its token, and the moves the
/// server acknowledged (game, ply, square) with those it has not yet.
struct Player {
    socket: Option<Socket>,
    mirror: Mirror,
    token: String,
    next_id: u64,
    waiting: HashMap<u64, (u32, usize, usize)>,
    acknowledged: Vec<(u32, usize, usize)>,
    /// The games finished when this player last asked for another.
    rematch_asked: Option<u32>,
}

impl Player {
    fn new() -> Player {
        Player {
            socket: None,
            mirror: Mirror::default(),
            token: String::new(),
            next_id: 0,
            waiting: HashMap::new(),
            acknowledged: Vec::new(),
            rematch_asked: None,
        }
    }

    async fn send(&mut self, ask: ToServer, ply: Option<usize>) -> Option<u64> {
        self.next_id += 1;
        let request = Request {
            id: Some(self.next_id),
            ply,
            ask,
        };
        let text = serde_json::to_string(&request).unwrap();
        let socket = self.socket.as_mut()?;
        socket.send(Message::text(text)).await.ok()?;
        Some(self.next_id)
    }

    /// Plays the first free square if it is this player's turn and no move of its own is
    /// on its way; asks for another game once one is over.
    async fn act(&mut self) {
        if self.mirror.over {
            let finished = self.game();
            if self.rematch_asked != Some(finished) {
                self.rematch_asked = Some(finished);
                self.send(ToServer::Rematch, None).await;
            }
            return;
        }
        if !self.mirror.my_turn() || !self.waiting.is_empty() {
            return;
        }
        let Some(position) = &self.mirror.position else {
            return;
        };
        let square = position.legal_moves()[0].index();
        let (game, ply) = (self.game(), position.ply());
        if let Some(id) = self.send(ToServer::Play { square }, Some(ply)).await {
            self.waiting.insert(id, (game, ply, square));
        }
    }

    /// The number of the game on the board: games finished and the one being played.
    fn game(&self) -> u32 {
        self.mirror.score.iter().sum::<u32>() + u32::from(!self.mirror.over)
    }

    /// The next message, or `None` when the connection is gone.
    async fn next(&mut self) -> Option<ToClient> {
        loop {
            let socket = self.socket.as_mut()?;
            match tokio::time::timeout(PATIENCE, socket.next()).await {
                Ok(Some(Ok(Message::Text(text)))) => {
                    return Some(serde_json::from_str(text.as_str()).unwrap());
                }
                Ok(Some(Ok(_))) => {}
                _ => {
                    self.socket = None;
                    return None;
                }
            }
        }
    }

    /// Takes what the server said; whether the connection should be made again.
    async fn take(&mut self, told: ToClient) -> bool {
        match &told {
            ToClient::Done { re, .. } => {
                if let Some(move_) = self.waiting.remove(re) {
                    self.acknowledged.push(move_);
                }
            }
            ToClient::Refused { re: Some(re), .. } => {
                self.waiting.remove(re);
            }
            ToClient::Bye { .. } => return true,
            ToClient::Welcome { snapshot, .. } => {
                // Every move acknowledged in the game on the board is on it.
                let game = snapshot.games_started;
                for &(of, ply, square) in &self.acknowledged {
                    if of == game {
                        assert_eq!(
                            snapshot.moves.get(ply),
                            Some(&square),
                            "an acknowledged move of game {game} is lost: {snapshot:?}"
                        );
                    }
                }
                self.waiting.clear();
            }
            _ => {}
        }
        if self.mirror.take(&told).is_err() {
            return true;
        }
        false
    }
}

/// Connects to the server, trying again while it starts (at most 200 tries).
async fn connect(port: u16) -> Socket {
    for _ in 0..200 {
        let url = format!("ws://127.0.0.1:{port}/ws");
        if let Ok(Ok((socket, _))) =
            tokio::time::timeout(PATIENCE, tokio_tungstenite::connect_async(url)).await
        {
            return socket;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the server never came back");
}

/// Connects `player` and comes into the room with `hello`, until welcomed.
async fn enter(player: &mut Player, port: u16, hello: impl Fn(&Player) -> ToServer) {
    for _ in 0..100 {
        player.socket = Some(connect(port).await);
        player.rematch_asked = None;
        let hello = hello(player);
        player.send(hello, None).await;
        while let Some(told) = player.next().await {
            if let ToClient::Welcome { token, .. } = &told {
                token.clone_into(&mut player.token);
                player.take(told).await;
                return;
            }
        }
    }
    panic!("never welcomed");
}

/// Two players in one room play `games` games, coming back after every kill.
async fn play_room(port: u16, games: u32, finished: Arc<AtomicUsize>) {
    let mut host = Player::new();
    let hosting = |_: &Player| ToServer::Host {
        rules: "3x3, k=3".to_owned(),
        name: "Ann".to_owned(),
        computer: None,
        clock: None,
        public: false,
    };
    enter(&mut host, port, hosting).await;
    let code = host.mirror.code.clone().unwrap();
    let mut guest = Player::new();
    let joining = |_: &Player| ToServer::Join {
        code: code.clone(),
        name: "Bob".to_owned(),
        tokens: Vec::new(),
    };
    enter(&mut guest, port, joining).await;
    let rejoin = |player: &Player| ToServer::Rejoin {
        code: code.clone(),
        token: player.token.clone(),
        name: None,
    };
    let mut counted = 0;
    let start = Instant::now();
    while start.elapsed() < DEADLINE {
        for player in [&mut host, &mut guest] {
            player.act().await;
        }
        // Whoever is told something first.
        let told = tokio::select! {
            told = host.next() => (0, told),
            told = guest.next() => (1, told),
        };
        let again = match told {
            (who, Some(told)) => {
                let player = if who == 0 { &mut host } else { &mut guest };
                player.take(told).await
            }
            (_, None) => true,
        };
        if again {
            // The server went away (or a happening was missed): both come back.
            for player in [&mut host, &mut guest] {
                player.socket = None;
                enter(player, port, rejoin).await;
            }
        }
        let done = host.mirror.score.iter().sum::<u32>();
        if done > counted {
            finished.fetch_add((done - counted) as usize, Ordering::SeqCst);
            counted = done;
        }
        if counted >= games {
            return;
        }
    }
    panic!("the room did not finish its games in time");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_at_random_moments_loses_no_acknowledged_move() {
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    // The store is made by the server, in a temporary folder removed when dropped.
    let folder = common::temporary("ttt-faults-");
    let store = folder.path().join("store");
    let server = Arc::new(Mutex::new(Server::start(port, &store)));
    let finished = Arc::new(AtomicUsize::new(0));
    let done = Arc::new(AtomicBool::new(false));
    // The killer: SIGKILL every 100 to 500 ms, until the games are played (at most 500
    // times).
    let killer = tokio::spawn({
        let (server, done) = (server.clone(), done.clone());
        async move {
            let mut rng = StdRng::seed_from_u64(29);
            let mut kills = 0;
            while !done.load(Ordering::SeqCst) && kills < 500 {
                tokio::time::sleep(Duration::from_millis(rng.random_range(100..500))).await;
                if done.load(Ordering::SeqCst) {
                    break;
                }
                server.lock().unwrap().kill_and_start();
                kills += 1;
            }
            kills
        }
    });
    let per_room = GAMES.div_ceil(ROOMS) as u32;
    let rooms: Vec<_> = (0..ROOMS)
        .map(|_| tokio::spawn(play_room(port, per_room, finished.clone())))
        .collect();
    for room in rooms {
        tokio::time::timeout(DEADLINE, room)
            .await
            .expect("every room finishes in time")
            .expect("no room fails");
    }
    done.store(true, Ordering::SeqCst);
    let kills = killer.await.unwrap();
    assert!(finished.load(Ordering::SeqCst) >= GAMES);
    assert!(kills >= 5, "the server was killed {kills} times");
    println!(
        "{} games finished, the server killed {kills} times",
        finished.load(Ordering::SeqCst)
    );
    drop(server);
}
