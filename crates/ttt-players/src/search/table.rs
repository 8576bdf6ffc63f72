//! The search's transposition table: positions already searched, in memory fixed once.

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

/// Words per slot: the position's hash, the score, and depth, bound and move packed.
const WORDS: usize = 3;
/// Bytes per slot.
pub(crate) const SLOT_BYTES: usize = WORDS * std::mem::size_of::<u64>();
/// Set in the packed word of a slot in use.
const USED: u64 = 1 << 63;

/// A table of a power-of-two number of slots, each position in the one its hash picks; a
/// new entry replaces the old one there. It never grows: its memory is fixed when it is
/// made (and the zeroed pages only become resident as they are used).
#[derive(Debug)]
pub(crate) struct Table {
    words: Vec<u64>,
    mask: usize,
}

impl Table {
    /// A table of at most `bytes` (at least one slot).
    pub(crate) fn new(bytes: usize) -> Table {
        let slots = (bytes / SLOT_BYTES).max(1);
        // The largest power of two that fits.
        let slots = 1_usize << (usize::BITS - 1 - slots.leading_zeros());
        Table {
            words: vec![0; slots * WORDS],
            mask: slots - 1,
        }
    }

    /// The bytes the table takes.
    pub(crate) fn bytes(&self) -> usize {
        self.words.len() * std::mem::size_of::<u64>()
    }

    fn slot(&self, hash: u64) -> usize {
        // The low bits pick the slot; the whole hash checks it.
        (hash as usize & self.mask) * WORDS
    }

    /// The entry for the position with `hash`, if the table still holds it.
    pub(crate) fn get(&self, hash: u64) -> Option<Entry> {
        let at = self.slot(hash);
        let (key, score, packed) = (self.words[at], self.words[at + 1], self.words[at + 2]);
        if packed & USED == 0 || key != hash {
            return None;
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

    /// Keeps `entry` for the position with `hash`, in place of what shared its slot.
    pub(crate) fn insert(&mut self, hash: u64, entry: Entry) {
        let at = self.slot(hash);
        let bound: u64 = match entry.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let best = entry.best.map_or(0, |square| u64::from(square) + 1);
        self.words[at] = hash;
        self.words[at + 1] = entry.score as u64;
        self.words[at + 2] = USED | bound << 48 | best << 32 | u64::from(entry.depth);
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
    }

    #[test]
    fn a_tiny_bound_still_gives_one_slot() {
        let mut table = Table::new(0);
        assert_eq!(table.bytes(), SLOT_BYTES);
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
