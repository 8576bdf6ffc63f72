//! `ttt serve`: the server of network play. One process holds every online game: the
//! [`Lobby`] of `ttt-online` decides everything (rooms, seats, moves, refusals); this
//! module only carries its messages over WebSocket (`/ws`, one JSON object a message)
//! and serves the web page's files beside it. With a [`ServerStore`], everything that
//! changes a room is written to the disk before anyone is told it: a server killed and
//! started again has every room and every move it acknowledged.
//!
//! Bounded whatever the clients do: connections and rooms per address, tries with codes
//! that lead nowhere, a message's size, messages a second, messages not understood, an
//! idle connection's life (each is pinged, and one that does not answer goes), and each
//! connection's queue of messages to send. A client that stops reading loses its
//! connection when its queue is full (its seat is kept for its return), and never holds
//! up the others. A browser's connection must come from the page this server serves (its
//! `Origin` names this host), so another site cannot play in its visitor's name.

pub mod ssh;
mod store;

pub use store::ServerStore;

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, mpsc as channel};
use std::time::Duration;

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tower_http::services::ServeDir;
use ttt_core::Mark;
use ttt_online::journal::Entry;
use ttt_online::protocol::{self, Request, RoomCode, ToClient, ToServer};
use ttt_online::room::{self, Delivery, Fresh, Lobby, MemberId};

/// What the server holds to, whatever its clients do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The lobby's: rooms, watchers in a room, length of names and lines.
    pub lobby: room::Limits,
    /// Connections open at once from one address.
    pub per_address: usize,
    /// Rooms open at once hosted from one address.
    pub rooms_per_address: usize,
    /// Tries to join or watch with a code, or come back with a code and token, that lead
    /// nowhere, a minute from one address (a join's kept tokens are not tries: a join
    /// whose tokens match nothing comes in as anyone would).
    pub wrong_codes: u32,
    /// Messages not understood (or over the rate) one connection may send before it is
    /// closed.
    pub strikes: u32,
    /// The largest message a client may send, in bytes.
    pub message_bytes: usize,
    /// Messages a client may send a second (more are refused, and dropped).
    pub messages_per_second: u32,
    /// Messages waiting to be sent to one client; a client whose queue is full is cut off.
    pub queue: usize,
    /// How often each connection is pinged.
    pub ping: Duration,
    /// How long a connection may stay silent (no message, no answer to a ping) before it
    /// is closed.
    pub idle: Duration,
    /// How long a room nobody is connected to stays open for its players' return.
    pub room_idle: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            lobby: room::Limits::default(),
            per_address: 16,
            rooms_per_address: 8,
            wrong_codes: 10,
            strikes: 10,
            message_bytes: 4096,
            messages_per_second: 20,
            queue: 256,
            ping: Duration::from_secs(25),
            idle: Duration::from_secs(75),
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
    outboxes: HashMap<MemberId, Outbox>,
    /// Connections open from each address.
    per_address: HashMap<IpAddr, usize>,
    /// The rooms each address hosted (some may have closed since).
    hosted: HashMap<IpAddr, Vec<RoomCode>>,
    /// Each address's tries with codes that led nowhere this minute.
    wrong: HashMap<IpAddr, Budget>,
    /// Whether and how the rooms are kept.
    journal: Journal,
    /// Whether the server listens on the loopback address alone.
    loopback: bool,
    /// The rooms whose computer is thinking now.
    thinking: HashSet<RoomCode>,
    /// Computers thinking at once (each on a thread of its own, within its player's
    /// time and memory bounds), at most.
    thinkers: Arc<tokio::sync::Semaphore>,
    next_id: u64,
    rng: StdRng,
    limits: Limits,
    clock: Clock,
    /// The server's runtime, where the rooms' computers think: a request handed in from
    /// an SSH session's thread (with a runtime of its own, gone with the session) starts
    /// its computer here too.
    runtime: Option<tokio::runtime::Handle>,
}

impl Shared {
    /// Everything shared, around `lobby`, with no connection yet.
    fn new(lobby: Lobby, rng: StdRng, limits: Limits, journal: Journal, loopback: bool) -> Shared {
        Shared {
            lobby,
            outboxes: HashMap::new(),
            per_address: HashMap::new(),
            hosted: HashMap::new(),
            wrong: HashMap::new(),
            journal,
            loopback,
            thinking: HashSet::new(),
            thinkers: Arc::new(tokio::sync::Semaphore::new(THINKERS)),
            next_id: 0,
            rng,
            limits,
            clock: Clock::start(),
            runtime: tokio::runtime::Handle::try_current().ok(),
        }
    }

    /// The server's time, as the lobby counts it.
    fn now(&self) -> u64 {
        self.clock.now()
    }
}

/// The lobby's clock: milliseconds since 1970 (so that the times a room keeps, since when
/// a player is gone, still count after a restart), as the system said when the server
/// started, counted on from there by the runtime's steady clock (which a test may pause
/// and move on at will).
#[derive(Debug, Clone, Copy)]
struct Clock {
    started: Instant,
    wall: u64,
}

impl Clock {
    fn start() -> Clock {
        Clock {
            started: Instant::now(),
            wall: wall_clock(),
        }
    }

    fn now(self) -> u64 {
        let elapsed = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.wall.saturating_add(elapsed)
    }
}

/// The system's time, in milliseconds since 1970.
pub fn wall_clock() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| {
            u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
        })
}

/// How often the players' clocks are looked at, so that one falls when it runs out.
const CLOCK_TICK: Duration = Duration::from_millis(100);

type Hub = Arc<Mutex<Shared>>;

/// Whether the rooms are kept, and the way to the store's writer while they are.
enum Journal {
    /// Not kept: what happens is told at once.
    None,
    /// Kept: what changed the lobby, and what to tell whom once it is on the disk.
    Open(channel::Sender<Work>),
    /// Kept, and the server stopping: nothing more is told (it could not be kept).
    Closed,
}

/// A connection's queue of messages to send, and the signal that cuts it off (its reader
/// then ends, and the room sees it gone).
struct Outbox {
    queue: mpsc::Sender<ToClient>,
    cut: Arc<tokio::sync::Notify>,
}

/// A connection counted against its address, until it is dropped: whether the
/// connection ran and ended, or its upgrade failed before it began.
struct Counted {
    hub: Hub,
    address: IpAddr,
}

impl Counted {
    /// A connection from `address` counted, unless it has as many open as one may.
    fn take(hub: &Hub, address: IpAddr) -> Option<Counted> {
        let mut shared = lock(hub);
        let limit = shared.limits.per_address;
        let open = shared.per_address.entry(address).or_default();
        if *open >= limit {
            return None;
        }
        *open += 1;
        Some(Counted {
            hub: hub.clone(),
            address,
        })
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        let mut shared = lock(&self.hub);
        if let Some(open) = shared.per_address.get_mut(&self.address) {
            *open = open.saturating_sub(1);
            if *open == 0 {
                shared.per_address.remove(&self.address);
            }
        }
    }
}

/// What the store's writer is given: an entry to write (if the lobby changed), and the
/// deliveries to send once it is on the disk (in the order they were made).
struct Work {
    entry: Option<Entry>,
    out: Vec<Delivery>,
}

/// Computers thinking at once, at most: one a core of this machine.
const THINKERS: usize = 2;

/// The size of a connection's read and write buffers: a few messages' worth.
const BUFFER: usize = 8 * 1024;

/// The lock, even after a connection's task panicked while holding it (the lobby's state
/// stays whole: it changes only through its own methods).
fn lock(hub: &Hub) -> MutexGuard<'_, Shared> {
    hub.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Serves on `listener` until `shutdown` completes, and with `ssh`, the full-screen game
/// over SSH in the same rooms. With `kept` (a lobby and its store, from
/// [`ServerStore::open`]), the server goes on from that lobby and writes every change to
/// the store before telling anyone; without, its rooms last as long as it does.
///
/// # Errors
/// The listener's, should accepting fail for good; the store's, should writing to it
/// fail (the server stops then: what it cannot keep, it does not acknowledge).
pub async fn serve(
    listener: tokio::net::TcpListener,
    ssh: Option<ssh::Door>,
    config: Config,
    kept: Option<(Lobby, ServerStore)>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let rng = match config.seed {
        Some(seed) => StdRng::seed_from_u64(seed),
        None => rand::make_rng(),
    };
    let limits = config.limits;
    let (lobby, store) = match kept {
        Some((lobby, store)) => (lobby, Some(store)),
        None => (Lobby::new(limits.lobby), None),
    };
    let loopback = listener
        .local_addr()
        .is_ok_and(|address| address.ip().is_loopback());
    let (journal, work) = match store {
        Some(_) => {
            let (sender, work) = channel::channel();
            (Journal::Open(sender), Some(work))
        }
        None => (Journal::None, None),
    };
    let shared = Shared::new(lobby, rng, limits, journal, loopback);
    let hub: Hub = Arc::new(Mutex::new(shared));
    // The store's writer, on a thread of its own (it waits on the disk); should it fail,
    // the server stops.
    let (failed, failure) = tokio::sync::oneshot::channel::<io::Error>();
    let writer = store.zip(work).map(|(store, work)| {
        let hub = hub.clone();
        std::thread::spawn(move || {
            if let Err(error) = keep(&hub, store, &work) {
                let _ = failed.send(error);
            }
        })
    });
    // Computers to move when the server stopped move now (their moves kept, the writer
    // being there).
    {
        let mut shared = lock(&hub);
        for (code, _, _) in shared.lobby.computers_to_move() {
            think(&hub, &mut shared, code);
        }
    }
    // Rooms nobody came back to close in time.
    let sweeper = tokio::spawn({
        let hub = hub.clone();
        async move {
            let mut every = tokio::time::interval(Duration::from_secs(60));
            loop {
                every.tick().await;
                let mut shared = lock(&hub);
                let (now, idle) = (shared.now(), limits.room_idle.as_secs());
                if let Some(swept) = shared.lobby.sweep_kept(now, idle) {
                    deliver(&mut shared, Some(swept), Vec::new());
                }
                // Addresses whose rooms all closed, or whose minute of wrong codes is up.
                let Shared {
                    lobby,
                    hosted,
                    wrong,
                    ..
                } = &mut *shared;
                hosted.retain(|_, codes| {
                    codes.retain(|&code| lobby.room(code).is_some());
                    !codes.is_empty()
                });
                wrong.retain(|_, budget| !budget.renewed());
            }
        }
    });
    // Clocks that ran out fall, whatever else happens; while clocks run, a tick is kept
    // now and then, so that a restart knows when the server stopped.
    let ticker = tokio::spawn({
        let hub = hub.clone();
        async move {
            let mut every = tokio::time::interval(CLOCK_TICK);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            let mut kept = Instant::now();
            let keep_every = Duration::from_millis(Lobby::TICK_KEPT_EVERY);
            loop {
                every.tick().await;
                let mut shared = lock(&hub);
                let (now, due) = (shared.now(), kept.elapsed() >= keep_every);
                if let Some((out, entry)) = shared.lobby.tick_kept(now, due) {
                    kept = Instant::now();
                    deliver(&mut shared, Some(entry), out);
                }
            }
        }
    });
    // The SSH sessions end when the server stops, once their rooms have said goodbye.
    let (stop_ssh, ssh_stopping) = tokio::sync::watch::channel(false);
    let web_address = listener.local_addr().ok();
    let ssh_door = ssh.map(|door| {
        let web = ssh::WebSide {
            address: web_address,
            page: config.web.as_deref().is_some_and(built),
        };
        tokio::spawn(ssh::serve(door, hub.clone(), web, ssh_stopping))
    });
    let router = Router::new()
        .route("/ws", get(upgrade))
        .with_state(hub.clone());
    let router = match config.web.as_deref().filter(|web| built(web)) {
        Some(web) => router.fallback_service(ServeDir::new(web)),
        None => router.fallback(unbuilt),
    };
    let stopped = {
        let hub = hub.clone();
        async move {
            let failed = tokio::select! {
                () = shutdown => None,
                Ok(error) = failure => Some(error),
            };
            // Everyone is told why the connection ends, and whether to come back.
            let mut shared = lock(&hub);
            let again = matches!(shared.journal, Journal::Open(_)) && failed.is_none();
            let reason = if again {
                "The server is stopping; it keeps its rooms: coming back when it is up again."
            } else {
                "The server stopped, and its rooms with it."
            };
            let out = shared
                .outboxes
                .keys()
                .map(|&to| Delivery {
                    to,
                    message: ToClient::Bye {
                        reason: reason.to_owned(),
                        again,
                    },
                })
                .collect();
            route(&mut shared, out);
            let _ = stop_ssh.send(true);
            failed
        }
    };
    let (stop, stopping) = tokio::sync::oneshot::channel();
    let served = axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        let _ = stop.send(stopped.await);
    })
    .await;
    if let Some(door) = ssh_door {
        // Each session leaves its client's terminal as it found it, within a moment.
        let _ = tokio::time::timeout(Duration::from_secs(3), door).await;
    }
    sweeper.abort();
    ticker.abort();
    // The writer ends once the way to it is gone; connections still open are told nothing
    // more (what they would be told could no longer be kept).
    {
        let mut shared = lock(&hub);
        if let Journal::Open(_) = shared.journal {
            shared.journal = Journal::Closed;
        }
    }
    if let Some(writer) = writer {
        let _ = tokio::task::spawn_blocking(move || writer.join()).await;
    }
    served?;
    match stopping.await {
        Ok(Some(error)) => Err(error),
        _ => Ok(()),
    }
}

/// The store's writer: takes what the connections hand it, writes each batch's entries
/// to the journal and flushes them, then sends the batch's deliveries; keeps the lobby
/// whole again when the journal grows long. Ends when every way to it is gone.
///
/// # Errors
/// The store's: nothing of the batch is told then.
fn keep(hub: &Hub, mut store: ServerStore, work: &channel::Receiver<Work>) -> io::Result<()> {
    while let Ok(first) = work.recv() {
        let mut batch = vec![first];
        batch.extend(work.try_iter());
        store.append(batch.iter().filter_map(|work| work.entry.as_ref()))?;
        let mut shared = lock(hub);
        for work in batch {
            route(&mut shared, work.out);
        }
        if store.is_long() {
            // Under the lock nothing new comes: what waits is all the lobby took that the
            // journal lacks. Written first, the kept lobby then holds everything.
            let waiting: Vec<Work> = work.try_iter().collect();
            store.append(waiting.iter().filter_map(|work| work.entry.as_ref()))?;
            for work in waiting {
                route(&mut shared, work.out);
            }
            // Written without the lock: what comes meanwhile waits for the new journal.
            let (limits, lobby) = (shared.lobby.limits(), shared.lobby.keep());
            drop(shared);
            store.compact(limits, lobby)?;
        }
    }
    Ok(())
}

/// Sends `out` once `entry` (what changed the lobby, if anything did) is kept: through
/// the store's writer when rooms are kept, at once otherwise.
fn deliver(shared: &mut Shared, entry: Option<Entry>, out: Vec<Delivery>) {
    match &shared.journal {
        // A writer that stopped (the disk failed) tells nothing more: the server stops.
        Journal::Open(journal) => {
            let _ = journal.send(Work { entry, out });
        }
        Journal::Closed => {}
        Journal::None => route(shared, out),
    }
}

/// The answer for the page when it is not built.
async fn unbuilt() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        "This server has no web page to serve: build it with web/build.sh in ttt's source \
         and start the server from there (or name the folder: ttt serve --web DIR). \
         Terminal clients play at /ws.\n",
    )
        .into_response()
}

/// A client asks for a WebSocket: taken, within the connections its address may have,
/// and from this server's own page if it comes from a browser.
async fn upgrade(
    ws: WebSocketUpgrade,
    ConnectInfo(address): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    State(hub): State<Hub>,
) -> Response {
    let limits = {
        let shared = lock(&hub);
        if !same_origin(&headers, shared.loopback) {
            return (
                StatusCode::FORBIDDEN,
                "Only this server's own page may play here.\n",
            )
                .into_response();
        }
        shared.limits
    };
    let Some(counted) = Counted::take(&hub, address.ip()) else {
        return (
            StatusCode::TOO_MANY_REQUESTS,
            "Too many connections from this address.\n",
        )
            .into_response();
    };
    ws.max_message_size(limits.message_bytes)
        .max_frame_size(limits.message_bytes)
        // Buffers sized for small messages (the library sizes them for 128 KiB).
        .read_buffer_size(BUFFER)
        .write_buffer_size(BUFFER)
        .on_upgrade(move |socket| connection(socket, counted))
}

/// Whether a WebSocket request comes from this server's own page: a browser says which
/// page in `Origin`, which must name the host the request is for; other clients (the
/// terminal's) send none.
///
/// On a server listening on the loopback address alone (`loopback`), a browser's `Host`
/// must name this machine too: a site whose name an attacker points at 127.0.0.1 after
/// the page loaded (DNS rebinding) sends its own name as both, and is refused.
fn same_origin(headers: &HeaderMap, loopback: bool) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|host| host.to_str().ok())
        .filter(|host| !loopback || names_this_machine(host));
    let origin = origin.to_str().ok().and_then(|origin| {
        origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
    });
    matches!((origin, host), (Some(origin), Some(host)) if origin.eq_ignore_ascii_case(host))
}

/// Whether `host` (a `Host` header: a name or address, and a port) names this machine.
fn names_this_machine(host: &str) -> bool {
    let name = match host.rsplit_once(':') {
        // An IPv6 address in brackets, with or without a port.
        _ if host.starts_with('[') => host
            .split_once(']')
            .map_or(host, |(address, _)| address.trim_start_matches('[')),
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => host,
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<IpAddr>()
            .is_ok_and(|address| address.is_loopback())
}

/// One client's connection, from its first message to its last.
async fn connection(socket: WebSocket, counted: Counted) {
    let (hub, address) = (counted.hub.clone(), counted.address);
    let (mut sink, mut stream) = socket.split();
    let limits = lock(&hub).limits;
    let Member {
        id,
        inbox: mut outbox,
        cut,
    } = Member::enlist(&hub);
    // The writer sends what the queue holds, and a ping now and then, until the queue is
    // dropped (the connection ended, the client was too slow to read, or it was told
    // goodbye).
    let writer = tokio::spawn(async move {
        let mut ping = tokio::time::interval_at(Instant::now() + limits.ping, limits.ping);
        loop {
            let message = tokio::select! {
                message = outbox.recv() => match message {
                    Some(message) => message,
                    None => break,
                },
                _ = ping.tick() => {
                    if sink.send(Message::Ping(Vec::new().into())).await.is_err() {
                        break;
                    }
                    continue;
                }
            };
            let Ok(text) = serde_json::to_string(&message) else {
                continue;
            };
            if sink.send(Message::Text(text.into())).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let mut budget = Budget::new(limits.messages_per_second, Duration::from_secs(1));
    let mut strikes = 0;
    let mut was_cut = false;
    loop {
        let next = tokio::select! {
            next = tokio::time::timeout(limits.idle, stream.next()) => next,
            () = cut.notified() => {
                was_cut = true;
                break;
            }
        };
        let next = match next {
            Ok(Some(Ok(next))) => next,
            // Silent too long, gone, or broken.
            Err(_) | Ok(None) | Ok(Some(Err(_))) => break,
        };
        let text = match next {
            Message::Text(text) => text,
            Message::Close(_) => break,
            Message::Binary(_) => {
                strikes += 1;
                tell(&hub, id, "Messages are JSON text: see the protocol.");
                continue;
            }
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        if !budget.take() {
            strikes += 1;
            tell(&hub, id, "Too many messages: slow down.");
        } else {
            match serde_json::from_str::<Request>(text.as_str()) {
                Ok(request) => handle(&hub, id, address, request),
                Err(error) => {
                    strikes += 1;
                    tell(&hub, id, &protocol::not_understood(&error));
                }
            }
        }
        if strikes >= limits.strikes {
            let bye = ToClient::Bye {
                reason: "Too many messages this server cannot take: the connection is closed."
                    .to_owned(),
                again: false,
            };
            route(
                &mut lock(&hub),
                vec![Delivery {
                    to: id,
                    message: bye,
                }],
            );
            break;
        }
    }
    Member::dismiss(&hub, id);
    if was_cut {
        // Its writer may wait for ever on a client that reads nothing.
        writer.abort();
    } else {
        let _ = writer.await;
    }
    drop(counted);
}

/// One member of the lobby whose messages the server carries (a WebSocket connection, or
/// an SSH session's stay in a room): what it is told comes to `inbox`, and `cut` says it
/// was cut off for not taking it in time.
struct Member {
    id: MemberId,
    inbox: mpsc::Receiver<ToClient>,
    cut: Arc<tokio::sync::Notify>,
}

impl Member {
    /// A new member, with a queue of its own.
    fn enlist(hub: &Hub) -> Member {
        let mut shared = lock(hub);
        shared.next_id += 1;
        let id = MemberId(shared.next_id);
        let (queue, inbox) = mpsc::channel(shared.limits.queue);
        let cut = Arc::new(tokio::sync::Notify::new());
        let outbox = Outbox {
            queue,
            cut: cut.clone(),
        };
        shared.outboxes.insert(id, outbox);
        Member { id, inbox, cut }
    }

    /// The member `id` is gone: its room sees it leave as a dropped connection does.
    fn dismiss(hub: &Hub, id: MemberId) {
        let mut shared = lock(hub);
        shared.outboxes.remove(&id);
        let now = shared.now();
        let (out, left) = shared.lobby.disconnect_kept(id, now);
        deliver(&mut shared, left, out);
    }
}

/// A request from the connection `id` at `address`, handed to the lobby within what the
/// address may do: host so many rooms, and try so many codes that lead nowhere.
fn handle(hub: &Hub, id: MemberId, address: IpAddr, request: Request) {
    let mut shared = lock(hub);
    let shared = &mut *shared;
    let limits = shared.limits;
    let outside = shared.lobby.room_of(id).is_none();
    let refuse = |reason: &str| Delivery {
        to: id,
        message: ToClient::Refused {
            reason: reason.to_owned(),
            re: request.id,
        },
    };
    let trying_a_code = outside
        && matches!(
            request.ask,
            ToServer::Join { .. } | ToServer::Watch { .. } | ToServer::Rejoin { .. }
        );
    if trying_a_code
        && shared
            .wrong
            .get(&address)
            .is_some_and(|budget| budget.spent())
    {
        let refused = refuse("Too many codes that lead nowhere: wait a minute, then try again.");
        return route(shared, vec![refused]);
    }
    let hosting = outside && matches!(request.ask, ToServer::Host { .. });
    if hosting {
        let lobby = &shared.lobby;
        let hosted = shared.hosted.entry(address).or_default();
        hosted.retain(|&code| lobby.room(code).is_some());
        if hosted.len() >= limits.rooms_per_address {
            let refused =
                refuse("You have as many rooms open as one address may: finish one first.");
            return route(shared, vec![refused]);
        }
    }
    let now = shared.now();
    let fresh = fresh(&mut shared.rng, now);
    let (out, entry) = match shared.journal {
        Journal::Open(_) => shared.lobby.handle_kept(id, request, fresh),
        Journal::None | Journal::Closed => (shared.lobby.handle(id, request, fresh), None),
    };
    let entered = shared.lobby.room_of(id).map(|room| room.code());
    match entered {
        Some(code) if hosting => shared.hosted.entry(address).or_default().push(code),
        None if trying_a_code => {
            shared
                .wrong
                .entry(address)
                .or_insert_with(|| Budget::new(limits.wrong_codes, Duration::from_secs(60)))
                .take();
        }
        _ => {}
    }
    deliver(shared, entry, out);
    // The computer of the room, if it is its move now.
    if let Some(code) = entered {
        think(hub, shared, code);
    }
}

/// Has the computer of room `code` think, if it is its move (once a room at a time): on
/// a blocking thread, at most [`THINKERS`] at once, within its player's bounds. Its
/// square goes to the lobby as its move, kept and told as any move. A square found for a
/// game that moved on meanwhile (an undo) is dropped, and the computer thinks again.
fn think(hub: &Hub, shared: &mut Shared, code: RoomCode) {
    if shared.thinking.contains(&code) {
        return;
    }
    let Some((mark, strength, position)) = shared.lobby.room(code).and_then(|room| {
        let (mark, strength) = room.computer_to_move()?;
        Some((mark, strength, room.game().position().clone()))
    }) else {
        return;
    };
    shared.thinking.insert(code);
    let seed: u64 = shared.rng.random();
    let (hub, thinkers) = (hub.clone(), shared.thinkers.clone());
    let Some(runtime) = shared.runtime.clone() else {
        shared.thinking.remove(&code);
        return;
    };
    runtime.spawn(async move {
        let _turn = thinkers.acquire_owned().await;
        let thought = tokio::task::spawn_blocking(move || {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut player = strength.player(ttt_players::Limits::default());
            let chosen = player.choose(&position, &mut rng).ok();
            (chosen, position)
        })
        .await;
        let mut shared = lock(&hub);
        shared.thinking.remove(&code);
        // A thinking thread that failed leaves the room waiting, as a player with no move
        // does (the built-in players do neither on a game under way).
        let Ok((chosen, position)) = thought else {
            return;
        };
        let ply = position.ply();
        // The game moved on while it thought (an undo and another move bring the same
        // ply back with another board): think on the game as it is now.
        let same = shared
            .lobby
            .room(code)
            .is_some_and(|room| room.game().position().history() == position.history());
        if !same {
            think(&hub, &mut shared, code);
            return;
        }
        // A player that found no free square leaves the room waiting for a move
        // (the built-in players always find one on a game under way).
        let Some(square) = chosen else {
            return;
        };
        let now = shared.now();
        if let Some((out, entry)) = shared
            .lobby
            .computer_played_kept(code, mark, ply, square, now)
        {
            deliver(&mut shared, Some(entry), out);
        }
    });
}

/// Queues each delivery for its connection; a connection whose queue is full (a client
/// that stopped reading) is cut off, its seat kept for its return. A goodbye is the last
/// thing a connection is sent.
fn route(shared: &mut Shared, out: Vec<Delivery>) {
    for delivery in out {
        let Some(outbox) = shared.outboxes.get(&delivery.to) else {
            continue;
        };
        let last = matches!(delivery.message, ToClient::Bye { .. });
        if outbox.queue.try_send(delivery.message).is_err() {
            // Too slow to read: its reader ends, and the room sees it gone.
            outbox.cut.notify_one();
            shared.outboxes.remove(&delivery.to);
        } else if last {
            // Dropping the queue ends the writer (once it has sent what the queue holds),
            // which closes the connection.
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
            re: None,
        },
    };
    route(&mut shared, vec![refused]);
}

/// A new room's code, a token of 128 random bits, a coin, and the server's clock (`now`,
/// in milliseconds).
fn fresh(rng: &mut StdRng, now: u64) -> Fresh {
    Fresh {
        code: RoomCode::numbered(rng.random()),
        token: format!("{:032x}", rng.random::<u128>()),
        coin: if rng.random_bool(0.5) {
            Mark::X
        } else {
            Mark::O
        },
        now,
    }
}

/// So many things allowed in a span of time (messages a second, wrong codes a minute).
struct Budget {
    allowed: u32,
    span: Duration,
    left: u32,
    since: Instant,
}

impl Budget {
    fn new(allowed: u32, span: Duration) -> Budget {
        Budget {
            allowed,
            span,
            left: allowed,
            since: Instant::now(),
        }
    }

    /// Whether this span is over, so that the budget is whole again.
    fn renewed(&self) -> bool {
        self.since.elapsed() >= self.span
    }

    /// Whether nothing is left this span.
    fn spent(&self) -> bool {
        !self.renewed() && self.left == 0
    }

    /// Takes one from the budget, if any is left this span.
    fn take(&mut self) -> bool {
        if self.renewed() {
            self.since = Instant::now();
            self.left = self.allowed;
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
        let mut shared = Shared::new(
            Lobby::new(room::Limits::default()),
            StdRng::seed_from_u64(1),
            Limits::default(),
            Journal::None,
            false,
        );
        let (slow, _unread) = mpsc::channel(2);
        let (quick, mut read) = mpsc::channel(100);
        let slow_cut = Arc::new(tokio::sync::Notify::new());
        let quick_cut = Arc::new(tokio::sync::Notify::new());
        let outbox = |queue, cut: &Arc<tokio::sync::Notify>| Outbox {
            queue,
            cut: cut.clone(),
        };
        shared.outboxes.insert(MemberId(1), outbox(slow, &slow_cut));
        shared
            .outboxes
            .insert(MemberId(2), outbox(quick, &quick_cut));
        let said = |to| Delivery {
            to: MemberId(to),
            message: ToClient::Refused {
                reason: "x".to_owned(),
                re: None,
            },
        };
        for _ in 0..3 {
            route(&mut shared, vec![said(1), said(2)]);
        }
        assert!(!shared.outboxes.contains_key(&MemberId(1)), "cut off");
        assert!(shared.outboxes.contains_key(&MemberId(2)));
        // The slow one's reader is told to end (so that the room sees it gone); the
        // other's is not.
        use futures_util::FutureExt;
        assert!(slow_cut.notified().now_or_never().is_some());
        assert!(quick_cut.notified().now_or_never().is_none());
        for _ in 0..3 {
            assert!(read.try_recv().is_ok());
        }
    }

    #[test]
    fn room_codes_use_letters_that_do_not_look_alike_and_tokens_128_bits() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut codes = std::collections::HashSet::new();
        for _ in 0..200 {
            let fresh = fresh(&mut rng, 0);
            let code = fresh.code.to_string();
            assert_eq!(code.len(), 7);
            assert!(!code.contains(['0', 'O', '1', 'I', 'L']), "{code}");
            codes.insert(code);
            assert_eq!(fresh.token.len(), 32);
            assert!(u128::from_str_radix(&fresh.token, 16).is_ok());
        }
        assert!(codes.len() > 195, "codes differ");
    }

    #[test]
    fn only_this_servers_own_page_may_open_a_websocket() {
        let headers = |pairs: &[(header::HeaderName, &str)]| {
            let mut map = HeaderMap::new();
            for (name, value) in pairs {
                map.insert(name.clone(), value.parse().unwrap());
            }
            map
        };
        let host = (header::HOST, "127.0.0.1:7878");
        assert!(
            same_origin(&headers(std::slice::from_ref(&host)), true),
            "a terminal client"
        );
        assert!(same_origin(
            &headers(&[host.clone(), (header::ORIGIN, "http://127.0.0.1:7878")]),
            true
        ));
        assert!(!same_origin(
            &headers(&[host.clone(), (header::ORIGIN, "https://evil.example")]),
            true
        ));
        assert!(!same_origin(
            &headers(&[host, (header::ORIGIN, "http://127.0.0.1:7879")]),
            true
        ));
        assert!(!same_origin(
            &headers(&[(header::ORIGIN, "http://a")]),
            true
        ));
        // DNS rebinding: a site's name pointed at 127.0.0.1 names itself as both.
        let rebound = [
            (header::HOST, "evil.example:7878"),
            (header::ORIGIN, "http://evil.example:7878"),
        ];
        assert!(!same_origin(&headers(&rebound), true));
        assert!(
            same_origin(&headers(&rebound), false),
            "a server for the network is reached by any name"
        );
        for (host, origin) in [
            ("localhost:7878", "http://localhost:7878"),
            ("[::1]:7878", "http://[::1]:7878"),
        ] {
            let pair = [(header::HOST, host), (header::ORIGIN, origin)];
            assert!(same_origin(&headers(&pair), true), "{host}");
        }
    }
}
