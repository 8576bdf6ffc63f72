//! Network play's messages from arbitrary bytes, on both sides. Each line is one
//! connection's message (its first byte picks which of four): the server decodes it as
//! `ttt serve` does and hands it to a lobby, whose every delivery keeps each member's
//! mirror in step and every position legal; a line that is not a message is refused in
//! one line. The same bytes, read as a server's message by a client, change a mirror or
//! not, and never panic; and as a room code, parse or say why.

#![no_main]

use std::collections::HashMap;

use libfuzzer_sys::fuzz_target;
use ttt_core::{Mark, Position, Shown};
use ttt_online::mirror::Mirror;
use ttt_online::protocol::{self, Request, RoomCode, ToClient};
use ttt_online::room::{Fresh, Limits, Lobby, MemberId};

fuzz_target!(|data: &[u8]| {
    let mut lobby = Lobby::new(Limits::default());
    let mut mirrors: HashMap<MemberId, Mirror> = HashMap::new();
    let code: RoomCode = "K7QX-2M".parse().unwrap();
    for (now, line) in (0u64..).zip(data.split(|&byte| byte == b'\n')) {
        let Some((&who, message)) = line.split_first() else {
            continue;
        };
        let id = MemberId(u64::from(who % 4));
        match serde_json::from_slice::<Request>(message) {
            Ok(request) => {
                let fresh = Fresh {
                    code,
                    token: format!("t{}", id.0),
                    coin: Mark::X,
                    now,
                };
                for delivery in lobby.handle(id, request, fresh) {
                    match &delivery.message {
                        ToClient::Bye { .. } => {
                            mirrors.remove(&delivery.to);
                        }
                        told => {
                            let mirror = mirrors.entry(delivery.to).or_default();
                            assert_eq!(mirror.take(told), Ok(()), "{delivery:?}");
                        }
                    }
                }
                if lobby.room_of(id).is_none() {
                    mirrors.remove(&id);
                }
                if let Some(room) = lobby.room(code) {
                    let position = room.game().position();
                    let replayed =
                        Position::from_moves(position.rules(), position.first(), position.history());
                    assert!(replayed.is_ok_and(|replayed| &replayed == position));
                }
            }
            Err(error) => {
                let said = protocol::not_understood(&error);
                assert!(!said.chars().any(Shown::is_invisible), "{said:?}");
            }
        }
        if let Ok(told) = serde_json::from_slice::<ToClient>(message) {
            let mut fresh = Mirror::default();
            let _ = fresh.take(&told);
            for mirror in mirrors.values_mut() {
                let _ = mirror.clone().take(&told);
            }
        }
        if let Ok(text) = std::str::from_utf8(message) {
            match text.parse::<RoomCode>() {
                Ok(code) => assert_eq!(code.to_string().parse::<RoomCode>(), Ok(code)),
                Err(error) => assert!(!error.to_string().chars().any(Shown::is_invisible)),
            }
        }
    }
});
