//! `ttt serve`: the server of network play, on one address, until Ctrl-C or a signal to
//! stop; and its terminal clients, `ttt host`, `ttt join` and `ttt watch`.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use ttt::client::{self, Entry};
use ttt::line::Palette;
use ttt::server::{self, Config, Limits, ServerStore};
use ttt::signals::Interrupts;
use ttt::store::{SeatTokens, Store};

use crate::cli::{BoardArgs, StoreArgs};

/// Arguments of `ttt serve`.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// The address to listen on; 0.0.0.0:7878 lets other machines in.
    #[arg(long, value_name = "ADDR", default_value = client::DEFAULT_SERVER)]
    pub listen: SocketAddr,

    /// Also serve the full-screen game over SSH on this address (e.g. 127.0.0.1:2222; off
    /// unless given): `ssh -p 2222 HOST` plays, in the same rooms.
    #[arg(long, value_name = "ADDR")]
    pub ssh: Option<SocketAddr>,

    /// The web page's files to serve [default: web/dist, when it is built].
    #[arg(long, value_name = "DIR")]
    pub web: Option<PathBuf>,

    /// The folder the rooms are kept in, so that a restart finds them [default: `server`
    /// in the data folder].
    #[arg(long, value_name = "DIR", conflicts_with = "no_store")]
    pub store: Option<PathBuf>,

    /// Keep no rooms: they last as long as the server.
    #[arg(long)]
    pub no_store: bool,

    /// Seconds a player who lost the connection mid-game has to come back before the
    /// other may claim the game.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub reconnect_wait: u64,

    #[command(flatten)]
    pub data: StoreArgs,
}

/// Serves until told to stop.
///
/// # Errors
/// When the address cannot be listened on, or the runtime cannot start.
pub fn run(args: &ServeArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async {
        let mut limits = Limits::default();
        limits.lobby.reconnect_wait = args.reconnect_wait;
        // The store first: a server that cannot keep its rooms says so before it serves.
        let (kept, kept_in) = if args.no_store {
            (
                None,
                "No rooms are kept: they last as long as the server.".to_owned(),
            )
        } else {
            let folder = match &args.store {
                Some(folder) => folder.clone(),
                None => Store::folder(args.data.data_dir.as_deref())
                    .context("no folder to keep the rooms in: give --store DIR or --no-store")?
                    .join("server"),
            };
            let (lobby, store, notes) =
                ServerStore::open(&folder, limits.lobby, ttt::server::wall_clock())?;
            for note in notes {
                writeln!(out, "{note}")?;
            }
            let said = format!(
                "Rooms are kept in {} ({} open).",
                folder.display(),
                lobby.len()
            );
            (Some((lobby, store)), said)
        };
        let listener = listen(args.listen).await?;
        let address = listener.local_addr()?;
        let ssh = match args.ssh {
            Some(at) => Some(ssh_door(args, at).await?),
            None => None,
        };
        let web = server::web_folder(args.web.as_deref());
        writeln!(
            out,
            "ttt serves on {address}: the page at http://{address}/, games at ws://{address}/ws."
        )?;
        match &web {
            Some(web) if server::built(web) => {
                writeln!(out, "The page's files: {}.", web.display())?;
            }
            Some(web) => writeln!(
                out,
                "{} holds no index.html: build the page with web/build.sh.",
                web.display()
            )?,
            None => writeln!(
                out,
                "The web page is not built: run web/build.sh to serve it too."
            )?,
        }
        if let Some(door) = &ssh {
            let at = door.listener.local_addr()?;
            // Listening everywhere, the machine is reached by an address of its own.
            let host = if at.ip().is_unspecified() {
                "THIS-MACHINE".to_owned()
            } else {
                at.ip().to_string()
            };
            writeln!(
                out,
                "SSH on {at}: ssh -p {} {host} plays (host key {}).",
                at.port(),
                server::ssh::host_key::fingerprint(&door.host_key)
            )?;
        }
        writeln!(out, "{kept_in}")?;
        writeln!(out, "Ctrl-C stops it.")?;
        out.flush()?;
        let config = Config {
            web,
            limits,
            seed: None,
        };
        server::serve(listener, ssh, config, kept, stopped())
            .await
            .context("the server stopped")?;
        writeln!(out, "Stopped.")?;
        Ok(ExitCode::SUCCESS)
    })
}

/// The SSH side on `address`: its listener, the host key kept in the server's folder (made
/// on the first start), and the players' folders beside it.
async fn ssh_door(args: &ServeArgs, address: SocketAddr) -> anyhow::Result<server::ssh::Door> {
    let folder = match &args.store {
        Some(folder) => folder.clone(),
        None => Store::folder(args.data.data_dir.as_deref())
            .context("no folder to keep the SSH host key in: give --store DIR")?
            .join("server"),
    };
    let (host_key, _) = server::ssh::host_key::load_or_make(&folder)
        .with_context(|| format!("no SSH host key in {}", folder.display()))?;
    Ok(server::ssh::Door {
        listener: listen(address).await?,
        host_key,
        players: Some(folder.join("ssh-players")),
        limits: server::ssh::Limits::default(),
    })
}

/// A listener on `address`, or a line saying why not.
async fn listen(address: SocketAddr) -> anyhow::Result<tokio::net::TcpListener> {
    tokio::net::TcpListener::bind(address)
        .await
        .with_context(|| format!("cannot listen on {address}"))
}

/// Completes on Ctrl-C, or on a signal to stop (SIGTERM, SIGHUP) where there are signals.
async fn stopped() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let (Ok(mut terminate), Ok(mut hangup)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::hangup()),
        ) else {
            let _ = tokio::signal::ctrl_c().await;
            return;
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = terminate.recv() => {}
            _ = hangup.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Where the server is and who the person is, for `ttt host`, `ttt join` and `ttt watch`.
#[derive(Debug, Clone, Args)]
pub struct ClientArgs {
    /// The server, HOST:PORT, that `ttt serve` runs [default: 127.0.0.1:7878; for `ttt
    /// host`, a server of its own].
    #[arg(long, value_name = "HOST:PORT")]
    pub server: Option<String>,

    /// Your name, as the others see it [default: your login name].
    #[arg(long)]
    pub name: Option<String>,

    /// Play in lines rather than full screen (as when not in a terminal): for screen
    /// readers and scripts.
    #[arg(long)]
    pub plain: bool,

    #[command(flatten)]
    pub store: StoreArgs,
}

/// Arguments of `ttt host`.
#[derive(Debug, Clone, Args)]
pub struct HostArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    #[command(flatten)]
    pub client: ClientArgs,

    /// A computer of the server's in the other seat, instead of a friend: easy, medium,
    /// tricky, hard or impossible (or random, rules, mcts, search, perfect).
    #[arg(long, value_name = "STRENGTH")]
    pub computer: Option<ttt_players::Strength>,

    /// A clock for each game: minutes for the game and seconds added after each move
    /// (5+3); a player whose time runs out loses.
    #[arg(long, value_name = "MIN+SEC")]
    pub clock: Option<ttt_online::clock::TimeControl>,

    /// List the room in the server's lobby (ttt rooms) for anyone to join; without it,
    /// only those given its code find it.
    #[arg(long)]
    pub public: bool,

    /// Without --server, the address of the host's own server, for the friend to join
    /// at; 0.0.0.0:7878 lets other machines in.
    #[arg(long, value_name = "ADDR", default_value = client::DEFAULT_SERVER, conflicts_with = "server")]
    pub listen: SocketAddr,
}

/// Arguments of `ttt rooms`.
#[derive(Debug, Clone, Args)]
pub struct RoomsArgs {
    /// The server, HOST:PORT, that `ttt serve` runs.
    #[arg(long, value_name = "HOST:PORT", default_value = client::DEFAULT_SERVER)]
    pub server: String,
}

/// Lists the public rooms waiting for a player.
///
/// # Errors
/// When the server cannot be reached or does not answer.
pub fn rooms(args: &RoomsArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    client::rooms(&args.server, out)
}

/// Arguments of `ttt bot`.
#[derive(Debug, Clone, Args)]
pub struct BotArgs {
    /// The server, HOST:PORT, that `ttt serve` runs.
    #[arg(long, value_name = "HOST:PORT", default_value = client::DEFAULT_SERVER)]
    pub server: String,

    /// Who thinks for the bot: random (easy), rules (medium), search (hard), mcts
    /// (tricky), perfect (impossible), or brain:COMMAND (a Gomocup engine).
    #[arg(long, value_name = "PLAYER", default_value = "search")]
    pub player: ttt_play::Seat,

    #[command(flatten)]
    pub board: BoardArgs,

    #[command(flatten)]
    pub limits: crate::cli::LimitArgs,

    /// A clock for each game: minutes for the game and seconds added after each move.
    #[arg(long, value_name = "MIN+SEC")]
    pub clock: Option<ttt_online::clock::TimeControl>,

    /// List the bot's rooms in the server's lobby (ttt rooms) for anyone to take on.
    #[arg(long)]
    pub public: bool,

    /// The bot's name, as people see it [default: its player's, "search bot"].
    #[arg(long)]
    pub name: Option<String>,

    /// Stop after this many games [default: play until stopped].
    #[arg(long, value_name = "N")]
    pub games: Option<u32>,
}

/// Plays people online until the games are played or a signal stops it.
///
/// # Errors
/// When the flags do not make a bot, or the server cannot be reached or refuses it.
pub fn bot(args: &BotArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    // A server closes a connection silent for 75 s; the bot reads nothing while it thinks.
    if args.limits.think > ttt::bot::MAX_THINK {
        anyhow::bail!(
            "a bot thinks at most {} s a move (--think): a server hangs up on a client silent \
             for longer",
            ttt::bot::MAX_THINK.as_secs()
        );
    }
    let interrupts = Interrupts::watch()?;
    let bot = ttt::bot::Bot {
        server: args.server.clone(),
        name: args.name.clone().unwrap_or_else(|| match &args.player {
            ttt_play::Seat::Engine(engine) => format!("{} bot", engine.name()),
            player => format!("{player} bot"),
        }),
        player: args.player.clone(),
        limits: args.limits.limits()?,
        rules: args.board.rules()?,
        clock: args.clock,
        public: args.public,
        games: args.games,
    };
    ttt::bot::run(&bot, &interrupts, out)
}

/// Arguments of `ttt join` and `ttt watch`.
#[derive(Debug, Clone, Args)]
pub struct RoomArgs {
    /// The room's code, as the host was given it (K7QX-2M), or the page's link to it
    /// (whose server is played on, unless --server names another).
    #[arg(value_name = "CODE")]
    pub code: ttt_online::protocol::RoomLink,
    #[command(flatten)]
    pub client: ClientArgs,
}

impl RoomArgs {
    /// The client's arguments, on the server the page's link names when none is named.
    pub fn client_of_link(&self) -> ClientArgs {
        let mut client = self.client.clone();
        if client.server.is_none() {
            client.server.clone_from(&self.code.server);
        }
        client
    }
}

/// Plays in a room of the server: hosts one, joins one or watches one. With no server
/// named and `own` given (`ttt host`), the room is on a server of the host's own, in this
/// process, listening on `own`, for as long as the host plays.
///
/// # Errors
/// When the server cannot be reached (or the host's own cannot listen), or refuses the
/// way in.
pub fn play(
    client: &ClientArgs,
    entry: Entry,
    own: Option<SocketAddr>,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    let interrupts = Interrupts::watch()?;
    let input = std::io::BufReader::new(std::io::stdin());
    let (server, own) = server(client, own, out)?;
    client::run(
        &server,
        entry,
        &name(client),
        input,
        &interrupts,
        Palette::detect(),
        client::Keeping {
            seats: seats(&client.store).as_ref(),
            games: Store::open_flagged(client.store.data_dir.as_deref()).ok(),
            own_server: own.is_some(),
        },
        out,
    )
}

/// The name the others see: `--name`, or the login name.
pub fn name(client: &ClientArgs) -> String {
    client.name.clone().unwrap_or_else(client::default_name)
}

/// Where seats' tokens are kept, so that `ttt join` takes a seat back; none without a
/// data folder (a seat is then kept for the run only).
pub fn seats(store: &StoreArgs) -> Option<SeatTokens> {
    Store::folder(store.data_dir.as_deref())
        .ok()
        .map(|folder| SeatTokens::in_folder(&folder))
}

/// The server to play on: the one named; with none named and `own` given (`ttt host`),
/// a server of the host's own started on `own`, returned with it to last as long as the
/// host plays; else the default one.
///
/// # Errors
/// When the host's own server cannot listen on `own`.
pub fn server(
    client: &ClientArgs,
    own: Option<SocketAddr>,
    out: &mut impl Write,
) -> anyhow::Result<(String, Option<OwnServer>)> {
    Ok(match (&client.server, own) {
        (Some(server), _) => (server.clone(), None),
        (None, Some(listen)) => {
            let own = OwnServer::start(listen)?;
            if listen.ip().is_unspecified() {
                writeln!(
                    out,
                    "Your server listens on {}: a friend on another machine joins with \
                     --server and this machine's address.",
                    own.address
                )?;
            }
            (own.reached_at(), Some(own))
        }
        (None, None) => (client::DEFAULT_SERVER.to_owned(), None),
    })
}

/// A server of the host's own, on a thread of its own, stopped when dropped.
pub struct OwnServer {
    address: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl OwnServer {
    /// Listens on `listen` and serves there (keeping no rooms: they last as long as the
    /// host plays).
    pub fn start(listen: SocketAddr) -> anyhow::Result<OwnServer> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .context("cannot start the server's runtime")?;
        let listener = runtime.block_on(self::listen(listen)).with_context(|| {
            format!("is a ttt serve running there? Then give --server {listen} to play on it")
        })?;
        let address = listener.local_addr()?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let config = Config {
            web: server::web_folder(None),
            limits: Limits::default(),
            seed: None,
        };
        let thread = std::thread::spawn(move || {
            let stopped = async {
                let _ = stopped.await;
            };
            let _ = runtime.block_on(server::serve(listener, None, config, None, stopped));
        });
        Ok(OwnServer {
            address,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// The address this process's client reaches the server at.
    pub fn reached_at(&self) -> String {
        let mut address = self.address;
        if address.ip().is_unspecified() {
            address.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
        }
        address.to_string()
    }
}

impl Drop for OwnServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
