//! Pattern codes, as tournament gomoku engines keep them: for every square and each of the
//! four line directions, a code of the marks on the squares around it along that line
//! (two bits a square: free, X, O, off the board). A table built once for the rules turns
//! a code into what playing the square would make on that line for each side: a five, a
//! four open or closed, a three open or closed, and so on down. A move changes the codes
//! of the squares on its four lines alone, so the board keeps them, and the evaluation
//! made of them, move by move.

use std::sync::{Arc, Mutex, PoisonError};

use ttt_core::{DIRECTIONS, Rules, WinRule};

use super::move_values::FITTED;
use super::squares::SquareSet;

/// What playing a square makes along one line, for one side, named for gomoku (k = 5):
/// a five wins; a four wins with one more mark (a flex four on two squares, so the other
/// side cannot stop it; a block four on one); a three makes a four with one more (a flex
/// three an open four, a block three only a closed one); and so on down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub(crate) enum Class {
    /// No line of k can be made through this square.
    None,
    Block1,
    Flex1,
    Block2,
    Flex2,
    Block3,
    Flex3,
    Block4,
    Flex4,
    /// A winning line.
    Five,
}

impl Class {
    const ALL: [Class; 10] = [
        Class::None,
        Class::Block1,
        Class::Flex1,
        Class::Block2,
        Class::Flex2,
        Class::Block3,
        Class::Flex3,
        Class::Block4,
        Class::Flex4,
        Class::Five,
    ];

    /// The class one more mark short of a five: what a square makes if playing another
    /// square next would make this.
    fn weaker(self) -> Class {
        match self {
            Class::Flex4 => Class::Flex3,
            Class::Block4 => Class::Block3,
            Class::Flex3 => Class::Flex2,
            Class::Block3 => Class::Block2,
            Class::Flex2 => Class::Flex1,
            Class::Block2 => Class::Block1,
            _ => Class::None,
        }
    }
}

/// The features the evaluation counts for one side, over the free squares: how many of
/// its (square, direction) pairs make each class from a block one to a five, then how
/// many squares make two fours (or fives) at once, a four and a flex three, and two flex
/// threes (the forks that win), then the forks that make the next threat: a four with a
/// block three or a flex two, a flex three with one of those, a block three with another
/// or a flex two, and two flex twos. A square makes one fork at most, the strongest.
pub const FEATURES: usize = 16;

/// Names of the [`FEATURES`], in order: for tables and tuning output.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "block1",
    "flex1",
    "block2",
    "flex2",
    "block3",
    "flex3",
    "block4",
    "flex4",
    "five",
    "four-four",
    "four-three",
    "three-three",
    "four-two",
    "three-two",
    "block3-two",
    "two-two",
];

/// The weights of the pattern evaluation: what each of the [`FEATURES`] is worth to the
/// side to move (`own`) and what the opponent's count costs it (`other`), so the tempo is
/// in the weights. The default is tuned by self-play, and the weights of the four forks
/// after the three-three on games against the Gomocup champion (see the `tune` example).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PatternWeights {
    /// What each feature of the side to move's is worth to it.
    pub own: [i32; FEATURES],
    /// What each feature of the opponent's costs the side to move.
    pub other: [i32; FEATURES],
}

impl Default for PatternWeights {
    fn default() -> PatternWeights {
        PatternWeights {
            own: [
                0, 0, -1, 11, 21, 67, 110, 4246, 5000, 5140, 1845, 15, 132, 65, 26, -2,
            ],
            other: [
                -1, 0, -2, 8, 17, 38, 108, 373, 5000, -203, 220, -90, 101, 65, 37, 8,
            ],
        }
    }
}

/// The kinds of free square the move order tells apart, for one side: a square's four
/// classes, whichever line holds which (a multiset of four of the ten classes). Shapes
/// are numbered by their classes strongest first, in dictionary order from four
/// `none`s (0) to four fives (714).
pub const SHAPES: usize = 715;

/// What playing a square is worth, for ordering the moves of a quiet position: to the side
/// to move, by the square's shape (see [`SHAPES`]) for it (`own`: the lines it makes) and
/// for the other side (`other`: the lines it spoils). A move's value is the sum of the
/// two. The default is fitted to the Gomocup champion's moves (see the `order` example)
/// in quiet positions, where no side has a five to make or a four: the shapes of those
/// (a five or a four for either side) keep their values before fitting, which order the
/// blocks of a forced reply and the answers to a three.
///
/// ```
/// use ttt_players::{MoveValues, PatternWeights, SHAPES};
///
/// let values = MoveValues::default();
/// assert_eq!(values.own.len(), SHAPES);
/// // The shapes of a square making a five, or an open three, and nothing else.
/// let named = |name: &str| (0..SHAPES).find(|&shape| MoveValues::shape_name(shape) == name);
/// let five = named("five none none none").expect("a shape of its own");
/// let three = named("flex3 none none none").expect("a shape of its own");
/// assert!(values.own[five] > values.own[three]);
/// // Taking the other side's square for an open three is worth more than making one.
/// assert!(values.other[three] > values.own[three]);
/// // The order before fitting: each square's worth by the evaluation's weights.
/// let plain = MoveValues::from_weights(&PatternWeights::default());
/// assert_eq!(plain.own, plain.other);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveValues {
    /// By shape: what a square of that shape for the side to move is worth to it.
    pub own: [i32; SHAPES],
    /// By shape: what a square of that shape for the other side is worth to the side to
    /// move.
    pub other: [i32; SHAPES],
}

impl MoveValues {
    /// The order by the evaluation's `weights`: each shape's worth as the side to move's
    /// own, for either side's shape (the order before fitting).
    #[must_use]
    pub fn from_weights(weights: &PatternWeights) -> MoveValues {
        let own: [i32; SHAPES] = std::array::from_fn(|shape| {
            let worth = worth(SHAPE_CLASSES[shape], &weights.own);
            i32::try_from(worth).unwrap_or(if worth < 0 { i32::MIN } else { i32::MAX })
        });
        MoveValues { own, other: own }
    }

    /// A shape's classes, strongest first, by their names in [`FEATURE_NAMES`] ("none"
    /// for a line where no five can be made), e.g. `"flex3 block3 flex1 none"`.
    #[must_use]
    pub fn shape_name(shape: usize) -> String {
        SHAPE_CLASSES.get(shape).map_or_else(
            || format!("no shape {shape}"),
            |classes| {
                classes
                    .map(|class| match class {
                        Class::None => "none",
                        class => FEATURE_NAMES[class as usize - 1],
                    })
                    .join(" ")
            },
        )
    }
}

impl Default for MoveValues {
    fn default() -> MoveValues {
        let [own, other] = [0, 1].map(|side| FITTED.map(|values| values[side]));
        MoveValues { own, other }
    }
}

/// Each shape's four classes, strongest first (see [`SHAPES`]).
const SHAPE_CLASSES: [[Class; 4]; SHAPES] = {
    let mut shapes = [[Class::None; 4]; SHAPES];
    let mut at = 0;
    let mut a = 0;
    while a < 10 {
        let mut b = 0;
        while b <= a {
            let mut c = 0;
            while c <= b {
                let mut d = 0;
                while d <= c {
                    shapes[at] = [Class::ALL[a], Class::ALL[b], Class::ALL[c], Class::ALL[d]];
                    at += 1;
                    d += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    shapes
};

/// The shape of four classes (see [`SHAPES`]).
pub(crate) fn shape(mut classes: [Class; 4]) -> usize {
    classes.sort_unstable_by(|a, b| b.cmp(a));
    // Shapes are in dictionary order, so a binary search finds them (every multiset of
    // four classes is one: the test below tries all).
    SHAPE_CLASSES
        .binary_search_by(|probe| probe.cmp(&classes))
        .unwrap_or_default()
}

/// The features a square's four classes (for one side) show, added to `counts`.
pub(crate) fn add_features(classes: [Class; 4], counts: &mut [u32; FEATURES]) {
    for feature in features(classes) {
        counts[feature] += 1;
    }
}

/// A square's worth, for one side, by the weights `weights` (in `i64`: no weights a
/// caller gives can overflow it).
fn worth(classes: [Class; 4], weights: &[i32; FEATURES]) -> i64 {
    features(classes)
        .map(|feature| i64::from(weights[feature]))
        .sum()
}

/// The features (by their place in [`FEATURES`]) a square's four classes show, for one
/// side: each direction's class, then the fork they make, if any.
fn features(classes: [Class; 4]) -> impl Iterator<Item = usize> {
    let count = |wanted: fn(Class) -> bool| classes.iter().filter(|&&c| wanted(c)).count();
    let fours = count(|c| c >= Class::Block4);
    let threes = count(|c| c == Class::Flex3);
    let block_threes = count(|c| c == Class::Block3);
    // What another line makes to follow a threat up with: a block three or a flex two.
    let twos = block_threes + count(|c| c == Class::Flex2);
    let fork = match (fours, threes, twos) {
        (2.., _, _) => Some(FOUR_FOUR),
        (1, 1.., _) => Some(FOUR_THREE),
        (1, 0, 1..) => Some(FOUR_TWO),
        (0, 2.., _) => Some(THREE_THREE),
        (0, 1, 1..) => Some(THREE_TWO),
        (0, 0, 2..) if block_threes > 0 => Some(BLOCK_THREE_TWO),
        (0, 0, 2..) => Some(TWO_TWO),
        _ => None,
    };
    classes
        .into_iter()
        .filter(|&class| class != Class::None)
        .map(|class| class as usize - 1)
        .chain(fork)
}

/// The places of the forks among the [`FEATURES`].
const FOUR_FOUR: usize = 9;
const FOUR_THREE: usize = 10;
const THREE_THREE: usize = 11;
const FOUR_TWO: usize = 12;
const THREE_TWO: usize = 13;
const BLOCK_THREE_TWO: usize = 14;
const TWO_TWO: usize = 15;

/// Combinations of four classes (one a direction) are numbered `c0 + 10 c1 + 100 c2 +
/// 1000 c3`; this is each direction's place value.
pub(crate) const PLACE: [u16; 4] = [1, 10, 100, 1000];

/// How many combination numbers there are: the tables by combination have one entry each.
const COMBINATIONS: u16 = PLACE[3] * 10;

/// The combination number of four classes.
pub(crate) fn combination(classes: [Class; 4]) -> u16 {
    classes
        .iter()
        .zip(PLACE)
        .map(|(&class, place)| class as u16 * place)
        .sum()
}

/// The class in `direction` of a combination number (see [`combination`]).
pub(crate) fn class_in(number: u16, direction: usize) -> Class {
    Class::ALL[usize::from(number / PLACE[direction] % 10)]
}

/// The four classes of a combination number.
fn classes_of(number: u16) -> [Class; 4] {
    [0, 1, 2, 3].map(|direction| class_in(number, direction))
}

/// What a free square offers one side, read from its four classes: the board keeps the
/// squares offering each in a set, so the search reads its threats without looking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Threat {
    /// Playing it wins: a five in some direction.
    Five,
    /// Playing it makes a square to win on: a four (block or flex) in some direction.
    Four,
    /// Playing it makes two squares to win on: a flex four, or fours in two directions.
    Double,
    /// A flex three in some direction: one more mark on that line makes a flex four.
    FlexThree,
    /// A block three in some direction: one more mark on that line makes a block four
    /// (a double where that square already makes a four on another line).
    BlockThree,
}

impl Threat {
    pub(crate) const ALL: [Threat; 5] = [
        Threat::Five,
        Threat::Four,
        Threat::Double,
        Threat::FlexThree,
        Threat::BlockThree,
    ];

    /// The threat's bit among a square's.
    pub(crate) const fn bit(self) -> u8 {
        1 << self as u8
    }

    /// The threats (as bits) a square of these four classes offers.
    fn of(classes: [Class; 4]) -> u8 {
        let has = |class: Class| classes.contains(&class);
        let fours = classes
            .iter()
            .filter(|&&c| c == Class::Block4 || c == Class::Flex4)
            .count();
        [
            (Threat::Five, has(Class::Five)),
            (Threat::Four, fours > 0),
            (Threat::Double, fours >= 2 || has(Class::Flex4)),
            (Threat::FlexThree, has(Class::Flex3)),
            (Threat::BlockThree, has(Class::Block3)),
        ]
        .into_iter()
        .filter(|&(_, offered)| offered)
        .fold(0, |bits, (threat, _)| bits | threat.bit())
    }
}

/// The classes of every code, for both sides, under one k and win rule.
#[derive(Debug)]
pub(crate) struct PatternTable {
    /// Squares a code covers on each side of its square.
    pub(crate) radius: usize,
    /// For each code, the class for X and for O playing the square, packed (see
    /// [`PatternTable::packed`]): a byte an entry keeps the table small enough for the
    /// processor's nearer caches.
    classes: Vec<u8>,
}

impl PatternTable {
    /// The table for `rules`, on gomoku's lines (k = 5, under either win rule): where
    /// the weights were tuned (other k keep the window evaluation; the classes are named
    /// by the distance to a five, so they would mean other things there). A code covers
    /// k - 1 squares each way (under exactly k, one more: the squares that would make an
    /// overline), so a table holds 4^8 codes, or 4^10. Built once per win rule, and
    /// shared.
    pub(crate) fn for_rules(rules: Rules) -> Option<Arc<PatternTable>> {
        static BUILT: Mutex<Vec<(WinRule, Arc<PatternTable>)>> = Mutex::new(Vec::new());
        let (k, rule) = (rules.k(), rules.win_rule());
        if k != 5 {
            return None;
        }
        let mut built = BUILT.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, table)) = built.iter().find(|(built_rule, _)| *built_rule == rule) {
            return Some(Arc::clone(table));
        }
        let exact = rule == WinRule::Exact;
        let radius = if exact { k } else { k - 1 };
        let table = Arc::new(PatternTable::build(k, exact, radius));
        built.push((rule, Arc::clone(&table)));
        Some(table)
    }

    fn build(k: usize, exact: bool, radius: usize) -> PatternTable {
        let lines = Lines { k, exact, radius };
        let codes = 1usize << (4 * radius);
        let mut classes = vec![0; codes];
        let possible = lines.possible_codes();
        for (shift, own) in [(0, 1), (4, 2)] {
            let mut memo = vec![UNKNOWN; codes];
            for &code in &possible {
                classes[code as usize] |= (lines.class(code, own, &mut memo) as u8) << shift;
            }
        }
        PatternTable { radius, classes }
    }

    /// The classes for X and for O of `code` in one byte: X's in the low four bits, O's
    /// in the high.
    pub(crate) fn packed(&self, code: u32) -> u8 {
        self.classes[code as usize]
    }

    /// The classes for X and for O of a [`packed`](PatternTable::packed) byte.
    pub(crate) fn unpacked(packed: u8) -> [Class; 2] {
        [packed & 15, packed >> 4].map(|class| Class::ALL[usize::from(class)])
    }
}

const UNKNOWN: u8 = u8::MAX;
const FREE: u32 = 0;
pub(crate) const WALL: u32 = 3;

/// The lines codes stand for, under one k and win rule.
struct Lines {
    k: usize,
    exact: bool,
    radius: usize,
}

/// Where in a code covering `radius` squares each way the two bits of the square `offset`
/// (not 0) along the line from the square coded sit.
fn shift(radius: usize, offset: isize) -> u32 {
    let r = radius as isize;
    let at = if offset < 0 {
        offset + r
    } else {
        offset + r - 1
    };
    2 * at as u32
}

impl Lines {
    fn shift(&self, offset: isize) -> u32 {
        shift(self.radius, offset)
    }

    fn at(&self, code: u32, offset: isize) -> u32 {
        (code >> self.shift(offset)) & 3
    }

    /// The codes a board can show: off-board squares only at the ends.
    fn possible_codes(&self) -> Vec<u32> {
        let r = self.radius;
        // One side's squares, nearest first: some on the board (free, X or O), the rest off.
        let mut sides: Vec<Vec<u32>> = Vec::new();
        for on in 0..=r {
            for marks in 0..3u32.pow(on as u32) {
                let mut cells = Vec::with_capacity(r);
                let mut rest = marks;
                for _ in 0..on {
                    cells.push(rest % 3);
                    rest /= 3;
                }
                cells.resize(r, WALL);
                sides.push(cells);
            }
        }
        let mut codes = Vec::with_capacity(sides.len() * sides.len());
        for before in &sides {
            for after in &sides {
                let mut code = 0;
                for step in 1..=r {
                    code |= before[step - 1] << self.shift(-(step as isize));
                    code |= after[step - 1] << self.shift(step as isize);
                }
                codes.push(code);
            }
        }
        codes
    }

    /// Whether `own` (1 X, 2 O) on the square coded and the squares `code` gives it
    /// makes a winning line through that square.
    fn wins(&self, code: u32, own: u32) -> bool {
        let k = self.k as isize;
        let r = self.radius as isize;
        let mine = |offset: isize| offset == 0 || self.at(code, offset) == own;
        (-(k - 1)..=0).any(|start| {
            (start..start + k).all(mine)
                && !(self.exact
                    && [start - 1, start + k]
                        .iter()
                        .any(|&end| end.abs() <= r && mine(end)))
        })
    }

    fn class(&self, code: u32, own: u32, memo: &mut [u8]) -> Class {
        if memo[code as usize] != UNKNOWN {
            return Class::ALL[usize::from(memo[code as usize])];
        }
        let class = if self.wins(code, own) {
            Class::Five
        } else {
            let r = self.radius as isize;
            let mut fives = 0;
            let mut best = Class::None;
            for offset in (-r..=r).filter(|&o| o != 0) {
                if self.at(code, offset) != FREE {
                    continue;
                }
                let next = self.class(code | own << self.shift(offset), own, memo);
                if next == Class::Five {
                    fives += 1;
                }
                best = best.max(next.weaker());
            }
            match fives {
                0 => best,
                1 => Class::Block4,
                _ => Class::Flex4,
            }
        };
        memo[code as usize] = class as u8;
        class
    }
}

/// One square whose code a mark changes: the square, the direction, and where in its code
/// the mark sits.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Link {
    pub(crate) square: u16,
    pub(crate) direction: u8,
    pub(crate) shift: u8,
}

/// What a board of given rules needs for pattern codes: the table, each square's code on
/// an empty board (off-board squares marked), the squares each square's mark changes, and
/// what each combination of classes is worth.
#[derive(Debug)]
pub(crate) struct PatternShape {
    pub(crate) table: Arc<PatternTable>,
    pub(crate) empty: Vec<[u32; 4]>,
    pub(crate) links: Vec<Vec<Link>>,
    /// By [`combination`]: the worth to a side as its own and as the other's.
    pub(crate) worths: Vec<[i64; 2]>,
    /// By [`combination`]: the value of playing the square, for ordering moves, where the
    /// classes are the side to move's, and where they are the other side's (see
    /// [`MoveValues`]).
    pub(crate) order: Vec<[i32; 2]>,
    /// By [`combination`]: the [`Threat`]s offered, as bits.
    pub(crate) threats: Vec<u8>,
    /// For each square and direction, the squares on that line within k - 1 of it: those
    /// a five through the square can take.
    pub(crate) lines: Vec<[SquareSet; 4]>,
}

impl PatternShape {
    pub(crate) fn new(
        rules: Rules,
        weights: &PatternWeights,
        values: &MoveValues,
    ) -> Option<PatternShape> {
        let table = PatternTable::for_rules(rules)?;
        let radius = table.radius;
        let r = radius as isize;
        let mut empty = vec![[0u32; 4]; rules.square_count()];
        let mut links = vec![Vec::new(); rules.square_count()];
        let mut lines = vec![[SquareSet::EMPTY; 4]; rules.square_count()];
        let reach = rules.k() as isize - 1;
        for square in rules.squares() {
            let (column, row) = (rules.column(square) as isize, rules.row(square) as isize);
            for (direction, (dc, dr)) in DIRECTIONS.into_iter().enumerate() {
                for offset in (-r..=r).filter(|&o| o != 0) {
                    let near = rules.square_signed(column + dc * offset, row + dr * offset);
                    if let Some(near) = near.filter(|_| offset.abs() <= reach) {
                        lines[square.index()][direction].insert(near.index());
                    }
                    match near {
                        None => empty[square.index()][direction] |= WALL << shift(radius, offset),
                        // This square sits at -offset from `near`.
                        Some(near) => links[square.index()].push(Link {
                            square: near.index() as u16,
                            direction: direction as u8,
                            shift: shift(radius, -offset) as u8,
                        }),
                    }
                }
            }
        }
        // Each combination's classes, read once for the three tables by combination.
        let combinations: Vec<[Class; 4]> = (0..COMBINATIONS).map(classes_of).collect();
        Some(PatternShape {
            table,
            empty,
            links,
            worths: combinations
                .iter()
                .map(|&classes| [worth(classes, &weights.own), worth(classes, &weights.other)])
                .collect(),
            order: combinations
                .iter()
                .map(|&classes| {
                    let shape = shape(classes);
                    [values.own[shape], values.other[shape]]
                })
                .collect(),
            threats: combinations
                .iter()
                .map(|&classes| Threat::of(classes))
                .collect(),
            lines,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line as text around the square coded ("x", "o", "." free, "#" off the board; the
    /// square itself as "_"), read as a code covering `radius` squares each way.
    fn code(line: &str, radius: usize) -> u32 {
        let middle = line.find('_').unwrap() as isize;
        let mut code = 0;
        for (index, c) in line.chars().enumerate() {
            let offset = index as isize - middle;
            let value = match c {
                'x' => 1,
                'o' => 2,
                '#' => WALL,
                _ => FREE,
            };
            if offset != 0 {
                code |= value << shift(radius, offset);
            }
        }
        code
    }

    #[test]
    fn lines_are_classed_as_gomoku_players_name_them() {
        let table = PatternTable::for_rules(Rules::new(15, 15, 5).unwrap()).unwrap();
        let x = |line: &str| PatternTable::unpacked(table.packed(code(line, 4)))[0];
        let o = |line: &str| PatternTable::unpacked(table.packed(code(line, 4)))[1];
        assert_eq!(x("xx_xx...."), Class::Five);
        assert_eq!(x("..._xxx.."), Class::Flex4);
        assert_eq!(x("..o_xxx.."), Class::Block4);
        assert_eq!(x("..._x.xx."), Class::Block4);
        assert_eq!(x("..._xx..."), Class::Flex3);
        assert_eq!(x("...x_.x.."), Class::Flex3);
        assert_eq!(x("..o_xx..."), Class::Block3);
        assert_eq!(x("####_xx.."), Class::Block3, "the edge closes a line");
        assert_eq!(x("...._...."), Class::Flex1);
        assert_eq!(x("..o_xx.o."), Class::None, "no room for five");
        assert_eq!(o("..x_oo..."), Class::Block3);
        assert_eq!(o("xx_xx...."), Class::None);
    }

    #[test]
    fn a_square_makes_its_strongest_fork_alone() {
        use Class::{Block3, Block4, Five, Flex2, Flex3, Flex4, None as Nothing};
        let fork = |classes: [Class; 4]| {
            let forks: Vec<&str> = features(classes)
                .filter(|&feature| feature >= FOUR_FOUR)
                .map(|feature| FEATURE_NAMES[feature])
                .collect();
            assert!(forks.len() <= 1, "{classes:?} makes {forks:?}");
            forks.first().copied()
        };
        let cases = [
            ([Five, Block4, Nothing, Nothing], Some("four-four")),
            ([Block4, Block4, Flex3, Nothing], Some("four-four")),
            ([Flex4, Flex3, Nothing, Nothing], Some("four-three")),
            ([Block4, Flex3, Flex3, Nothing], Some("four-three")),
            ([Block4, Block3, Nothing, Nothing], Some("four-two")),
            ([Block4, Flex2, Nothing, Nothing], Some("four-two")),
            ([Flex3, Flex3, Block3, Nothing], Some("three-three")),
            ([Flex3, Flex2, Nothing, Nothing], Some("three-two")),
            ([Block3, Block3, Nothing, Nothing], Some("block3-two")),
            ([Flex2, Block3, Flex2, Nothing], Some("block3-two")),
            ([Flex2, Nothing, Flex2, Nothing], Some("two-two")),
            ([Flex4, Nothing, Nothing, Nothing], None),
            ([Block4, Class::Block2, Class::Flex1, Nothing], None),
            ([Flex3, Class::Block2, Nothing, Nothing], None),
            ([Block3, Class::Block2, Nothing, Nothing], None),
            ([Flex2, Class::Flex1, Nothing, Nothing], None),
        ];
        for (classes, expected) in cases {
            assert_eq!(fork(classes), expected, "{classes:?}");
            // Whatever line holds which class.
            let mut turned = classes;
            turned.rotate_left(1);
            assert_eq!(fork(turned), expected, "{turned:?}");
        }
    }

    #[test]
    fn every_combination_has_the_shape_of_its_classes_whichever_line_holds_which() {
        // The shapes are every multiset of four classes, once each, in order.
        assert!(SHAPE_CLASSES.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(
            SHAPE_CLASSES
                .iter()
                .all(|classes| classes.windows(2).all(|pair| pair[0] >= pair[1]))
        );
        for number in 0..COMBINATIONS {
            let classes = classes_of(number);
            let shape = shape(classes);
            let mut sorted = classes;
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            assert_eq!(SHAPE_CLASSES[shape], sorted, "{classes:?}");
            let mut turned = classes;
            turned.rotate_left(1);
            assert_eq!(super::shape(turned), shape);
        }
        assert_eq!(MoveValues::shape_name(0), "none none none none");
        assert_eq!(MoveValues::shape_name(SHAPES - 1), "five five five five");
        assert_eq!(MoveValues::shape_name(SHAPES), "no shape 715");
    }

    #[test]
    fn in_the_fitted_order_a_five_and_an_open_four_come_before_every_quiet_square() {
        use Class::{Five, Flex3, Flex4, None as Nothing};
        let values = MoveValues::default();
        let with = |class: Class| move |shape: &usize| SHAPE_CLASSES[*shape].contains(&class);
        let quiet = |shape: &usize| SHAPE_CLASSES[*shape].iter().all(|&c| c < Class::Block4);
        let most = |side: &[i32; SHAPES]| (0..SHAPES).filter(quiet).map(|s| side[s]).max();
        let quiet_most = most(&values.own).unwrap() + most(&values.other).unwrap();
        let least = |side: &[i32; SHAPES], class: Class| {
            (0..SHAPES)
                .filter(with(class))
                .map(|s| side[s])
                .min()
                .unwrap()
        };
        let (own_least, other_least) = (
            values.own.iter().min().unwrap(),
            values.other.iter().min().unwrap(),
        );
        // A square with a five or an open four among its lines, whatever the rest.
        let firsts = [
            ("own five", least(&values.own, Five) + other_least),
            ("own open four", least(&values.own, Flex4) + other_least),
            (
                "the other's five blocked",
                least(&values.other, Five) + own_least,
            ),
        ];
        for (name, first) in firsts {
            assert!(first > quiet_most, "{name}: {first} against {quiet_most}");
        }
        // An open four of one's own before the square of the other's open three.
        let alone = |class: Class| shape([class, Nothing, Nothing, Nothing]);
        assert!(values.own[alone(Flex4)] > values.other[alone(Flex3)]);
    }

    #[test]
    fn under_exactly_five_an_overline_is_no_five() {
        let rules = Rules::new(15, 15, 5).unwrap().with_win_rule(WinRule::Exact);
        let table = PatternTable::for_rules(rules).unwrap();
        let at = |line: &str| PatternTable::unpacked(table.packed(code(line, 5)))[0];
        assert_eq!(at("...xx_xx..."), Class::Five);
        assert_eq!(at("..xxx_xx..."), Class::None, "six is no five");
        assert_eq!(at(".x.xx_x...."), Class::Block4, "not the six on the left");
    }
}
