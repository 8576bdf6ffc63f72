//! A Monte-Carlo tree search player: a different style of opponent, which judges moves by
//! playing many quick games to the end.

use web_time::Instant;

use rand::{Rng, RngExt};
use ttt_core::{Mark, Position, Square};

use crate::search::board::{SearchBoard, ShapeCache};
use crate::search::forced;
use crate::{Limits, Player, PlayerError, pick};

/// How many of the most promising squares a node of the tree considers.
const BRANCHING: usize = 12;
/// The exploration constant of UCT.
const EXPLORATION: f32 = 1.2;

/// Chooses by Monte-Carlo tree search (UCT) within a time bound per move. Its quick games
/// take a win when there is one, block a line one short, and otherwise play next to the
/// marks already down.
///
/// However short the time, it finishes a few rounds, so it always has a move. Its tree
/// stays within the memory bound: once full, it stops adding nodes and goes on refining
/// the statistics of the ones it has.
#[derive(Debug)]
pub struct Mcts {
    limits: Limits,
    shapes: ShapeCache,
    /// The most nodes the tree of the last move held.
    last_tree: usize,
}

struct Node {
    square: u16,
    children: Vec<u32>,
    untried: Vec<u16>,
    visits: u32,
    /// Games won by the side that moved into this node (a draw counts half).
    score: f32,
}

/// About how many bytes a node takes with its lists at their fullest.
pub(crate) const NODE_BYTES: usize = std::mem::size_of::<Node>()
    + BRANCHING * (std::mem::size_of::<u32>() + std::mem::size_of::<u16>());

/// Rounds played at the least, and between looks at the clock.
const ROUNDS: u32 = 16;

impl Mcts {
    /// A tree-search player within `limits` on every move.
    #[must_use]
    pub fn new(limits: Limits) -> Mcts {
        Mcts {
            limits,
            shapes: ShapeCache::default(),
            last_tree: 0,
        }
    }

    /// The most nodes the tree may hold within the memory bound.
    #[must_use]
    pub fn node_limit(&self) -> usize {
        (self.limits.memory / NODE_BYTES).max(2)
    }

    /// How many nodes the tree of the last move held: at most [`Mcts::node_limit`].
    #[must_use]
    pub fn last_tree(&self) -> usize {
        self.last_tree
    }
}

impl Player for Mcts {
    fn choose(&mut self, position: &Position, rng: &mut dyn Rng) -> Result<Square, PlayerError> {
        let legal = position.legal_moves();
        if legal.is_empty() {
            return Err(PlayerError::NoMove);
        }
        let deadline = Instant::now() + self.limits.think.mul_f64(0.9);
        let mut board = SearchBoard::new(self.shapes.get(position.rules()).0, position);
        if let Some(square) = forced(&board) {
            return Ok(Square::new(square));
        }
        let root_moves = expansions(&board);
        if root_moves.is_empty() {
            return pick(&legal, rng);
        }
        // The first choice by the quick estimate, should no round finish.
        let first_choice = root_moves.last().copied();
        // Room for every node up front: the tree never reallocates past its bound.
        let limit = self.node_limit();
        let mut tree = Vec::with_capacity(limit);
        tree.push(Node {
            square: 0,
            children: Vec::new(),
            untried: root_moves,
            visits: 0,
            score: 0.0,
        });
        loop {
            for _ in 0..ROUNDS {
                iterate(&mut tree, limit, &mut board, rng);
            }
            if Instant::now() >= deadline {
                break;
            }
        }
        self.last_tree = tree.len();
        let best = tree[0]
            .children
            .iter()
            .max_by_key(|&&child| tree[child as usize].visits)
            .map(|&child| tree[child as usize].square)
            .or(first_choice);
        best.map(|square| Square::new(usize::from(square)))
            .ok_or(PlayerError::NoMove)
    }
}

fn expansions(board: &SearchBoard) -> Vec<u16> {
    let mut moves = board.candidates(BRANCHING);
    // Popped from the end: keep the most promising there.
    moves.reverse();
    moves.into_iter().map(|square| square as u16).collect()
}

/// One round: down the tree by UCT, one new node (while the tree has fewer than `limit`),
/// a quick game, and the result back up.
fn iterate(tree: &mut Vec<Node>, limit: usize, board: &mut SearchBoard, rng: &mut dyn Rng) {
    let mut path = vec![0];
    let mut node = 0;
    let mut ended = false;
    while tree[node].untried.is_empty() && !tree[node].children.is_empty() {
        node = select(tree, node);
        board.play(usize::from(tree[node].square));
        path.push(node);
        if board.won || board.is_full() {
            ended = true;
            break;
        }
    }
    if !ended
        && tree.len() < limit
        && let Some(square) = tree[node].untried.pop()
    {
        board.play(usize::from(square));
        let untried = if board.won || board.is_full() {
            Vec::new()
        } else {
            expansions(board)
        };
        tree.push(Node {
            square,
            children: Vec::new(),
            untried,
            visits: 0,
            score: 0.0,
        });
        let child = tree.len() - 1;
        tree[node].children.push(child as u32);
        path.push(child);
    }
    let depth = board.played.len();
    // A quick game never evaluates: its moves leave the pattern codes alone.
    let winner = board.without_codes(|board| {
        let winner = playout(board, rng);
        while board.played.len() > depth {
            board.undo();
        }
        winner
    });
    // Walk back up: each node scores for the side that moved into it.
    for &node in path.iter().rev() {
        let mover = !board.to_move;
        tree[node].visits += 1;
        tree[node].score += match winner {
            Some(mark) if mark == mover => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        if node != 0 {
            board.undo();
        }
    }
}

fn select(tree: &[Node], node: usize) -> usize {
    let parent_visits = (tree[node].visits.max(1) as f32).ln();
    let value = |child: usize| {
        let child = &tree[child];
        let visits = child.visits.max(1) as f32;
        child.score / visits + EXPLORATION * (parent_visits / visits).sqrt()
    };
    tree[node]
        .children
        .iter()
        .map(|&child| child as usize)
        .max_by(|&a, &b| value(a).total_cmp(&value(b)))
        .unwrap_or(node)
}

/// Plays a quick game to the end and returns the winner (`None` for a draw).
fn playout(board: &mut SearchBoard, rng: &mut dyn Rng) -> Option<Mark> {
    loop {
        if board.won {
            return Some(!board.to_move);
        }
        if board.is_full() {
            return None;
        }
        let square = forced(board).unwrap_or_else(|| near_a_mark(board, rng));
        board.play(square);
    }
}

/// A free square next to a random mark already down, or any free square.
fn near_a_mark(board: &SearchBoard, rng: &mut dyn Rng) -> usize {
    let rules = board.rules();
    for _ in 0..24 {
        let Some(&from) = board
            .played
            .get(rng.random_range(0..board.played.len().max(1)))
        else {
            break;
        };
        let from = Square::new(usize::from(from));
        let (column, row) = (rules.column(from) as isize, rules.row(from) as isize);
        let (dx, dy) = (
            isize::from(rng.random_range(-1..=1_i8)),
            isize::from(rng.random_range(-1..=1_i8)),
        );
        if let Some(square) = rules.square_signed(column + dx, row + dy)
            && board.is_free(square.index())
        {
            return square.index();
        }
    }
    let free: Vec<usize> = (0..rules.square_count())
        .filter(|&s| board.is_free(s))
        .collect();
    free[rng.random_range(0..free.len())]
}
