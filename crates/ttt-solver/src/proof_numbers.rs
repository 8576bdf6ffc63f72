//! The numbers of depth-first proof-number search (df-pn: Nagai 2002, after Allis's
//! proof-number search, 1994), shared by every such search of the workspace: the
//! solver's (`pn`) and the gomoku engine's threat-space search (in
//! `ttt-players`). Each keeps its own expansion, leaves and table; what a node's numbers
//! are made of, which child to search next and how far, lives here once.
//!
//! A question is an AND/OR tree: where the attacker is to move one move must win (an OR
//! node), where the defender is to move every reply must lose (an AND node). Each node
//! carries a proof number (how many more leaves must be proved wins to prove it) and a
//! disproof number (to disprove it).
//!
//! ```
//! use ttt_solver::proof_numbers::{Epsilon, Numbers, weigh};
//!
//! // An OR node with three children: the cheapest proof, and every disproof.
//! let children = [Numbers::new(3, 1), Numbers::new(1, 2), Numbers::DISPROVED];
//! let weighed = weigh(children.into_iter().enumerate(), true).unwrap();
//! assert_eq!(weighed.numbers, Numbers::new(1, 3));
//! // The child to search is the one with the least proof number, until its proof number
//! // passes the second least by the 1 + ε trick.
//! assert_eq!(weighed.best, 1);
//! let limit = weighed.child_limit(Numbers::new(100, 100), Epsilon::HALF);
//! assert_eq!(limit, Numbers::new(4, 99));
//! ```

/// A number too large to reach: the node is settled the other way.
pub const INFINITY: u32 = u32::MAX;

/// How much work a node still needs: the proof number and the disproof number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Numbers {
    /// How many more leaves must be proved wins (for the attacker) to prove the node.
    pub proof: u32,
    /// How many more must be disproved to disprove it.
    pub disproof: u32,
}

impl Numbers {
    /// A node proved: the attacker wins.
    pub const PROVED: Numbers = Numbers {
        proof: 0,
        disproof: INFINITY,
    };
    /// A node disproved: the attacker does not win (by what the search may play).
    pub const DISPROVED: Numbers = Numbers {
        proof: INFINITY,
        disproof: 0,
    };
    /// A node not searched yet, with nothing known of it.
    pub const UNKNOWN: Numbers = Numbers {
        proof: 1,
        disproof: 1,
    };

    /// Numbers of a node.
    #[must_use]
    pub const fn new(proof: u32, disproof: u32) -> Numbers {
        Numbers { proof, disproof }
    }

    /// The numbers a move not searched yet starts from, at an OR node (`or_node`, whose
    /// children are the defender's to answer) or an AND node: `cost` on the side the
    /// parent takes the least of, 1 on the other. A costlier first guess makes the search
    /// try the move later.
    #[must_use]
    pub const fn first(cost: u32, or_node: bool) -> Numbers {
        if or_node {
            Numbers::new(cost, 1)
        } else {
            Numbers::new(1, cost)
        }
    }

    /// The numbers of a node with no move to search: at an OR node the attacker has none
    /// that wins (disproved), at an AND node the defender none that holds (proved).
    #[must_use]
    pub const fn without_moves(or_node: bool) -> Numbers {
        if or_node {
            Numbers::DISPROVED
        } else {
            Numbers::PROVED
        }
    }

    /// Whether the node is proved or disproved.
    #[must_use]
    pub const fn is_settled(self) -> bool {
        self.proof == 0 || self.disproof == 0
    }

    /// Whether the numbers have reached a threshold of `limit` (or are settled): the
    /// search of the node goes back up.
    #[must_use]
    pub const fn reached(self, limit: Numbers) -> bool {
        self.is_settled() || self.proof >= limit.proof || self.disproof >= limit.disproof
    }

    /// Whether the numbers are ones a search makes: proved (0 and infinity), disproved
    /// (infinity and 0), or open with both numbers between.
    #[must_use]
    pub const fn is_consistent(self) -> bool {
        match (self.proof, self.disproof) {
            (0, d) => d == INFINITY,
            (p, 0) => p == INFINITY,
            (p, d) => p < INFINITY && d < INFINITY,
        }
    }
}

/// How far past the second cheapest child the most proving one is searched before the
/// search comes back up (the 1 + ε trick of Pawlewicz and Lew, 2007): as a fraction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Epsilon {
    /// ε's numerator.
    pub numerator: u32,
    /// ε's denominator (not 0).
    pub denominator: u32,
}

impl Epsilon {
    /// ε = ½.
    pub const HALF: Epsilon = Epsilon {
        numerator: 1,
        denominator: 2,
    };
    /// ε = 1.
    pub const ONE: Epsilon = Epsilon {
        numerator: 1,
        denominator: 1,
    };

    /// A threshold past `second`: `second` (1 + ε), rounded down, and at least `second` + 1
    /// (df-pn's own threshold, where ε is too small to add a whole one).
    ///
    /// ```
    /// use ttt_solver::proof_numbers::{Epsilon, INFINITY};
    ///
    /// assert_eq!(Epsilon::HALF.widen(10), 15);
    /// assert_eq!(Epsilon::HALF.widen(1), 2);
    /// assert_eq!(Epsilon::ONE.widen(10), 20);
    /// assert_eq!(Epsilon::ONE.widen(INFINITY), INFINITY);
    /// ```
    #[must_use]
    pub fn widen(self, second: u32) -> u32 {
        let more =
            u64::from(second) * u64::from(self.numerator) / u64::from(self.denominator.max(1));
        let more = u32::try_from(more).unwrap_or(INFINITY).max(1);
        second.saturating_add(more)
    }
}

/// A node's numbers from its children's, and the child to search next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weighed {
    /// The node's numbers: at an OR node the cheapest proof and the sum of the disproofs,
    /// at an AND node the sum of the proofs and the cheapest disproof.
    pub numbers: Numbers,
    /// The index (as the children were given) of the most proving child: the least proof
    /// number at an OR node, disproof number at an AND node; the first of equals.
    pub best: usize,
    /// The second least such number ([`INFINITY`] with one child).
    pub second: u32,
    /// The most proving child's numbers.
    best_numbers: Numbers,
    or_node: bool,
}

/// Weighs a node's children, given with their indices: `None` when there are none.
/// Sums stop below [`INFINITY`] unless a child's number is infinite, so that a node is
/// settled only by settled children.
#[must_use]
pub fn weigh(
    children: impl IntoIterator<Item = (usize, Numbers)>,
    or_node: bool,
) -> Option<Weighed> {
    let mut sum = 0_u32;
    let mut best: Option<(usize, u32, Numbers)> = None;
    let mut second = INFINITY;
    for (index, numbers) in children {
        let (least, summed) = if or_node {
            (numbers.proof, numbers.disproof)
        } else {
            (numbers.disproof, numbers.proof)
        };
        sum = if summed == INFINITY || sum == INFINITY {
            INFINITY
        } else {
            sum.saturating_add(summed).min(INFINITY - 1)
        };
        match best {
            Some((_, cheapest, _)) if least >= cheapest => second = second.min(least),
            Some((_, cheapest, _)) => {
                second = cheapest;
                best = Some((index, least, numbers));
            }
            None => best = Some((index, least, numbers)),
        }
    }
    let (best, least, best_numbers) = best?;
    let numbers = if or_node {
        Numbers::new(least, sum)
    } else {
        Numbers::new(sum, least)
    };
    Some(Weighed {
        numbers,
        best,
        second,
        best_numbers,
        or_node,
    })
}

impl Weighed {
    /// The thresholds the most proving child is searched within, under the node's own
    /// `limit`: on the number the node takes the least of, up to `epsilon` past the
    /// second cheapest child; on the one it sums, what the limit leaves after the other
    /// children.
    #[must_use]
    pub fn child_limit(&self, limit: Numbers, epsilon: Epsilon) -> Numbers {
        let child = self.best_numbers;
        let grow = |threshold: u32, sum: u32, own: u32| {
            if threshold == INFINITY {
                INFINITY
            } else {
                threshold.saturating_sub(sum).saturating_add(own)
            }
        };
        let widened = epsilon.widen(self.second);
        if self.or_node {
            Numbers::new(
                limit.proof.min(widened),
                grow(limit.disproof, self.numbers.disproof, child.disproof),
            )
        } else {
            Numbers::new(
                grow(limit.proof, self.numbers.proof, child.proof),
                limit.disproof.min(widened),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn numbers() -> impl Strategy<Value = Numbers> {
        prop_oneof![
            Just(Numbers::PROVED),
            Just(Numbers::DISPROVED),
            (1..1000_u32, 1..1000_u32).prop_map(|(p, d)| Numbers::new(p, d)),
        ]
    }

    proptest! {
        /// The definitions of df-pn, against a plain reading of them.
        #[test]
        fn a_node_is_its_children_s_cheapest_and_sum(
            children in prop::collection::vec(numbers(), 1..8),
            or_node in any::<bool>(),
            slack in 1..2000_u32,
        ) {
            let weighed = weigh(children.iter().copied().enumerate(), or_node).unwrap();
            let least = |n: &Numbers| if or_node { n.proof } else { n.disproof };
            let summed = |n: &Numbers| if or_node { n.disproof } else { n.proof };
            let cheapest = children.iter().map(least).min().unwrap();
            let total: u64 = children.iter().map(|n| u64::from(summed(n))).sum();
            let infinite = children.iter().any(|n| summed(n) == INFINITY);
            let sum = if infinite { INFINITY } else { total.min(u64::from(INFINITY - 1)) as u32 };
            let expected = if or_node { Numbers::new(cheapest, sum) } else { Numbers::new(sum, cheapest) };
            prop_assert_eq!(weighed.numbers, expected);
            prop_assert!(weighed.numbers.is_consistent());
            // The best is the first of the cheapest; the second is the least of the rest.
            prop_assert_eq!(weighed.best, children.iter().position(|n| least(n) == cheapest).unwrap());
            let second = children
                .iter()
                .enumerate()
                .filter(|&(index, _)| index != weighed.best)
                .map(|(_, n)| least(n))
                .min()
                .unwrap_or(INFINITY);
            prop_assert_eq!(weighed.second, second);
            // Within a limit the node has not reached, the child's limits pass its own
            // numbers (so its search makes progress), stay within the node's on the side
            // the node takes the least of, and pass the second least there unless the
            // node's limit stops them.
            let child = children[weighed.best];
            let limit = Numbers::new(
                weighed.numbers.proof.saturating_add(slack).min(INFINITY - 1),
                weighed.numbers.disproof.saturating_add(slack).min(INFINITY - 1),
            );
            if !weighed.numbers.reached(limit) {
                let within = weighed.child_limit(limit, Epsilon::HALF);
                prop_assert!(within.proof > child.proof && within.disproof > child.disproof);
                let (own, their) = if or_node { (within.proof, limit.proof) } else { (within.disproof, limit.disproof) };
                prop_assert!(own <= their);
                prop_assert!(own > second || own == their);
            }
        }
    }

    #[test]
    fn no_children_weigh_nothing() {
        assert_eq!(weigh(std::iter::empty(), true), None);
    }
}
