//! Block sequences: short, dense IDs (1, 2, 3, ...) from a central counter
//! that each process reserves a *block* of at a time, in one atomic
//! statement against a database it already runs, and hands out locally.
//!
//! This module holds the rules and no I/O: [`BlockSequence`] is a state
//! machine that the caller (the JS layer of `snowmint/sequence`) drives.
//! It says when to ask the store for a block and how large
//! ([`BlockSequence::request`]), takes the block the store answered with
//! ([`BlockSequence::add_block`]) or the failure ([`BlockSequence::fail`]),
//! and hands out runs of consecutive IDs ([`BlockSequence::take`]).
//!
//! - **Double buffering**: the next block is asked for when half of the
//!   current one is used, so a caller never waits on the store while its
//!   rate stays below what the store sustains.
//! - **Adaptive sizes**: each request is sized so that the block lasts
//!   about `target_block_ms` at the rate measured since the previous
//!   request, within `min_block_size..=max_block_size` and at most 4x larger
//!   or smaller than the previous one (a burst does not reserve a huge
//!   block). A fast process gets big blocks, a slow one wastes few.
//! - **Never a wrapped ID**: a block reaching past 2^63-1 is refused
//!   ([`Error::SequenceOverflow`]), and so is a block that starts before the
//!   end of the previous one ([`Error::SequenceBackwards`]: the store's
//!   counter went back), so the IDs of one sequence strictly increase.
//! - **Backoff**: after a failed request the next one waits 25 ms, doubling
//!   up to 1 s, so a store that is down is not hammered.

use crate::Error;

/// The largest ID: 2^63-1, the largest value of a signed 64-bit column.
pub const MAX_ID: u64 = i64::MAX as u64;
/// The largest block size (and the largest `min`/`max` block size).
pub const MAX_BLOCK_SIZE: u64 = 1 << 32;
/// The longest `target_block_ms`: one day.
pub const MAX_TARGET_BLOCK_MS: u64 = 86_400_000;
/// Defaults of an adaptive sequence.
pub const DEFAULT_MIN_BLOCK_SIZE: u64 = 10;
/// See [`DEFAULT_MIN_BLOCK_SIZE`].
pub const DEFAULT_MAX_BLOCK_SIZE: u64 = 1_000_000;
/// See [`DEFAULT_MIN_BLOCK_SIZE`].
pub const DEFAULT_BLOCK_SIZE: u64 = 100;
/// See [`DEFAULT_MIN_BLOCK_SIZE`].
pub const DEFAULT_TARGET_BLOCK_MS: u64 = 15_000;
/// The first ID of a new sequence unless `start` says otherwise.
pub const DEFAULT_START: u64 = 1;
/// How long a store may take to answer a request, unless `timeout_ms` says otherwise.
pub const DEFAULT_TIMEOUT_MS: u64 = 5_000;
/// The longest `timeout_ms`: ten minutes.
pub const MAX_TIMEOUT_MS: u64 = 600_000;
/// The longest name: PostgreSQL's identifier limit (63 bytes).
pub const MAX_NAME_LEN: usize = 63;

const FIRST_RETRY_MS: u64 = 25;
const MAX_RETRY_MS: u64 = 1000;
const MAX_GROWTH: u64 = 4;

/// What a user asked for; `None` takes the default.
///
/// `block_size` alone (no min, max or target) asks for fixed blocks of
/// that size; anything else is adaptive, starting at `block_size`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// The size of the first block (of every block when fixed).
    pub block_size: Option<u64>,
    /// The smallest adaptive block.
    pub min_block_size: Option<u64>,
    /// The largest adaptive block.
    pub max_block_size: Option<u64>,
    /// How long a block should last at the measured rate, in ms.
    pub target_block_ms: Option<u64>,
    /// The first ID when the store creates the sequence.
    pub start: Option<u64>,
    /// How long a store may take to answer a request, in ms: a later answer
    /// counts as a failure and its block as a gap (a hung server must not
    /// hang `next()`).
    pub timeout_ms: Option<u64>,
}

/// Checked options with every default filled in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// The size of the first block.
    pub block_size: u64,
    /// The smallest block; equal to `max_block_size` for fixed blocks.
    pub min_block_size: u64,
    /// The largest block.
    pub max_block_size: u64,
    /// How long a block should last, in ms.
    pub target_block_ms: u64,
    /// The first ID when the store creates the sequence.
    pub start: u64,
    /// How long a store may take to answer a request, in ms.
    pub timeout_ms: u64,
}

impl Options {
    /// The config these options describe, or the typed error that says
    /// which option is out of range and what is allowed.
    pub fn config(&self) -> Result<Config, Error> {
        let fixed = self.min_block_size.is_none()
            && self.max_block_size.is_none()
            && self.target_block_ms.is_none();
        let size = |option, value| in_range(option, value, 1, MAX_BLOCK_SIZE);
        let block_size = match self.block_size {
            Some(v) => Some(size("blockSize", v)?),
            None => None,
        };
        let (min, max) = match (fixed, block_size) {
            (true, Some(b)) => (b, b),
            _ => (
                size(
                    "minBlockSize",
                    self.min_block_size.unwrap_or(DEFAULT_MIN_BLOCK_SIZE),
                )?,
                size(
                    "maxBlockSize",
                    self.max_block_size.unwrap_or(DEFAULT_MAX_BLOCK_SIZE),
                )?,
            ),
        };
        let block_size = block_size.unwrap_or(DEFAULT_BLOCK_SIZE.clamp(min, max.max(min)));
        if !(min <= block_size && block_size <= max) {
            return Err(Error::SequenceBlockSizes {
                min,
                block_size,
                max,
            });
        }
        Ok(Config {
            block_size,
            min_block_size: min,
            max_block_size: max,
            target_block_ms: in_range(
                "targetBlockMs",
                self.target_block_ms.unwrap_or(DEFAULT_TARGET_BLOCK_MS),
                1,
                MAX_TARGET_BLOCK_MS,
            )?,
            start: in_range("start", self.start.unwrap_or(DEFAULT_START), 0, MAX_ID)?,
            timeout_ms: in_range(
                "timeoutMs",
                self.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS),
                1,
                MAX_TIMEOUT_MS,
            )?,
        })
    }
}

fn in_range(option: &'static str, value: u64, min: u64, max: u64) -> Result<u64, Error> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(Error::SequenceOption {
            option,
            value,
            min,
            max,
        })
    }
}

/// Checks a sequence name: 1 to 63 ASCII letters, digits and underscores,
/// not starting with a digit. Stores use it as a key and, for PostgreSQL's
/// native sequences, as an SQL identifier, so nothing else may pass.
pub fn check_name(name: &str) -> Result<(), Error> {
    let reason = match name.as_bytes() {
        [] => "it is empty",
        b if b.len() > MAX_NAME_LEN => "it is longer than 63 characters",
        [first, ..] if first.is_ascii_digit() => "it starts with a digit",
        b if !b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_') => {
            "it has a character other than ASCII letters, digits and '_'"
        }
        _ => return Ok(()),
    };
    Err(Error::SequenceName { reason })
}

/// Consecutive IDs: `start`, `start + 1`, ..., `start + len - 1`; a block
/// the store answered with, or the run of one that
/// [`BlockSequence::take`] hands out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdRange {
    /// The first ID.
    pub start: u64,
    /// How many IDs (at least 1).
    pub len: u64,
}

/// The state of one sequence in one process. See the [module docs](self).
#[derive(Debug, Clone)]
pub struct BlockSequence {
    config: Config,
    /// The next ID of the current block and its end (exclusive).
    next: u64,
    end: u64,
    /// When `next` reaches this, the next block is asked for.
    refill_at: u64,
    /// The block fetched ahead, if any.
    spare: Option<IdRange>,
    /// The size of the block asked for and not yet answered.
    pending: Option<u64>,
    /// The end of the last block received: a later one must not start before it.
    last_end: u64,
    /// The size of the last block asked for.
    size: u64,
    /// IDs handed out so far, and their count and the time at the last request.
    handed: u64,
    last_request: Option<(u64, u64)>,
    /// Failed requests in a row, and when the next may be made.
    failures: u32,
    retry_at_ms: u64,
}

impl BlockSequence {
    /// A sequence with nothing buffered: its first [`request`](Self::request)
    /// asks for `config.block_size` IDs.
    pub fn new(config: Config) -> BlockSequence {
        BlockSequence {
            config,
            next: 0,
            end: 0,
            refill_at: 0,
            spare: None,
            pending: None,
            last_end: 0,
            size: config.block_size,
            handed: 0,
            last_request: None,
            failures: 0,
            retry_at_ms: 0,
        }
    }

    /// The config it runs with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Hands out up to `max` consecutive IDs from the buffered blocks, or
    /// [`Error::SequenceEmpty`] when none is buffered. A run ends where the
    /// next block should be asked for, so a caller that counts through
    /// the run itself calls [`request`](Self::request) at the right time.
    pub fn take(&mut self, max: u64) -> Result<IdRange, Error> {
        if self.next == self.end {
            let spare = self.spare.take().ok_or(Error::SequenceEmpty)?;
            self.start_block(spare);
        }
        let stop = if self.next < self.refill_at {
            self.refill_at
        } else {
            self.end
        };
        let len = (stop - self.next).min(max.max(1));
        let run = IdRange {
            start: self.next,
            len,
        };
        self.next += len;
        self.handed += len;
        Ok(run)
    }

    fn start_block(&mut self, block: IdRange) {
        self.next = block.start;
        self.end = block.start + block.len;
        self.refill_at = block.start + block.len / 2;
    }

    /// How many IDs are buffered (the current block's rest and the spare).
    pub fn buffered(&self) -> u64 {
        self.end - self.next + self.spare.map_or(0, |s| s.len)
    }

    /// Whether a request is out.
    pub fn is_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// The size of the block asked for last (the first block's size before any).
    pub fn block_size(&self) -> u64 {
        self.size
    }

    /// The size of the block to ask the store for now, or `None` when no
    /// request is due: one is out already, a spare block is buffered, less
    /// than half of the current block is used, or a failure's backoff has
    /// not passed. The caller must answer with [`add_block`](Self::add_block)
    /// or [`fail`](Self::fail). `now_ms` is any monotonic millisecond clock.
    pub fn request(&mut self, now_ms: u64) -> Option<u64> {
        let current_is_fresh = self.next < self.refill_at && self.next < self.end;
        if self.pending.is_some()
            || self.spare.is_some()
            || current_is_fresh
            || now_ms < self.retry_at_ms
        {
            return None;
        }
        let c = &self.config;
        if let Some((at_ms, handed)) = self.last_request {
            // The size that lasts target_block_ms at the rate since the last request.
            let elapsed = now_ms.saturating_sub(at_ms).max(1) as u128;
            let want = (self.handed - handed) as u128 * c.target_block_ms as u128 / elapsed;
            let want = want.min(u64::MAX as u128) as u64;
            let lo = (self.size / MAX_GROWTH).max(c.min_block_size);
            let hi = self.size.saturating_mul(MAX_GROWTH).min(c.max_block_size);
            self.size = want.clamp(lo, hi.max(lo));
        }
        self.last_request = Some((now_ms, self.handed));
        self.pending = Some(self.size);
        Some(self.size)
    }

    /// Takes the block the store answered a request with: `len` IDs from
    /// `start` (a store may answer with another size than asked for).
    /// Refuses a block that reaches past [`MAX_ID`] or starts before the
    /// end of the previous block; either way the request is over.
    pub fn add_block(&mut self, start: u64, len: u64) -> Result<(), Error> {
        self.pending = None;
        let end = match start.checked_add(len) {
            Some(end) if len > 0 && end - 1 <= MAX_ID => end,
            _ => return Err(Error::SequenceOverflow { start, len }),
        };
        if start < self.last_end {
            return Err(Error::SequenceBackwards {
                start,
                previous_end: self.last_end,
            });
        }
        self.last_end = end;
        self.failures = 0;
        self.retry_at_ms = 0;
        let block = IdRange { start, len };
        if self.next == self.end {
            self.start_block(block);
        } else {
            // Requests are made only without a spare, so none is lost here.
            self.spare = Some(block);
        }
        Ok(())
    }

    /// The store failed to answer a request: the next request waits a
    /// backoff (25 ms, doubling to 1 s) from `now_ms`.
    pub fn fail(&mut self, now_ms: u64) {
        self.pending = None;
        let delay = FIRST_RETRY_MS << self.failures.min(6);
        self.failures = self.failures.saturating_add(1);
        self.retry_at_ms = now_ms.saturating_add(delay.min(MAX_RETRY_MS));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;
    use std::string::ToString;
    use std::vec::Vec;

    fn fixed(size: u64) -> BlockSequence {
        let opts = Options {
            block_size: Some(size),
            ..Options::default()
        };
        BlockSequence::new(opts.config().unwrap())
    }

    #[test]
    fn defaults_and_fixed() {
        let c = Options::default().config().unwrap();
        assert_eq!(
            (c.block_size, c.min_block_size, c.max_block_size),
            (100, 10, 1_000_000)
        );
        assert_eq!(
            (c.target_block_ms, c.start, c.timeout_ms),
            (15_000, 1, 5_000)
        );
        let c = Options {
            block_size: Some(500),
            ..Options::default()
        };
        let c = c.config().unwrap();
        assert_eq!((c.min_block_size, c.max_block_size), (500, 500));
        // A min above the default first size starts there.
        let c = Options {
            min_block_size: Some(1000),
            ..Options::default()
        };
        assert_eq!(c.config().unwrap().block_size, 1000);
    }

    #[test]
    fn bad_options() {
        let err = |o: Options| o.config().unwrap_err().code();
        let o = Options::default();
        for bad in [
            Options {
                block_size: Some(0),
                ..o
            },
            Options {
                max_block_size: Some(MAX_BLOCK_SIZE + 1),
                ..o
            },
            Options {
                target_block_ms: Some(0),
                ..o
            },
            Options {
                start: Some(MAX_ID + 1),
                ..o
            },
            Options {
                timeout_ms: Some(0),
                ..o
            },
            Options {
                min_block_size: Some(100),
                max_block_size: Some(10),
                ..o
            },
            Options {
                block_size: Some(5),
                min_block_size: Some(10),
                ..o
            },
        ] {
            assert_eq!(err(bad), "ERR_SEQUENCE_OPTION", "{bad:?}");
        }
        let e = Options {
            start: Some(MAX_ID + 1),
            ..o
        };
        assert_eq!(
            e.config().unwrap_err().to_string(),
            "sequence option start = 9223372036854775808 is out of range: expected 0 to 9223372036854775807"
        );
    }

    #[test]
    fn names() {
        for ok in ["orders", "_x", "A1_b", &"n".repeat(63)] {
            assert_eq!(check_name(ok), Ok(()), "{ok}");
        }
        for bad in [
            "",
            "1st",
            "orders\"; DROP TABLE x; --",
            "a-b",
            "ä",
            "a b",
            &"n".repeat(64),
        ] {
            assert_eq!(check_name(bad).unwrap_err().code(), "ERR_SEQUENCE_NAME");
        }
    }

    #[test]
    fn double_buffering() {
        let mut s = fixed(10);
        assert_eq!(s.take(100), Err(Error::SequenceEmpty));
        assert_eq!(s.request(0), Some(10));
        assert_eq!(s.request(0), None, "one request at a time");
        s.add_block(1, 10).unwrap();
        // The first run stops where the refill is due.
        assert_eq!(s.take(100), Ok(IdRange { start: 1, len: 5 }));
        assert_eq!(s.request(1), Some(10));
        s.add_block(11, 10).unwrap();
        assert_eq!(s.request(1), None, "a spare is buffered");
        assert_eq!(s.buffered(), 15);
        assert_eq!(s.take(2), Ok(IdRange { start: 6, len: 2 }));
        assert_eq!(s.take(100), Ok(IdRange { start: 8, len: 3 }));
        assert_eq!(s.take(100), Ok(IdRange { start: 11, len: 5 }));
        assert_eq!(s.take(100), Ok(IdRange { start: 16, len: 5 }));
        assert_eq!(s.take(100), Err(Error::SequenceEmpty));
    }

    #[test]
    fn overflow_and_backwards() {
        let mut s = fixed(10);
        s.request(0);
        assert_eq!(
            s.add_block(MAX_ID - 8, 10).unwrap_err().code(),
            "ERR_SEQUENCE_OVERFLOW"
        );
        s.request(0);
        s.add_block(MAX_ID - 9, 10).unwrap();
        assert_eq!(s.take(10).unwrap().start, MAX_ID - 9);
        s.request(0);
        assert_eq!(
            s.add_block(u64::MAX, 10).unwrap_err().code(),
            "ERR_SEQUENCE_OVERFLOW"
        );
        let mut s = fixed(10);
        s.request(0);
        s.add_block(100, 10).unwrap();
        s.take(5).unwrap();
        s.request(0);
        let e = s.add_block(105, 10).unwrap_err();
        assert_eq!(e.code(), "ERR_SEQUENCE_BACKWARDS");
        assert_eq!(
            e.to_string(),
            "the sequence's store answered with a block starting at 105, before the end 110 of the previous block: its counter went back (restored or reset?), so IDs would repeat"
        );
    }

    #[test]
    fn backoff() {
        let mut s = fixed(10);
        assert_eq!(s.request(1000), Some(10));
        s.fail(1000);
        assert_eq!(s.request(1024), None);
        assert_eq!(s.request(1025), Some(10));
        s.fail(1025);
        assert_eq!(s.request(1074), None);
        assert_eq!(s.request(1075), Some(10));
        for _ in 0..20 {
            s.fail(0);
        }
        assert_eq!(s.request(999), None);
        assert_eq!(s.request(1000), Some(10));
        s.add_block(1, 10).unwrap();
        s.take(10).unwrap();
        assert_eq!(s.request(1000), Some(10), "a success resets the backoff");
    }

    /// Drains `per_ms` IDs every ms for `ms` ms, answering requests at once;
    /// returns the sizes asked for.
    fn drive(s: &mut BlockSequence, per_ms: u64, ms: u64, next_start: &mut u64) -> Vec<u64> {
        let mut sizes = Vec::new();
        for now in 0..ms {
            let mut left = per_ms;
            while left > 0 {
                if let Some(size) = s.request(now) {
                    sizes.push(size);
                    s.add_block(*next_start, size).unwrap();
                    *next_start += size;
                }
                left -= s.take(left).unwrap().len;
            }
        }
        sizes
    }

    #[test]
    fn adaptive_sizes_follow_the_rate() {
        let opts = Options {
            min_block_size: Some(10),
            max_block_size: Some(100_000),
            target_block_ms: Some(100),
            ..Options::default()
        };
        let mut counter = 1;
        let mut slow = BlockSequence::new(opts.config().unwrap());
        let mut fast = slow.clone();
        let slow_sizes = drive(&mut slow, 10, 2000, &mut counter);
        let fast_sizes = drive(&mut fast, 180, 2000, &mut counter);
        // A block lasts about 100 ms: 1000 IDs at 10/ms, 18000 at 180/ms.
        let last = |v: &[u64]| *v.last().unwrap();
        assert!((900..=1100).contains(&last(&slow_sizes)), "{slow_sizes:?}");
        assert!(
            (16_200..=19_800).contains(&last(&fast_sizes)),
            "{fast_sizes:?}"
        );
        // Growth is bounded: at most 4x per step.
        assert!(fast_sizes.windows(2).all(|w| w[1] <= w[0] * 4));
        // Round trips: about one per 100 ms each, not one per fixed-size block.
        assert!(fast_sizes.len() < 40, "{}", fast_sizes.len());
    }

    proptest! {
        /// Whatever the order of takes, requests, answers and failures, the
        /// IDs handed out strictly increase, never repeat, stay within the
        /// blocks received and never pass MAX_ID.
        #[test]
        fn ids_increase_within_blocks(
            min in 1u64..50, span in 0u64..500, target in 1u64..1000,
            start in prop_oneof![0u64..10, (MAX_ID - 5000)..=MAX_ID],
            steps in proptest::collection::vec((0u8..4, 1u64..300, 0u64..50), 1..200),
        ) {
            let opts = Options {
                min_block_size: Some(min),
                max_block_size: Some(min + span),
                target_block_ms: Some(target),
                ..Options::default()
            };
            let mut s = BlockSequence::new(opts.config().unwrap());
            let (mut now, mut counter) = (0u64, start);
            let mut blocks = Vec::new();
            let mut seen = BTreeSet::new();
            let mut last = None;
            let mut asked = None;
            for (op, n, dt) in steps {
                now += dt;
                match op {
                    0 => if let Some(size) = s.request(now) {
                        prop_assert!((min..=min + span).contains(&size));
                        prop_assert!(asked.is_none());
                        asked = Some(size);
                    },
                    1 => if let Some(size) = asked.take() {
                        match s.add_block(counter, size) {
                            Ok(()) => blocks.push((counter, counter + size)),
                            Err(e) => {
                                prop_assert_eq!(e.code(), "ERR_SEQUENCE_OVERFLOW");
                                prop_assert!(counter.checked_add(size).is_none_or(|end| end - 1 > MAX_ID));
                            }
                        }
                        counter = counter.saturating_add(size);
                    },
                    2 => if asked.take().is_some() {
                        s.fail(now);
                    },
                    _ => match s.take(n) {
                        Ok(run) => {
                            prop_assert!(run.len >= 1 && run.len <= n);
                            for id in run.start..run.start + run.len {
                                prop_assert!(id <= MAX_ID);
                                prop_assert!(last.is_none_or(|l| id > l));
                                prop_assert!(blocks.iter().any(|&(a, b)| a <= id && id < b));
                                prop_assert!(seen.insert(id));
                                last = Some(id);
                            }
                        }
                        Err(e) => {
                            prop_assert_eq!(e, Error::SequenceEmpty);
                            prop_assert_eq!(s.buffered(), 0);
                        }
                    },
                }
            }
        }
    }
}
