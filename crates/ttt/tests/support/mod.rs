//! What more than one of the binary's tests (and its examples) use.

pub mod ssh;
pub mod websocket;
