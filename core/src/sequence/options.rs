//! What a user asks of a sequence: the options, checked into a [`Config`]
//! with every default filled in, and the sequence's name.

use super::{
    DEFAULT_BLOCK_SIZE, DEFAULT_MAX_BLOCK_SIZE, DEFAULT_MIN_BLOCK_SIZE, DEFAULT_START,
    DEFAULT_TARGET_BLOCK_MS, DEFAULT_TIMEOUT_MS, MAX_BLOCK_SIZE, MAX_ID, MAX_NAME_LEN,
    MAX_TARGET_BLOCK_MS, MAX_TIMEOUT_MS,
};
use crate::Error;

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
