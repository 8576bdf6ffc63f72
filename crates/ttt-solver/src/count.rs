//! The numbers of the game: games, nodes, positions and symmetry classes, computed.

use ttt_core::{Mark, Position, Rules};

use crate::geometry::{Bits, Geometry};
use crate::hash::BitsMap;
use crate::solver::MAX_SOLVED_SQUARES;
use crate::{Solver, SolverError, Value};

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

/// The positions of one ply that are the same up to the board's symmetries, while
/// counting: how many games pass through any of them, and how they stand.
#[derive(Debug, Clone, Copy)]
struct Class {
    paths: u64,
    end: End,
}

/// Counts games, nodes, positions and symmetry classes, and values the empty board, by
/// going through the reachable positions ply by ply rather than through every game.
///
/// It keeps two plies at a time, one entry for the positions that are the same up to
/// rotation and reflection, and asks the [`Solver`] for the value: on 4x4 a few megabytes
/// where every position kept took hundreds.
///
/// # Errors
/// [`SolverError::TooLarge`] above 16 squares.
pub fn count(rules: Rules) -> Result<Statistics, SolverError> {
    let geometry = solvable(rules)?;
    let squares = rules.square_count();
    let symmetries = geometry.symmetry_count() as u64;
    let mut tree = TreeCounts::new(rules);
    let (mut positions, mut terminal) = (0, 0);
    let (mut classes, mut terminal_classes) = (0, 0);
    let mut level: BitsMap<Key, Class> = BitsMap::default();
    level.insert(
        0,
        Class {
            paths: 1,
            end: End::Going,
        },
    );
    for ply in 0..=squares {
        let mut next: BitsMap<Key, Class> = BitsMap::default();
        for (&key, class) in &level {
            let (x, o) = unpack(key);
            // The positions of the class: the symmetries over those that fix one.
            let members = symmetries / geometry.symmetries_fixing(x, o) as u64;
            tree.nodes += class.paths;
            positions += members;
            classes += 1;
            if class.end != End::Going {
                terminal += members;
                terminal_classes += 1;
                tree.add_games(ply, class.end, class.paths);
                continue;
            }
            // Every position of the class has the same moves into each class of the next
            // ply, so one position's moves, each carrying the whole class's paths, carry
            // every path into the next ply.
            let mark = mark_at(ply);
            let mut free = geometry.full() & !(x | o);
            while free != 0 {
                let square = free.trailing_zeros() as usize;
                free &= free - 1;
                let (cx, co) = with_move(x, o, mark, square);
                let (kx, ko) = geometry.canonical(cx, co);
                let mine = if mark == Mark::X { cx } else { co };
                let end = if geometry.wins_at(mine, square) {
                    End::Win(mark)
                } else if ply + 1 == squares {
                    End::Draw
                } else {
                    End::Going
                };
                next.entry(pack(kx, ko))
                    .or_insert(Class { paths: 0, end })
                    .paths += class.paths;
            }
        }
        level = next;
    }
    let value = Solver::new().value(&Position::new(rules, Mark::X))?;
    Ok(Statistics {
        rules,
        tree,
        positions,
        positions_up_to_symmetry: classes,
        terminal_positions: terminal,
        terminal_up_to_symmetry: terminal_classes,
        value,
    })
}

fn solvable(rules: Rules) -> Result<Geometry, SolverError> {
    if rules.square_count() > MAX_SOLVED_SQUARES {
        return Err(SolverError::TooLarge { rules });
    }
    Geometry::new(rules)
}
