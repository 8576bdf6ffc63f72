//! The page's side of a room on the server that serves it: a WebSocket to `/ws` on the
//! page's own host, the room's [`Mirror`], and the way back after a dropped connection.
//! The app shows what the mirror holds and hands out what the person asks; the server
//! decides.
//!
//! A room's code goes in the page's address (`/#K7QX-2M`), so the address is the
//! invitation, and a page opened at it joins. The seat's token is kept for the tab
//! (session storage), so a reload comes back to the same seat, and for the browser (local
//! storage), so a tab opened again takes the seat back if nobody holds it.

use std::time::Duration;

use ttt_core::Rules;
use ttt_online::protocol::{Listed, Request, RoomCode, ToClient, ToServer};
use ttt_online::visit::Visit;
use ttt_play::app::{App, Ask, Waiting};
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, WebSocket};

/// The prefix of a seat's token kept for this tab, by room code (session storage).
const TAB_SEAT: &str = "ttt.seat.";
/// The prefix of the seats' tokens kept for this browser, by room code (local storage).
const SEATS: &str = "ttt.seats.";
/// The key of the name the others see.
const NAME: &str = "ttt.name";
/// The prefix of when a tab of this browser last said it plays in a room, by room code
/// (local storage): another tab opened at the room's address then watches, rather than
/// take the other seat from the friend it was meant for.
const PLAYING: &str = "ttt.playing.";
/// How long a tab's word that it plays in a room holds, in seconds: a few renewals
/// ([`crate::storage::HOLD_RENEWED`], every 10 s).
const PLAYING_HOLDS: u64 = 25;
/// A room the page is in, or on its way into.
pub struct Online {
    visit: Visit,
    socket: Option<WebSocket>,
    /// The handlers of the socket, kept alive while it is open.
    handlers: Vec<Closure<dyn FnMut(JsValue)>>,
}

/// What the socket said, handed to the page.
pub enum Heard {
    /// The connection opened.
    Opened,
    /// A message.
    Message(String),
    /// The connection closed.
    Closed,
}

impl Online {
    /// A room to open on `rules`, its games timed by `clock` if one is given, listed for
    /// anyone to join if `public`.
    pub fn host(
        rules: Rules,
        clock: Option<ttt_online::clock::TimeControl>,
        public: bool,
    ) -> Online {
        Online::new(Visit::host(rules, &name()).with_clock(clock).listed(public))
    }

    /// The room of the page's address, if it names one: back to this tab's seat after a
    /// reload, or to one of this browser's if nobody holds it, or in as anyone.
    pub fn from_address() -> Option<Online> {
        address_code().map(Online::join)
    }

    /// The room `code`: back to this tab's seat, or to one of this browser's if nobody
    /// holds it, or in as anyone.
    pub fn join(code: RoomCode) -> Online {
        let shown = code.to_string();
        let mine = tab_token(&shown);
        // This browser plays there in another tab: one person, one seat.
        if mine.is_none() && playing_elsewhere(&shown) {
            return Online::new(Visit::watch(code, &name()));
        }
        let visit = Visit::join(code, &name(), kept_tokens(&shown), mine);
        Online::new(visit)
    }

    /// Says again that this tab plays in its room (a seat, welcomed), for other tabs of
    /// this browser to see; the page calls it every few seconds.
    pub fn still_playing(&self) {
        if let (Some(code), Some(_)) = (&self.visit.mirror().code, self.visit.mirror().seat) {
            set_playing(code, true);
        }
    }

    /// This tab no longer plays in its room (it left, or closes); a tab that watches
    /// takes nothing back.
    pub fn stop_playing(&self) {
        if let (Some(code), Some(_)) = (&self.visit.mirror().code, self.visit.mirror().seat) {
            set_playing(code, false);
        }
    }

    fn new(visit: Visit) -> Online {
        Online {
            visit,
            socket: None,
            handlers: Vec::new(),
        }
    }

    /// The code of the room, once the server let the page in.
    pub fn code(&self) -> Option<&str> {
        self.visit.mirror().code.as_deref()
    }

    /// The board expected before the server says which.
    pub fn rules(&self) -> Rules {
        self.visit.rules()
    }

    /// Opens the connection; what it hears goes to `heard`.
    ///
    /// # Errors
    /// When the browser refuses to open it (a malformed address).
    pub fn connect(&mut self, heard: fn(Heard)) -> Result<(), JsValue> {
        self.close();
        let socket = WebSocket::new(&socket_address()?)?;
        let opened = Closure::<dyn FnMut(JsValue)>::new(move |_| heard(Heard::Opened));
        let message = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
            if let Some(text) = event
                .dyn_ref::<MessageEvent>()
                .and_then(|event| event.data().as_string())
            {
                heard(Heard::Message(text));
            }
        });
        let closed = Closure::<dyn FnMut(JsValue)>::new(move |_| heard(Heard::Closed));
        socket.set_onopen(Some(opened.as_ref().unchecked_ref()));
        socket.set_onmessage(Some(message.as_ref().unchecked_ref()));
        socket.set_onclose(Some(closed.as_ref().unchecked_ref()));
        self.handlers = vec![opened, message, closed];
        self.socket = Some(socket);
        Ok(())
    }

    /// Closes the connection, if one is open; nothing it says is heard after.
    pub fn close(&mut self) {
        if let Some(socket) = self.socket.take() {
            socket.set_onopen(None);
            socket.set_onmessage(None);
            socket.set_onclose(None);
            let _ = socket.close();
        }
        self.handlers.clear();
    }

    /// Leaves the room for good: the connection closed, the address and this tab's token
    /// forgotten.
    pub fn leave(&mut self) {
        self.stop_playing();
        self.close();
        if let Some(code) = &self.visit.mirror().code {
            forget_tab_token(code);
        }
        show_code(None);
    }

    /// Leaves the room keeping the seat, saying so to the server first (the others read
    /// that it was meant, not a dropped connection).
    pub fn step_away(&mut self) {
        if let Some(away) = self.visit.away() {
            self.send_request(&away);
        }
        self.leave();
    }

    /// Leaves the room for good, saying so to the server first: between games the seat
    /// is given up for another player ([`Visit::farewell`]).
    pub fn leave_for_good(&mut self) {
        if let Some(farewell) = self.visit.farewell() {
            self.send_request(&farewell);
        }
        self.leave();
    }

    /// Sends what the person asked. Returns false when there is no open connection to
    /// send it on.
    pub fn send(&mut self, ask: Ask) -> bool {
        match self.visit.request(ask) {
            Some(request) => self.send_request(&request),
            None => true,
        }
    }

    fn send_request(&self, request: &Request) -> bool {
        let Some(socket) = &self.socket else {
            return false;
        };
        let Ok(text) = serde_json::to_string(request) else {
            return false;
        };
        socket.ready_state() == WebSocket::OPEN && socket.send_with_str(&text).is_ok()
    }

    /// Says the first message, once the connection is open.
    pub fn opened(&self) {
        self.send_request(&self.visit.hello());
    }

    /// Takes what the server said, and shows it in `app`. Returns whether to come back
    /// on a new connection in a moment (the server closed this one and asked to); a room
    /// over for the page leaves the app's online screen, and the page then leaves it.
    pub fn heard(&mut self, text: &str, app: &mut App) -> bool {
        let reply = self.visit.heard(text, app);
        for request in &reply.send {
            self.send_request(request);
        }
        // The game kept with the page's own, as the terminal keeps it with its own.
        if let Some((id, record)) = self.visit.to_keep(crate::storage::now())
            && let Err(error) =
                ttt_play::records::Keep::keep(&mut crate::storage::LocalStorage, Some(&id), &record)
        {
            app.online_note(format!("{}.", ttt_play::words::capitalised(&error)), true);
        }
        if reply.forget_mine
            && let Some(code) = self.visit.mirror().code.clone()
        {
            forget_tab_token(&code);
        }
        if reply.welcomed {
            if let Some((code, token)) = self.visit.token() {
                keep_token(code, token);
            }
            show_code(self.visit.mirror().code.as_deref());
            self.still_playing();
            app.online_note(self.welcome_words(), false);
        }
        if reply.come_back {
            self.close();
        }
        reply.come_back
    }

    /// What the page says on coming into the room.
    fn welcome_words(&self) -> String {
        let mirror = self.visit.mirror();
        let code = mirror.code.clone().unwrap_or_default();
        ttt_online::words::welcome(mirror, &host(), Some(&address(&code)))
    }

    /// The connection closed without a goodbye: how long to wait before coming back, or
    /// none when there is nothing to come back to (the app has left the room).
    pub fn dropped(&mut self, app: &mut App) -> Option<Duration> {
        self.close();
        self.visit.dropped(app)
    }
}

/// A question to the page's server, on a connection of its own: which public rooms wait
/// for a player. The answer (or why there is none) goes to the function given, once.
pub struct Listing {
    socket: WebSocket,
    /// The handlers of the socket, kept alive while it is open.
    _handlers: Vec<Closure<dyn FnMut(JsValue)>>,
}

impl Listing {
    /// Asks; the answer goes to `answer`.
    ///
    /// # Errors
    /// When the browser refuses to open a connection (a malformed address).
    pub fn ask(answer: fn(Result<Vec<Waiting>, String>)) -> Result<Listing, JsValue> {
        let socket = WebSocket::new(&socket_address()?)?;
        let answered = std::rc::Rc::new(std::cell::Cell::new(false));
        let sending = socket.clone();
        let opened = Closure::<dyn FnMut(JsValue)>::new(move |_| {
            let request = Request::from(ToServer::Rooms);
            if let Ok(text) = serde_json::to_string(&request) {
                let _ = sending.send_with_str(&text);
            }
        });
        let told = answered.clone();
        let closing = socket.clone();
        let message = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
            let text = event
                .dyn_ref::<MessageEvent>()
                .and_then(|event| event.data().as_string())
                .unwrap_or_default();
            if let Ok(ToClient::Rooms { rooms, .. }) = serde_json::from_str(&text)
                && !told.replace(true)
            {
                let _ = closing.close();
                answer(Ok(rooms.iter().map(Listed::to_app).collect()));
            }
        });
        let closed = Closure::<dyn FnMut(JsValue)>::new(move |_| {
            if !answered.replace(true) {
                answer(Err(format!(
                    "No server answers at {}: a room hosted tries again.",
                    host()
                )));
            }
        });
        socket.set_onopen(Some(opened.as_ref().unchecked_ref()));
        socket.set_onmessage(Some(message.as_ref().unchecked_ref()));
        socket.set_onclose(Some(closed.as_ref().unchecked_ref()));
        Ok(Listing {
            socket,
            _handlers: vec![opened, message, closed],
        })
    }
}

impl Drop for Listing {
    fn drop(&mut self) {
        self.socket.set_onopen(None);
        self.socket.set_onmessage(None);
        self.socket.set_onclose(None);
        let _ = self.socket.close();
    }
}

/// The address of the page's server's WebSocket: `ws://HOST/ws`, or `wss:` for a page
/// served over https.
fn socket_address() -> Result<String, JsValue> {
    let location = web_sys::window()
        .ok_or_else(|| JsValue::from_str("no window"))?
        .location();
    let scheme = if location.protocol()? == "https:" {
        "wss"
    } else {
        "ws"
    };
    Ok(format!("{scheme}://{}/ws", location.host()?))
}

fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// This tab's token for the room `code`.
fn tab_token(code: &str) -> Option<String> {
    session_storage()?
        .get_item(&format!("{TAB_SEAT}{code}"))
        .ok()
        .flatten()
}

fn forget_tab_token(code: &str) {
    if let Some(storage) = session_storage() {
        let _ = storage.remove_item(&format!("{TAB_SEAT}{code}"));
    }
}

/// The tokens this browser was given in the room `code`, the latest first.
fn kept_tokens(code: &str) -> Vec<String> {
    local_storage()
        .and_then(|storage| storage.get_item(&format!("{SEATS}{code}")).ok().flatten())
        .map(|text| {
            text.split_whitespace()
                .take(ttt_online::protocol::MAX_TOKENS)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Keeps a seat's token: for this tab, and among the browser's for the room.
fn keep_token(code: &str, token: &str) {
    if let Some(storage) = session_storage() {
        let _ = storage.set_item(&format!("{TAB_SEAT}{code}"), token);
    }
    let mut tokens = kept_tokens(code);
    tokens.retain(|kept| kept != token);
    tokens.insert(0, token.to_owned());
    tokens.truncate(ttt_online::protocol::MAX_TOKENS);
    if let Some(storage) = local_storage() {
        let _ = storage.set_item(&format!("{SEATS}{code}"), &tokens.join(" "));
    }
}

/// Whether a tab of this browser said lately that it plays in the room `code`.
fn playing_elsewhere(code: &str) -> bool {
    local_storage()
        .and_then(|storage| storage.get_item(&format!("{PLAYING}{code}")).ok().flatten())
        .and_then(|said| said.parse::<u64>().ok())
        .is_some_and(|said| crate::storage::now().saturating_sub(said) < PLAYING_HOLDS)
}

/// Says (or takes back) that a tab of this browser plays in the room `code`, now.
fn set_playing(code: &str, playing: bool) {
    let Some(storage) = local_storage() else {
        return;
    };
    let key = format!("{PLAYING}{code}");
    let _ = if playing {
        storage.set_item(&key, &crate::storage::now().to_string())
    } else {
        storage.remove_item(&key)
    };
}

/// Keeps `name` as the name the others see, if one was chosen.
pub fn rename(name: &str) {
    let name = name.trim();
    if let (false, Some(storage)) = (name.is_empty(), local_storage()) {
        let _ = storage.set_item(NAME, name);
    }
}

/// The name the others see: kept for this browser, made once.
pub fn name() -> String {
    let storage = local_storage();
    if let Some(name) = storage
        .as_ref()
        .and_then(|storage| storage.get_item(NAME).ok().flatten())
        .filter(|name| !name.trim().is_empty())
    {
        return name;
    }
    let number = (web_sys::js_sys::Math::random() * 900.0) as u32 + 100;
    let name = format!("Guest {number}");
    if let Some(storage) = storage {
        let _ = storage.set_item(NAME, &name);
    }
    name
}

/// The room's code the page's address names (`/#K7QX-2M`), if it names one.
pub fn address_code() -> Option<RoomCode> {
    let hash = web_sys::window()?.location().hash().ok()?;
    hash.strip_prefix('#')?.parse().ok()
}

/// The page's host, `HOST:PORT`: the server `ttt join` names to come to its rooms.
fn host() -> String {
    web_sys::window()
        .and_then(|window| window.location().host().ok())
        .unwrap_or_default()
}

/// The page's address for the room `code`.
fn address(code: &str) -> String {
    let Some(location) = web_sys::window().map(|window| window.location()) else {
        return format!("#{code}");
    };
    let origin = location.origin().unwrap_or_default();
    let path = location.pathname().unwrap_or_default();
    format!("{origin}{path}#{code}")
}

/// Puts the room's code in the page's address (or takes it out), without a reload or a
/// new entry in the history.
fn show_code(code: Option<&str>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let path = window.location().pathname().unwrap_or_default();
    let url = match code {
        Some(code) => format!("{path}#{code}"),
        None => path,
    };
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}
