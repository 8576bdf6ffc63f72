//! What a proof learnt about positions, kept between runs: a long proof checkpoints its
//! table and resumes from it.

use ttt_core::Rules;

use crate::geometry::Bits;
use crate::hash::BitsMap;
use crate::pn::{self, Numbers};
use crate::prover::{Bounds, ProofError, ProofSearch};

/// A proof's table of what it proved about positions (by their symmetric images), to keep
/// between runs: a long proof checkpoints it and resumes from it. Each search keeps its
/// own kind: the alpha-beta bounds on values, df-pn proof and disproof numbers. Its bytes
/// start with a line naming the format (and so the search), then one naming the board.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use ttt_core::{Mark, Position, Rules};
/// use ttt_solver::{ProofLimits, ProofSearch, ProofTable, Progress};
///
/// let (stop, progress) = (AtomicBool::new(false), Progress::default());
/// let limits = ProofLimits { table_bytes: 64 << 20, stop: &stop, progress: &progress, max_nodes: None };
/// let empty = Position::new(Rules::new(5, 4, 4)?, Mark::X);
/// for search in ProofSearch::ALL {
///     let mut table = ProofTable::new(search);
///     let first = search.prove_with(&empty, limits, &mut table)?;
///     // Kept and read back, the table answers the same question at once.
///     let mut again = ProofTable::from_bytes(&table.to_bytes())?;
///     assert_eq!(again.search(), search);
///     let second = search.prove_with(&empty, limits, &mut again)?;
///     assert_eq!(second.result, first.result);
///     assert!(second.nodes < first.nodes);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct ProofTable {
    /// The board its positions are on, once it has any.
    rules: Option<Rules>,
    kept: Kept,
}

/// A table's entries, by the search that keeps them.
#[derive(Debug, Clone)]
enum Kept {
    Bounds(BitsMap<(Bits, Bits), Bounds>),
    Numbers(BitsMap<pn::Key, pn::Entry>),
}

impl Default for Kept {
    fn default() -> Kept {
        Kept::Bounds(BitsMap::default())
    }
}

/// The first line of a kept table of each search.
const ALPHA_BETA_HEADER: &str = "ttt proof table 2";
const DF_PN_HEADER: &str = "ttt df-pn table 2";

/// The first lines of tables an earlier `ttt` kept, with no checksum to trust them by.
const UNCHECKED_HEADERS: [&str; 2] = ["ttt proof table 1", "ttt df-pn table 1"];

/// The bytes of the checksum at the end of a kept table.
const CHECKSUM_BYTES: usize = 8;

/// FNV-1a over `bytes`: any one byte changed, or any few, changes it, so a table damaged
/// on the disk is refused rather than read as proved results (it is no defence against
/// a table forged on purpose; nothing read from a file is trusted beyond its own run).
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The bytes of an entry of each kind: the two bitboards of the key, then for bounds the
/// lower and upper bound and the best move; for numbers whether the attacker is to move,
/// the proof and disproof numbers, the squares and the work.
const BOUNDS_BYTES: usize = 19;
const NUMBERS_BYTES: usize = 37;

impl ProofTable {
    /// An empty table for `search`.
    #[must_use]
    pub fn new(search: ProofSearch) -> ProofTable {
        let kept = match search {
            ProofSearch::AlphaBeta => Kept::Bounds(BitsMap::default()),
            ProofSearch::ProofNumber => Kept::Numbers(BitsMap::default()),
        };
        ProofTable { rules: None, kept }
    }

    /// The search that keeps this table.
    #[must_use]
    pub fn search(&self) -> ProofSearch {
        match self.kept {
            Kept::Bounds(_) => ProofSearch::AlphaBeta,
            Kept::Numbers(_) => ProofSearch::ProofNumber,
        }
    }

    /// Positions in it.
    #[must_use]
    pub fn len(&self) -> usize {
        match &self.kept {
            Kept::Bounds(entries) => entries.len(),
            Kept::Numbers(entries) => entries.len(),
        }
    }

    /// Whether it holds nothing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The board its positions are on, if it has any.
    #[must_use]
    pub fn rules(&self) -> Option<Rules> {
        self.rules
    }

    /// The alpha-beta's entries, for a proof on `rules`.
    pub(crate) fn bounds(
        &mut self,
        rules: Rules,
    ) -> Result<&mut BitsMap<(Bits, Bits), Bounds>, ProofError> {
        self.take_up(rules, ProofSearch::AlphaBeta)?;
        match &mut self.kept {
            Kept::Bounds(entries) => Ok(entries),
            Kept::Numbers(_) => Err(ProofError::Table("kept by df-pn".to_owned())),
        }
    }

    /// Df-pn's entries, for a proof on `rules`.
    pub(crate) fn numbers(
        &mut self,
        rules: Rules,
    ) -> Result<&mut BitsMap<pn::Key, pn::Entry>, ProofError> {
        self.take_up(rules, ProofSearch::ProofNumber)?;
        match &mut self.kept {
            Kept::Numbers(entries) => Ok(entries),
            Kept::Bounds(_) => Err(ProofError::Table("kept by alpha-beta".to_owned())),
        }
    }

    /// Makes the table ready for a proof on `rules` by `search`: an empty one of another
    /// kind becomes one of this kind; one that holds positions must be of the same board
    /// and search.
    fn take_up(&mut self, rules: Rules, search: ProofSearch) -> Result<(), ProofError> {
        if self.is_empty() {
            *self = ProofTable::new(search);
        } else if let Some(kept) = self.rules.filter(|&kept| kept != rules) {
            return Err(ProofError::Table(format!("it holds {kept}, not {rules}")));
        } else if self.search() != search {
            return Err(ProofError::Table(format!("kept by {}", self.search())));
        }
        self.rules = Some(rules);
        Ok(())
    }

    /// The table as bytes: a line naming the format (`ttt proof table 2` for alpha-beta,
    /// `ttt df-pn table 2`), one naming the board (`6x6, k=5`), then a fixed number of
    /// bytes a position, little-endian: for alpha-beta the two bitboards and the bounds
    /// (19 bytes); for df-pn the two bitboards, whether the attacker is to move, the
    /// proof and disproof numbers, a set of squares and the work (37 bytes); last, the
    /// checksum of all that (FNV-1a, 8 bytes).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let rules = self
            .rules
            .map(|rules| rules.to_string())
            .unwrap_or_default();
        let header = match self.kept {
            Kept::Bounds(_) => ALPHA_BETA_HEADER,
            Kept::Numbers(_) => DF_PN_HEADER,
        };
        let mut bytes = format!("{header}\n{rules}\n").into_bytes();
        match &self.kept {
            Kept::Bounds(entries) => {
                for (&(a, b), bounds) in entries {
                    bytes.extend_from_slice(&a.to_le_bytes());
                    bytes.extend_from_slice(&b.to_le_bytes());
                    let (lower, upper) = (bounds.lower as u8, bounds.upper as u8);
                    bytes.extend_from_slice(&[lower, upper, bounds.best]);
                }
            }
            Kept::Numbers(entries) => {
                for (&((a, b), attacker_moves), entry) in entries {
                    bytes.extend_from_slice(&a.to_le_bytes());
                    bytes.extend_from_slice(&b.to_le_bytes());
                    bytes.push(u8::from(attacker_moves));
                    bytes.extend_from_slice(&entry.numbers.proof.to_le_bytes());
                    bytes.extend_from_slice(&entry.numbers.disproof.to_le_bytes());
                    bytes.extend_from_slice(&entry.squares.to_le_bytes());
                    bytes.extend_from_slice(&entry.work.to_le_bytes());
                }
            }
        }
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// Reads what [`to_bytes`](ProofTable::to_bytes) writes, checking every entry.
    ///
    /// # Errors
    /// One line saying what is wrong: not a table, another format, damaged (its checksum
    /// does not match), a board it does not name, a length that is no whole number of
    /// entries, or an entry out of range.
    pub fn from_bytes(bytes: &[u8]) -> Result<ProofTable, String> {
        let header = bytes
            .split(|&byte| byte == b'\n')
            .next()
            .unwrap_or_default();
        let mut table = if header == ALPHA_BETA_HEADER.as_bytes() {
            ProofTable::new(ProofSearch::AlphaBeta)
        } else if header == DF_PN_HEADER.as_bytes() {
            ProofTable::new(ProofSearch::ProofNumber)
        } else if UNCHECKED_HEADERS.iter().any(|old| header == old.as_bytes()) {
            return Err(
                "kept by an earlier ttt, with no checksum to trust it by: start the proof again"
                    .to_owned(),
            );
        } else {
            return Err("not a proof table of this ttt (its first line)".to_owned());
        };
        let Some(kept_at) = bytes.len().checked_sub(CHECKSUM_BYTES) else {
            return Err("cut short: no checksum at its end".to_owned());
        };
        let (bytes, kept) = bytes.split_at(kept_at);
        let mut sum = [0; CHECKSUM_BYTES];
        sum.copy_from_slice(kept);
        if u64::from_le_bytes(sum) != checksum(bytes) {
            return Err(
                "damaged (or cut short): its checksum does not match what it holds".to_owned(),
            );
        }
        let mut lines = bytes.splitn(3, |&byte| byte == b'\n');
        lines.next();
        let rules = std::str::from_utf8(lines.next().unwrap_or_default())
            .map_err(|_| "the board line is not text".to_owned())?;
        if !rules.is_empty() {
            let parsed = rules
                .parse::<Rules>()
                .map_err(|error| format!("bad board '{rules}': {error}"))?;
            table.rules = Some(parsed);
        }
        let body = lines.next().unwrap_or_default();
        let entry_bytes = match table.kept {
            Kept::Bounds(_) => BOUNDS_BYTES,
            Kept::Numbers(_) => NUMBERS_BYTES,
        };
        if body.len() % entry_bytes != 0 {
            return Err("cut short: its length is no whole number of positions".to_owned());
        }
        if table.rules.is_none() && !body.is_empty() {
            return Err("positions without a board: not a table ttt wrote".to_owned());
        }
        let out_of_range = || "an entry out of range: not a table ttt wrote".to_owned();
        for chunk in body.chunks_exact(entry_bytes) {
            let word = |at: usize| {
                let mut bytes = [0; 8];
                bytes.copy_from_slice(&chunk[at..at + 8]);
                u64::from_le_bytes(bytes)
            };
            let half = |at: usize| {
                let mut bytes = [0; 4];
                bytes.copy_from_slice(&chunk[at..at + 4]);
                u32::from_le_bytes(bytes)
            };
            let key = (word(0), word(8));
            match &mut table.kept {
                Kept::Bounds(entries) => {
                    let (lower, upper) = (chunk[16] as i8, chunk[17] as i8);
                    if !(-1..=1).contains(&lower) || !(-1..=1).contains(&upper) || lower > upper {
                        return Err(out_of_range());
                    }
                    entries.insert(key, Bounds::kept(lower, upper, chunk[18]));
                }
                Kept::Numbers(entries) => {
                    let attacker_moves = match chunk[16] {
                        0 => false,
                        1 => true,
                        _ => return Err(out_of_range()),
                    };
                    let numbers = Numbers {
                        proof: half(17),
                        disproof: half(21),
                    };
                    if !numbers.is_consistent() {
                        return Err(out_of_range());
                    }
                    let entry = pn::Entry {
                        numbers,
                        squares: word(25),
                        work: half(33),
                    };
                    entries.insert((key, attacker_moves), entry);
                }
            }
        }
        Ok(table)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use ttt_core::{Mark, Position};

    use super::*;
    use crate::prover::{Progress, ProofLimits};

    /// Limits of a 16 MiB table, with nothing to stop a proof early.
    fn limits<'a>(stop: &'a AtomicBool, progress: &'a Progress) -> ProofLimits<'a> {
        ProofLimits {
            table_bytes: 1 << 24,
            stop,
            progress,
            max_nodes: None,
        }
    }

    fn proved(search: ProofSearch, rules: Rules) -> ProofTable {
        let (stop, progress) = (AtomicBool::new(false), Progress::default());
        let limits = limits(&stop, &progress);
        let mut table = ProofTable::new(search);
        let empty = Position::new(rules, Mark::X);
        assert!(search.prove_with(&empty, limits, &mut table).is_ok());
        table
    }

    #[test]
    fn a_table_is_taken_up_only_by_its_own_search_on_its_own_board() {
        let (stop, progress) = (AtomicBool::new(false), Progress::default());
        let limits = limits(&stop, &progress);
        let rules = Rules::new(5, 4, 4).unwrap();
        let other = Position::new(Rules::new(4, 4, 4).unwrap(), Mark::X);
        for search in ProofSearch::ALL {
            let mut table = proved(search, rules);
            let (asked, message) = match search {
                ProofSearch::AlphaBeta => (ProofSearch::ProofNumber, "kept by alpha-beta"),
                ProofSearch::ProofNumber => (ProofSearch::AlphaBeta, "kept by df-pn"),
            };
            let empty = Position::new(rules, Mark::X);
            let refused = asked.prove_with(&empty, limits, &mut table);
            assert_eq!(refused, Err(ProofError::Table(message.to_owned())));
            let refused = search.prove_with(&other, limits, &mut table);
            let said = "it holds 5x4, k=4, not 4x4, k=4".to_owned();
            assert_eq!(refused, Err(ProofError::Table(said)));
            // An empty table of either kind serves either search.
            let mut empty_table = ProofTable::new(search);
            assert!(asked.prove_with(&other, limits, &mut empty_table).is_ok());
            assert_eq!(empty_table.search(), asked);
        }
    }

    #[test]
    fn broken_tables_are_refused_with_the_reason() {
        let rules = Rules::new(5, 4, 4).unwrap();
        for search in ProofSearch::ALL {
            let bytes = proved(search, rules).to_bytes();
            let cut = ProofTable::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err();
            assert!(cut.contains("cut short"), "{cut}");
            // An earlier ttt's table, with no checksum: not trusted.
            let mut old = bytes.clone();
            let header = header_length(&old);
            old[..header].copy_from_slice(
                match search {
                    ProofSearch::AlphaBeta => "ttt proof table 1",
                    ProofSearch::ProofNumber => "ttt df-pn table 1",
                }
                .as_bytes(),
            );
            let said = ProofTable::from_bytes(&old).unwrap_err();
            assert!(said.contains("no checksum"), "{said}");
            let mut renamed = bytes.clone();
            renamed[0] = b'T';
            let said = ProofTable::from_bytes(&renamed).unwrap_err();
            assert!(said.contains("not a proof table"), "{said}");
        }
        // Df-pn's entries: the flag is a bool, and no node is proved and disproved at once.
        let header = format!("{DF_PN_HEADER}\n{rules}\n");
        let mut entry = vec![0_u8; NUMBERS_BYTES];
        entry[16] = 2;
        let bytes = sealed([header.as_bytes(), &entry].concat());
        assert!(
            ProofTable::from_bytes(&bytes)
                .unwrap_err()
                .contains("out of range")
        );
        entry[16] = 1;
        let bytes = sealed([header.as_bytes(), &entry].concat());
        let refused = |bytes: &[u8]| ProofTable::from_bytes(bytes).unwrap_err();
        assert!(refused(&bytes).contains("out of range"));
        // Infinity beside anything but 0 is no number the search makes: read back, the
        // root would take it as a question answered.
        entry[17..21].copy_from_slice(&u32::MAX.to_le_bytes());
        entry[21..25].copy_from_slice(&5_u32.to_le_bytes());
        let bytes = sealed([header.as_bytes(), &entry].concat());
        assert!(refused(&bytes).contains("out of range"));
        entry[21..25].copy_from_slice(&0_u32.to_le_bytes());
        let bytes = sealed([header.as_bytes(), &entry].concat());
        assert_eq!(ProofTable::from_bytes(&bytes).unwrap().len(), 1);
        // Positions, but no board to take them for.
        let boardless = sealed([format!("{DF_PN_HEADER}\n\n").as_bytes(), &entry].concat());
        assert!(refused(&boardless).contains("without a board"));
    }

    /// `bytes` with their checksum after them, as `to_bytes` ends a table.
    fn sealed(mut bytes: Vec<u8>) -> Vec<u8> {
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// The length of the first line of `bytes`.
    fn header_length(bytes: &[u8]) -> usize {
        bytes.iter().position(|&byte| byte == b'\n').unwrap()
    }

    /// The entries of `table`, in whatever order its map holds them.
    fn entries(table: &ProofTable) -> Vec<Vec<u8>> {
        let bytes = table.to_bytes();
        let size = match table.search() {
            ProofSearch::AlphaBeta => BOUNDS_BYTES,
            ProofSearch::ProofNumber => NUMBERS_BYTES,
        };
        let end = bytes.len() - CHECKSUM_BYTES;
        let body = &bytes[end - table.len() * size..end];
        let mut chunks: Vec<Vec<u8>> = body.chunks(size).map(<[u8]>::to_vec).collect();
        chunks.sort();
        chunks
    }

    /// Bytes of an entry of either kind, as `to_bytes` writes them, from raw parts: the
    /// key, then numbers that are proved, disproved or open by `state`.
    fn entry_bytes(df_pn: bool, key: (u64, u64), state: u8, numbers: (u32, u32)) -> Vec<u8> {
        let mut bytes = [key.0.to_le_bytes(), key.1.to_le_bytes()].concat();
        if df_pn {
            let (proof, disproof) = match state % 3 {
                0 => (0, u32::MAX),
                1 => (u32::MAX, 0),
                _ => (1 + numbers.0 % 1_000, 1 + numbers.1 % 1_000),
            };
            bytes.push(state / 3 % 2);
            bytes.extend_from_slice(&proof.to_le_bytes());
            bytes.extend_from_slice(&disproof.to_le_bytes());
            bytes.extend_from_slice(&key.0.rotate_left(7).to_le_bytes());
            bytes.extend_from_slice(&numbers.0.to_le_bytes());
        } else {
            let lower = (state % 3) as i8 - 1;
            let upper = lower + (state / 3 % (2 - lower) as u8) as i8;
            bytes.extend_from_slice(&[lower as u8, upper as u8, state]);
        }
        bytes
    }

    proptest::proptest! {
        #[test]
        fn tables_of_entries_round_trip_and_any_byte_changed_is_read_or_refused(
            df_pn: bool,
            parts in proptest::collection::vec(
                (proptest::num::u64::ANY, proptest::num::u64::ANY, proptest::num::u8::ANY,
                 proptest::num::u32::ANY, proptest::num::u32::ANY),
                0..20,
            ),
            changed: (usize, u8),
        ) {
            let header = if df_pn { DF_PN_HEADER } else { ALPHA_BETA_HEADER };
            let mut bytes = format!("{header}\n5x4, k=4\n").into_bytes();
            for &(a, b, state, n, d) in &parts {
                bytes.extend(entry_bytes(df_pn, (a, b), state, (n, d)));
            }
            let mut bytes = sealed(bytes);
            let table = ProofTable::from_bytes(&bytes).unwrap();
            proptest::prop_assert!(table.len() <= parts.len());
            proptest::prop_assert_eq!(parts.is_empty(), table.is_empty());
            let again = ProofTable::from_bytes(&table.to_bytes()).unwrap();
            proptest::prop_assert_eq!(again.search(), table.search());
            proptest::prop_assert_eq!(entries(&again), entries(&table));
            // One byte changed anywhere: refused, never read as something else.
            let at = changed.0 % bytes.len();
            bytes[at] ^= changed.1.max(1);
            proptest::prop_assert!(ProofTable::from_bytes(&bytes).is_err());
        }
    }
}
