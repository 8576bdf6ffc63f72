//! A server on a free loopback port and WebSocket clients of it, for the server's tests
//! and its load example: every wait bounded by [`PATIENCE`], any failure a panic that
//! says where.

#![allow(
    dead_code,
    reason = "each test binary, and the load example, uses a part"
)]

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use ttt::server::{self, Config, ServerStore};
use ttt_online::protocol::{ToClient, ToServer};
use ttt_online::room::Lobby;

/// A client's connection.
pub type Client = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The longest any one step may take.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// A server set up by `config` on a free loopback port, stopped when the runtime ends.
pub async fn start(config: Config) -> SocketAddr {
    start_keeping(config, None).await
}

/// A server as [`start`]s, going on from `kept` (a lobby and its store) if given.
pub async fn start_keeping(config: Config, kept: Option<(Lobby, ServerStore)>) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(server::serve(
        listener,
        None,
        config,
        kept,
        std::future::pending(),
    ));
    address
}

/// A server with SSH too, started by [`start_with_ssh`]: its addresses, and the way to
/// stop it (dropping it stops the server too, and waits for it to end).
pub struct WithSsh {
    /// The WebSocket address.
    pub web: SocketAddr,
    /// The SSH address.
    pub ssh: SocketAddr,
    /// Both taken when it stops.
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    served: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

impl WithSsh {
    /// Stops the server as Ctrl-C does, and waits for it to end.
    pub async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        tokio::time::timeout(PATIENCE, self.served.take().unwrap())
            .await
            .expect("the server stops in time")
            .unwrap()
            .unwrap();
    }
}

impl Drop for WithSsh {
    /// Stops the server, and waits (at most [`PATIENCE`]) until it has ended, its sessions
    /// with it: what they keep in the server's folder is written by then, so that a test
    /// (passed or failed) can remove the folder after. A drop cannot await: this blocks
    /// the thread while the runtime's workers run the server (a test on a runtime of one
    /// thread would wait in vain).
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(served) = &self.served {
            let started = std::time::Instant::now();
            while !served.is_finished() && started.elapsed() < PATIENCE {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }
}

/// A server as [`start`]s, with SSH too (its host key and players' folders in `folder`).
pub async fn start_with_ssh(
    config: Config,
    folder: &std::path::Path,
    limits: server::ssh::Limits,
) -> WithSsh {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let web = listener.local_addr().unwrap();
    let ssh = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let ssh_address = ssh.local_addr().unwrap();
    let (host_key, _) = server::ssh::host_key::load_or_make(folder).unwrap();
    let door = server::ssh::Door {
        listener: ssh,
        host_key,
        players: Some(folder.join("ssh-players")),
        limits,
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let served = tokio::spawn(server::serve(
        listener,
        Some(door),
        config,
        None,
        async move {
            let _ = stopped.await;
        },
    ));
    WithSsh {
        web,
        ssh: ssh_address,
        stop: Some(stop),
        served: Some(served),
    }
}

/// A new client of the server at `address`.
pub async fn connect(address: SocketAddr) -> Client {
    let url = format!("ws://{address}/ws");
    let (client, _) = tokio::time::timeout(PATIENCE, tokio_tungstenite::connect_async(url))
        .await
        .expect("connects in time")
        .expect("connects");
    client
}

/// A new client of the server at `address` that hosts a 3x3 room as `name`: the client,
/// and what it was answered (its welcome).
pub async fn host_3x3(address: SocketAddr, name: &str) -> (Client, ToClient) {
    let mut host = connect(address).await;
    let hosting = ToServer::Host {
        rules: "3x3, k=3".to_owned(),
        name: name.to_owned(),
        computer: None,
        clock: None,
        public: false,
    };
    send(&mut host, &hosting).await;
    let answer = next(&mut host).await;
    (host, answer)
}

/// Sends `message` as the client.
pub async fn send(client: &mut Client, message: &ToServer) {
    let text = serde_json::to_string(message).unwrap();
    client.send(Message::text(text)).await.unwrap();
}

/// The next message the server sends `client`.
pub async fn next(client: &mut Client) -> ToClient {
    loop {
        let message = tokio::time::timeout(PATIENCE, client.next())
            .await
            .expect("a message in time")
            .expect("the connection is open")
            .expect("a message");
        if let Message::Text(text) = message {
            return serde_json::from_str(text.as_str()).unwrap();
        }
    }
}
