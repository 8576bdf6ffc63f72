//! A set of squares as bits, as large as the largest board: for the threats the search
//! board keeps square by square, read without looking at the board.

use ttt_core::Rules;

/// 64 squares a word; enough words for the largest board.
const WORDS: usize = Rules::MAX_SQUARES.div_ceil(64);

/// A set of squares (by index), of any board up to [`Rules::MAX_SQUARES`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct SquareSet([u64; WORDS]);

impl SquareSet {
    pub(crate) const EMPTY: SquareSet = SquareSet([0; WORDS]);

    pub(crate) fn insert(&mut self, square: usize) {
        self.0[square / 64] |= 1 << (square % 64);
    }

    pub(crate) fn remove(&mut self, square: usize) {
        self.0[square / 64] &= !(1 << (square % 64));
    }

    /// Puts `square` in the set if it is out, takes it out if it is in, when `flip`.
    pub(crate) fn flip_if(&mut self, square: usize, flip: bool) {
        self.0[square / 64] ^= u64::from(flip) << (square % 64);
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.iter().all(|&word| word == 0)
    }

    pub(crate) fn contains(&self, square: usize) -> bool {
        self.0[square / 64] & (1 << (square % 64)) != 0
    }

    /// Whether the sets have a square in common.
    pub(crate) fn meets(&self, other: &SquareSet) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }

    /// The squares in both sets.
    pub(crate) fn and(mut self, other: &SquareSet) -> SquareSet {
        for (word, other) in self.0.iter_mut().zip(&other.0) {
            *word &= other;
        }
        self
    }

    /// The squares of this set not in `other`.
    pub(crate) fn without(mut self, other: &SquareSet) -> SquareSet {
        for (word, other) in self.0.iter_mut().zip(&other.0) {
            *word &= !other;
        }
        self
    }

    /// Adds every square of `other`.
    pub(crate) fn extend(&mut self, other: &SquareSet) {
        for (word, other) in self.0.iter_mut().zip(&other.0) {
            *word |= other;
        }
    }

    /// The squares, lowest first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        ones(&self.0)
    }
}

/// The places of the bits set in `words` (64 a word, the lowest bit of the first word
/// first), lowest first.
pub(crate) fn ones(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(index, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                index * 64 + bit
            })
        })
    })
}

impl FromIterator<usize> for SquareSet {
    fn from_iter<I: IntoIterator<Item = usize>>(squares: I) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        for square in squares {
            set.insert(square);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #[test]
        fn a_set_holds_what_was_put_in_it(
            squares in proptest::collection::btree_set(0..Rules::MAX_SQUARES, 0..40),
            others in proptest::collection::btree_set(0..Rules::MAX_SQUARES, 0..40),
        ) {
            let set: SquareSet = squares.iter().copied().collect();
            let other: SquareSet = others.iter().copied().collect();
            prop_assert_eq!(set.iter().collect::<Vec<_>>(), squares.iter().copied().collect::<Vec<_>>());
            prop_assert_eq!(set.is_empty(), squares.is_empty());
            let both: Vec<usize> = squares.intersection(&others).copied().collect();
            prop_assert_eq!(set.and(&other).iter().collect::<Vec<_>>(), both.clone());
            prop_assert_eq!(set.meets(&other), !both.is_empty());
            let apart: Vec<usize> = squares.difference(&others).copied().collect();
            prop_assert_eq!(set.without(&other).iter().collect::<Vec<_>>(), apart);
            let mut union = set;
            union.extend(&other);
            let all: Vec<usize> = squares.union(&others).copied().collect();
            prop_assert_eq!(union.iter().collect::<Vec<_>>(), all);
            for &square in &squares {
                prop_assert!(set.contains(square));
                let mut less = set;
                less.flip_if(square, true);
                prop_assert_eq!(less.iter().count(), squares.len() - 1);
                prop_assert!(!less.contains(square));
                less.flip_if(square, false);
                less.flip_if(square, true);
                prop_assert_eq!(less, set);
            }
        }
    }
}
