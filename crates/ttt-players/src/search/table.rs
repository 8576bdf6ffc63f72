//! The search's transposition table: positions already searched, in memory fixed once,
//! shared by the threads of one search.

use std::sync::atomic::{AtomicU64, Ordering};

/// What the search learnt about a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) depth: u32,
    pub(crate) score: i64,
    pub(crate) bound: Bound,
    pub(crate) best: Option<u16>,
}

/// How [`Entry::score`] relates to the position's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    Lower,
    Upper,
}

/// Words per slot: the position's hash (as a check word: see [`Table`]), the score, and
/// depth, bound, move and search packed.
const WORDS: usize = 3;
/// Bytes per slot.
pub(crate) const SLOT_BYTES: usize = WORDS * std::mem::size_of::<u64>();
/// Slots per bucket: the positions whose hashes pick a bucket share its slots.
const SLOTS: usize = 2;
/// Set in the packed word of a slot in use.
const USED: u64 = 1 << 63;
/// Where the search that wrote a slot is packed (8 bits).
const SEARCH_SHIFT: u32 = 52;
/// The search's bits of the packed word: left out of the check word, so that a read can
/// mark a slot as this search's by writing the packed word alone.
const SEARCH_BITS: u64 = 0xff << SEARCH_SHIFT;

/// The search that wrote (or last read) a slot, from its packed word.
fn search_of(packed: u64) -> u8 {
    (packed >> SEARCH_SHIFT) as u8
}

/// A slot's check word: the position's hash with the score and the packed word (but its
/// search) mixed in, not linearly, so that the words of different writes rarely make up a
/// match.
fn check_word(hash: u64, score: u64, packed: u64) -> u64 {
    hash ^ score.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (packed & !SEARCH_BITS).rotate_left(29)
}

/// A table of a power-of-two number of buckets of two slots each; a position is kept in
/// one of the two slots of the bucket its hash picks. It never grows: its memory is fixed
/// when it is made (and the zeroed pages only become resident as they are used).
///
/// Replacement prefers depth: a position is written over in its own slot, else a new one
/// takes a free slot, else one no search since an earlier move's has read or written,
/// else the shallower of the two. So the deepest result in a bucket that this search
/// uses stays, while the shallow ones near the leaves come and go in the other slot.
/// (Searches are counted modulo 256: one 256 moves back passes for this one, which only
/// keeps its entry a while longer.)
///
/// The threads of a search read and write it at once, without locks (as chess engines'
/// tables are shared): a slot's first word is the hash with the other two words mixed in
/// ([`check_word`]), so a slot read while another thread wrote it part way most likely
/// does not match the hash, and reads as not kept (a mix that still matches is of entries
/// of the same position, searched for the same move).
#[derive(Debug)]
pub(crate) struct Table {
    /// Made zeroed by the allocator, so that its pages are the system's, untouched until
    /// used.
    words: Box<[AtomicU64]>,
    mask: usize,
    /// The search under way (counted modulo 256), written in each slot.
    search: u8,
}

impl Table {
    /// A table of at most `bytes` (at least one bucket).
    pub(crate) fn new(bytes: usize) -> Table {
        let buckets = (bytes / (SLOTS * SLOT_BYTES)).max(1);
        // The largest power of two that fits.
        let buckets = 1_usize << (usize::BITS - 1 - buckets.leading_zeros());
        Table {
            words: bytemuck::allocation::zeroed_slice_box(buckets * SLOTS * WORDS),
            mask: buckets - 1,
            search: 0,
        }
    }

    /// The bytes the table takes.
    pub(crate) fn bytes(&self) -> usize {
        self.words.len() * std::mem::size_of::<u64>()
    }

    /// Empties the table where it is: every slot free, as when it was made.
    pub(crate) fn clear(&mut self) {
        for word in &mut *self.words {
            *word.get_mut() = 0;
        }
        self.search = 0;
    }

    /// Starts a new search (a new move): what the earlier ones wrote is still read, but
    /// gives way to what this one writes.
    pub(crate) fn next_search(&mut self) {
        self.search = self.search.wrapping_add(1);
    }

    /// Where the slots of the bucket `hash` picks begin.
    fn bucket(&self, hash: u64) -> usize {
        // The low bits pick the bucket; the whole hash checks a slot.
        (hash as usize & self.mask) * SLOTS * WORDS
    }

    /// The word at `at`. Relaxed: a slot is checked by its own words (see [`Table`]), and
    /// the threads need no other order.
    fn word(&self, at: usize) -> u64 {
        self.words[at].load(Ordering::Relaxed)
    }

    /// Where the position with `hash` is kept, if it is, with the slot's score and packed
    /// words as read.
    fn find(&self, hash: u64) -> Option<(usize, u64, u64)> {
        let bucket = self.bucket(hash);
        (0..SLOTS).map(|slot| bucket + slot * WORDS).find_map(|at| {
            let (check, score, packed) = (self.word(at), self.word(at + 1), self.word(at + 2));
            (packed & USED != 0 && check == check_word(hash, score, packed))
                .then_some((at, score, packed))
        })
    }

    /// The entry for the position with `hash`, if the table still holds it: kept from
    /// then on as if this search had written it (unless another thread writes the slot
    /// meanwhile: its entry stays).
    pub(crate) fn get(&self, hash: u64) -> Option<Entry> {
        let (at, score, packed) = self.find(hash)?;
        if search_of(packed) != self.search {
            let marked = packed & !SEARCH_BITS | u64::from(self.search) << SEARCH_SHIFT;
            // Failing means the slot was written since: nothing to mark.
            let _ = self.words[at + 2].compare_exchange(
                packed,
                marked,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        }
        let bound = match (packed >> 48) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        let best = (packed >> 32) & 0xffff;
        Some(Entry {
            depth: packed as u32,
            score: score as i64,
            bound,
            best: (best != 0).then(|| (best - 1) as u16),
        })
    }

    /// Keeps `entry` for the position with `hash`, in the slot of its bucket that is
    /// worth least (see [`Table`]).
    pub(crate) fn insert(&self, hash: u64, entry: Entry) {
        let at = self.find(hash).map(|(at, _, _)| at).unwrap_or_else(|| {
            let bucket = self.bucket(hash);
            let slots = (0..SLOTS).map(|slot| bucket + slot * WORDS);
            // Kept worth: in use, written by this search, deep.
            slots
                .min_by_key(|&at| {
                    let packed = self.word(at + 2);
                    (
                        packed & USED != 0,
                        search_of(packed) == self.search,
                        packed as u32,
                    )
                })
                .unwrap_or(bucket)
        });
        let bound: u64 = match entry.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let best = entry.best.map_or(0, |square| u64::from(square) + 1);
        let depth = u64::from(entry.depth);
        let packed =
            USED | u64::from(self.search) << SEARCH_SHIFT | bound << 48 | best << 32 | depth;
        let score = entry.score as u64;
        self.words[at].store(check_word(hash, score, packed), Ordering::Relaxed);
        self.words[at + 1].store(score, Ordering::Relaxed);
        self.words[at + 2].store(packed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_come_back_as_stored_and_the_size_is_fixed() {
        let mut table = Table::new(1 << 20);
        assert!(table.bytes() <= 1 << 20 && table.bytes() > 1 << 19);
        let entries = [
            Entry {
                depth: 7,
                score: -(1 << 59),
                bound: Bound::Lower,
                best: Some(0),
            },
            Entry {
                depth: 0,
                score: 12,
                bound: Bound::Upper,
                best: None,
            },
            Entry {
                depth: 360,
                score: 0,
                bound: Bound::Exact,
                best: Some(360),
            },
        ];
        for (hash, entry) in (1_u64..).zip(entries) {
            let hash = hash.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            assert_eq!(table.get(hash), None);
            table.insert(hash, entry);
            assert_eq!(table.get(hash), Some(entry));
        }
        for hash in 0..100_000_u64 {
            table.insert(hash, entries[0]);
        }
        assert!(table.bytes() <= 1 << 20, "never grows");
        let bytes = table.bytes();
        table.clear();
        assert!((0..100_000_u64).all(|hash| table.get(hash).is_none()));
        assert_eq!(table.bytes(), bytes, "emptied where it is");
    }

    #[test]
    fn a_bucket_keeps_the_deepest_entry_of_this_search_and_lets_older_ones_go() {
        let mut table = Table::new(0);
        let at = |depth| Entry {
            depth,
            score: i64::from(depth),
            bound: Bound::Exact,
            best: None,
        };
        // One bucket: every hash shares it.
        table.insert(1, at(9));
        table.insert(2, at(3));
        assert_eq!((table.get(1), table.get(2)), (Some(at(9)), Some(at(3))));
        // A third position takes the shallower slot, whatever its own depth.
        table.insert(3, at(1));
        assert_eq!(table.get(2), None);
        assert_eq!((table.get(1), table.get(3)), (Some(at(9)), Some(at(1))));
        table.insert(4, at(12));
        assert_eq!((table.get(1), table.get(4)), (Some(at(9)), Some(at(12))));
        // A position already kept is written over in its own slot, shallower or not.
        table.insert(1, at(2));
        assert_eq!((table.get(1), table.get(4)), (Some(at(2)), Some(at(12))));
        // The next search's positions take the slots of the last one's first, deep or not,
        // unless this one read them.
        table.next_search();
        table.insert(5, at(0));
        table.insert(6, at(0));
        assert_eq!((table.get(5), table.get(6)), (Some(at(0)), Some(at(0))));
        assert_eq!((table.get(1), table.get(4)), (None, None));
        table.insert(7, at(12));
        table.next_search();
        assert_eq!(table.get(7), Some(at(12)), "read by this search");
        table.insert(8, at(1));
        table.insert(9, at(1));
        assert_eq!(table.get(7), Some(at(12)), "kept as this search's");
        assert_eq!((table.get(8), table.get(9)), (None, Some(at(1))));
    }

    #[test]
    fn threads_writing_one_bucket_at_once_never_read_a_mixed_entry() {
        // One bucket, so that the threads write the same two slots all the time, each
        // write of a position another entry (its depth and all that follows from it). A
        // slot read while another thread wrote it must read as not kept, never as a mix
        // of two entries; the slots written by the search before are marked as this
        // search's as they are read, beside the writes.
        let mut table = Table::new(0);
        let entry = |hash: u64, depth: u32| Entry {
            depth,
            score: (hash as i64 ^ i64::from(depth)).wrapping_mul(7_919),
            bound: [Bound::Exact, Bound::Lower, Bound::Upper][(hash as u32 ^ depth) as usize % 3],
            best: Some(((hash as u32).wrapping_add(depth) % 225) as u16),
        };
        let hashes: Vec<u64> = (1..=6_u64)
            .map(|n| n.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        table.insert(hashes[0], entry(hashes[0], 1));
        table.insert(hashes[1], entry(hashes[1], 2));
        table.next_search();
        let found = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..3_u32)
                .map(|worker| {
                    let (table, hashes) = (&table, &hashes);
                    scope.spawn(move || {
                        let mut found = 0_u32;
                        for round in 0..50_000_u32 {
                            let at = (round + worker) as usize % hashes.len();
                            let depth = (round * 3 + worker) % 40;
                            table.insert(hashes[at], entry(hashes[at], depth));
                            let hash =
                                hashes[(round as usize * 7 + worker as usize) % hashes.len()];
                            if let Some(read) = table.get(hash) {
                                assert_eq!(read, entry(hash, read.depth), "the entry of {hash:#x}");
                                found += 1;
                            }
                        }
                        found
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|worker| worker.join().unwrap())
                .sum::<u32>()
        });
        assert!(found > 0, "some reads found what others wrote");
    }

    #[test]
    fn a_tiny_bound_still_gives_one_bucket() {
        let table = Table::new(0);
        assert_eq!(table.bytes(), SLOTS * SLOT_BYTES);
        let entry = Entry {
            depth: 1,
            score: 5,
            bound: Bound::Exact,
            best: Some(4),
        };
        table.insert(99, entry);
        assert_eq!(table.get(99), Some(entry));
        assert_eq!(table.get(98), None);
    }
}
