//! The root of a move's search: the side to move's own win by threats, the moves that do
//! not lose to the opponent's, the alpha-beta's iterations on them (on more threads, with
//! helpers beside it: Lazy SMP), then a last look for a win by threats and a check of the
//! move chosen.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;
use web_time::Instant;

use super::alpha_beta::Searcher;
use super::board::SearchBoard;
use super::table::Table;
use super::threats::{Reach, Threats};
use super::{Judgement, Thought, decided};
use crate::Limits;

/// Nodes a threat-space search may expand at the root, for each side.
const THREAT_BUDGET: u64 = 2_000_000;

/// The share of the think time by which the search for the side to move's own win by
/// threats ends.
const OWN_SHARE: f64 = 0.2;

/// The share of the think time by which the look for the side to move's own win that
/// lets its first moves be quiet ones ends, when threes alone found none (see
/// [`QUIET_MOVES`]).
const QUIET_SHARE: f64 = 0.3;

/// The share of the think time by which the search for the opponent's threats ends. A
/// smaller share (0.35) leaves the alpha-beta more time where that search runs out, but
/// measured no different: 65-62-1 against this share at 0.1 s a move on equal terms,
/// where two copies of one engine score 60-63-5, and the same moves in the tactical
/// suites at 1 s.
const DEFENCE_SHARE: f64 = 0.5;

/// The share of the think time by which the alpha-beta's iterations end.
const ALPHA_BETA_SHARE: f64 = 0.88;

/// The share of the think time by which the last look for the side to move's own win by
/// threats ends: what is left goes to checking the move chosen.
const LOOK_SHARE: f64 = 0.93;

/// The share of the think time by which every search ends: the rest is for the answer.
const END_SHARE: f64 = 0.97;

/// The first moves of a side's line of threats that may be quiet moves making a win by
/// fours in waiting (`Threats::find_with_quiet`), where threes alone found no win: in
/// the root's first look for its own win and in the check of the move chosen against the
/// opponent's (the opponent's threats before the alpha-beta are looked for without).
/// See docs/strength.md for what it was measured at.
const QUIET_MOVES: u8 = 2;

/// Nodes the search for the opponent's threats may expand after each root move checked.
const MOVE_CHECK_BUDGET: u64 = 30_000;

/// The move to play where none is forced, of the candidate `moves` (best first by a quick
/// estimate), with what the search made of it: [`decide`] on this thread; given more than
/// one thread ([`Limits::threads`]), helpers beside it from the start of the move (Lazy
/// SMP), their work counted in the [`Thought`]. `free` is the count of free squares, the
/// deepest the alpha-beta goes.
pub(super) fn think(
    table: &Table,
    threats: &mut Threats,
    board: SearchBoard,
    moves: Vec<usize>,
    start: Instant,
    limits: &Limits,
    free: u32,
) -> (usize, Thought) {
    let alpha_beta_end = start + limits.think.mul_f64(ALPHA_BETA_SHARE);
    // The other threads search beside this one from the start (Lazy SMP), while this
    // one first looks for threats: they share what they learn through the table, and
    // stop when this one's alpha-beta ends (or this thread's part ends in any way).
    let (stop, deepest) = (AtomicBool::new(false), Mutex::new(None));
    let shared = Shared {
        table,
        stop: &stop,
        deepest: &deepest,
    };
    std::thread::scope(|scope| {
        let stop_helpers = StopOnDrop(&stop);
        let helpers: Vec<_> = (1..thread_count(limits.threads))
            .filter_map(|helper| {
                let (mut board, moves) = (board.clone(), moves.clone());
                std::thread::Builder::new()
                    .name(format!("search helper {helper}"))
                    .spawn_scoped(scope, move || {
                        let first = 1 + u32::from(helper % 2 == 1);
                        help_search(shared, &mut board, moves, alpha_beta_end, first..=free)
                    })
                    // Where threads cannot be made (a browser), this one searches alone.
                    .ok()
            })
            .collect();
        let mut board = board;
        let (square, mut thought) = decide(
            shared,
            threats,
            &mut board,
            moves,
            start,
            limits.think,
            free,
        );
        drop(stop_helpers);
        for helper in helpers {
            // A helper that failed took nothing this one needs.
            if let Ok(work) = helper.join() {
                thought.nodes += work.nodes;
                thought.threat_nodes += work.fours_moves;
            }
        }
        (square, thought)
    })
}

/// Puts the moves an iteration searched (`scored`, each with its score) first in `moves`,
/// best first (the earlier searched first where they tie), the others after them in their
/// order; `scored` is left best first.
pub(super) fn searched_first(moves: &mut Vec<usize>, scored: &mut [(usize, i64)]) {
    scored.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
    moves.retain(|square| scored.iter().all(|&(searched, _)| searched != *square));
    moves.splice(..0, scored.iter().map(|&(square, _)| square));
}

/// The threads a move thinks on, of the `threads` asked: at least one, at most
/// [`Limits::MAX_THREADS`] and the machine's cores (more would only take turns, each
/// slower than alone; where the cores are not known, one).
fn thread_count(threads: usize) -> usize {
    match Limits::clamp_threads(threads) {
        // The machine is not asked on every move for what one thread does not need.
        1 => 1,
        asked => asked.min(std::thread::available_parallelism().map_or(1, std::num::NonZero::get)),
    }
}

/// Sets its flag when dropped: the helpers stop however the main thread's part ends, a
/// panic included (the scope waits for them before the panic goes on).
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// An alpha-beta iteration finished at the root: its depth, best move and score.
#[derive(Clone, Copy, Debug)]
struct Iteration {
    depth: u32,
    square: usize,
    score: i64,
}

/// What the threads of a move's search share.
#[derive(Clone, Copy)]
struct Shared<'a> {
    table: &'a Table,
    /// Set when the main thread's alpha-beta ends: the helpers' ends too.
    stop: &'a AtomicBool,
    /// The deepest iteration a helper finished.
    deepest: &'a Mutex<Option<Iteration>>,
}

/// The root's search after the forced moves (see [`Search`](super::Search)): the side to move's own win by
/// threats, the moves that do not lose to the opponent's, the alpha-beta's iterations on
/// them (beside the helpers: their deepest finished iteration is taken where it is deeper
/// than this thread's, unless this thread found the game decided, and its move is still
/// among the moves kept), then a last look for a win by threats and a check of the move
/// chosen. `free` is the count of free squares, the deepest the alpha-beta goes.
fn decide(
    shared: Shared<'_>,
    threats: &mut Threats,
    board: &mut SearchBoard,
    mut moves: Vec<usize>,
    start: Instant,
    think: Duration,
    free: u32,
) -> (usize, Thought) {
    let mut thought = Thought::default();
    let me = board.to_move;
    // Leave room for the answer itself.
    let deadline = start + think.mul_f64(END_SHARE);
    // A forced win by threats, seen far beyond any depth the alpha-beta reaches: by
    // fours first (quick), then by threes too, within a share of the time.
    let counted = threats.nodes();
    threats.start(THREAT_BUDGET, Some(start + think.mul_f64(OWN_SHARE)));
    let mut win = threats.find(board, Reach::Threes);
    if win.is_none() {
        threats.start(THREAT_BUDGET, Some(start + think.mul_f64(QUIET_SHARE)));
        win = threats.find_with_quiet(board, QUIET_MOVES);
    }
    if let Some(square) = win {
        thought.threat_nodes = threats.nodes() - counted;
        thought.judgement = Some(Judgement::Win(None));
        return (square, thought);
    }
    // Moves after which the opponent has a forced win by threats are no moves, unless
    // every move is one.
    threats.start(THREAT_BUDGET, Some(start + think.mul_f64(DEFENCE_SHARE)));
    if threats.threatened_by(board, !me, Reach::Threes) {
        threats.allow(THREAT_BUDGET);
        moves = safe_moves(board, moves, threats, MOVE_CHECK_BUDGET);
    }
    let mut searcher = Searcher::new(shared.table, start + think.mul_f64(ALPHA_BETA_SHARE));
    // The last iteration, cut short by the clock, still tells whether a move beats the
    // best of the one before.
    let mut last = None;
    deepen(
        &mut searcher,
        board,
        &mut moves,
        1..=free,
        |iteration, _| {
            last = Some(iteration);
        },
    );
    // The helpers' work is done with the alpha-beta's; a deeper iteration of theirs on a
    // move still in the running is taken, unless this one found the game decided.
    shared.stop.store(true, Ordering::Relaxed);
    let helped = *shared
        .deepest
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(helped) = helped
        && last.is_none_or(|last| helped.depth > last.depth && !decided(last.score))
        && moves.contains(&helped.square)
    {
        last = Some(helped);
    }
    let mut best = last.map_or(moves[0], |last| last.square);
    if let Some(last) = last {
        thought.depth = last.depth;
        thought.judgement = Some(Judgement::of_score(last.score));
    }
    thought.nodes = searcher.nodes;
    // The threat moves of this move: the root's looks' and the horizon's.
    let horizon = searcher.fours_moves;
    let threat_moves = |threats: &Threats| threats.nodes() - counted + horizon;
    thought.threat_nodes = threat_moves(threats);
    // The rest of the time goes to a longer look for a win by threats (a proof, so
    // better than any move the alpha-beta judged by its horizon); what that leaves, to
    // making sure the move chosen allows the opponent none.
    if Instant::now() < deadline {
        threats.start(THREAT_BUDGET, Some(start + think.mul_f64(LOOK_SHARE)));
        let win = threats.find(board, Reach::Threes);
        thought.threat_nodes = threat_moves(threats);
        if let Some(square) = win {
            thought.judgement = Some(Judgement::Win(None));
            return (square, thought);
        }
        threats.start(THREAT_BUDGET, Some(deadline));
        let chosen = safe_choice(board, best, &moves, threats);
        if chosen != best {
            // The alpha-beta's score was for a move the threats refuted.
            thought.judgement = None;
            best = chosen;
        }
        thought.threat_nodes = threat_moves(threats);
    }
    (best, thought)
}

/// Deeper and deeper over `depths`, from `moves` in their order, until the searcher's
/// time is up or the game is decided: each iteration that has a best move (one cut short
/// by the clock has one once its first move was searched) goes to `searched`, with
/// whether it finished before the time was up. The next, deeper iteration tries the
/// moves searched best first by this one's scores (a move that failed low scored at most
/// what it says; the earlier move first where they tie), then the others in their order.
fn deepen(
    searcher: &mut Searcher<'_>,
    board: &mut SearchBoard,
    moves: &mut Vec<usize>,
    depths: std::ops::RangeInclusive<u32>,
    mut searched: impl FnMut(Iteration, bool),
) {
    let mut last_score = None;
    for depth in depths {
        let Ok(mut scored) = searcher.aspire(board, moves, depth, last_score) else {
            break;
        };
        searched_first(moves, &mut scored);
        let Some(&(square, score)) = scored.first() else {
            break;
        };
        last_score = Some(score);
        let stopped = searcher.stopped();
        searched(
            Iteration {
                depth,
                square,
                score,
            },
            !stopped,
        );
        if decided(score) || stopped {
            break;
        }
    }
}

/// What a helper thread did: the positions it visited and the moves its looks for fours
/// at the horizon tried.
#[derive(Default)]
struct HelperWork {
    nodes: u64,
    fours_moves: u64,
}

/// A helper thread's search (Lazy SMP): the alpha-beta's iterations on the root's `moves`
/// over `depths`, as the main thread's, until `deadline` or the stop, writing what it
/// learns in the shared table, where the main thread finds it, and its deepest finished
/// iteration. (The helpers start at different depths, so that they are not all at the
/// same depth at once.)
fn help_search(
    shared: Shared<'_>,
    board: &mut SearchBoard,
    mut moves: Vec<usize>,
    deadline: Instant,
    depths: std::ops::RangeInclusive<u32>,
) -> HelperWork {
    let mut searcher = Searcher::new(shared.table, deadline);
    searcher.stop = Some(shared.stop);
    if searcher.stopped() {
        return HelperWork::default();
    }
    deepen(
        &mut searcher,
        board,
        &mut moves,
        depths,
        |iteration, finished| {
            if finished {
                let mut deepest = shared
                    .deepest
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                if deepest.is_none_or(|deepest| deepest.depth < iteration.depth) {
                    *deepest = Some(iteration);
                }
            }
        },
    );
    HelperWork {
        nodes: searcher.nodes,
        fours_moves: searcher.fours_moves,
    }
}

/// `best`, unless the opponent has a forced win by threats after it: then the first of
/// `moves` after which it has none, if one is proved so within the search's bounds.
fn safe_choice(
    board: &mut SearchBoard,
    best: usize,
    moves: &[usize],
    theirs: &mut Threats,
) -> usize {
    if loses(board, best, theirs, QUIET_MOVES) != Some(true) {
        return best;
    }
    for &square in moves.iter().filter(|&&square| square != best) {
        match loses(board, square, theirs, QUIET_MOVES) {
            Some(false) => return square,
            Some(true) => {}
            None => break,
        }
    }
    best
}

/// Whether the opponent has a forced win by threats after the side to move plays
/// `square`, as far as `theirs` can tell within its bounds: `None` when it was cut short
/// before a proof.
fn loses(board: &mut SearchBoard, square: usize, theirs: &mut Threats, quiet: u8) -> Option<bool> {
    board.play(square);
    // Threes alone first: the quiet moves' look, more to search, may not get as far.
    let lost = !board.won
        && (theirs.find(board, Reach::Threes).is_some()
            || (quiet > 0 && !theirs.stopped() && theirs.find_with_quiet(board, quiet).is_some()));
    board.undo();
    (lost || !theirs.stopped()).then_some(lost)
}

/// The root moves after which the opponent, to move, has no forced win by threats: the
/// moves that answer its threats and make fours of one's own first, then the rest in
/// order, each with `per_move` nodes, until the clock runs out or a check is cut short
/// (going on after that measured worse: see the README). The moves proved safe, if any;
/// else those not judged; moves proved lost only when every move is.
fn safe_moves(
    board: &mut SearchBoard,
    moves: Vec<usize>,
    theirs: &mut Threats,
    per_move: u64,
) -> Vec<usize> {
    let me = board.to_move;
    let mut order = board.winning_squares(!me);
    order.extend(board.defences(!me).unwrap_or_default());
    order.extend(board.four_squares(me));
    order.extend(board.four_squares(!me));
    order.extend(board.three_squares(!me));
    order.extend(moves.iter().copied());
    let mut seen = Vec::with_capacity(order.len());
    order.retain(|&square| {
        let new = board.is_free(square) && !seen.contains(&square);
        seen.push(square);
        new
    });
    let (mut safe, mut unknown, mut lost) = (Vec::new(), Vec::new(), Vec::new());
    for square in order {
        // The first check cut short ends them: the rest are left to the alpha-beta.
        if theirs.stopped() {
            unknown.push(square);
            continue;
        }
        theirs.allow(per_move);
        match loses(board, square, theirs, 0) {
            Some(true) => lost.push(square),
            Some(false) => safe.push(square),
            None => unknown.push(square),
        }
    }
    // The alpha-beta orders moves by its own estimate: keep its order within each group.
    let rank = |square: &usize| moves.iter().position(|m| m == square).unwrap_or(usize::MAX);
    let mut keep = [safe, unknown, lost]
        .into_iter()
        .find(|group| !group.is_empty())
        .unwrap_or(moves.clone());
    keep.sort_by_key(rank);
    keep
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use super::super::testing::{against_an_open_three, in_an_hour, quiet, root_board};
    use super::*;

    /// What a move's threads share, made fresh: a table, the stop, no deepest iteration.
    fn shared_parts() -> (Table, AtomicBool, Mutex<Option<Iteration>>) {
        (
            Table::new(1 << 20),
            AtomicBool::new(false),
            Mutex::new(None),
        )
    }

    #[test]
    fn a_helper_stopped_before_it_starts_searches_nothing() {
        let mut board = root_board(&quiet());
        let moves = board.candidates(usize::MAX);
        let (table, stop, deepest) = shared_parts();
        stop.store(true, Ordering::Relaxed);
        let shared = Shared {
            table: &table,
            stop: &stop,
            deepest: &deepest,
        };
        let work = help_search(shared, &mut board, moves, in_an_hour(), 1..=200);
        assert_eq!((work.nodes, work.fours_moves), (0, 0));
        assert!(deepest.lock().unwrap().is_none());
    }

    #[test]
    fn a_helper_keeps_its_deepest_finished_iteration_and_its_work() {
        let mut board = root_board(&quiet());
        let moves = board.candidates(usize::MAX);
        let (table, stop, deepest) = shared_parts();
        let shared = Shared {
            table: &table,
            stop: &stop,
            deepest: &deepest,
        };
        // Depths 2 to 4 only, so that it ends by itself.
        let work = help_search(shared, &mut board, moves.clone(), in_an_hour(), 2..=4);
        let kept = deepest.lock().unwrap().unwrap();
        assert_eq!(kept.depth, 4);
        assert!(moves.contains(&kept.square), "{kept:?}");
        assert!(work.nodes > 0);
        // What it learnt is in the table, for the main thread to find.
        let after = board.hash_after(kept.square);
        assert!(table.get(after).is_some());
    }

    #[test]
    fn the_main_thread_takes_a_deeper_helper_iteration_only_on_a_move_it_kept() {
        let position = quiet();
        let moves = root_board(&position).candidates(usize::MAX);
        let (kept, far) = (moves[3], 14 * 15 + 14);
        assert!(!moves.contains(&far), "o15 is no candidate");
        for (square, taken) in [(kept, true), (far, false)] {
            let mut board = root_board(&position);
            let (table, stop, deepest) = shared_parts();
            *deepest.lock().unwrap() = Some(Iteration {
                depth: 99,
                square,
                score: 7,
            });
            let shared = Shared {
                table: &table,
                stop: &stop,
                deepest: &deepest,
            };
            let mut threats = Threats::within(1 << 20);
            let think = Duration::from_millis(50);
            let moves = moves.clone();
            let (chosen, thought) = decide(
                shared,
                &mut threats,
                &mut board,
                moves,
                Instant::now(),
                think,
                200,
            );
            assert!(stop.load(Ordering::Relaxed), "the helpers are stopped");
            assert_eq!(thought.depth == 99, taken, "{thought:?}");
            assert_eq!(chosen == square, taken);
        }
    }

    #[test]
    fn the_moves_searched_come_first_best_first_the_rest_in_their_order() {
        let mut moves = vec![1, 2, 3, 4, 5];
        // Searched in another order than `moves'` (a move that rose above the window
        // first), and not all.
        let mut scored = [(3, 10), (1, 5), (4, 10)];
        searched_first(&mut moves, &mut scored);
        assert_eq!(moves, [3, 4, 1, 2, 5]);
        assert_eq!(scored, [(3, 10), (4, 10), (1, 5)]);
    }

    #[test]
    fn the_root_keeps_the_moves_proved_safe_and_with_no_budget_judges_none() {
        let position = against_an_open_three();
        let (f8, j8) = (7 * 15 + 5, 7 * 15 + 9);
        let mut board = root_board(&position);
        let moves = board.candidates(usize::MAX);
        let mut threats = Threats::new(0, None);
        let kept = safe_moves(&mut board, moves.clone(), &mut threats, 1_000);
        assert_eq!(kept, [f8, j8]);
        // A node a move proves nothing: every move is kept, the alpha-beta's in its order.
        let mut threats = Threats::new(0, None);
        let unjudged = safe_moves(&mut board, moves.clone(), &mut threats, 1);
        assert_eq!(unjudged[..moves.len()], moves);
        assert_eq!(board.played.len(), 5, "the board is as it was");
    }

    #[test]
    fn a_chosen_move_that_allows_a_win_by_threats_gives_way_to_one_that_does_not() {
        let position = against_an_open_three();
        let mut board = root_board(&position);
        let (corner, f8, j8) = (14 * 15 + 14, 7 * 15 + 5, 7 * 15 + 9);
        let moves = [corner, f8, j8];
        let mut threats = Threats::new(100_000, None);
        assert_eq!(safe_choice(&mut board, corner, &moves, &mut threats), f8);
        // A move that blocks is kept; the board is as it was.
        let mut threats = Threats::new(100_000, None);
        assert_eq!(safe_choice(&mut board, j8, &moves, &mut threats), j8);
        assert_eq!(board.played.len(), 5);
        // With no budget, nothing is proved: the choice stands.
        let mut threats = Threats::new(0, None);
        assert_eq!(
            safe_choice(&mut board, corner, &moves, &mut threats),
            corner
        );
    }
}
