//! A fixed-size set of square indices, large enough for a 20x20 board.

/// Words in a [`Bitset`]: 7 x 64 = 448 bits, more than the 400 squares of 20x20.
const WORDS: usize = 7;

/// A set of square indices below 448, stored as bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Bitset([u64; WORDS]);

impl Bitset {
    pub(crate) fn contains(&self, index: usize) -> bool {
        self.0[index / 64] >> (index % 64) & 1 == 1
    }

    pub(crate) fn insert(&mut self, index: usize) {
        self.0[index / 64] |= 1 << (index % 64);
    }

    pub(crate) fn remove(&mut self, index: usize) {
        self.0[index / 64] &= !(1 << (index % 64));
    }

    pub(crate) fn len(&self) -> usize {
        self.0.iter().map(|word| word.count_ones() as usize).sum()
    }

    /// The indices in the set, in increasing order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(word_index, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(word_index * 64 + bit)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_and_iterate_across_words() {
        let mut set = Bitset::default();
        for index in [0, 63, 64, 200, 360] {
            set.insert(index);
        }
        assert_eq!(set.len(), 5);
        assert!(set.contains(200) && !set.contains(199));
        set.remove(63);
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![0, 64, 200, 360]);
    }
}
