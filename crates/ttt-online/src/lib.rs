//! Network play for `ttt`, without the network: what a server and its clients say to
//! each other ([`protocol`]), and the rooms a server keeps ([`room`]), each owning a
//! [`Match`](ttt_play::matches::Match) that alone decides what happens. Nothing here
//! reads, writes, waits or draws a random number: a server hands each connection's
//! messages to a [`room::Lobby`] and sends what it returns.
//!
//! ```
//! use ttt_core::Mark;
//! use ttt_online::protocol::{Happening, Request, ToClient, ToServer};
//! use ttt_online::room::{Fresh, Limits, Lobby, MemberId};
//!
//! let mut lobby = Lobby::new(Limits::default());
//! let fresh = |token: &str| Fresh { code: "K7QX-2M".parse().unwrap(), token: token.into(), coin: Mark::X, now: 0 };
//! let (ann, bob) = (MemberId(1), MemberId(2));
//! let host = ToServer::Host { rules: "3x3, k=3".into(), name: "Ann".into(), computer: None, clock: None, public: false };
//! lobby.handle(ann, host.into(), fresh("a"));
//! let join = ToServer::Join { code: "k7qx2m".into(), name: "Bob".into(), tokens: vec![] };
//! lobby.handle(bob, join.into(), fresh("b"));
//! // Ann has X and moves first; Bob cannot move for her, and is told why.
//! let refused = lobby.handle(bob, ToServer::Play { square: 4 }.into(), fresh(""));
//! let reason = "It is the other side's turn.".to_owned();
//! assert_eq!(refused[0].message, ToClient::Refused { reason, re: None });
//! // Ann's move, numbered 1 and meant for the empty board: both are told, and she hears
//! // it was done.
//! let play = Request { id: Some(1), ply: Some(0), ask: ToServer::Play { square: 4 } };
//! let told = lobby.handle(ann, play, fresh(""));
//! let played = |delivery: &&_| matches!(
//!     delivery,
//!     &&ttt_online::room::Delivery {
//!         message: ToClient::Happened { happening: Happening::Played { square: 4, .. }, .. },
//!         ..
//!     }
//! );
//! assert_eq!(told.iter().filter(played).count(), 2, "both players are told");
//! assert_eq!(told.last().unwrap().message, ToClient::Done { re: 1, seq: 4 });
//! ```

pub mod clock;
pub mod journal;
pub mod keeping;
pub mod mirror;
pub mod protocol;
pub mod room;
pub mod visit;
pub mod words;
