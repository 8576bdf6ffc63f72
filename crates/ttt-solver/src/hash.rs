//! The provers' tables: maps keyed by bitboards with a fast hasher (the keys need no
//! protection against chosen collisions), kept within a bound on their memory.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use std::sync::atomic::Ordering;

use crate::geometry::MAX_SQUARES;
use crate::prover::Progress;

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

/// Whether `table` may take one more entry of `entry_bytes` within `bound` bytes. A full
/// map doubles its slots when it grows, holding the old and the new ones at once (three
/// times the old) until the move is done: it grows only while that peak fits, and stays at
/// its size after. Growing as needed keeps small proofs small (and their memory compact,
/// which is faster than one large table touched all over).
pub(crate) fn has_room<K, V>(table: &BitsMap<K, V>, entry_bytes: usize, bound: usize) -> bool {
    let capacity = table.capacity();
    if table.len() < capacity {
        return true;
    }
    // The map keeps its slots at most 7/8 full, in a power-of-two number of them.
    let slots = (capacity / 7 * 8).max(4).next_power_of_two();
    slots.saturating_mul(3).saturating_mul(entry_bytes) <= bound
}

/// Makes room in a full table by forgetting more than half of it: the entries of the
/// highest `rank` (at most [`MAX_SQUARES`]), but never all of those of the lowest (every
/// other entry, where the lowest holds most of the table), and makes what it forgot room
/// again. A sweep over the table, once per half a table of new entries. Whether it forgot
/// any: then one more entry fits within the bound the table was held to (were the smaller
/// map full, it grows back to the size the table had).
pub(crate) fn forget_half<K: Eq + std::hash::Hash, V>(
    table: &mut BitsMap<K, V>,
    rank: impl Fn(&K, &V) -> usize,
) -> bool {
    let mut by_rank = [0_usize; MAX_SQUARES + 1];
    for (key, value) in table.iter() {
        by_rank[rank(key, value).min(MAX_SQUARES)] += 1;
    }
    // The lowest rank forgotten: more than half the table from the highest down.
    let mut counted = 0;
    let mut highest_kept = MAX_SQUARES;
    while highest_kept > 0 && counted <= table.len() / 2 {
        counted += by_rank[highest_kept];
        highest_kept -= 1;
    }
    if counted == table.len() {
        highest_kept += 1;
    }
    let before = table.len();
    table.retain(|key, value| rank(key, value).min(MAX_SQUARES) <= highest_kept);
    if table.len() * 2 >= before {
        // The ranks did not part the table (most of it is of the lowest): every other
        // entry goes.
        let mut keep = false;
        table.retain(|_, _| {
            keep = !keep;
            keep
        });
    }
    // The entries forgotten leave tombstones, which the map counts as taken until it
    // rehashes: left so, the table was full again at once and forgot again, shrinking at
    // every turn. Moved into a map of half the slots (which holds what is left), it has
    // no tombstones; that move holds one and a half times the table at its peak, as the
    // last growth did, and the map grows back as it fills.
    table.shrink_to_fit();
    table.len() < before
}

/// A table's entries, counted as settled (the question each holds is answered) or open,
/// kept up to date as entries come, change and go.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Tally {
    settled: u64,
    open: u64,
}

impl Tally {
    /// The count of entries, each settled or not.
    pub(crate) fn of(entries: impl Iterator<Item = bool>) -> Tally {
        let mut tally = Tally::default();
        for settled in entries {
            tally.change(None, settled);
        }
        tally
    }

    /// Counts an entry that was settled or not (`None`: a new entry) and now is `settled`.
    pub(crate) fn change(&mut self, old: Option<bool>, settled: bool) {
        match old {
            Some(true) => self.settled -= 1,
            Some(false) => self.open -= 1,
            None => {}
        }
        if settled {
            self.settled += 1;
        } else {
            self.open += 1;
        }
    }

    /// Shows the running figures of a proof to whoever watches `progress`: the positions
    /// searched, these counts, and the table's bytes.
    pub(crate) fn publish(self, progress: &Progress, nodes: u64, bytes: usize) {
        progress.nodes.store(nodes, Ordering::Relaxed);
        progress.settled.store(self.settled, Ordering::Relaxed);
        progress.open.store(self.open, Ordering::Relaxed);
        progress.table_bytes.store(bytes as u64, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_that_turned_over_fills_to_its_full_size_again() {
        // Entries of 32 bytes under a bound that lets the map reach 2^15 slots and no more.
        let (entry_bytes, bound) = (32, 3 << 20);
        let mut table: BitsMap<(u64, u64), u64> = BitsMap::default();
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut full_at = Vec::new();
        for value in 0..400_000_u64 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if !has_room(&table, entry_bytes, bound) {
                full_at.push(table.len());
                // The oldest entries rank highest, and go first.
                let age = |_: &(u64, u64), &added: &u64| ((value - added) / 1_000) as usize;
                assert!(forget_half(&mut table, age));
            }
            table.insert((state, value), value);
        }
        assert!(full_at.len() >= 4, "{full_at:?}");
        // Each time the table is as full as the first time: what it forgot left no
        // tombstones that count as taken.
        assert!(
            full_at.iter().all(|&len| len == full_at[0]),
            "full at {full_at:?} entries"
        );
    }

    #[test]
    fn a_table_of_one_rank_still_turns_over() {
        let mut table: BitsMap<u64, ()> = (0..1_000).map(|key| (key, ())).collect();
        table.shrink_to_fit();
        let full = table.capacity();
        while table.len() < full {
            table.insert(table.len() as u64, ());
        }
        assert!(forget_half(&mut table, |_, ()| 0));
        assert!(table.len() <= full / 2, "{} of {full} kept", table.len());
    }
}
