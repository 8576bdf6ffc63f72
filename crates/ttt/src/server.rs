//! `ttt serve`: the server of network play. One process holds every online game: the
//! [`Lobby`] of `ttt-online` decides everything (rooms, seats, moves, refusals); this
//! module only carries its messages over WebSocket (`/ws`, one JSON object a message)
//! and serves the web page's files beside it.
//!
//! Bounded whatever the clients do: connections per address, a message's size, messages a
//! second, an idle connection's life, and each connection's queue of messages to send. A
//! client that stops reading loses its connection when its queue is full (its seat is
//! kept for its return), and never holds up the others.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tower_http::services::ServeDir;
use ttt_core::Mark;
use ttt_online::protocol::{ToClient, ToServer};
use ttt_online::room::{self, Delivery, Fresh, Lobby, MemberId};

/// What the server holds to, whatever its clients do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The lobby's: rooms, watchers in a room, length of names and lines.
    pub lobby: room::Limits,
    /// Connections open at once from one address.
    pub per_address: usize,
    /// The largest message a client may send, in bytes.
    pub message_bytes: usize,
    /// Messages a client may send a second (more are refused, and dropped).
    pub messages_per_second: u32,
    /// Messages waiting to be sent to one client; a client whose queue is full is cut off.
    pub queue: usize,
    /// How long a connection may stay silent before it is closed.
    pub idle: Duration,
    /// How long a room nobody is connected to stays open for its players' return.
    pub room_idle: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            lobby: room::Limits::default(),
            per_address: 16,
            message_bytes: 4096,
            messages_per_second: 20,
            queue: 256,
            idle: Duration::from_secs(30 * 60),
            room_idle: Duration::from_secs(30 * 60),
        }
    }
}

/// How the server is set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The folder of the web page's files (`web/dist`), if it is built.
    pub web: Option<PathBuf>,
    /// The bounds.
    pub limits: Limits,
    /// A seed for room codes, tokens and coins (tests); from the system otherwise.
    pub seed: Option<u64>,
}

/// Everything the connections share, behind one lock (never held across an await).
struct Shared {
    lobby: Lobby,
    /// Each connection's queue of messages to send.
    outboxes: HashMap<MemberId, mpsc::Sender<ToClient>>,
    /// Connections open from each address.
    per_address: HashMap<IpAddr, usize>,
    next_id: u64,
    rng: StdRng,
    limits: Limits,
    started: Instant,
}

type Hub = Arc<Mutex<Shared>>;

/// The size of a connection's read and write buffers: a few messages' worth.
const BUFFER: usize = 8 * 1024;

/// The lock, even after a connection's task panicked while holding it (the lobby's state
/// stays whole: it changes only through its own methods).
fn lock(hub: &Hub) -> MutexGuard<'_, Shared> {
    hub.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Serves on `listener` until `shutdown` completes.
///
/// # Errors
/// The listener's, should accepting fail for good.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let rng = match config.seed {
        Some(seed) => StdRng::seed_from_u64(seed),
        None => rand::make_rng(),
    };
    let limits = config.limits;
    let hub: Hub = Arc::new(Mutex::new(Shared {
        lobby: Lobby::new(limits.lobby),
        outboxes: HashMap::new(),
        per_address: HashMap::new(),
        next_id: 0,
        rng,
        limits,
        started: Instant::now(),
    }));
    // Rooms nobody came back to close in time.
    let sweeper = tokio::spawn({
        let hub = hub.clone();
        async move {
            let mut every = tokio::time::interval(Duration::from_secs(60));
            loop {
                every.tick().await;
                let mut shared = lock(&hub);
                let now = shared.started.elapsed().as_secs();
                shared.lobby.sweep(now, limits.room_idle.as_secs());
            }
        }
    });
    let router = Router::new().route("/ws", get(upgrade)).with_state(hub);
    let router = match config.web.as_deref().filter(|web| built(web)) {
        Some(web) => router.fallback_service(ServeDir::new(web)),
        None => router.fallback(unbuilt),
    };
    let served = axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await;
    sweeper.abort();
    served
}

/// The answer for the page when it is not built.
async fn unbuilt() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        "The web page is not built: run web/build.sh, then start `ttt serve` again. \
         Terminal clients play at /ws.\n",
    )
        .into_response()
}

/// A client asks for a WebSocket: taken, within the connections its address may have.
async fn upgrade(
    ws: WebSocketUpgrade,
    ConnectInfo(address): ConnectInfo<SocketAddr>,
    State(hub): State<Hub>,
) -> Response {
    let limits = {
        let mut shared = lock(&hub);
        let limits = shared.limits;
        let open = shared.per_address.entry(address.ip()).or_default();
        if *open >= limits.per_address {
            return (
                StatusCode::TOO_MANY_REQUESTS,
                "Too many connections from this address.\n",
            )
                .into_response();
        }
        *open += 1;
        limits
    };
    ws.max_message_size(limits.message_bytes)
        .max_frame_size(limits.message_bytes)
        // Buffers sized for small messages (the library sizes them for 128 KiB).
        .read_buffer_size(BUFFER)
        .write_buffer_size(BUFFER)
        .on_upgrade(move |socket| connection(socket, address.ip(), hub))
}

/// One client's connection, from its first message to its last.
async fn connection(socket: WebSocket, address: IpAddr, hub: Hub) {
    let (mut sink, mut stream) = socket.split();
    let (id, mut outbox, limits) = {
        let mut shared = lock(&hub);
        shared.next_id += 1;
        let id = MemberId(shared.next_id);
        let (sender, outbox) = mpsc::channel(shared.limits.queue);
        shared.outboxes.insert(id, sender);
        (id, outbox, shared.limits)
    };
    // The writer sends what the queue holds, until the queue is dropped (the connection
    // ended, or the client was too slow to read).
    let writer = tokio::spawn(async move {
        while let Some(message) = outbox.recv().await {
            let Ok(text) = serde_json::to_string(&message) else {
                continue;
            };
            if sink.send(Message::Text(text.into())).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let mut budget = Budget::new(limits.messages_per_second);
    loop {
        let next = match tokio::time::timeout(limits.idle, stream.next()).await {
            Ok(Some(Ok(next))) => next,
            // Silent too long, gone, or broken.
            Err(_) | Ok(None) | Ok(Some(Err(_))) => break,
        };
        let text = match next {
            Message::Text(text) => text,
            Message::Close(_) => break,
            Message::Binary(_) => {
                tell(&hub, id, "Messages are JSON text: see the protocol.");
                continue;
            }
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        if !budget.take() {
            tell(&hub, id, "Too many messages: slow down.");
            continue;
        }
        match serde_json::from_str::<ToServer>(text.as_str()) {
            Ok(message) => {
                let mut shared = lock(&hub);
                let fresh = fresh(&mut shared.rng);
                let out = shared.lobby.handle(id, message, fresh);
                route(&mut shared, out);
            }
            Err(error) => tell(
                &hub,
                id,
                &format!("That is not a message of this server: {error}."),
            ),
        }
    }
    {
        let mut shared = lock(&hub);
        shared.outboxes.remove(&id);
        if let Some(open) = shared.per_address.get_mut(&address) {
            *open = open.saturating_sub(1);
            if *open == 0 {
                shared.per_address.remove(&address);
            }
        }
        let now = shared.started.elapsed().as_secs();
        let out = shared.lobby.disconnect(id, now);
        route(&mut shared, out);
    }
    let _ = writer.await;
}

/// Queues each delivery for its connection; a connection whose queue is full (a client
/// that stopped reading) is cut off, its seat kept for its return.
fn route(shared: &mut Shared, out: Vec<Delivery>) {
    for delivery in out {
        let Some(outbox) = shared.outboxes.get(&delivery.to) else {
            continue;
        };
        if outbox.try_send(delivery.message).is_err() {
            // Dropping the queue ends the writer, which closes the connection.
            shared.outboxes.remove(&delivery.to);
        }
    }
}

/// Tells the connection `id` alone that its message was refused, and why.
fn tell(hub: &Hub, id: MemberId, reason: &str) {
    let mut shared = lock(hub);
    let refused = Delivery {
        to: id,
        message: ToClient::Refused {
            reason: reason.to_owned(),
        },
    };
    route(&mut shared, vec![refused]);
}

/// A new room's code (four letters and digits, none that look alike), a token and a coin.
fn fresh(rng: &mut StdRng) -> Fresh {
    const LETTERS: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
    let mut pick = |count: usize, from: &[u8]| -> String {
        (0..count)
            .map(|_| char::from(from[rng.random_range(0..from.len())]))
            .collect()
    };
    let code = pick(4, LETTERS);
    let token = pick(24, b"abcdefghijklmnopqrstuvwxyz0123456789");
    let coin = if rng.random_bool(0.5) {
        Mark::X
    } else {
        Mark::O
    };
    Fresh { code, token, coin }
}

/// Messages a client may still send this second.
struct Budget {
    per_second: u32,
    left: u32,
    since: Instant,
}

impl Budget {
    fn new(per_second: u32) -> Budget {
        Budget {
            per_second,
            left: per_second,
            since: Instant::now(),
        }
    }

    /// Takes one message from the budget, if any is left this second.
    fn take(&mut self) -> bool {
        if self.since.elapsed() >= Duration::from_secs(1) {
            self.since = Instant::now();
            self.left = self.per_second;
        }
        let left = self.left > 0;
        self.left = self.left.saturating_sub(1);
        left
    }
}

/// Whether `web` holds a built page (its `index.html`).
pub fn built(web: &Path) -> bool {
    web.join("index.html").is_file()
}

/// The page's files to serve: `web` if given, else `web/dist` under the current folder
/// when it is built there.
pub fn web_folder(web: Option<&Path>) -> Option<PathBuf> {
    match web {
        Some(web) => Some(web.to_owned()),
        None => Some(PathBuf::from("web/dist")).filter(|web| built(web)),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use super::*;

    #[test]
    fn a_connection_whose_queue_is_full_is_cut_off_and_the_others_still_get_theirs() {
        let mut shared = Shared {
            lobby: Lobby::new(room::Limits::default()),
            outboxes: HashMap::new(),
            per_address: HashMap::new(),
            next_id: 0,
            rng: StdRng::seed_from_u64(1),
            limits: Limits::default(),
            started: Instant::now(),
        };
        let (slow, _unread) = mpsc::channel(2);
        let (quick, mut read) = mpsc::channel(100);
        shared.outboxes.insert(MemberId(1), slow);
        shared.outboxes.insert(MemberId(2), quick);
        let said = |to| Delivery {
            to: MemberId(to),
            message: ToClient::Refused {
                reason: "x".to_owned(),
            },
        };
        for _ in 0..3 {
            route(&mut shared, vec![said(1), said(2)]);
        }
        assert!(!shared.outboxes.contains_key(&MemberId(1)), "cut off");
        assert!(shared.outboxes.contains_key(&MemberId(2)));
        for _ in 0..3 {
            assert!(read.try_recv().is_ok());
        }
    }

    #[test]
    fn room_codes_use_letters_that_do_not_look_alike() {
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..200 {
            let fresh = fresh(&mut rng);
            assert_eq!(fresh.code.len(), 4);
            assert!(
                !fresh.code.contains(['0', 'O', '1', 'I', 'L']),
                "{}",
                fresh.code
            );
            assert_eq!(fresh.token.len(), 24);
        }
    }
}
