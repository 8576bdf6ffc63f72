//! The gomoku tactical suites (`../shared/gomoku/`): what `search` plays in each position
//! within a time per move, and how often that is a winning move.
//!
//! ```text
//! cargo run --release -p ttt-players --example tactics -- ../shared/gomoku/attack.jsonl 1.0
//! ```
//!
//! The judge is the threat-space search (`ttt_players::wins_by_threats`) with a generous
//! budget of its own. On the attack suite a move passes when it is the suite's winning
//! move or when, after it, the judge proves the win: by threats, or else by trying every
//! reply, each of which must lose to threats or to one quiet move and threats (a lower
//! bound: a win that needs more quiet moves counts only when it is the suite's move; the
//! last lines say how many passed by threats alone). On the defence suite a move passes
//! when it is the suite's holding move or when, after it, the judge finds no forced win by
//! threats for the opponent (an upper bound: a win that needs quiet moves is not seen; the
//! last line says how many of the suite's losing moves the judge sees lose).

use std::io::Write;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use ttt_core::{Mark, Position, Rules, Square, SquareNaming};
use ttt_players::{Limits, Player, Search};

/// Nodes the judge may expand for each question it is asked.
const JUDGE_BUDGET: u64 = 3_000_000;
/// The time the judge gives `search` to suggest the first quiet move it tries.
const SUGGESTION_TIME: Duration = Duration::from_millis(300);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Written with `?`, so that a closed pipe (`| head`) ends the run with an error, not a
    // panic.
    let mut out = std::io::stdout().lock();
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("give the suite's path (a .jsonl file)")?;
    let seconds: f64 = args.next().map_or(Ok(1.0), |text| text.parse())?;
    let think = Duration::from_secs_f64(seconds);
    let rules = Rules::new(15, 15, 5)?;
    let text =
        std::fs::read_to_string(&path).map_err(|why| format!("cannot read {path}: {why}"))?;
    let (mut passed, mut total, mut proved, mut slowest): (usize, u32, usize, Duration) =
        (0, 0, 0, Duration::ZERO);
    let mut spent = Duration::ZERO;
    // How many moves were the suite's own move.
    let mut exact = 0;
    // How many of the losing moves the judge itself sees as losing.
    let mut judged = 0;
    // Of those, how many our move held.
    let mut held_where_seen = 0;
    // Attacks that passed without the judge's quiet moves (the suite's move, or a win the
    // judge proves by threats).
    let mut without_quiet = 0;
    let cases = text.lines().enumerate();
    for (number, line) in cases.filter(|(_, line)| !line.trim().is_empty()) {
        let case: serde_json::Value = serde_json::from_str(line)?;
        let rows = case["position"].as_str().ok_or("no position")?;
        let to_move: Mark = case["to_move"].as_str().ok_or("no side to move")?.parse()?;
        let expected = case["winning_move"]
            .as_str()
            .or(case["holds"].as_str())
            .ok_or("no winning move")?;
        let (x, o) = (rows.matches('x').count(), rows.matches('o').count());
        let first = if x == o { to_move } else { !to_move };
        let position = Position::parse(rows, rules, first)?;
        let mut search = Search::new(Limits {
            think,
            ..Limits::default()
        });
        let started = Instant::now();
        let chosen = search.choose(&position, &mut StdRng::seed_from_u64(1))?;
        slowest = slowest.max(started.elapsed());
        spent += started.elapsed();
        let label = SquareNaming::Letters.label(chosen, rules);
        let me = position.to_move();
        let by_threats = ttt_players::wins_by_threats(&position, me, JUDGE_BUDGET);
        proved += usize::from(by_threats);
        let after = position.after(chosen)?;
        let pass = if case["holds"].is_string() {
            // A defence holds when, after it, the opponent has no forced win by threats
            // that the judge finds (a win that needs quiet moves is not seen).
            let mut seen = false;
            if let Some(lost) = case["lost_with"].as_str() {
                let lost = SquareNaming::Letters.read(lost, rules)?;
                seen = ttt_players::wins_by_threats(&position.after(lost)?, !me, JUDGE_BUDGET);
                judged += usize::from(seen);
            }
            let holds =
                label == expected || !ttt_players::wins_by_threats(&after, !me, JUDGE_BUDGET);
            // Where the judge sees the suite's losing move lose, it would see ours lose too
            // if it were the same kind of loss: those positions are the telling ones.
            held_where_seen += usize::from(seen && holds);
            holds
        } else {
            // An attack passes when the move keeps a forced win that the judge proves.
            let by_threats = ttt_players::wins_by_threats(&after, me, JUDGE_BUDGET);
            without_quiet += usize::from(label == expected || by_threats);
            label == expected || by_threats || every_reply_loses(&after, me, 1)
        };
        passed += usize::from(pass);
        exact += usize::from(label == expected);
        total += 1;
        if !pass {
            writeln!(
                out,
                "missed (line {}): played {label}, the suite's move {expected}",
                number + 1
            )?;
        }
    }
    writeln!(
        out,
        "{passed} of {total} passed ({:.0}%) at {seconds} s a move; the judge proves a win by threats for the side to move in {proved}; moves took {:.3} s on average, {:.3} s at the most",
        100.0 * passed as f64 / total.max(1) as f64,
        spent.as_secs_f64() / f64::from(total.max(1)),
        slowest.as_secs_f64()
    )?;
    writeln!(out, "{exact} of {total} were the suite's own move")?;
    if !text.contains("lost_with") {
        writeln!(
            out,
            "{without_quiet} of {total} passed without the judge's quiet moves"
        )?;
    }
    if judged > 0 || text.contains("lost_with") {
        writeln!(
            out,
            "the judge sees the loss after {judged} of the suite's losing moves; in those positions {held_where_seen} of our moves held"
        )?;
    }
    Ok(())
}

/// Whether every move of the side to move in `position` loses to `attacker`: after each,
/// the judge proves a win for `attacker` by threats, or (`quiet` times at most along a
/// line) `attacker` has a move after which the judge proves the win, or after which every
/// reply loses in the same way. Replies next to the marks are tried first, since a reply
/// that escapes is most likely there; `search` suggests the first quiet move tried.
fn every_reply_loses(position: &Position, attacker: Mark, quiet: u32) -> bool {
    if position.is_over() {
        // No reply is left: lost only if `attacker` has won.
        return position.outcome().and_then(|outcome| outcome.winner()) == Some(attacker);
    }
    let mut replies = position.legal_moves();
    replies.sort_by_cached_key(|&square| distance_to_marks(position, square));
    replies.into_iter().all(|reply| {
        // A reply that ends the game (a win or a draw for the defender) escapes.
        let Ok(after) = position.after(reply) else {
            return false;
        };
        !after.is_over()
            && (ttt_players::wins_by_threats(&after, attacker, JUDGE_BUDGET)
                || quiet > 0
                    && quiet_moves(&after).into_iter().any(|square| {
                        // A finished position is judged by who won, in either call.
                        after.after(square).is_ok_and(|next| {
                            ttt_players::wins_by_threats(&next, attacker, JUDGE_BUDGET)
                                || every_reply_loses(&next, attacker, quiet - 1)
                        })
                    }))
    })
}

/// The moves worth trying as a quiet move in `position`: `search`'s choice first, then
/// every free square within two steps of a mark.
fn quiet_moves(position: &Position) -> Vec<Square> {
    let mut search = Search::new(Limits {
        think: SUGGESTION_TIME,
        ..Limits::default()
    });
    let suggestion = search.choose(position, &mut StdRng::seed_from_u64(1)).ok();
    let mut moves: Vec<Square> = suggestion.into_iter().collect();
    moves.extend(
        position.legal_moves().into_iter().filter(|&square| {
            distance_to_marks(position, square) <= 2 && Some(square) != suggestion
        }),
    );
    moves
}

/// How many king's steps `square` is from the nearest mark on the board.
fn distance_to_marks(position: &Position, square: Square) -> usize {
    let rules = position.rules();
    let (column, row) = (rules.column(square), rules.row(square));
    let board = position.board();
    Mark::ALL
        .into_iter()
        .flat_map(|mark| board.squares_of(mark))
        .map(|mark| {
            rules
                .column(mark)
                .abs_diff(column)
                .max(rules.row(mark).abs_diff(row))
        })
        .min()
        .unwrap_or(usize::MAX)
}
