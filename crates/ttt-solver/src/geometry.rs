//! A board of at most 64 squares as two `u64` bitboards, with its winning windows and
//! symmetries precomputed: the representation the solver's hot loops run on.

use ttt_core::{Board, Line, Mark, Position, Rules, Square, WinRule, windows};

use crate::SolverError;
use crate::fours::{self, FoursBoard, Side, Wins};

/// The most squares a board may have for the bitboard solver.
pub const MAX_SQUARES: usize = 64;

/// Squares as bits: bit `i` is square index `i`.
pub type Bits = u64;

/// The facts about one board shape that every search needs, computed once.
#[derive(Debug, Clone)]
pub struct Geometry {
    rules: Rules,
    full: Bits,
    /// All windows of `k` squares, grouped by the square they pass through:
    /// `windows[starts[s]..starts[s + 1]]` are those through square `s`. Each window is
    /// here once for each of its squares.
    windows: Vec<Window>,
    starts: Vec<usize>,
    /// Every window once.
    distinct: Vec<Window>,
    symmetries: Vec<Symmetry>,
    /// For each symmetry, the index of its inverse (the symmetries of a board form a
    /// group).
    inverses: Vec<usize>,
}

/// A window of `k` squares in a row and the squares just beyond its two ends that must not
/// hold the same side's marks for it to win: none under freestyle, where a longer line
/// wins too; the one or two on the board under exactly k, where it would be an overline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Window {
    squares: Bits,
    beyond: Bits,
}

impl Window {
    fn new(line: &Line, rules: Rules) -> Window {
        let squares = to_bits(line.squares());
        let beyond = match rules.win_rule() {
            WinRule::Freestyle => 0,
            WinRule::Exact => to_bits(&line.ends_beyond(rules)),
        };
        Window { squares, beyond }
    }

    /// Whether `mine` holds the whole window and makes it a winning line.
    #[inline]
    fn won_by(self, mine: Bits) -> bool {
        mine & self.squares == self.squares && mine & self.beyond == 0
    }

    /// Whether the window can still become a winning line of `mine`'s against `theirs`.
    #[inline]
    fn open_for(self, mine: Bits, theirs: Bits) -> bool {
        self.squares & theirs == 0 && self.beyond & mine == 0
    }
}

/// The most windows a board of up to [`MAX_SQUARES`] squares has (168, on 8x8 with
/// k = 3), with room to spare.
const MAX_WINDOWS: usize = 256;

/// Kuhn's augmenting path for `slot` (two a group): a free square of its group, taken
/// from another slot that can move elsewhere if need be.
fn augment(
    slot: usize,
    groups: &[Bits],
    owner: &mut [Option<u16>; MAX_SQUARES],
    seen: &mut Bits,
) -> bool {
    let mut candidates = groups[slot / 2] & !*seen;
    while candidates != 0 {
        let square = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        *seen |= 1 << square;
        let free_to_take = match owner[square] {
            None => true,
            Some(other) => augment(usize::from(other), groups, owner, seen),
        };
        if free_to_take {
            owner[square] = Some(slot as u16);
            return true;
        }
    }
    false
}

/// Two sides' marks on a board, the side to move's first: what the look for wins by fours
/// ([`fours`]) plays on at the prover's leaves.
struct Stones<'a> {
    geometry: &'a Geometry,
    mover: Bits,
    other: Bits,
}

impl Stones<'_> {
    fn free(&self) -> Bits {
        self.geometry.full & !(self.mover | self.other)
    }
}

impl FoursBoard for Stones<'_> {
    type Squares = BitSquares;

    fn wins(&self, side: Side) -> Wins {
        let (mine, theirs) = match side {
            Side::Mover => (self.mover, self.other),
            Side::Other => (self.other, self.mover),
        };
        wins_of(self.geometry.threats(mine, theirs).0 & self.free())
    }

    fn four_squares(&self) -> BitSquares {
        BitSquares(self.geometry.four_squares(self.mover, self.other) & self.free())
    }

    fn play(&mut self, square: usize) {
        self.mover |= 1 << square;
        std::mem::swap(&mut self.mover, &mut self.other);
    }

    fn undo(&mut self, square: usize) {
        std::mem::swap(&mut self.mover, &mut self.other);
        self.mover &= !(1 << square);
    }
}

/// The squares of a set, lowest first.
struct BitSquares(Bits);

impl Iterator for BitSquares {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let square = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(square)
    }
}

/// The squares to win on of a set of them.
fn wins_of(squares: Bits) -> Wins {
    match squares.count_ones() {
        0 => Wins::None,
        1 => Wins::One(squares.trailing_zeros() as usize),
        _ => Wins::Several,
    }
}

/// A zone of every square: nothing known beyond the result itself.
pub(crate) const ALL: Bits = Bits::MAX;

/// Replies tried for a refutation zone (see [`Geometry::refutation_zone`]), the most
/// promising first by the move order.
const REFUTATIONS_TRIED: usize = 16;

/// How [`Geometry::ordered_moves`] weighs a window by the marks in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveOrder {
    /// For the side seeking a win: a window counts four times more for each mark in it,
    /// so the lines nearest completion come first.
    Attack,
    /// For the side keeping the other from winning: twice more a mark, so the squares
    /// that block the most open windows come first (the centre of an emptier board).
    /// Near the root of a proof on 7x7 with k = 5 this is the difference between
    /// replies that hold in a second and replies that take minutes.
    Defence,
}

impl MoveOrder {
    /// The order for a side that seeks a win ([`Attack`](MoveOrder::Attack)), or only
    /// keeps the other from winning ([`Defence`](MoveOrder::Defence)).
    #[must_use]
    pub const fn seeking_a_win(win: bool) -> MoveOrder {
        if win {
            MoveOrder::Attack
        } else {
            MoveOrder::Defence
        }
    }

    /// The power of two a mark multiplies a window's weight by.
    const fn bits_a_mark(self) -> u32 {
        match self {
            MoveOrder::Attack => 2,
            MoveOrder::Defence => 1,
        }
    }
}

/// What [`Geometry::board_says`] finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BoardSays {
    /// No free square, and no line: a draw.
    Full,
    /// The side to move completes a line on this square (the first of them).
    Wins(Bits),
    /// The other side has these two or more squares to win on: the side to move loses.
    Loses(Bits),
    /// None of those.
    Open {
        free: Bits,
        /// The other side's one square to win on, which the side to move must take; 0
        /// when it has none.
        their_win: Bits,
        /// Whether each side has a window left that it can still complete.
        my_live: bool,
        their_live: bool,
    },
}

/// A position's images under the board's symmetries (at most 8), in their order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Images {
    pairs: [(Bits, Bits); 8],
    count: usize,
}

/// One symmetry of the board as a lookup table: the image of each byte of a bitboard.
#[derive(Debug, Clone)]
struct Symmetry {
    bytes: Vec<[Bits; 256]>,
}

impl Symmetry {
    fn new(permutation: &[usize]) -> Symmetry {
        let chunks = permutation.len().div_ceil(8);
        let bytes = (0..chunks)
            .map(|chunk| {
                let mut table = [0; 256];
                for (byte, image) in table.iter_mut().enumerate() {
                    for bit in 0..8 {
                        let square = chunk * 8 + bit;
                        if byte >> bit & 1 == 1 && square < permutation.len() {
                            *image |= 1 << permutation[square];
                        }
                    }
                }
                table
            })
            .collect();
        Symmetry { bytes }
    }

    fn apply(&self, bits: Bits) -> Bits {
        self.bytes
            .iter()
            .enumerate()
            .map(|(chunk, table)| table[(bits >> (chunk * 8) & 0xff) as usize])
            .fold(0, |image, part| image | part)
    }
}

impl Geometry {
    /// Precomputes windows and symmetries for `rules`.
    ///
    /// # Errors
    /// [`SolverError::TooLarge`] when the board has more than 64 squares.
    pub fn new(rules: Rules) -> Result<Geometry, SolverError> {
        let squares = rules.square_count();
        if squares > MAX_SQUARES {
            return Err(SolverError::TooLarge { rules });
        }
        let all = windows(rules);
        let distinct = all.iter().map(|line| Window::new(line, rules)).collect();
        let mut windows = Vec::new();
        let mut starts = vec![0];
        for square in rules.squares() {
            windows.extend(
                all.iter()
                    .filter(|line| line.contains(square))
                    .map(|line| Window::new(line, rules)),
            );
            starts.push(windows.len());
        }
        let full = if squares == 64 {
            Bits::MAX
        } else {
            (1 << squares) - 1
        };
        let permutations = permutations(rules);
        let symmetries = permutations.iter().map(|p| Symmetry::new(p)).collect();
        let inverses = permutations
            .iter()
            .map(|p| {
                let undoes = |q: &&Vec<usize>| p.iter().enumerate().all(|(s, &i)| q[i] == s);
                permutations.iter().position(|q| undoes(&q)).unwrap_or(0)
            })
            .collect();
        Ok(Geometry {
            rules,
            full,
            windows,
            starts,
            distinct,
            symmetries,
            inverses,
        })
    }

    /// The rules this geometry is for.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Every square of the board as a bit.
    #[must_use]
    pub fn full(&self) -> Bits {
        self.full
    }

    /// Whether `mine`, which has just gained `square`, holds a winning line through it: a
    /// whole window, and under exactly k none of the squares just beyond its ends.
    #[inline]
    #[must_use]
    pub fn wins_at(&self, mine: Bits, square: usize) -> bool {
        self.windows[self.starts[square]..self.starts[square + 1]]
            .iter()
            .any(|window| window.won_by(mine))
    }

    /// How many symmetries the board has: 8 for a square board, 4 for a rectangle.
    #[must_use]
    pub fn symmetry_count(&self) -> usize {
        self.symmetries.len()
    }

    /// The smallest image of the pair (`x`, `o`) under the board's symmetries: one key for
    /// all positions that are the same up to rotation and reflection.
    #[must_use]
    pub fn canonical(&self, x: Bits, o: Bits) -> (Bits, Bits) {
        self.canonical_with(x, o).0
    }

    /// [`canonical`](Geometry::canonical), with the symmetry that maps (`x`, `o`) onto it:
    /// squares of the position map onto the key's with [`to_key`](Geometry::to_key) and
    /// back with [`from_key`](Geometry::from_key).
    #[must_use]
    pub fn canonical_with(&self, x: Bits, o: Bits) -> ((Bits, Bits), usize) {
        self.symmetries
            .iter()
            .enumerate()
            .map(|(index, symmetry)| ((symmetry.apply(x), symmetry.apply(o)), index))
            .min()
            .unwrap_or(((x, o), 0))
    }

    /// The images of the pair (`x`, `o`) under each of the board's symmetries, from which
    /// [`canonical_adding`](Geometry::canonical_adding) keys the positions one mark on
    /// at the cost of one square's image a symmetry.
    pub(crate) fn images(&self, x: Bits, o: Bits) -> Images {
        let mut pairs = [(0, 0); 8];
        for (pair, symmetry) in pairs.iter_mut().zip(&self.symmetries) {
            *pair = (symmetry.apply(x), symmetry.apply(o));
        }
        Images {
            pairs,
            count: self.symmetries.len(),
        }
    }

    /// [`canonical_with`](Geometry::canonical_with) of the pair `images` were taken of,
    /// with `square` added to its second side.
    pub(crate) fn canonical_adding(&self, images: &Images, square: usize) -> ((Bits, Bits), usize) {
        let (chunk, bit) = (square / 8, square % 8);
        images.pairs[..images.count]
            .iter()
            .zip(&self.symmetries)
            .enumerate()
            .map(|(index, (&(x, o), symmetry))| ((x, o | symmetry.bytes[chunk][1 << bit]), index))
            .min()
            .unwrap_or(((0, 0), 0))
    }

    /// `squares` of a position, as the same squares of its key under `symmetry` (an index
    /// [`canonical_with`](Geometry::canonical_with) gave).
    #[must_use]
    pub fn to_key(&self, symmetry: usize, squares: Bits) -> Bits {
        self.symmetries[symmetry].apply(squares)
    }

    /// `squares` of a key, as the same squares of the position that `symmetry` mapped
    /// onto it: the inverse of [`to_key`](Geometry::to_key).
    #[must_use]
    pub fn from_key(&self, symmetry: usize, squares: Bits) -> Bits {
        self.symmetries[self.inverses[symmetry]].apply(squares)
    }

    /// `zone` grown so that it holds two free squares of every window still open to
    /// `attacker` against `defender` (all of a window's free squares when it has fewer):
    /// then however many marks `attacker` gains off the zone, none of those windows is
    /// completed or left one square short.
    #[must_use]
    pub fn guard(&self, attacker: Bits, defender: Bits, mut zone: Bits) -> Bits {
        let free = self.full & !(attacker | defender);
        for window in &self.distinct {
            if !window.open_for(attacker, defender) {
                continue;
            }
            let mut open = window.squares & free & !zone;
            let mut missing = 2_u32.saturating_sub((window.squares & free & zone).count_ones());
            while missing > 0 && open != 0 {
                zone |= open & open.wrapping_neg();
                open &= open - 1;
                missing -= 1;
            }
        }
        zone
    }

    /// Whether `defender` can stop `attacker` from ever completing a window by the
    /// Erdős–Selfridge potential: the windows open to the attacker, each weighing one half
    /// to the power of its free squares, weigh less than one half with the attacker to
    /// move (less than one with the defender to move). Then the defender's move that takes
    /// the most weight keeps it so. The squares of those windows with it, when it holds.
    #[must_use]
    pub fn outweighed(
        &self,
        attacker: Bits,
        defender: Bits,
        attacker_to_move: bool,
    ) -> Option<Bits> {
        let free = self.full & !(attacker | defender);
        let k = self.rules.k() as u32;
        let bound: u64 = if attacker_to_move {
            1 << (k - 1)
        } else {
            1 << k
        };
        let mut weight: u64 = 0;
        let mut zone = 0;
        for window in &self.distinct {
            if !window.open_for(attacker, defender) {
                continue;
            }
            let open = window.squares & free;
            weight += 1 << (k - open.count_ones());
            if weight >= bound {
                return None;
            }
            zone |= open;
        }
        Some(zone)
    }

    /// What the board alone says of the position with `mine` to move, before any search:
    /// a full board, a line `mine` completes at once, two squares the other side wins on
    /// (which `mine` cannot both take), or none of these.
    pub(crate) fn board_says(&self, mine: Bits, theirs: Bits) -> BoardSays {
        let free = self.full & !(mine | theirs);
        if free == 0 {
            return BoardSays::Full;
        }
        let (my_wins, my_live) = self.threats(mine, theirs);
        let my_wins = my_wins & free;
        if my_wins != 0 {
            return BoardSays::Wins(my_wins & my_wins.wrapping_neg());
        }
        let (their_wins, their_live) = self.threats(theirs, mine);
        let their_wins = their_wins & free;
        if their_wins.count_ones() > 1 {
            return BoardSays::Loses(their_wins);
        }
        BoardSays::Open {
            free,
            their_win: their_wins,
            my_live,
            their_live,
        }
    }

    /// Where `attacker` can no longer win against `defender` (whatever the order of play),
    /// the squares that claim rests on (its *zone*, see `Zoned` in the prover): none when
    /// no window is `live` for it, the windows' squares when the Erdős–Selfridge weight
    /// holds ([`outweighed`](Geometry::outweighed)), a pairing's squares when the defender
    /// has one. `None` when none of these shows it.
    pub(crate) fn cannot_win(
        &self,
        live: bool,
        attacker: Bits,
        defender: Bits,
        attacker_to_move: bool,
    ) -> Option<Bits> {
        if !live {
            return Some(0);
        }
        if let Some(zone) = self.outweighed(attacker, defender, attacker_to_move) {
            return Some(zone);
        }
        self.pairing_squares(attacker, defender)
    }

    /// `zone`, or [`ALL`] under exactly k, where another mark may make an overline of a
    /// winning line: there the other side's marks off a zone are not harmless.
    pub(crate) fn zone_or_all(&self, zone: Bits) -> Bits {
        match self.rules.win_rule() {
            WinRule::Freestyle => zone,
            WinRule::Exact => ALL,
        }
    }

    /// The squares outside which no move of `mine` (to move) can win: a reply of the
    /// other side's after which it has a pairing against `mine` even had `mine` passed,
    /// with the squares of that pairing and the reply (the smallest such zone of those
    /// [`pairing_replies`](Geometry::pairing_replies) gives). After any move of `mine` off
    /// those squares, that reply leaves the same pairing: a window open to `mine` after
    /// the move was open before it (another mark of `mine`'s opens no window; under
    /// exactly k it may close one), so it holds a pair, and every pair is still free.
    pub(crate) fn refutation_zone(&self, mine: Bits, theirs: Bits, free: Bits) -> Option<Bits> {
        self.pairing_replies(mine, theirs, free)
            .map(|(_, zone)| zone)
            .min_by_key(|zone| zone.count_ones())
    }

    /// The other side's replies, of its few most promising by the move order, after which
    /// it has a pairing against `mine`: each with the squares of the pairing and the
    /// reply.
    pub(crate) fn pairing_replies(
        &self,
        mine: Bits,
        theirs: Bits,
        free: Bits,
    ) -> impl Iterator<Item = (u8, Bits)> + '_ {
        let replies = self.ordered_moves(theirs, mine, free, MoveOrder::Defence);
        replies
            .into_iter()
            .take(REFUTATIONS_TRIED)
            .filter_map(move |reply| {
                let squares = self.pairing_squares(mine, theirs | 1 << reply)?;
                Some((reply, squares | 1 << reply))
            })
    }

    /// For `mine` against `theirs`: the free squares that would make a winning line for
    /// `mine`, and whether any window can still become one (free of `theirs`, and under
    /// exactly k with none of `mine`'s marks just beyond its ends).
    #[must_use]
    pub fn threats(&self, mine: Bits, theirs: Bits) -> (Bits, bool) {
        let k = self.rules.k() as u32;
        let mut wins = 0;
        let mut live = false;
        for &window in &self.distinct {
            if window.open_for(mine, theirs) {
                live = true;
                let missing = window.squares & !mine;
                if (window.squares & mine).count_ones() + 1 == k {
                    wins |= missing;
                }
            }
        }
        (wins, live)
    }

    /// Whether `attacker`, to move, wins by continuous fours ([`fours::fours_from`], at
    /// most `budget` of its moves tried), where it is known to have no square to win on,
    /// and `defender` at most one, `their_win` (0 for none): as
    /// [`board_says`](Geometry::board_says) leaves a position it calls open.
    pub(crate) fn fours_from(
        &self,
        attacker: Bits,
        defender: Bits,
        their_win: Bits,
        budget: &mut u32,
    ) -> bool {
        fours::fours_from(
            &mut self.stones(attacker, defender),
            wins_of(their_win),
            budget,
        )
    }

    /// `mover`'s and `other`'s marks, as the look for wins by fours plays on them.
    fn stones(&self, mover: Bits, other: Bits) -> Stones<'_> {
        Stones {
            geometry: self,
            mover,
            other,
        }
    }

    /// The free squares that would leave `mine` one square short of a winning line: those
    /// of the windows open to it that hold all but two of their squares.
    fn four_squares(&self, mine: Bits, theirs: Bits) -> Bits {
        let k = self.rules.k() as u32;
        let mut squares = 0;
        for &window in &self.distinct {
            if window.open_for(mine, theirs) && (window.squares & mine).count_ones() + 2 == k {
                squares |= window.squares & !mine;
            }
        }
        squares
    }

    /// A pairing strategy for `defender` against `attacker`: pairs of free squares, no
    /// square in two pairs, such that every window still open to `attacker` holds both
    /// squares of some pair. Whenever the attacker takes one square of a pair the defender
    /// takes the other (and plays anywhere otherwise), so no open window is ever completed:
    /// the attacker cannot win, whoever is to move. `None` when none is found.
    ///
    /// It is found as a matching, not by trying pairings: open windows on one line that
    /// share at least two free squares are grouped (one pair in their common squares
    /// serves them all), and each group is matched to two free squares of its own by
    /// augmenting paths (a bipartite b-matching). A pairing this way is a proof; one not
    /// found may still exist in another form.
    #[must_use]
    pub fn pairing(&self, attacker: Bits, defender: Bits) -> Option<Vec<(u8, u8)>> {
        let (owner, groups) = self.matching(attacker, defender)?;
        let mut pairs = vec![(u8::MAX, u8::MAX); groups];
        for (square, slot) in owner.iter().enumerate() {
            if let Some(slot) = slot {
                let pair = &mut pairs[usize::from(*slot) / 2];
                if pair.0 == u8::MAX {
                    pair.0 = square as u8;
                } else {
                    pair.1 = square as u8;
                }
            }
        }
        Some(pairs)
    }

    /// The squares of a [`pairing`](Geometry::pairing), when one is found: the same
    /// matching, without building the pairs.
    #[must_use]
    pub fn pairing_squares(&self, attacker: Bits, defender: Bits) -> Option<Bits> {
        let (owner, _) = self.matching(attacker, defender)?;
        Some(owner.iter().enumerate().fold(0, |squares, (square, slot)| {
            squares | Bits::from(slot.is_some()) << square
        }))
    }

    /// The matching behind [`pairing`](Geometry::pairing): for each free square, the slot
    /// it fills (two slots a group of windows), and how many groups there are.
    fn matching(
        &self,
        attacker: Bits,
        defender: Bits,
    ) -> Option<([Option<u16>; MAX_SQUARES], usize)> {
        let free = self.full & !(attacker | defender);
        // The free squares a pair of each group may take: at most one group a window.
        let mut groups = [0 as Bits; MAX_WINDOWS];
        let mut count = 0;
        for window in &self.distinct {
            if !window.open_for(attacker, defender) {
                continue;
            }
            let open = window.squares & free;
            if open.count_ones() < 2 {
                // One square from a line: no pair can stop it.
                return None;
            }
            match groups[..count]
                .iter_mut()
                .find(|group| (**group & open).count_ones() >= 2)
            {
                Some(group) => *group &= open,
                None => {
                    groups[count] = open;
                    count += 1;
                }
            }
        }
        if 2 * count > free.count_ones() as usize {
            return None;
        }
        // Two slots a group; each free square serves at most one slot.
        let mut owner: [Option<u16>; MAX_SQUARES] = [None; MAX_SQUARES];
        for slot in 0..2 * count {
            let mut seen: Bits = 0;
            if !augment(slot, &groups[..count], &mut owner, &mut seen) {
                return None;
            }
        }
        Some((owner, count))
    }

    /// The free squares, most promising first by `order`: those in the most windows still
    /// open for either side, weighted by how full those windows are.
    #[must_use]
    pub fn ordered_moves(&self, mine: Bits, theirs: Bits, free: Bits, order: MoveOrder) -> Vec<u8> {
        let scores = self.move_scores(mine, theirs, free, order.bits_a_mark());
        let mut moves: Vec<u8> = (0..64).filter(|&s| free >> s & 1 == 1).collect();
        moves.sort_by_key(|&square| std::cmp::Reverse(scores[usize::from(square)]));
        moves
    }

    /// The ordering score of each free square: the sum, over the windows through it that
    /// only one side holds marks in (or none), of 2 to the power of `bits` times those
    /// marks. A window holds at most k marks of a side (k of them only as part of an
    /// overline, under exactly k), and k is at most 20, so a weight is at most 4^20 and
    /// the sums saturate rather than overflow.
    fn move_scores(&self, mine: Bits, theirs: Bits, free: Bits, bits: u32) -> [u64; 64] {
        let mut scores = [0_u64; 64];
        for &Window {
            squares: window, ..
        } in &self.distinct
        {
            let marks = match (window & mine == 0, window & theirs == 0) {
                (_, true) => (window & mine).count_ones(),
                (true, false) => (window & theirs).count_ones(),
                (false, false) => continue,
            };
            let weight = 1_u64.checked_shl(bits * marks).unwrap_or(u64::MAX);
            let mut open = window & free;
            while open != 0 {
                let square = open.trailing_zeros() as usize;
                scores[square] = scores[square].saturating_add(weight);
                open &= open - 1;
            }
        }
        scores
    }

    /// How many of the board's symmetries (the identity included) map the position
    /// (`x`, `o`) onto itself. By Burnside's lemma, the sum of this over a set of positions
    /// closed under symmetry, divided by [`symmetry_count`](Geometry::symmetry_count), is
    /// the number of positions in it that differ up to symmetry.
    #[must_use]
    pub fn symmetries_fixing(&self, x: Bits, o: Bits) -> usize {
        self.symmetries
            .iter()
            .filter(|symmetry| symmetry.apply(x) == x && symmetry.apply(o) == o)
            .count()
    }

    /// The bitboards of a position's X and O marks.
    #[must_use]
    pub fn split(&self, board: &Board) -> (Bits, Bits) {
        let bits = |mark| {
            board
                .squares_of(mark)
                .fold(0, |bits, square: Square| bits | 1 << square.index())
        };
        (bits(Mark::X), bits(Mark::O))
    }

    /// The bitboards of the side to move and of the other side.
    #[must_use]
    pub fn sides(&self, position: &Position) -> (Bits, Bits) {
        let (x, o) = self.split(position.board());
        match position.to_move() {
            Mark::X => (x, o),
            Mark::O => (o, x),
        }
    }
}

/// The squares as a bitboard.
fn to_bits(squares: &[Square]) -> Bits {
    squares
        .iter()
        .fold(0, |bits, square| bits | 1 << square.index())
}

/// The board's symmetries as square permutations, identity first.
fn permutations(rules: Rules) -> Vec<Vec<usize>> {
    let (width, height) = (rules.width(), rules.height());
    let map = |f: &dyn Fn(usize, usize) -> (usize, usize)| -> Vec<usize> {
        rules
            .squares()
            .map(|square| {
                let (column, row) = f(rules.column(square), rules.row(square));
                row * width + column
            })
            .collect()
    };
    let (right, bottom) = (width - 1, height - 1);
    let mut all = vec![
        map(&|c, r| (c, r)),
        map(&|c, r| (right - c, r)),
        map(&|c, r| (c, bottom - r)),
        map(&|c, r| (right - c, bottom - r)),
    ];
    if width == height {
        all.extend([
            map(&|c, r| (r, c)),
            map(&|c, r| (bottom - r, c)),
            map(&|c, r| (r, right - c)),
            map(&|c, r| (bottom - r, right - c)),
        ]);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_by_fours_is_a_win_and_is_found_where_fours_alone_win() {
        use rand::SeedableRng;
        use rand::rngs::StdRng;
        let mut rng = StdRng::seed_from_u64(21);
        let mut solver = crate::Solver::new();
        let mut missed = 0;
        for rules in [
            Rules::new(4, 4, 3).unwrap(),
            Rules::new(4, 4, 3).unwrap().with_win_rule(WinRule::Exact),
            Rules::new(4, 4, 4).unwrap(),
            Rules::new(5, 3, 3).unwrap(),
        ] {
            let geometry = Geometry::new(rules).unwrap();
            let mut found = 0;
            for _ in 0..400 {
                let stones = rand::RngExt::random_range(&mut rng, 2..=9);
                let Some(position) = ttt_reference::random_position(rules, stones, &mut rng) else {
                    continue;
                };
                if position.is_over() {
                    continue;
                }
                let (mine, theirs) = geometry.sides(&position);
                let wins = solver.value(&position).unwrap().result == crate::GameResult::Win;
                if fours::wins_by_fours(&mut geometry.stones(mine, theirs), &mut 1_000) {
                    assert!(wins, "{rules}: {position}");
                    found += 1;
                } else if wins {
                    missed += 1;
                }
            }
            assert!(found > 20, "{rules}: {found} found");
        }
        // Not vacuous: some wins take more than fours.
        assert!(missed > 0);
    }

    #[test]
    fn no_board_the_geometry_takes_has_more_windows_than_a_matching_holds() {
        let mut most = 0;
        // Every side of 3 up to 20 squares, within 64 squares in all.
        for width in 3..=20 {
            for height in (3..=20).filter(|height| width * height <= MAX_SQUARES) {
                for k in 3..=width.max(height) {
                    let geometry = Geometry::new(Rules::new(width, height, k).unwrap()).unwrap();
                    most = most.max(geometry.distinct.len());
                }
            }
        }
        assert_eq!(most, 168);
        assert!(most <= MAX_WINDOWS);
    }

    #[test]
    fn a_mark_added_to_the_images_keys_as_the_whole_position_does() {
        for (width, height) in [(4, 4), (6, 4), (7, 7), (8, 8)] {
            let geometry = Geometry::new(Rules::new(width, height, 4).unwrap()).unwrap();
            let (x, o): (Bits, Bits) = (0b1001 << width, 0b110);
            let images = geometry.images(x, o);
            for square in (0..width * height).filter(|&s| (x | o) >> s & 1 == 0) {
                let whole = geometry.canonical_with(x, o | 1 << square);
                assert_eq!(
                    geometry.canonical_adding(&images, square),
                    whole,
                    "{square}"
                );
            }
        }
    }

    #[test]
    fn squares_map_onto_the_key_and_back_by_its_symmetry() {
        for (width, height) in [(5, 5), (6, 4), (7, 7)] {
            let geometry = Geometry::new(Rules::new(width, height, 4).unwrap()).unwrap();
            // An x in the corner, an o beside it, and a zone of squares around them.
            let (x, o, zone): (Bits, Bits, Bits) = (1 << (width + 1), 1 << 2, 0b1_1011 << width);
            let ((key_x, key_o), symmetry) = geometry.canonical_with(x, o);
            assert_eq!((key_x, key_o), geometry.canonical(x, o));
            assert_eq!(geometry.to_key(symmetry, x), key_x);
            assert_eq!(geometry.to_key(symmetry, o), key_o);
            let keyed = geometry.to_key(symmetry, zone);
            assert_eq!(keyed.count_ones(), zone.count_ones());
            assert_eq!(geometry.from_key(symmetry, keyed), zone);
            for index in 0..geometry.symmetry_count() {
                assert_eq!(geometry.from_key(index, geometry.to_key(index, zone)), zone);
            }
        }
    }

    #[test]
    fn a_guard_keeps_two_free_squares_of_every_open_window() {
        let geometry = Geometry::new(Rules::new(5, 5, 4).unwrap()).unwrap();
        // Marks spread over the board in a few patterns, and zones to start from.
        for (x, o, start) in [
            (0b1_0000_0001_0000_0001, 0b10_0000_1000_0000_0010, 0),
            (0b111 << 10, 0b1 << 13 | 0b1 << 24, 0b11 << 20),
            (0, 1 << 12, 0),
        ] {
            let zone = geometry.guard(x, o, start);
            assert_eq!(zone & start, start, "the zone only grows");
            let free = geometry.full() & !(x | o);
            assert_eq!(zone & !free & !start, 0, "only free squares are added");
            for window in &geometry.distinct {
                let open = window.squares & free;
                if window.open_for(x, o) {
                    let kept = (open & zone).count_ones();
                    assert!(kept >= open.count_ones().min(2), "{window:?}");
                }
            }
        }
    }

    #[test]
    fn symmetries_are_distinct_permutations() {
        for (width, height, count) in [(3, 3, 8), (4, 3, 4), (8, 8, 8)] {
            let rules = Rules::new(width, height, 3).unwrap();
            let perms = permutations(rules);
            assert_eq!(perms.len(), count);
            for (i, perm) in perms.iter().enumerate() {
                let mut sorted = perm.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..rules.square_count()).collect::<Vec<_>>());
                assert!(perms[..i].iter().all(|other| other != perm));
            }
        }
    }

    #[test]
    fn corner_openings_share_one_canonical_form() {
        let geometry = Geometry::new(Rules::default()).unwrap();
        let forms: Vec<_> = [0, 2, 6, 8]
            .iter()
            .map(|&corner| geometry.canonical(1 << corner, 0))
            .collect();
        assert!(forms.windows(2).all(|pair| pair[0] == pair[1]));
        assert_ne!(geometry.canonical(1 << 4, 0), forms[0]);
    }

    #[test]
    fn symmetric_positions_are_fixed_by_their_symmetries() {
        let geometry = Geometry::new(Rules::default()).unwrap();
        assert_eq!(geometry.symmetries_fixing(0, 0), 8);
        assert_eq!(geometry.symmetries_fixing(1 << 4, 0), 8);
        // X in the top-left corner: only the reflection in the main diagonal and the identity.
        assert_eq!(geometry.symmetries_fixing(1, 0), 2);
        assert_eq!(geometry.symmetries_fixing(1, 1 << 1), 1);
    }

    #[test]
    fn windows_through_each_square() {
        let geometry = Geometry::new(Rules::default()).unwrap();
        let through = |square: usize| geometry.starts[square + 1] - geometry.starts[square];
        assert_eq!([through(0), through(1), through(4)], [3, 2, 4]);
        assert!(geometry.wins_at(0b111, 1));
        assert!(!geometry.wins_at(0b1011, 3));
        assert!(Geometry::new(Rules::new(9, 8, 5).unwrap()).is_err());
    }

    #[test]
    fn under_exactly_k_a_window_with_a_mark_just_beyond_it_wins_nothing() {
        let rules = Rules::new(6, 6, 4).unwrap();
        let exact = Geometry::new(rules.with_win_rule(WinRule::Exact)).unwrap();
        let freestyle = Geometry::new(rules).unwrap();
        let row = |columns: &[usize]| columns.iter().fold(0, |bits, c| bits | 1 << c);
        // Four on the top row, then five: the fifth joins them.
        for geometry in [&exact, &freestyle] {
            assert!(geometry.wins_at(row(&[0, 1, 2, 3]), 3));
        }
        assert!(freestyle.wins_at(row(&[0, 1, 2, 3, 4]), 4));
        assert!(!exact.wins_at(row(&[0, 1, 2, 3, 4]), 4));
        assert!(!exact.wins_at(row(&[0, 1, 2, 3, 4]), 0), "from either end");
        // A gap beyond the end is no overline.
        assert!(exact.wins_at(row(&[0, 1, 2, 3, 5]), 3));
        // Down the anti-diagonal from the top right: f1, e2, d3, c4, and b5 beyond it.
        let diagonal = |steps: &[usize]| steps.iter().fold(0, |bits, i| bits | 1 << (5 + 5 * i));
        assert!(exact.wins_at(diagonal(&[0, 1, 2, 3]), 15));
        assert!(!exact.wins_at(diagonal(&[0, 1, 2, 3, 4]), 15));
        // Threats: the square that makes four is one only if it makes no five.
        let (wins, live) = exact.threats(row(&[0, 1, 2, 4]), 0);
        assert_eq!((wins, live), (0, true), "c1 would make five");
        let (wins, _) = freestyle.threats(row(&[0, 1, 2, 4]), 0);
        assert_eq!(wins, 1 << 3);
        let (wins, _) = exact.threats(row(&[1, 2, 3, 5]), 0);
        assert_eq!(wins, 1, "a1 makes four; e1 would make five with f1");
        let (wins, _) = exact.threats(row(&[1, 2, 3]), 1 << 5);
        assert_eq!(wins, 1 | 1 << 4, "O's f1 beyond e1 is no harm");
        let (wins, _) = exact.threats(row(&[1, 2, 3]), 0);
        assert_eq!(wins, 1 | 1 << 4);
    }

    #[test]
    fn each_window_counts_once_for_each_of_its_free_squares() {
        let geometry = Geometry::new(Rules::TIC_TAC_TOE).unwrap();
        let scores = geometry.move_scores(0, 0, geometry.full(), 2);
        // Empty windows weigh 1: the centre is in 4, a corner in 3, an edge in 2.
        assert_eq!(&scores[..9], &[3, 2, 3, 2, 4, 2, 3, 2, 3]);
        // X on the centre: the windows through it weigh 4 for X, the others still 1. A corner
        // is in one of each kind besides its diagonal (4 + 1 + 1), an edge in one of each.
        let scores = geometry.move_scores(1 << 4, 0, geometry.full() & !(1 << 4), 2);
        assert_eq!(&scores[..9], &[6, 5, 6, 5, 0, 5, 6, 5, 6]);
        assert_eq!(geometry.threats(1 << 4 | 1 << 0, 0), (1 << 8, true));
    }

    #[test]
    fn long_lines_order_moves_without_overflow() {
        // A window nearly full of one side weighs 4^(k-1): past u32 from k = 17.
        for (width, height, k) in [
            (19, 3, 19),
            (3, 19, 19),
            (17, 3, 17),
            (18, 3, 18),
            (16, 4, 16),
        ] {
            let rules = Rules::new(width, height, k).unwrap();
            let geometry = Geometry::new(rules).unwrap();
            let window = geometry.windows[geometry.starts[0]].squares;
            let last = Bits::BITS - 1 - window.leading_zeros();
            let line = window & !(1 << last);
            let free = geometry.full() & !line;
            let moves = geometry.ordered_moves(line, 0, free, MoveOrder::Attack);
            assert_eq!(
                u32::from(moves[0]),
                last,
                "{rules}: completing the line comes first"
            );
            let moves = geometry.ordered_moves(0, line, free, MoveOrder::Attack);
            assert_eq!(
                u32::from(moves[0]),
                last,
                "{rules}: blocking the line comes first"
            );
        }
    }

    /// Whether `pairs` is a pairing for `defender` against `attacker`: free squares, none
    /// twice, and every window still open to the attacker holding a whole pair.
    fn is_pairing(geometry: &Geometry, attacker: Bits, defender: Bits, pairs: &[(u8, u8)]) -> bool {
        let free = geometry.full & !(attacker | defender);
        let mut used: Bits = 0;
        for &(a, b) in pairs {
            let pair = 1 << a | 1 << b;
            if a == b || pair & !free != 0 || pair & used != 0 {
                return false;
            }
            used |= pair;
        }
        geometry
            .distinct
            .iter()
            .filter(|window| window.open_for(attacker, defender))
            .all(|window| {
                pairs
                    .iter()
                    .any(|&(a, b)| window.squares & (1 << a | 1 << b) == 1 << a | 1 << b)
            })
    }

    #[test]
    fn five_by_five_five_in_a_row_is_a_pairing_draw_and_four_by_four_is_not() {
        let geometry = Geometry::new(Rules::new(5, 5, 5).unwrap()).unwrap();
        let pairs = geometry.pairing(0, 0).unwrap();
        assert_eq!(pairs.len(), 12, "each of the 12 lines needs its own pair");
        assert!(is_pairing(&geometry, 0, 0, &pairs));
        // 4x4, k=4: ten lines of four squares each need two of sixteen squares.
        let small = Geometry::new(Rules::new(4, 4, 4).unwrap()).unwrap();
        assert_eq!(small.pairing(0, 0), None);
        // A row of seven with k=5: its three windows share one pair in the middle.
        let row = Geometry::new(Rules::new(7, 3, 5).unwrap()).unwrap();
        let pairs = row.pairing(0, 0).unwrap();
        assert_eq!(pairs.len(), 3);
        assert!(is_pairing(&row, 0, 0, &pairs));
        // A line with one square left to fill cannot be paired.
        assert_eq!(geometry.pairing(0b1111, 0), None);
    }

    #[test]
    fn every_pairing_found_in_random_positions_covers_every_open_window() {
        use rand::rngs::StdRng;
        use rand::{RngExt, SeedableRng};
        let mut rng = StdRng::seed_from_u64(11);
        let mut found = 0;
        for (width, height, k) in [
            (5, 5, 4),
            (6, 6, 5),
            (7, 7, 5),
            (8, 8, 5),
            (6, 4, 4),
            (7, 6, 5),
        ] {
            for win in [WinRule::Freestyle, WinRule::Exact] {
                let rules = Rules::new(width, height, k).unwrap().with_win_rule(win);
                let geometry = Geometry::new(rules).unwrap();
                for _ in 0..300 {
                    let (mut x, mut o) = (0, 0);
                    let stones = rng.random_range(0..16);
                    for stone in 0..stones {
                        let square = rng.random_range(0..rules.square_count());
                        if (x | o) >> square & 1 == 0 {
                            if stone % 2 == 0 {
                                x |= 1 << square
                            } else {
                                o |= 1 << square
                            }
                        }
                    }
                    for (attacker, defender) in [(x, o), (o, x)] {
                        if let Some(pairs) = geometry.pairing(attacker, defender) {
                            found += 1;
                            assert!(
                                is_pairing(&geometry, attacker, defender, &pairs),
                                "{rules}: {x:b} {o:b}"
                            );
                        }
                    }
                }
            }
        }
        assert!(found > 100, "only {found} pairings found");
    }
}
