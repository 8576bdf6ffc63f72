//! What a thinking player may spend on one move: time, memory for what it remembers, and
//! threads.

use std::time::Duration;

/// The time per move, the memory bound and the threads of the players that think
/// ([`Search`] and [`Mcts`]; [`Search`] alone uses more than one thread); the others
/// answer at once and keep nothing.
///
/// Any think time in [`MIN_THINK`](Limits::MIN_THINK)..=[`MAX_THINK`](Limits::MAX_THINK)
/// still gives a legal move: a player out of time plays the best move it has looked at,
/// or its first choice before any search. The memory bound covers the search's
/// transposition table and the tree search's tree, which stop growing at the bound
/// (the search replaces old entries; the tree stops adding nodes and goes on refining
/// the ones it has).
///
/// ```
/// use std::time::Duration;
/// use ttt_players::Limits;
///
/// let quick = Limits { think: Duration::from_millis(100), ..Limits::default() };
/// assert_eq!((quick.memory, quick.threads), (Limits::DEFAULT_MEMORY, 1));
/// ```
///
/// [`Search`]: crate::Search
/// [`Mcts`]: crate::Mcts
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most time a move may take.
    pub think: Duration,
    /// The most bytes the player's tables may take.
    pub memory: usize,
    /// The threads a move may think on (a Gomocup manager's `INFO thread_num`), from 1
    /// to [`MAX_THREADS`](Limits::MAX_THREADS): 0 counts as 1, more as the most, and
    /// no more than the machine's cores are used. The threads share the player's
    /// tables, within the one memory bound.
    pub threads: usize,
}

impl Limits {
    /// The think time unless told otherwise.
    pub const DEFAULT_THINK: Duration = Duration::from_secs(1);
    /// The shortest think time accepted: a tenth of a millisecond.
    pub const MIN_THINK: Duration = Duration::from_micros(100);
    /// The longest think time accepted: ten minutes.
    pub const MAX_THINK: Duration = Duration::from_secs(600);
    /// The memory bound unless told otherwise: 64 MiB.
    pub const DEFAULT_MEMORY: usize = 64 << 20;
    /// The smallest memory bound accepted: 1 MiB.
    pub const MIN_MEMORY: usize = 1 << 20;
    /// The largest memory bound accepted: 64 GiB, or what the address space allows (a
    /// machine may have less; the program checks its own).
    pub const MAX_MEMORY: usize = if usize::BITS > 36 {
        1 << 36
    } else {
        usize::MAX
    };
    /// The most threads a move may think on.
    pub const MAX_THREADS: usize = 64;

    /// A memory bound typed in whole megabytes (`--hash`), from 1 up to
    /// [`MAX_MEMORY`](Limits::MAX_MEMORY): the megabytes, or why not.
    ///
    /// ```
    /// use ttt_players::Limits;
    ///
    /// assert_eq!(Limits::parse_megabytes(" 64"), Ok(64));
    /// assert!(Limits::parse_megabytes("0").is_err());
    /// assert!(Limits::parse_megabytes("lots").is_err());
    /// ```
    ///
    /// # Errors
    /// One line for a person, when `text` is not such a number.
    pub fn parse_megabytes(text: &str) -> Result<usize, String> {
        let most = Limits::MAX_MEMORY >> 20;
        match text.trim().parse::<usize>() {
            Ok(megabytes) if (1..=most).contains(&megabytes) => Ok(megabytes),
            _ => Err(format!(
                "the memory bound must be a whole number of megabytes from 1 to {most}"
            )),
        }
    }

    /// The threads `threads` stands for: 0 counts as 1, more than
    /// [`MAX_THREADS`](Limits::MAX_THREADS) as the most.
    ///
    /// ```
    /// use ttt_players::Limits;
    ///
    /// assert_eq!(Limits::clamp_threads(0), 1);
    /// assert_eq!(Limits::clamp_threads(2), 2);
    /// assert_eq!(Limits::clamp_threads(usize::MAX), Limits::MAX_THREADS);
    /// ```
    #[must_use]
    pub fn clamp_threads(threads: usize) -> usize {
        threads.clamp(1, Limits::MAX_THREADS)
    }

    /// A thread count typed in (`--threads`), from 1 to
    /// [`MAX_THREADS`](Limits::MAX_THREADS): the count, or why not.
    ///
    /// ```
    /// use ttt_players::Limits;
    ///
    /// assert_eq!(Limits::parse_threads(" 2"), Ok(2));
    /// assert!(Limits::parse_threads("0").is_err());
    /// assert!(Limits::parse_threads("all").is_err());
    /// ```
    ///
    /// # Errors
    /// One line for a person, when `text` is not such a number.
    pub fn parse_threads(text: &str) -> Result<usize, String> {
        match text.trim().parse::<usize>() {
            Ok(threads) if (1..=Limits::MAX_THREADS).contains(&threads) => Ok(threads),
            _ => Err(format!(
                "the threads must be a whole number from 1 to {}",
                Limits::MAX_THREADS
            )),
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            think: Limits::DEFAULT_THINK,
            memory: Limits::DEFAULT_MEMORY,
            threads: 1,
        }
    }
}
