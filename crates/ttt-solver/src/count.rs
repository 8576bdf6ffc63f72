//! The numbers of the game: games, nodes, positions and symmetry classes, computed.

use ttt_core::{Mark, Rules};

use crate::geometry::{Bits, Geometry};
use crate::hash::BitsMap;
use crate::solver::MAX_SOLVED_SQUARES;
use crate::value::{WIN_NOW, decode, one_ply_earlier};
use crate::{SolverError, Value};

/// Games (or positions) split by how they ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OutcomeCounts {
    /// Won by X (the first player).
    pub x_wins: u64,
    /// Won by O.
    pub o_wins: u64,
    /// Drawn.
    pub draws: u64,
}

impl OutcomeCounts {
    /// All of them.
    #[must_use]
    pub const fn total(&self) -> u64 {
        self.x_wins + self.o_wins + self.draws
    }

    fn add(&mut self, end: End, amount: u64) {
        match end {
            End::Win(Mark::X) => self.x_wins += amount,
            End::Win(Mark::O) => self.o_wins += amount,
            End::Draw => self.draws += amount,
            End::Going => {}
        }
    }
}

/// What a walk of the whole game tree finds: every game, by outcome and by length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeCounts {
    /// Complete games by outcome.
    pub games: OutcomeCounts,
    /// Complete games by the ply they ended on (index 0 is the empty board).
    pub by_ply: Vec<OutcomeCounts>,
    /// Nodes of the game tree: every prefix of every game, the empty board included.
    pub nodes: u64,
}

impl TreeCounts {
    fn new(rules: Rules) -> TreeCounts {
        TreeCounts {
            games: OutcomeCounts::default(),
            by_ply: vec![OutcomeCounts::default(); rules.square_count() + 1],
            nodes: 0,
        }
    }

    fn add_games(&mut self, ply: usize, end: End, amount: u64) {
        self.games.add(end, amount);
        self.by_ply[ply].add(end, amount);
    }
}

/// Everything [`count`] finds: the tree's numbers, the positions, and the game's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statistics {
    /// The rules counted.
    pub rules: Rules,
    /// Games and nodes of the game tree (X moving first).
    pub tree: TreeCounts,
    /// Distinct positions reachable in play, the empty board included.
    pub positions: u64,
    /// Reachable positions, counting those the same up to rotation and reflection once.
    pub positions_up_to_symmetry: u64,
    /// Reachable positions where the game has ended.
    pub terminal_positions: u64,
    /// Terminal positions up to symmetry.
    pub terminal_up_to_symmetry: u64,
    /// The value of the empty board for the first player.
    pub value: Value,
}

/// How a position stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Going,
    Win(Mark),
    Draw,
}

/// Walks the game tree node by node, from the empty board with X to move.
///
/// This visits every node (549,946 on 3x3), so it is only for boards of up to 3x3 or so;
/// [`count`] finds the same numbers by counting over positions.
///
/// # Errors
/// [`SolverError::TooLarge`] above 16 squares.
pub fn walk_tree(rules: Rules) -> Result<TreeCounts, SolverError> {
    let geometry = solvable(rules)?;
    let mut counts = TreeCounts::new(rules);
    walk(&geometry, &mut counts, 0, 0, 0);
    Ok(counts)
}

fn walk(geometry: &Geometry, counts: &mut TreeCounts, mover: Bits, other: Bits, ply: usize) {
    counts.nodes += 1;
    let mut free = geometry.full() & !(mover | other);
    while free != 0 {
        let square = free.trailing_zeros() as usize;
        free &= free - 1;
        let after = mover | 1 << square;
        if geometry.wins_at(after, square) {
            counts.nodes += 1;
            counts.add_games(ply + 1, End::Win(mark_at(ply)), 1);
        } else if after | other == geometry.full() {
            counts.nodes += 1;
            counts.add_games(ply + 1, End::Draw, 1);
        } else {
            walk(geometry, counts, other, after, ply + 1);
        }
    }
}

/// X's and O's bits after `mark` plays `square`.
const fn with_move(x: Bits, o: Bits, mark: Mark, square: usize) -> (Bits, Bits) {
    match mark {
        Mark::X => (x | 1 << square, o),
        Mark::O => (x, o | 1 << square),
    }
}

/// The mark that moves at `ply` when X moves first.
const fn mark_at(ply: usize) -> Mark {
    if ply.is_multiple_of(2) {
        Mark::X
    } else {
        Mark::O
    }
}

/// A position of at most 32 squares (X's bits low, O's high) as one word, so that the
/// counting tables hash a single number.
type Key = u64;

const fn pack(x: Bits, o: Bits) -> Key {
    x | o << 32
}

const fn unpack(key: Key) -> (Bits, Bits) {
    (key & 0xffff_ffff, key >> 32)
}

/// One reachable position while counting: how many games pass through it, how it stands,
/// and its score for the side to move (see the solver's packing).
#[derive(Debug, Clone, Copy)]
struct Node {
    paths: u64,
    end: End,
    score: i8,
}

/// Counts games, nodes, positions and symmetry classes, and values the empty board, by
/// going through the reachable positions ply by ply rather than through every game.
///
/// # Errors
/// [`SolverError::TooLarge`] above 16 squares.
pub fn count(rules: Rules) -> Result<Statistics, SolverError> {
    let geometry = solvable(rules)?;
    let levels = levels(&geometry);
    let mut tree = TreeCounts::new(rules);
    let (mut positions, mut terminal) = (0, 0);
    // Symmetries fixing each position, summed: see `Geometry::symmetries_fixing`.
    let (mut fixed, mut terminal_fixed) = (0, 0);
    for (ply, level) in levels.iter().enumerate() {
        for (&key, node) in level {
            let (x, o) = unpack(key);
            tree.nodes += node.paths;
            positions += 1;
            let fixing = geometry.symmetries_fixing(x, o) as u64;
            fixed += fixing;
            if node.end != End::Going {
                terminal += 1;
                terminal_fixed += fixing;
                tree.add_games(ply, node.end, node.paths);
            }
        }
    }
    let symmetries = geometry.symmetry_count() as u64;
    let empty_score = levels
        .first()
        .and_then(|level| level.get(&0))
        .map_or(0, |node| node.score);
    Ok(Statistics {
        rules,
        tree,
        positions,
        positions_up_to_symmetry: fixed / symmetries,
        terminal_positions: terminal,
        terminal_up_to_symmetry: terminal_fixed / symmetries,
        value: decode(empty_score, rules.square_count() as u32),
    })
}

/// The reachable positions of each ply, keyed by (X bits, O bits), with their path counts
/// filled in going forward and their scores going back.
fn levels(geometry: &Geometry) -> Vec<BitsMap<Key, Node>> {
    let squares = geometry.rules().square_count();
    let mut levels: Vec<BitsMap<Key, Node>> = vec![BitsMap::default(); squares + 1];
    let root = Node {
        paths: 1,
        end: End::Going,
        score: 0,
    };
    levels[0].insert(0, root);
    for ply in 0..squares {
        let (done, rest) = levels.split_at_mut(ply + 1);
        let (current, next) = (&done[ply], &mut rest[0]);
        // Each position has (squares - ply) children, and about as many parents as the
        // side that just moved has marks: size the next table once.
        let parents = (ply + 2) / 2;
        next.reserve(current.len() * (squares - ply) / parents);
        for (&key, node) in current {
            let (x, o) = unpack(key);
            if node.end != End::Going {
                continue;
            }
            let mark = mark_at(ply);
            let mut free = geometry.full() & !(x | o);
            while free != 0 {
                let square = free.trailing_zeros() as usize;
                free &= free - 1;
                let (cx, co) = with_move(x, o, mark, square);
                let child = next.entry(pack(cx, co)).or_insert_with(|| Node {
                    paths: 0,
                    end: End::Going,
                    score: 0,
                });
                child.paths += node.paths;
                let mine = if mark == Mark::X { cx } else { co };
                if geometry.wins_at(mine, square) {
                    child.end = End::Win(mark);
                } else if ply + 1 == squares {
                    child.end = End::Draw;
                }
            }
        }
    }
    for ply in (0..squares).rev() {
        let (done, rest) = levels.split_at_mut(ply + 1);
        let (current, next) = (&mut done[ply], &rest[0]);
        for (&key, node) in current.iter_mut() {
            let (x, o) = unpack(key);
            if node.end != End::Going {
                continue;
            }
            node.score = best_child_score(geometry, next, x, o, mark_at(ply));
        }
    }
    levels
}

/// The best score the mover can reach from (`x`, `o`), from the scores of the next ply.
fn best_child_score(
    geometry: &Geometry,
    next: &BitsMap<Key, Node>,
    x: Bits,
    o: Bits,
    mark: Mark,
) -> i8 {
    let mut free = geometry.full() & !(x | o);
    let mut best = i8::MIN;
    while free != 0 {
        let square = free.trailing_zeros() as usize;
        free &= free - 1;
        let (cx, co) = with_move(x, o, mark, square);
        let key = pack(cx, co);
        let score = next.get(&key).map_or(0, |child| match child.end {
            End::Win(_) => WIN_NOW,
            End::Draw => 0,
            End::Going => one_ply_earlier(child.score),
        });
        best = best.max(score);
    }
    best
}

fn solvable(rules: Rules) -> Result<Geometry, SolverError> {
    if rules.square_count() > MAX_SOLVED_SQUARES {
        return Err(SolverError::TooLarge { rules });
    }
    Geometry::new(rules)
}
