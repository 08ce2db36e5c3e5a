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
//!
//! The options and the name check are in `options`, the tests in `tests`.

use crate::Error;

mod options;
#[cfg(test)]
mod tests;

pub use options::{Config, Options, check_name};

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
