//! A fast hasher for bitboard keys, which need no protection against chosen collisions.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-rotate hashing of whole words: a few cycles per key.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        // A multiply mixes bits upward only; tables index by the low bits, so bring the
        // well-mixed high bits down.
        self.0.rotate_left(26)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(26) ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// A map keyed by bitboards.
pub(crate) type BitsMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;
