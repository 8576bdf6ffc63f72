//! Network play for `ttt`, without the network: what a server and its clients say to
//! each other ([`protocol`]), and the rooms a server keeps ([`room`]), each owning a
//! [`Match`](ttt_play::matches::Match) that alone decides what happens. Nothing here
//! reads, writes, waits or draws a random number: a server hands each connection's
//! messages to a [`room::Lobby`] and sends what it returns.
//!
//! ```
//! use ttt_core::Mark;
//! use ttt_online::protocol::{Happening, ToClient, ToServer};
//! use ttt_online::room::{Fresh, Limits, Lobby, MemberId};
//!
//! let mut lobby = Lobby::new(Limits::default());
//! let fresh = |code: &str, token: &str| Fresh { code: code.into(), token: token.into(), coin: Mark::X };
//! let (ann, bob) = (MemberId(1), MemberId(2));
//! lobby.handle(ann, ToServer::Host { rules: "3x3, k=3".into(), name: "Ann".into() }, fresh("K7Q2", "a"));
//! lobby.handle(bob, ToServer::Join { code: "K7Q2".into(), name: "Bob".into() }, fresh("", "b"));
//! // Ann has X and moves first; Bob cannot move for her, and is told why.
//! let refused = lobby.handle(bob, ToServer::Play { square: 4 }, fresh("", ""));
//! assert_eq!(refused[0].message, ToClient::Refused { reason: "It is the other side's turn.".into() });
//! let told = lobby.handle(ann, ToServer::Play { square: 4 }, fresh("", ""));
//! assert!(told.iter().all(|delivery| matches!(
//!     &delivery.message,
//!     ToClient::Happened { happening: Happening::Played { square: 4, .. }, .. }
//! )));
//! assert_eq!(told.len(), 2, "both players are told");
//! ```

pub mod protocol;
pub mod room;
