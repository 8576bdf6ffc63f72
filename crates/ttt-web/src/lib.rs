//! `ttt` in the browser: the same rules, players, session and full-screen app as the
//! terminal, compiled to WebAssembly. The page (`page`, browser only) drives the play
//! layer's [`App`](ttt_play::app::App) with Ratzilla's DOM backend; the slow work goes to a
//! web worker running this same wasm, through the one-line [`protocol`].

pub mod protocol;

#[cfg(target_arch = "wasm32")]
mod online;
#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
mod storage;
