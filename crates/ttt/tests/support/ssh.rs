//! An SSH client of `ttt serve --ssh`, for the SSH tests and the load example: a
//! handler that trusts any host key and says which it was shown, and the steps of a
//! session (connect and log in; a terminal and a shell or a command). Every wait bounded
//! by [`PATIENCE`].

#![allow(
    dead_code,
    reason = "each test binary, and the load example, uses a part"
)]

use std::sync::{Arc, Mutex};

use russh::keys::{HashAlg, PrivateKey, PrivateKeyWithHashAlg, PublicKeyOrCertificate};
use russh::{Channel, client};
use tokio::net::TcpStream;

use super::websocket::PATIENCE;

/// A client that trusts any host key, and says which it was shown.
#[derive(Debug, Default)]
pub struct Trusting {
    /// The fingerprint of the host key shown, once it was.
    pub seen: Arc<Mutex<Option<String>>>,
}

impl client::Handler for Trusting {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        key: &PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        if let PublicKeyOrCertificate::PublicKey { key, .. } = key {
            let mut seen = self
                .seen
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            *seen = Some(key.fingerprint(HashAlg::Sha256).to_string());
        }
        Ok(true)
    }
}

/// An SSH session on `stream` with `config`, not logged in yet; and where the host key's
/// fingerprint is said.
pub async fn connect(
    stream: TcpStream,
    config: client::Config,
) -> (client::Handle<Trusting>, Arc<Mutex<Option<String>>>) {
    let trusting = Trusting::default();
    let seen = trusting.seen.clone();
    let session = tokio::time::timeout(
        PATIENCE,
        client::connect_stream(Arc::new(config), stream, trusting),
    )
    .await
    .expect("a session in time")
    .expect("a session");
    (session, seen)
}

/// Logs `session` in as `user` with `key`, or with none: whether it was let in.
pub async fn log_in(
    session: &mut client::Handle<Trusting>,
    user: &str,
    key: Option<&PrivateKey>,
) -> bool {
    let answer = match key {
        Some(key) => {
            let key = PrivateKeyWithHashAlg::new(Arc::new(key.clone()), None);
            session.authenticate_publickey(user, key).await
        }
        None => session.authenticate_none(user).await,
    };
    answer.expect("an answer").success()
}

/// Opens the session's channel: a terminal of `size` (none for `None`), and a shell or
/// `command`.
pub async fn open(
    session: &client::Handle<Trusting>,
    size: Option<(u16, u16)>,
    command: Option<&str>,
) -> Channel<client::Msg> {
    let channel = session.channel_open_session().await.expect("a channel");
    if let Some((width, height)) = size {
        let (width, height) = (width.into(), height.into());
        channel
            .request_pty(false, "xterm-256color", width, height, 0, 0, &[])
            .await
            .expect("a terminal");
    }
    match command {
        Some(command) => channel.exec(false, command).await,
        None => channel.request_shell(false).await,
    }
    .expect("a shell or a command");
    channel
}
