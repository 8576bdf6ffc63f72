//! Whether every forced win `search` announces is one: on every position of real games
//! (15x15 freestyle), `search` thinks a while; each time it says "win" (by the threat
//! search, or "win in N" by the alpha-beta), the claim is checked by trying every reply
//! the defender has to the move it chose, each of which must lose to a proved win.
//!
//! ```text
//! cargo run --release -p ttt-players --example claims -- [GAMES] [SECONDS] [DEPTH]
//! ```
//!
//! `GAMES` is a file of games as the `speed` example reads them (by default its 32 games
//! against the Gomocup champion), `SECONDS` the time a move (0.1 by default). The check
//! of a claim: after the chosen move, every free square is tried as the defender's reply;
//! after each, the attacker must have a square to win on, or a win the threat search
//! proves (`ttt_players::wins_by_threats`, a proof-number search that tries every reply
//! that answers a threat), or, up to `DEPTH` more moves of its own (2 by default), a move
//! `search` chooses that passes the same check. A claim that fails the check is printed
//! with the reply that the check could not answer; the last line counts claims confirmed
//! and not confirmed (a claim not confirmed is a false conviction, or a win longer than
//! the check reaches: each is looked into).

use std::io::Write;
use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::StdRng;
use ttt_core::{Mark, Position, Rules, Square, SquareNaming};
use ttt_players::{Judgement, Limits, Player, Search, wins_by_threats};

#[path = "support/recorded.rs"]
mod recorded;

/// Nodes the threat search may expand to prove the attacker's win after one reply.
const PROOF_BUDGET: u64 = 300_000;

/// The check of a claimed win.
struct Checker {
    search: Search,
    rng: StdRng,
}

impl Checker {
    /// Whether the side that has just moved in `position` (the attacker) wins against
    /// every reply: `Err` with the first reply after which no win was found.
    fn wins_against_every_reply(&mut self, position: &Position, depth: u32) -> Result<(), Square> {
        let attacker = !position.to_move();
        if position.outcome().and_then(|o| o.winner()) == Some(attacker) {
            return Ok(());
        }
        for reply in position.legal_moves() {
            let after = position.after(reply).map_err(|_| reply)?;
            if !self.attacker_wins(&after, attacker, depth) {
                return Err(reply);
            }
        }
        Ok(())
    }

    /// Whether `attacker`, to move in `position`, has a win the check can show.
    fn attacker_wins(&mut self, position: &Position, attacker: Mark, depth: u32) -> bool {
        if position.is_over() {
            return false;
        }
        let wins_at_once = position.legal_moves().into_iter().any(|square| {
            position
                .after(square)
                .is_ok_and(|after| after.outcome().and_then(|o| o.winner()) == Some(attacker))
        });
        if wins_at_once || wins_by_threats(position, attacker, PROOF_BUDGET) {
            return true;
        }
        if depth == 0 {
            return false;
        }
        let Ok(square) = self.search.choose(position, &mut self.rng) else {
            return false;
        };
        position
            .after(square)
            .is_ok_and(|after| self.wins_against_every_reply(&after, depth - 1).is_ok())
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Written with `?`, so that a closed pipe (`| head`) ends the run with an error, not a
    // panic.
    let mut out = std::io::stdout().lock();
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| recorded::MIDGAME.to_owned());
    let seconds: f64 = args.next().map_or(Ok(0.1), |text| text.parse())?;
    let depth: u32 = args.next().map_or(Ok(2), |text| text.parse())?;
    let think = Duration::try_from_secs_f64(seconds)
        .map_err(|why| format!("SECONDS: {why} (got {seconds})"))?;
    let rules = Rules::new(15, 15, 5)?;
    let limits = Limits {
        think,
        ..Limits::default()
    };
    let mut checker = Checker {
        search: Search::new(limits),
        rng: StdRng::seed_from_u64(3),
    };
    let mut rng = StdRng::seed_from_u64(1);
    let (mut positions, mut claims, mut confirmed) = (0, 0, 0);
    for (number, game) in recorded::read(&path, rules)?.into_iter().enumerate() {
        let mut search = Search::new(limits);
        for position in game.iter().filter(|position| !position.is_over()) {
            positions += 1;
            let square = search.choose(position, &mut rng)?;
            let claimed = search
                .thought()
                .and_then(|thought| thought.judgement)
                .filter(|judgement| matches!(judgement, Judgement::Win(_)));
            let Some(judgement) = claimed else {
                continue;
            };
            claims += 1;
            let after = position.after(square)?;
            match checker.wins_against_every_reply(&after, depth) {
                Ok(()) => confirmed += 1,
                Err(reply) => writeln!(
                    out,
                    "game {}, move {}: {} claims {judgement} with {}; after the reply {}, no win found\n{position}",
                    number + 1,
                    position.history().len() + 1,
                    position.to_move(),
                    SquareNaming::Letters.label(square, rules),
                    SquareNaming::Letters.label(reply, rules),
                )?,
            }
        }
    }
    writeln!(
        out,
        "{positions} positions, {claims} claimed wins at {seconds} s a move: {confirmed} \
         confirmed, {} not confirmed",
        claims - confirmed
    )?;
    Ok(())
}
