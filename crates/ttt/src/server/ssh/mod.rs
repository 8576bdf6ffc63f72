//! `ttt serve --ssh ADDR`: the full-screen game over SSH, in the server's own rooms.
//! Anyone with a terminal plays with nothing installed: `ssh -p 2222 HOST` opens the start
//! screen, and an SSH player, a terminal client and a browser page sit in the same rooms.
//!
//! Each SSH session drives an [`App`](ttt_play::app::App) of its own, on a thread of its
//! own, drawn into the
//! bytes of the client's terminal (`screen`) from the keys its bytes carry (`keys`);
//! a computer thinks on the server's threads, at most as many at once as the rooms'
//! computers; a room is entered as a member of the lobby like a WebSocket connection, with
//! no socket between (`online`). A person is known by their key's fingerprint: a keyed
//! player's games and start-screen choices are kept in a folder of their own, as a local
//! player's are; without a key (`ssh guest@HOST`), a guest keeps nothing.
//!
//! Bounded whatever clients do: sessions at once, connections per address (counted with
//! the WebSocket ones), time to log in, tries to authenticate, a person's silence, frames
//! a second, and one frame waiting per client.

pub mod host_key;
mod keys;
mod online;
mod screen;
mod session;

pub use keys::KeyReader;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use russh::keys::{HashAlg, PrivateKey, PublicKey};
use russh::server::{Auth, Msg, Session, VerifiedPublicKey};
use russh::{Channel, ChannelId, MethodKind, MethodSet};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};

use super::{Counted, Hub, lock};

/// The user name that plays without a key.
pub const GUEST: &str = "guest";

/// The SSH side of a server: where it listens, as whom, where players' games are kept.
pub struct Door {
    /// The listener for SSH clients.
    pub listener: TcpListener,
    /// The server's host key (see [`host_key::load_or_make`]).
    pub host_key: PrivateKey,
    /// The folder that keeps a folder for each key's games, if any is kept.
    pub players: Option<PathBuf>,
    /// The bounds.
    pub limits: Limits,
}

/// What the SSH side holds to, whatever its clients do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// SSH connections at once, from everywhere.
    pub sessions: usize,
    /// Tries to authenticate on one connection.
    pub auth_attempts: usize,
    /// The time a client has to connect and log in.
    pub login: Duration,
    /// How long a person may type nothing before the session ends.
    pub idle: Duration,
    /// Frames a second sent to one client, at most.
    pub frames_per_second: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            sessions: 256,
            auth_attempts: 6,
            login: Duration::from_secs(30),
            idle: Duration::from_secs(30 * 60),
            frames_per_second: 30,
        }
    }
}

/// Where the web side of the server is reached: for the words that invite a friend.
#[derive(Debug, Clone, Copy)]
pub(super) struct WebSide {
    /// The WebSocket listener's address, `ttt join --server` names.
    pub address: Option<SocketAddr>,
    /// Whether the web page is served there too.
    pub page: bool,
}

/// What every session of the SSH side shares.
struct Context {
    hub: Hub,
    players: Option<PathBuf>,
    limits: Limits,
    web: WebSide,
    /// Says when the server stops.
    stopping: watch::Receiver<bool>,
    /// Computers thinking at once, shared with the rooms' computers.
    thinkers: Arc<Semaphore>,
}

/// Takes SSH clients on `door` until the server stops.
pub(super) async fn serve(door: Door, hub: Hub, web: WebSide, mut stopping: watch::Receiver<bool>) {
    let config = Arc::new(russh::server::Config {
        server_id: russh::SshId::Standard(
            format!("SSH-2.0-ttt_{}", env!("CARGO_PKG_VERSION")).into(),
        ),
        methods: MethodSet::from(&[MethodKind::PublicKey, MethodKind::None][..]),
        keys: vec![door.host_key],
        max_auth_attempts: door.limits.auth_attempts,
        auth_rejection_time: Duration::from_millis(500),
        auth_rejection_time_initial: Some(Duration::ZERO),
        // A connection that says nothing at all, not even to keepalives, goes; a person
        // who types nothing is told so by their session first.
        inactivity_timeout: Some(door.limits.idle + door.limits.login),
        keepalive_interval: Some(Duration::from_secs(25)),
        keepalive_max: 3,
        nodelay: true,
        ..Default::default()
    });
    let thinkers = lock(&hub).thinkers.clone();
    let context = Arc::new(Context {
        hub: hub.clone(),
        players: door.players,
        limits: door.limits,
        web,
        stopping: stopping.clone(),
        thinkers,
    });
    let sessions = Arc::new(Semaphore::new(door.limits.sessions));
    let mut running = tokio::task::JoinSet::new();
    loop {
        let accepted = tokio::select! {
            accepted = door.listener.accept() => accepted,
            _ = stopping.changed() => break,
        };
        let Ok((stream, peer)) = accepted else {
            // Out of file descriptors, say: a moment before trying again.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        // Over the bounds, the connection is closed before a word.
        let Some(counted) = Counted::take(&hub, peer.ip()) else {
            continue;
        };
        let Ok(seat) = sessions.clone().try_acquire_owned() else {
            continue;
        };
        let (config, context) = (config.clone(), context.clone());
        running.spawn(async move {
            connection(stream, peer.ip(), config, context).await;
            drop((counted, seat));
        });
        while running.try_join_next().is_some() {}
    }
    while running.join_next().await.is_some() {}
}

/// One SSH connection, from its first byte to its last: it must log in and open its
/// session within the time, and ends when the server stops.
async fn connection(
    stream: tokio::net::TcpStream,
    address: IpAddr,
    config: Arc<russh::server::Config>,
    context: Arc<Context>,
) {
    let deadline = tokio::time::Instant::now() + context.limits.login;
    let mut stopping = context.stopping.clone();
    let opened = Arc::new(AtomicBool::new(false));
    let visitor = Visitor {
        reached: stream.local_addr().ok(),
        context,
        address,
        person: None,
        opened: opened.clone(),
    };
    let started =
        tokio::time::timeout_at(deadline, russh::server::run_stream(config, stream, visitor));
    let Ok(Ok(running)) = started.await else {
        return;
    };
    let handle = running.handle();
    tokio::pin!(running);
    let (mut checked, mut stopped) = (false, false);
    loop {
        tokio::select! {
            _ = &mut running => return,
            () = tokio::time::sleep_until(deadline), if !checked => {
                checked = true;
                if !opened.load(Ordering::Relaxed) {
                    break;
                }
            }
            // The session says goodbye to its person itself; a connection with none ends
            // here. (Once: a stopped server's sender is gone, and this would not wait.)
            _ = stopping.changed(), if !stopped => {
                stopped = true;
                if !opened.load(Ordering::Relaxed) {
                    break;
                }
            }
        }
    }
    let _ = handle
        .disconnect(
            russh::Disconnect::ByApplication,
            "No session opened in time.".to_owned(),
            "en".to_owned(),
        )
        .await;
}

/// Who is on the other end of a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Person {
    /// Their name, as the others see it: the user name they logged in with.
    pub name: String,
    /// The name of their key's folder (its SHA-256 fingerprint, in hex); a guest has
    /// none.
    pub folder: Option<String>,
}

impl Person {
    /// A person logged in as `user` with `key`.
    fn keyed(user: &str, key: &PublicKey) -> Person {
        let folder = key
            .fingerprint(HashAlg::Sha256)
            .as_bytes()
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect();
        Person {
            name: name_of(user),
            folder: Some(folder),
        }
    }

    fn guest() -> Person {
        Person {
            name: "Guest".to_owned(),
            folder: None,
        }
    }
}

/// A name to show for the user name `user`: its letters, digits and a few marks, up to 16
/// characters, or "Player" when nothing is left.
fn name_of(user: &str) -> String {
    let name: String = user
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .take(16)
        .collect();
    if name.is_empty() {
        "Player".to_owned()
    } else {
        name
    }
}

/// One connection's side of the SSH protocol: who logs in, and the one session it opens.
struct Visitor {
    /// The server's address as the client reached it, for the words about `ssh`.
    reached: Option<SocketAddr>,
    context: Arc<Context>,
    address: IpAddr,
    person: Option<Person>,
    /// Whether the connection has its session: one a connection.
    opened: Arc<AtomicBool>,
}

impl russh::server::Handler for Visitor {
    type Error = russh::Error;

    async fn authentication_banner(&mut self) -> Result<Option<String>, Self::Error> {
        let (port, host) = self.reached.map_or_else(
            || (22, "HOST".to_owned()),
            |at| (at.port(), at.ip().to_string()),
        );
        Ok(Some(format!(
            "ttt: noughts and crosses, gomoku and friends. No SSH key? Play as a guest: \
             ssh -p {port} {GUEST}@{host}\r\n"
        )))
    }

    async fn auth_none(&mut self, user: &str) -> Result<Auth, Self::Error> {
        if user == GUEST {
            self.person = Some(Person::guest());
            return Ok(Auth::Accept);
        }
        Ok(Auth::Reject {
            proceed_with_methods: Some(MethodSet::from(&[MethodKind::PublicKey][..])),
            partial_success: false,
        })
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        self.person = Some(Person::keyed(user, key.public_key));
        Ok(Auth::Accept)
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: russh::server::ChannelOpenHandle,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        // One session a connection; dropping the reply refuses the channel.
        let opened = self.opened.swap(true, Ordering::Relaxed);
        let Some(person) = self.person.clone().filter(|_| !opened) else {
            return Ok(());
        };
        reply.accept().await;
        let connection = session.handle();
        // The app keeps games through the play layer's `Keep`, which a browser's local
        // storage implements too: not `Send`. Each session runs on a thread of its own.
        let (context, address) = (self.context.clone(), self.address);
        let started = std::thread::Builder::new()
            .name("ssh session".to_owned())
            .spawn(move || {
                let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                else {
                    return;
                };
                runtime.block_on(session::run(channel, person, context, address));
                // The connection ends with its session: a client that does not close it
                // once told the session ended is closed a moment later.
                runtime.block_on(async {
                    tokio::time::sleep(session::LAST_WORDS).await;
                    let _ = connection
                        .disconnect(
                            russh::Disconnect::ByApplication,
                            String::new(),
                            "en".to_owned(),
                        )
                        .await;
                });
                // A computer still thinking for a session that ended finishes alone.
                runtime.shutdown_background();
            });
        if started.is_err() {
            return Err(russh::Error::Disconnect);
        }
        Ok(())
    }

    async fn pty_request(
        &mut self,
        channel: ChannelId,
        _term: &str,
        _width: u32,
        _height: u32,
        _pixel_width: u32,
        _pixel_height: u32,
        _modes: &[(russh::Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_success(channel)
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_success(channel)
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        _command: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_success(channel)
    }

    async fn x11_request(
        &mut self,
        channel: ChannelId,
        _single_connection: bool,
        _protocol: &str,
        _cookie: &str,
        _screen: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        _name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_names_become_names_to_show() {
        assert_eq!(name_of("alice"), "alice");
        assert_eq!(name_of("Zoë-2"), "Zoë-2");
        assert_eq!(name_of("\x1b[31mred\x07"), "31mred");
        assert_eq!(name_of(""), "Player");
        assert_eq!(name_of("a".repeat(100).as_str()).len(), 16);
    }
}
