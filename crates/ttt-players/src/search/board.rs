//! A board for search: every window of k squares keeps its count of X and O marks, so a
//! move updates the evaluation, the threats and the hash in time proportional to the
//! windows through one square.
//!
//! Under exactly k a window also keeps, for each side, its marks on the squares just beyond
//! its two ends: a window with a mark of a side's there can no longer win for that side (it
//! would be an overline), just as one with a mark of the other side's in it cannot. Every
//! count, threat and win below takes a window as open to a side only when neither is so.

use std::sync::Arc;

use ttt_core::{DIRECTIONS, Mark, Position, Rules, Square, WinRule, windows};

use super::WIN;
use super::patterns::{Class, PLACE, PatternShape, PatternWeights, combination};

/// The shape of a board, shared by all boards of the same rules.
#[derive(Debug)]
pub(crate) struct Shape {
    pub(crate) rules: Rules,
    /// The squares of each window.
    pub(crate) windows: Vec<Vec<u16>>,
    /// The windows through each square.
    pub(crate) through: Vec<Vec<u32>>,
    /// The windows each square lies just beyond an end of: empty under freestyle, where a
    /// mark there does not spoil a window.
    beyond: Vec<Vec<u32>>,
    /// Random keys for hashing: one per square and mark.
    keys: Vec<[u64; 2]>,
    /// The value of a live window holding this many marks of one side.
    weights: Vec<i64>,
    /// Pattern codes, on gomoku's lines (k = 5, either win rule; the evaluation counts
    /// windows on the others).
    pub(crate) patterns: Option<PatternShape>,
    /// What the pattern evaluation weighs each feature at.
    pub(crate) pattern_weights: PatternWeights,
}

impl Shape {
    pub(crate) fn new(rules: Rules) -> Shape {
        Shape::weighed(rules, PatternWeights::default())
    }

    /// The shape of `rules`, with the pattern evaluation weighed by `pattern_weights`.
    pub(crate) fn weighed(rules: Rules, pattern_weights: PatternWeights) -> Shape {
        Shape {
            patterns: PatternShape::new(rules, &pattern_weights),
            pattern_weights,
            ..Shape::unweighed(rules)
        }
    }

    /// The shape of `rules` for a search that never evaluates (a one-off threat search):
    /// without pattern codes, whose set-up would take as long as such a search.
    pub(crate) fn unweighed(rules: Rules) -> Shape {
        let lines = windows(rules);
        let windows: Vec<Vec<u16>> = lines
            .iter()
            .map(|line| line.squares().iter().map(|s| s.index() as u16).collect())
            .collect();
        let mut through = vec![Vec::new(); rules.square_count()];
        let mut beyond = vec![Vec::new(); rules.square_count()];
        for (index, window) in windows.iter().enumerate() {
            for &square in window {
                through[usize::from(square)].push(index as u32);
            }
        }
        if rules.win_rule() == WinRule::Exact {
            for (index, line) in lines.iter().enumerate() {
                for square in line.ends_beyond(rules) {
                    beyond[square.index()].push(index as u32);
                }
            }
        }
        // A fixed, simple generator: the keys only need to differ, not to be secret.
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let keys = (0..rules.square_count())
            .map(|_| [next(), next()])
            .collect();
        let weights = window_weights(rules.k(), windows.len());
        Shape {
            rules,
            windows,
            through,
            beyond,
            keys,
            weights,
            patterns: None,
            pattern_weights: PatternWeights::default(),
        }
    }
}

/// The largest ratio between the values of a window with one more mark and one less.
/// Measured against `ttt brain` of 17bf2ac, 128 games at 0.05 s a move (with the tempo):
/// 4: 101 won, 5: 109, 6: 116 (twice), 7: 104, 8: 107, 12: 100.
const MAX_BASE: i128 = 6;

/// The value of a live window holding 0..=k marks of one side: `base^count`, with the
/// base as large as [`MAX_BASE`] while a side's whole evaluation (every window at its
/// most) stays below a quarter of a win, so that no heuristic value ever outweighs a win.
/// With long lines (k up to 20) the base shrinks toward 2.
fn window_weights(k: usize, windows: usize) -> Vec<i64> {
    let ceiling = i128::from(WIN / 4);
    let power = |base: i128| base.checked_pow(u32::try_from(k).unwrap_or(u32::MAX));
    let fits = |base: i128| {
        power(base)
            .and_then(|top| top.checked_mul(windows as i128))
            .is_some_and(|total| total < ceiling)
    };
    let base = (2..=MAX_BASE).rev().find(|&base| fits(base)).unwrap_or(2);
    (0..=k)
        .map(|count| {
            let weight = if count == 0 {
                0
            } else {
                base.pow(count as u32)
            };
            i64::try_from(weight).unwrap_or(i64::MAX)
        })
        .collect()
}

/// The shape of the board last played on, kept between moves.
#[derive(Debug, Default)]
pub(crate) struct ShapeCache(Option<Arc<Shape>>);

impl ShapeCache {
    /// The shape for `rules`, and whether it replaced another board's (so that what was
    /// learnt on that board no longer applies).
    pub(crate) fn get(&mut self, rules: Rules) -> (Arc<Shape>, bool) {
        self.weighed(rules, PatternWeights::default())
    }

    /// [`get`](ShapeCache::get), with the pattern evaluation weighed by `weights`.
    pub(crate) fn weighed(&mut self, rules: Rules, weights: PatternWeights) -> (Arc<Shape>, bool) {
        match &self.0 {
            Some(shape) if shape.rules == rules && shape.pattern_weights == weights => {
                (Arc::clone(shape), false)
            }
            before => {
                // Scores under other weights are no more use than another board's.
                let replaced = before.is_some();
                let shape = Arc::new(Shape::weighed(rules, weights));
                self.0 = Some(Arc::clone(&shape));
                (shape, replaced)
            }
        }
    }
}

/// Positions during search: marks, window counts, evaluation, threats and hash, all kept
/// up to date move by move.
#[derive(Debug, Clone)]
pub(crate) struct SearchBoard {
    pub(crate) shape: Arc<Shape>,
    /// 0 free, 1 X, 2 O.
    cells: Vec<u8>,
    /// Marks of X and of O in each window.
    counts: [Vec<u8>; 2],
    /// Marks of X and of O just beyond the ends of each window (always 0 under freestyle).
    beyond: [Vec<u8>; 2],
    /// For each side, its live windows (open to it, holding some of its marks) by count,
    /// so that threats are found without looking at every window.
    live: [LiveWindows; 2],
    /// For each side, the sum of the weights of the windows only it holds marks in.
    strength: [i64; 2],
    /// Each square's pattern code in each direction (none without a pattern table).
    codes: Vec<[u32; 4]>,
    /// Each free square's classes, as combination numbers for X and for O.
    combinations: Vec<[u16; 2]>,
    /// Each free square's worth: to X as its own and as the other's, then to O so.
    square_worth: Vec<[i64; 4]>,
    /// The sums of `square_worth` over the free squares.
    pattern_sums: [i64; 4],
    /// Set while moves leave the pattern codes as they are (see
    /// [`without_patterns`](SearchBoard::without_patterns)).
    patterns_paused: bool,
    pub(crate) hash: u64,
    pub(crate) to_move: Mark,
    /// The squares played, in order.
    pub(crate) played: Vec<u16>,
    /// Set when the last move made a winning line (a whole window open to its side).
    pub(crate) won: bool,
}

/// One side's live windows (open to it and holding some of its marks), listed by how many
/// of its marks they hold, from the fewest any threat is made of (k - 3, at least 1):
/// emptier windows are too many to list and nothing reads them. On gomoku a window with
/// one mark changes list at nearly every move: not listing them gave the threat search
/// 5-18% more nodes in the same time, the alpha-beta up to 7%, on seven suite positions.
#[derive(Debug, Clone)]
struct LiveWindows {
    /// The fewest marks of a listed window.
    fewest: usize,
    /// The windows holding each count of marks (empty below `fewest`).
    by_count: Vec<Vec<u32>>,
    /// Where each window sits in its list (`u32::MAX`: not listed).
    slot: Vec<u32>,
}

impl LiveWindows {
    fn new(k: usize, windows: usize) -> LiveWindows {
        LiveWindows {
            fewest: k.saturating_sub(3).max(1),
            by_count: vec![Vec::new(); k + 1],
            slot: vec![u32::MAX; windows],
        }
    }

    /// Takes `window` out of the list for `count`.
    fn remove(&mut self, window: usize, count: usize) {
        if count < self.fewest {
            return;
        }
        let at = self.slot[window] as usize;
        let list = &mut self.by_count[count];
        list.swap_remove(at);
        if let Some(&moved) = list.get(at) {
            self.slot[moved as usize] = at as u32;
        }
        self.slot[window] = u32::MAX;
    }

    /// Puts `window` in the list for `count`.
    fn add(&mut self, window: usize, count: usize) {
        if count < self.fewest {
            return;
        }
        let list = &mut self.by_count[count];
        self.slot[window] = list.len() as u32;
        list.push(window as u32);
    }
}

/// The side to move's evaluation counts its own windows 1 + 1/`TEMPO_SHARE` times.
const TEMPO_SHARE: i64 = 2;

const fn side(mark: Mark) -> usize {
    match mark {
        Mark::X => 0,
        Mark::O => 1,
    }
}

impl SearchBoard {
    pub(crate) fn new(shape: Arc<Shape>, position: &Position) -> SearchBoard {
        let rules = shape.rules;
        let windows = shape.windows.len();
        let mut board = SearchBoard {
            cells: vec![0; rules.square_count()],
            counts: [vec![0; windows], vec![0; windows]],
            beyond: [vec![0; windows], vec![0; windows]],
            live: [
                LiveWindows::new(rules.k(), windows),
                LiveWindows::new(rules.k(), windows),
            ],
            strength: [0, 0],
            codes: Vec::new(),
            combinations: Vec::new(),
            square_worth: Vec::new(),
            pattern_sums: [0; 4],
            patterns_paused: false,
            hash: 0,
            to_move: position.first(),
            played: Vec::new(),
            won: false,
            shape,
        };
        let shape = Arc::clone(&board.shape);
        if let Some(patterns) = &shape.patterns {
            board.codes.clone_from(&patterns.empty);
            board.combinations = vec![[0; 2]; rules.square_count()];
            board.square_worth = vec![[0; 4]; rules.square_count()];
            for square in 0..rules.square_count() {
                board.rescore(patterns, square);
            }
        }
        // Replay the marks, each with its own mover, so every count and threat is right.
        let marks = position.board();
        for mark in Mark::ALL {
            for square in marks.squares_of(mark) {
                board.to_move = mark;
                board.play(square.index());
            }
        }
        board.to_move = position.to_move();
        board.won = false;
        board
    }

    pub(crate) fn rules(&self) -> Rules {
        self.shape.rules
    }

    /// Whether `square` is free.
    pub(crate) fn is_free(&self, square: usize) -> bool {
        self.cells[square] == 0
    }

    pub(crate) fn is_full(&self) -> bool {
        self.played.len() == self.cells.len()
    }

    /// The evaluation for the side to move. With pattern codes: the worth of the free
    /// squares to it as its own, less their worth to the other side as the other's (see
    /// [`PatternWeights`]). Without: its live windows' weights, counted half again (the
    /// next mark is its own, so its lines grow first), less the other's. The half was
    /// measured: against `ttt brain` of 17bf2ac, 128 games at 0.05 s a move, no bonus
    /// won 89, a quarter 106, a half 107, the whole again 95.
    pub(crate) fn evaluate(&self) -> i64 {
        debug_assert!(!self.patterns_paused, "the codes are not kept up to date");
        let me = side(self.to_move);
        if self.shape.patterns.is_some() {
            return self.pattern_sums[2 * me] - self.pattern_sums[2 * (1 - me) + 1];
        }
        self.strength[me] + self.strength[me] / TEMPO_SHARE - self.strength[1 - me]
    }

    /// The classes of the free `square` in the four directions, for X and for O: `None`
    /// without a pattern table.
    pub(crate) fn classes(&self, square: usize) -> Option<[[Class; 4]; 2]> {
        debug_assert!(!self.patterns_paused, "the codes are not kept up to date");
        let patterns = self.shape.patterns.as_ref()?;
        let mut classes = [[Class::None; 4]; 2];
        for (direction, &code) in self.codes[square].iter().enumerate() {
            let [x, o] = patterns.table.classes(code);
            classes[0][direction] = x;
            classes[1][direction] = o;
        }
        Some(classes)
    }

    /// Works out the free `square`'s classes anew from its codes, and its worth.
    fn rescore(&mut self, patterns: &PatternShape, square: usize) {
        let Some([x, o]) = self.classes(square) else {
            return;
        };
        self.combinations[square] = [combination(x), combination(o)];
        self.reworth(patterns, square);
    }

    /// Puts `value` (0 free, 1 X, 2 O) for the square `square` in the codes of the
    /// squares on its four lines, and works out anew the classes and worth of the free
    /// ones among them.
    fn relink(&mut self, patterns: &PatternShape, square: usize, value: u32) {
        for link in &patterns.links[square] {
            let (near, direction) = (usize::from(link.square), usize::from(link.direction));
            let code = &mut self.codes[near][direction];
            *code = *code & !(3 << link.shift) | value << link.shift;
            if self.cells[near] == 0 {
                self.reclass(patterns, near, direction);
            }
        }
    }

    /// The free `square`'s class in `direction` from its code there, and its worth.
    fn reclass(&mut self, patterns: &PatternShape, square: usize, direction: usize) {
        let classes = patterns.table.classes(self.codes[square][direction]);
        let place = PLACE[direction];
        for (number, class) in self.combinations[square].iter_mut().zip(classes) {
            *number = *number - *number / place % 10 * place + class as u16 * place;
        }
        self.reworth(patterns, square);
    }

    /// The free `square`'s worth from its classes, and the sums with it.
    fn reworth(&mut self, patterns: &PatternShape, square: usize) {
        let [x, o] = self.combinations[square].map(|number| patterns.worths[usize::from(number)]);
        let new = [x[0], x[1], o[0], o[1]];
        let old = std::mem::replace(&mut self.square_worth[square], new);
        for ((sum, new), old) in self.pattern_sums.iter_mut().zip(new).zip(old) {
            *sum += new - old;
        }
    }

    /// Runs `work` with moves leaving the pattern codes as they are, for a search that
    /// plays and undoes many moves and never evaluates (the threat search): the codes are
    /// right again once every move made within is undone, and the moves are quicker.
    pub(crate) fn without_patterns<T>(&mut self, work: impl FnOnce(&mut Self) -> T) -> T {
        let paused = std::mem::replace(&mut self.patterns_paused, true);
        let result = work(self);
        self.patterns_paused = paused;
        result
    }

    /// Takes the square just taken out of the pattern sums.
    fn unscore(&mut self, square: usize) {
        if let Some(old) = self.square_worth.get_mut(square) {
            for (sum, old) in self.pattern_sums.iter_mut().zip(std::mem::take(old)) {
                *sum -= old;
            }
        }
    }

    /// Whether `mark` could complete a window with one more mark.
    pub(crate) fn threatens(&self, mark: Mark) -> bool {
        !self.live_windows(mark, self.rules().k() - 1).is_empty()
    }

    /// Whether `mark` could make a line one short of winning with one more mark (a four,
    /// on gomoku): a window open to it with two marks to go.
    pub(crate) fn can_make_four(&self, mark: Mark) -> bool {
        !self.live_windows(mark, self.rules().k() - 2).is_empty()
    }

    /// The windows open to `mark` holding exactly `count` of its marks (at least k - 3,
    /// and 1).
    fn live_windows(&self, mark: Mark, count: usize) -> &[u32] {
        debug_assert!(
            count >= self.live[side(mark)].fewest,
            "{count} marks are not listed"
        );
        self.live[side(mark)]
            .by_count
            .get(count)
            .map_or(&[], Vec::as_slice)
    }

    /// Whether window `index` can still become a winning line for side `me` (0 X, 1 O):
    /// none of the other side's marks in it, and none of `me`'s just beyond its ends.
    fn is_open(&self, me: usize, index: usize) -> bool {
        self.counts[1 - me][index] == 0 && self.beyond[me][index] == 0
    }

    /// The free squares that would complete a window for `mark`.
    pub(crate) fn winning_squares(&self, mark: Mark) -> Vec<usize> {
        if !self.threatens(mark) {
            return Vec::new();
        }
        let mut squares = Vec::new();
        for &window in self.live_windows(mark, self.rules().k() - 1) {
            for &square in &self.shape.windows[window as usize] {
                let square = usize::from(square);
                if self.cells[square] == 0 && !squares.contains(&square) {
                    squares.push(square);
                }
            }
        }
        squares.sort_unstable();
        squares
    }

    /// The free squares where `mark` would make a line one short of winning (a four, on
    /// gomoku): the free squares of its windows with two marks to go and none of the
    /// other side's; those in the most such windows first.
    pub(crate) fn four_squares(&self, mark: Mark) -> Vec<usize> {
        match (self.rules().k() as u8).checked_sub(2) {
            // Windows one short already have their square: only those two short count.
            Some(short) => self
                .growth_squares(mark, short)
                .into_iter()
                .filter(|&square| self.makes_exactly(mark, square, short))
                .collect(),
            None => Vec::new(),
        }
    }

    /// The free squares where `mark` would make two different squares to win on at once
    /// (a straight four, or two fours: on gomoku, the squares that answer an open three).
    pub(crate) fn double_squares(&self, mark: Mark) -> Vec<usize> {
        let mut found: Vec<usize> = Vec::new();
        for square in self.doubles(mark) {
            if !found.contains(&square) {
                found.push(square);
            }
        }
        found.sort_unstable();
        found
    }

    /// Whether `mark` has a square that would make two squares to win on at once (see
    /// [`double_squares`](SearchBoard::double_squares)): the search asks at every node,
    /// and the first found answers.
    pub(crate) fn has_double(&self, mark: Mark) -> bool {
        self.doubles(mark).next().is_some()
    }

    /// The squares of [`double_squares`](SearchBoard::double_squares), some more than
    /// once, unordered.
    fn doubles(&self, mark: Mark) -> impl Iterator<Item = usize> + '_ {
        let two_short = self.live_windows(mark, self.rules().k() - 2);
        // Two squares to win on take two windows two short: none, or one, is no threat.
        let two_short = if two_short.len() < 2 { &[] } else { two_short };
        two_short
            .iter()
            .flat_map(|&window| &self.shape.windows[window as usize])
            .map(|&square| usize::from(square))
            .filter(move |&square| self.cells[square] == 0 && self.is_double(mark, square))
    }

    /// Whether window `index` holds k - 2 of `mark`'s marks and is open to it.
    fn is_two_short(&self, mark: Mark, index: usize) -> bool {
        let me = side(mark);
        usize::from(self.counts[me][index]) + 2 == self.rules().k() && self.is_open(me, index)
    }

    /// Whether `mark` playing the free `square` would have two squares to win on: two
    /// windows through it that hold k - 2 of its marks and are open to it, each with a
    /// different other free square.
    pub(crate) fn is_double(&self, mark: Mark, square: usize) -> bool {
        self.is_double_after(mark, square, None)
    }

    /// Runs `work` as if `mark` were to move, then gives the move back to the side it was
    /// with: for looking at one side's threats whoever is to move.
    pub(crate) fn as_mover<T>(&mut self, mark: Mark, work: impl FnOnce(&mut Self) -> T) -> T {
        let mover = self.to_move;
        self.to_move = mark;
        let result = work(self);
        self.to_move = mover;
        result
    }

    /// The free squares that answer `mark`'s threat to make two squares to win on (its
    /// [`double_squares`](SearchBoard::double_squares)): those squares themselves and
    /// the squares they would win on, kept when the other side playing there leaves `mark`
    /// no such square. `None` when `mark` has no such threat; empty when no one square
    /// answers all of them.
    pub(crate) fn defences(&mut self, mark: Mark) -> Option<Vec<usize>> {
        let doubles = self.double_squares(mark);
        if doubles.is_empty() {
            return None;
        }
        let mut tried: Vec<usize> = Vec::new();
        for &square in &doubles {
            // The windows two short through the square hold it and what it would win on.
            for &window in &self.shape.through[square] {
                let window = window as usize;
                if self.is_two_short(mark, window) {
                    tried.extend(
                        self.shape.windows[window]
                            .iter()
                            .map(|&s| usize::from(s))
                            .filter(|&s| self.cells[s] == 0),
                    );
                }
            }
        }
        tried.sort_unstable();
        tried.dedup();
        self.as_mover(!mark, |board| {
            tried.retain(|&square| {
                board.play(square);
                let holds = !board.has_double(mark);
                board.undo();
                holds
            });
        });
        Some(tried)
    }

    /// The free squares where `mark` would make a three: a line that one more mark turns
    /// into two squares to win on (on gomoku, an open or broken three), found by trying
    /// the squares of its windows three short.
    pub(crate) fn three_squares(&mut self, mark: Mark) -> Vec<usize> {
        let Some(short) = self.rules().k().checked_sub(3) else {
            return Vec::new();
        };
        let mut candidates = self.growth_squares(mark, short as u8);
        if self.rules().win_rule() == WinRule::Freestyle {
            candidates.retain(|&square| self.makes_three(mark, square));
            return candidates;
        }
        // Under exactly k a mark also closes the windows it lies just beyond: played out.
        self.threes_played_out(mark, candidates)
    }

    /// Those of `candidates` where `mark` makes a three, found by playing each.
    fn threes_played_out(&mut self, mark: Mark, candidates: Vec<usize>) -> Vec<usize> {
        self.as_mover(mark, |board| {
            candidates
                .into_iter()
                .filter(|&square| {
                    board.play(square);
                    let three = board.makes_double_through(mark, square);
                    board.undo();
                    three
                })
                .collect()
        })
    }

    /// Whether `mark` playing the free `square` would make a three, under freestyle rules
    /// (where a mark changes only the windows through it), worked out without playing it:
    /// a window through it would hold k - 2 of `mark`'s marks, with a free square that
    /// would then make two squares to win on.
    fn makes_three(&self, mark: Mark, square: usize) -> bool {
        let me = side(mark);
        let k = self.rules().k();
        self.shape.through[square].iter().any(|&window| {
            let window = window as usize;
            usize::from(self.counts[me][window]) + 3 == k
                && self.is_open(me, window)
                && self.shape.windows[window].iter().any(|&next| {
                    let next = usize::from(next);
                    next != square
                        && self.cells[next] == 0
                        && self.is_double_after(mark, next, Some(square))
                })
        })
    }

    /// [`is_double`](SearchBoard::is_double) for the free `square`, as if `mark` had also
    /// played the free square `played`, if any (freestyle rules: a mark adds to the
    /// windows through it alone).
    fn is_double_after(&self, mark: Mark, square: usize, played: Option<usize>) -> bool {
        let me = side(mark);
        let k = self.rules().k();
        let mut first = None;
        for &window in &self.shape.through[square] {
            let window = window as usize;
            let squares = &self.shape.windows[window];
            let holds_played =
                played.is_some_and(|played| squares.iter().any(|&s| usize::from(s) == played));
            let marks = usize::from(self.counts[me][window]) + usize::from(holds_played);
            if marks + 2 != k || !self.is_open(me, window) {
                continue;
            }
            let other = squares
                .iter()
                .map(|&s| usize::from(s))
                .find(|&s| s != square && Some(s) != played && self.cells[s] == 0);
            match (first, other) {
                (None, found) => first = found,
                (Some(seen), Some(next)) if next != seen => return true,
                _ => {}
            }
        }
        false
    }

    /// Whether a window through `square` (just played by `mark`) now gives `mark` a square
    /// that would make two squares to win on.
    fn makes_double_through(&self, mark: Mark, square: usize) -> bool {
        self.shape.through[square].iter().any(|&window| {
            let window = window as usize;
            self.is_two_short(mark, window)
                && self.shape.windows[window].iter().any(|&s| {
                    let s = usize::from(s);
                    self.cells[s] == 0 && self.is_double(mark, s)
                })
        })
    }

    /// Whether `square` lies in a window open to `mark` with exactly `marks` of its marks.
    fn makes_exactly(&self, mark: Mark, square: usize, marks: u8) -> bool {
        let me = side(mark);
        self.shape.through[square].iter().any(|&window| {
            let window = window as usize;
            self.counts[me][window] == marks && self.is_open(me, window)
        })
    }

    /// The free squares of the windows open to `mark` that hold at least `marks` of its
    /// marks: where its lines can still grow, those in the most such windows first.
    /// `marks` is at least k - 3 (0 or 1 where k is 4 or less): emptier windows are not
    /// listed.
    pub(crate) fn growth_squares(&self, mark: Mark, marks: u8) -> Vec<usize> {
        debug_assert!(
            usize::from(marks).max(1) >= self.live[side(mark)].fewest,
            "windows of {marks} marks are not listed"
        );
        let me = side(mark);
        let mut found: Vec<(u32, usize)> = Vec::new();
        let listed = (usize::from(marks).max(1)..self.rules().k())
            .flat_map(|count| self.live_windows(mark, count).iter().map(|&w| w as usize));
        // Empty windows are not listed: on a short line (k = 3) they are looked for.
        let empty = (0..self.shape.windows.len()).filter(|&window| {
            marks == 0 && self.counts[me][window] == 0 && self.is_open(me, window)
        });
        for window in listed.chain(empty) {
            for &square in &self.shape.windows[window] {
                let square = usize::from(square);
                if self.cells[square] != 0 {
                    continue;
                }
                match found.iter_mut().find(|(_, s)| *s == square) {
                    Some((count, _)) => *count += 1,
                    None => found.push((1, square)),
                }
            }
        }
        found.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        found.into_iter().map(|(_, square)| square).collect()
    }

    /// How much playing `square` gains the side to move, for ordering moves. With pattern
    /// codes: the square's worth to it, and to the opponent (whose lines it spoils), each
    /// as its own. Without them, or while moves leave them alone (a tree search's quick
    /// games): its own windows grown, and the opponent's windows spoiled.
    pub(crate) fn move_value(&self, square: usize) -> i64 {
        let (me, other) = (side(self.to_move), 1 - side(self.to_move));
        if let Some(patterns) = &self.shape.patterns
            && self.cells[square] == 0
            && !self.patterns_paused
        {
            let worth =
                |side: usize| patterns.worths[usize::from(self.combinations[square][side])][0];
            return worth(me) + worth(other);
        }
        let weights = &self.shape.weights;
        self.shape.through[square]
            .iter()
            .map(|&window| {
                let window = window as usize;
                let (mine, theirs) = (
                    usize::from(self.counts[me][window]),
                    usize::from(self.counts[other][window]),
                );
                if self.is_open(me, window) {
                    weights[mine + 1] - weights[mine]
                } else if mine == 0 && self.is_open(other, window) {
                    weights[theirs]
                } else {
                    0
                }
            })
            .sum()
    }

    /// Adds to `zone` the free squares on the four lines through `square` within k of it:
    /// every square a mark could change a window through `square` from (under exactly k,
    /// also the squares just beyond those windows).
    pub(crate) fn near_lines(&self, square: usize, zone: &mut Vec<usize>) {
        let rules = self.rules();
        let at = Square::new(square);
        let (column, row) = (rules.column(at) as isize, rules.row(at) as isize);
        let reach = rules.k() as isize;
        for (dc, dr) in DIRECTIONS {
            for step in -reach..=reach {
                if let Some(near) = rules.square_signed(column + dc * step, row + dr * step) {
                    let near = near.index();
                    if self.cells[near] == 0 && !zone.contains(&near) {
                        zone.push(near);
                    }
                }
            }
        }
    }

    /// The hash the board would have after the side to move plays `square`.
    pub(crate) fn hash_after(&self, square: usize) -> u64 {
        self.hash ^ self.shape.keys[square][side(self.to_move)]
    }

    pub(crate) fn play(&mut self, square: usize) {
        let mark = self.to_move;
        let (me, other) = (side(mark), 1 - side(mark));
        let k = self.rules().k();
        let shape = Arc::clone(&self.shape);
        for &window in &shape.through[square] {
            let window = window as usize;
            let (mine, theirs) = (
                usize::from(self.counts[me][window]),
                usize::from(self.counts[other][window]),
            );
            if self.is_open(me, window) {
                if mine > 0 {
                    self.live[me].remove(window, mine);
                }
                self.live[me].add(window, mine + 1);
                self.strength[me] += shape.weights[mine + 1] - shape.weights[mine];
                if mine + 1 == k {
                    self.won = true;
                }
            }
            if mine == 0 && theirs > 0 && self.beyond[other][window] == 0 {
                self.live[other].remove(window, theirs);
                self.strength[other] -= shape.weights[theirs];
            }
            self.counts[me][window] += 1;
        }
        // Under exactly k: the windows this mark lies just beyond close to its side.
        for &window in &shape.beyond[square] {
            let window = window as usize;
            if self.is_open(me, window) {
                self.close(me, window);
            }
            self.beyond[me][window] += 1;
        }
        self.cells[square] = me as u8 + 1;
        if let Some(patterns) = shape.patterns.as_ref().filter(|_| !self.patterns_paused) {
            self.unscore(square);
            self.relink(patterns, square, me as u32 + 1);
        }
        self.hash ^= shape.keys[square][me];
        self.played.push(square as u16);
        self.to_move = !mark;
    }

    pub(crate) fn undo(&mut self) {
        let Some(square) = self.played.pop() else {
            return;
        };
        let square = usize::from(square);
        let mark = !self.to_move;
        let (me, other) = (side(mark), 1 - side(mark));
        let shape = Arc::clone(&self.shape);
        for &window in &shape.beyond[square] {
            let window = window as usize;
            self.beyond[me][window] -= 1;
            if self.is_open(me, window) {
                self.reopen(me, window);
            }
        }
        for &window in &shape.through[square] {
            let window = window as usize;
            self.counts[me][window] -= 1;
            let (mine, theirs) = (
                usize::from(self.counts[me][window]),
                usize::from(self.counts[other][window]),
            );
            if self.is_open(me, window) {
                self.live[me].remove(window, mine + 1);
                if mine > 0 {
                    self.live[me].add(window, mine);
                }
                self.strength[me] -= shape.weights[mine + 1] - shape.weights[mine];
            }
            if mine == 0 && theirs > 0 && self.beyond[other][window] == 0 {
                self.live[other].add(window, theirs);
                self.strength[other] += shape.weights[theirs];
            }
        }
        self.cells[square] = 0;
        if let Some(patterns) = shape.patterns.as_ref().filter(|_| !self.patterns_paused) {
            self.relink(patterns, square, 0);
            self.rescore(patterns, square);
        }
        self.hash ^= shape.keys[square][me];
        self.to_move = mark;
        self.won = false;
    }

    /// Takes window `index`, open until now, out of side `me`'s evaluation and threats.
    fn close(&mut self, me: usize, index: usize) {
        let mine = usize::from(self.counts[me][index]);
        if mine > 0 {
            self.live[me].remove(index, mine);
        }
        self.strength[me] -= self.shape.weights[mine];
    }

    /// Puts window `index`, open again, back into side `me`'s evaluation and threats.
    fn reopen(&mut self, me: usize, index: usize) {
        let mine = usize::from(self.counts[me][index]);
        if mine > 0 {
            self.live[me].add(index, mine);
        }
        self.strength[me] += self.shape.weights[mine];
    }

    /// Free squares within two steps of a mark (the centre on an empty board), best first
    /// by [`move_value`](SearchBoard::move_value).
    pub(crate) fn candidates(&self) -> Vec<usize> {
        let rules = self.rules();
        if self.played.is_empty() {
            return rules.centre().iter().map(|s| s.index()).collect();
        }
        let mut near = vec![false; self.cells.len()];
        for &square in &self.played {
            let square = Square::new(usize::from(square));
            let (column, row) = (rules.column(square) as isize, rules.row(square) as isize);
            for dy in -2..=2 {
                for dx in -2..=2 {
                    if let Some(next) = rules.square_signed(column + dx, row + dy) {
                        near[next.index()] = true;
                    }
                }
            }
        }
        let mut moves: Vec<(i64, usize)> = (0..self.cells.len())
            .filter(|&square| near[square] && self.cells[square] == 0)
            .map(|square| (self.move_value(square), square))
            .collect();
        moves.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        moves.into_iter().map(|(_, square)| square).collect()
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    use ttt_core::Board;

    use super::*;

    /// The free squares where `mark` would make a winning line, as the core sees it.
    fn core_wins(board: &Board, mark: Mark) -> Vec<usize> {
        board
            .empty_squares()
            .filter(|&square| {
                let mut after = *board;
                after.set(square, Some(mark));
                !after.lines_through(square).is_empty()
            })
            .map(Square::index)
            .collect()
    }

    /// Whether the mark on `square` makes a run longer than k through it.
    fn made_overline(position: &Position, square: usize) -> bool {
        let rules = position.rules();
        let mut freestyle = Board::empty(rules.with_win_rule(WinRule::Freestyle));
        for mark in Mark::ALL {
            for square in position.board().squares_of(mark) {
                freestyle.set(square, Some(mark));
            }
        }
        freestyle
            .lines_through(Square::new(square))
            .iter()
            .any(|line| line.len() > rules.k())
    }

    fn sorted(mut squares: Vec<usize>) -> Vec<usize> {
        squares.sort_unstable();
        squares
    }

    #[test]
    fn wins_and_threats_are_the_core_s_under_both_rules() {
        let mut rng = StdRng::seed_from_u64(4);
        let (mut overlines, mut checked) = (0, 0);
        for (width, k) in [(7, 4), (8, 5)] {
            for win in WinRule::ALL {
                let rules = Rules::new(width, width, k).unwrap().with_win_rule(win);
                let shape = Arc::new(Shape::new(rules));
                // Dense play in the middle makes long lines, gaps and overlines.
                let middle: Vec<usize> = rules
                    .squares()
                    .filter(|&s| (1..width - 1).contains(&rules.column(s)))
                    .filter(|&s| (1..width - 1).contains(&rules.row(s)))
                    .map(Square::index)
                    .collect();
                for _ in 0..24 {
                    let mut position = Position::new(rules, Mark::X);
                    let mut board = SearchBoard::new(Arc::clone(&shape), &position);
                    while !position.is_over() {
                        let free: Vec<usize> = middle
                            .iter()
                            .copied()
                            .filter(|&s| board.is_free(s))
                            .collect();
                        let Some(&square) = free.get(rng.random_range(0..free.len().max(1))) else {
                            break;
                        };
                        position.play(Square::new(square)).unwrap();
                        board.play(square);
                        let won = position.outcome().is_some_and(|o| o.winner().is_some());
                        assert_eq!(board.won, won, "{position}");
                        overlines +=
                            usize::from(win == WinRule::Exact && made_overline(&position, square));
                        let fresh = SearchBoard::new(Arc::clone(&shape), &position);
                        assert_eq!(
                            (board.evaluate(), open(&board), two_short(&board)),
                            (fresh.evaluate(), open(&fresh), two_short(&fresh)),
                            "{position}: kept up move by move as built at once"
                        );
                        for mark in Mark::ALL {
                            let wins = core_wins(position.board(), mark);
                            assert_eq!(
                                sorted(board.winning_squares(mark)),
                                wins,
                                "{position}: {mark}"
                            );
                            assert_eq!(board.threatens(mark), !wins.is_empty());
                            if !wins.is_empty() || position.is_over() {
                                continue;
                            }
                            // With no square to win on yet: a four makes one, a double two.
                            let (mut fours, mut doubles) = (Vec::new(), Vec::new());
                            for free in position.board().empty_squares() {
                                let mut after = *position.board();
                                after.set(free, Some(mark));
                                let made = core_wins(&after, mark).len();
                                if made >= 1 {
                                    fours.push(free.index());
                                }
                                if made >= 2 {
                                    doubles.push(free.index());
                                }
                            }
                            assert_eq!(
                                sorted(board.four_squares(mark)),
                                fours,
                                "{position}: {mark}"
                            );
                            assert_eq!(
                                sorted(board.double_squares(mark)),
                                doubles,
                                "{position}: {mark}"
                            );
                            assert_eq!(board.has_double(mark), !doubles.is_empty());
                            assert_eq!(board.can_make_four(mark), !fours.is_empty());
                            checked += 1;
                        }
                    }
                    while !board.played.is_empty() {
                        board.undo();
                    }
                    let empty =
                        SearchBoard::new(Arc::clone(&shape), &Position::new(rules, Mark::X));
                    assert_eq!(
                        (
                            board.hash,
                            board.evaluate(),
                            open(&board),
                            two_short(&board)
                        ),
                        (
                            empty.hash,
                            empty.evaluate(),
                            open(&empty),
                            two_short(&empty)
                        )
                    );
                    assert_eq!(board.beyond, empty.beyond, "{rules}: every undo takes back");
                }
            }
        }
        // Not vacuous (seeded: 3,267 positions with threats compared, 7 overlines made).
        assert!(
            checked > 3_000 && overlines >= 5,
            "{checked} positions, {overlines} overlines"
        );
    }

    #[test]
    fn counts_threats_and_hash_come_back_after_undo() {
        let rules = Rules::new(7, 6, 4).unwrap();
        let shape = Arc::new(Shape::new(rules));
        let mut board = SearchBoard::new(Arc::clone(&shape), &Position::new(rules, Mark::X));
        let fresh = (board.hash, board.evaluate(), open(&board));
        for square in [10, 3, 11, 4, 12] {
            board.play(square);
        }
        assert!(
            board.threatens(Mark::X),
            "X has three of four on 10, 11, 12"
        );
        assert_eq!(board.winning_squares(Mark::X), vec![9, 13]);
        for _ in 0..5 {
            board.undo();
        }
        assert_eq!((board.hash, board.evaluate(), open(&board)), fresh);
    }

    /// For each side, how many windows it could complete with one more mark.
    fn open(board: &SearchBoard) -> [usize; 2] {
        let k = board.rules().k();
        Mark::ALL.map(|mark| board.live_windows(mark, k - 1).len())
    }

    /// For each side, how many windows it could complete with two more marks.
    fn two_short(board: &SearchBoard) -> [usize; 2] {
        let k = board.rules().k();
        Mark::ALL.map(|mark| board.live_windows(mark, k - 2).len())
    }

    /// The live lists, sorted, as counted from scratch and as kept move by move.
    fn live_lists(board: &SearchBoard) -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
        let k = board.rules().k();
        let mut counted = Vec::new();
        let mut kept = Vec::new();
        for mark in Mark::ALL {
            let me = side(mark);
            for count in board.live[me].fewest..=k {
                counted.push(
                    (0..board.shape.windows.len() as u32)
                        .filter(|&w| {
                            let w = w as usize;
                            usize::from(board.counts[me][w]) == count && board.is_open(me, w)
                        })
                        .collect(),
                );
                let mut list = board.live_windows(mark, count).to_vec();
                list.sort_unstable();
                kept.push(list);
            }
        }
        (counted, kept)
    }

    #[test]
    fn live_windows_stay_what_the_counts_say_through_play_and_undo() {
        for win in WinRule::ALL {
            for (width, height, k) in [(3, 3, 3), (7, 6, 4), (15, 15, 5)] {
                let rules = Rules::new(width, height, k).unwrap().with_win_rule(win);
                let mut board =
                    SearchBoard::new(Arc::new(Shape::new(rules)), &Position::new(rules, Mark::X));
                let mut state: u64 = 7;
                for step in 0..400 {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1);
                    let free: Vec<usize> = (0..rules.square_count())
                        .filter(|&s| board.is_free(s))
                        .collect();
                    if free.is_empty() || (state >> 60) < 5 {
                        board.undo();
                    } else {
                        board.play(free[(state >> 33) as usize % free.len()]);
                    }
                    let (counted, kept) = live_lists(&board);
                    assert_eq!(counted, kept, "{rules}, step {step}");
                    // Below the fewest marks listed, nothing is.
                    for live in &board.live {
                        assert!(live.by_count[..live.fewest].iter().all(Vec::is_empty));
                    }
                }
            }
        }
    }

    #[test]
    fn threes_worked_out_without_playing_are_the_threes_found_by_playing() {
        // Random games on a gomoku board and smaller ones, with dense play so threes are
        // many; in each position both sides' threes, by both ways.
        for (width, height, k) in [(15, 15, 5), (7, 6, 4), (6, 6, 3)] {
            let rules = Rules::new(width, height, k).unwrap();
            let mut state: u64 = 11;
            let mut seen = 0;
            for _game in 0..20 {
                let mut board =
                    SearchBoard::new(Arc::new(Shape::new(rules)), &Position::new(rules, Mark::X));
                for _ply in 0..30 {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1);
                    // Near the marks already played, so that lines grow.
                    let near = board.candidates();
                    if near.is_empty() || board.won {
                        break;
                    }
                    board.play(near[(state >> 33) as usize % near.len().min(8)]);
                    if board.won {
                        break;
                    }
                    for mark in [Mark::X, Mark::O] {
                        let fast = board.three_squares(mark);
                        let candidates = board.growth_squares(mark, (k - 3) as u8);
                        let played = board.threes_played_out(mark, candidates);
                        assert_eq!(fast, played, "{rules}, {mark}: {:?}", board.played);
                        seen += fast.len();
                    }
                }
            }
            assert!(seen > 100, "{rules}: only {seen} threes seen");
        }
    }

    #[test]
    fn no_heuristic_value_reaches_a_win_on_any_board() {
        // For each k the most windows are on the largest board, 20x20.
        for k in 3..=20 {
            for (width, height) in [(19, 19), (19, 3), (3, 19), (k.max(3), k.max(3))] {
                let Ok(rules) = Rules::new(width, height, k) else {
                    continue;
                };
                let shape = Shape::new(rules);
                let top = shape.weights[k];
                let most = i128::from(top) * shape.windows.len() as i128;
                assert!(most < i128::from(WIN / 4), "{rules}: {most} against {WIN}");
                assert!(
                    shape.weights.windows(2).all(|pair| pair[0] < pair[1]),
                    "{rules}: more marks weigh more"
                );
            }
        }
    }

    #[test]
    fn a_position_loads_with_its_threats() {
        let rules = Rules::new(5, 5, 4).unwrap();
        let position = Position::parse("xxx../oo.../o..../...../.....", rules, Mark::X).unwrap();
        let board = SearchBoard::new(Arc::new(Shape::new(rules)), &position);
        assert_eq!(board.to_move, Mark::X);
        assert_eq!(board.winning_squares(Mark::X), vec![3]);
        assert_eq!(board.winning_squares(Mark::O), Vec::<usize>::new());
    }
}
