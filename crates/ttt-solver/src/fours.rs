//! Wins by continuous fours, looked for depth first: written once for every board that
//! can answer a few questions about its lines ([`FoursBoard`]): the solver's bitboards
//! (the prover's leaves) and the gomoku engine's search board (its alpha-beta's horizon).
//!
//! The attacker, to move, plays a move that leaves it one square to win on (a *four*);
//! the defender must take that square, its only reply that does not lose at once as long
//! as it has no square to win on itself. Where the defender has one, the attacker must
//! take it first, and goes on only if that move is a four as well. The attacker wins when
//! a move leaves it two squares to win on. Every reply that does not lose at once is
//! followed, so a win found is a proof; a look cut short by its budget finds nothing.

/// Who a question is about: the side to move, or the side that has just moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The side to move.
    Mover,
    /// The side that has just moved.
    Other,
}

/// How many free squares a side would complete a line on, as far as the look needs to
/// know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wins {
    /// None.
    None,
    /// Exactly one: this square.
    One(usize),
    /// Two or more.
    Several,
}

/// A position a look for wins by fours plays on, in the board's own terms.
pub trait FoursBoard {
    /// Squares, in the order the board would have them tried.
    type Squares: IntoIterator<Item = usize>;

    /// The free squares where `side` would complete a line.
    fn wins(&self, side: Side) -> Wins;

    /// The free squares where the side to move would make a four.
    fn four_squares(&self) -> Self::Squares;

    /// Plays `square` for the side to move; the other side is to move after it.
    fn play(&mut self, square: usize);

    /// Takes back `square`, the last square played.
    fn undo(&mut self, square: usize);
}

/// Whether the side to move wins by continuous fours, within `budget` of its moves tried
/// (fewer left after): at once, when it has a square to win on.
pub fn wins_by_fours(board: &mut impl FoursBoard, budget: &mut u32) -> bool {
    if board.wins(Side::Mover) != Wins::None {
        return true;
    }
    let theirs = board.wins(Side::Other);
    fours_from(board, theirs, budget)
}

/// [`wins_by_fours`] where the side to move is known to have no square to win on, and the
/// other side to have `theirs`.
pub fn fours_from(board: &mut impl FoursBoard, theirs: Wins, budget: &mut u32) -> bool {
    match theirs {
        Wins::None => {
            let fours = board.four_squares();
            fours
                .into_iter()
                .any(|square| four_wins(board, square, budget))
        }
        // The defender's four is blocked first: by a four of one's own, or not at all.
        Wins::One(block) => four_wins(board, block, budget),
        Wins::Several => false,
    }
}

/// Whether the attacker's move on `square` wins by fours: it leaves two squares to win on,
/// or one, which the defender takes, after which the attacker wins by fours again. False
/// once the budget is spent.
fn four_wins(board: &mut impl FoursBoard, square: usize, budget: &mut u32) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    board.play(square);
    let won = match board.wins(Side::Other) {
        // Not a four: the defender is not bound to any reply.
        Wins::None => false,
        Wins::One(block) => {
            board.play(block);
            let theirs = board.wins(Side::Other);
            let won = fours_from(board, theirs, budget);
            board.undo(block);
            won
        }
        Wins::Several => true,
    };
    board.undo(square);
    won
}
