//! snowmint/sequence: the core's block-sequence state machine
//! (`snowmint::sequence::BlockSequence`) for `npm/src/sequence/`, which does
//! the I/O. Conversion only; interface `SequenceHandle` in npm/src/backend.d.ts.

use napi::bindgen_prelude::{BigInt, BigUint64ArraySlice, Float64ArraySlice};
use napi_derive::napi;
use snowmint::sequence::{BlockSequence, Options, check_name};

use crate::{Result, core_err};

/// A JS bigint as a u64; a negative or wider one becomes `u64::MAX`, which
/// every core check refuses as out of range.
fn u64_of(v: &BigInt) -> u64 {
    match v.get_u64() {
        (false, n, true) => n,
        _ => u64::MAX,
    }
}

/// A JS number the caller checked to be a whole number >= 0 (NaN: absent).
fn opt(v: f64) -> Option<u64> {
    (!v.is_nan()).then_some(v as u64)
}

#[napi]
pub struct SequenceHandle {
    inner: BlockSequence,
}

/// A sequence's state: `sizes` is [blockSize, minBlockSize, maxBlockSize,
/// targetBlockMs, timeoutMs] with NaN for an absent option.
#[napi(catch_unwind)]
pub fn sequence_new(
    name: String,
    sizes: Float64ArraySlice<'_>,
    start: Option<BigInt>,
) -> Result<SequenceHandle> {
    check_name(&name).map_err(core_err)?;
    let s = |i: usize| sizes.get(i).copied().and_then(opt);
    let options = Options {
        block_size: s(0),
        min_block_size: s(1),
        max_block_size: s(2),
        target_block_ms: s(3),
        start: start.as_ref().map(u64_of),
        timeout_ms: s(4),
    };
    let config = options.config().map_err(core_err)?;
    Ok(SequenceHandle {
        inner: BlockSequence::new(config),
    })
}

/// Checks a name (of a sequence or a table) as the core does.
#[napi(catch_unwind)]
pub fn sequence_check_name(name: String) -> Result<()> {
    check_name(&name).map_err(core_err)
}

#[napi]
impl SequenceHandle {
    /// Writes [start, len] of up to `max` buffered IDs into `out`.
    #[napi(catch_unwind)]
    pub fn take(&mut self, mut out: BigUint64ArraySlice<'_>, max: f64) -> Result<()> {
        let ids = self.inner.take(max as u64).map_err(core_err)?;
        // SAFETY: the JS thread is blocked in this call; sequence.js does not share the array.
        let out = unsafe { out.as_mut() };
        out.iter_mut()
            .zip([ids.start, ids.len])
            .for_each(|(o, v)| *o = v);
        Ok(())
    }

    /// The size of the block to ask for now, or 0 for none.
    #[napi(catch_unwind)]
    pub fn request(&mut self, now_ms: f64) -> f64 {
        self.inner.request(now_ms as u64).unwrap_or(0) as f64
    }

    #[napi(catch_unwind)]
    pub fn add_block(&mut self, start: BigInt, len: f64) -> Result<()> {
        self.inner
            .add_block(u64_of(&start), len as u64)
            .map_err(core_err)
    }

    #[napi(catch_unwind)]
    pub fn fail(&mut self, now_ms: f64) {
        self.inner.fail(now_ms as u64)
    }

    #[napi(catch_unwind)]
    pub fn buffered(&self) -> f64 {
        self.inner.buffered() as f64
    }

    #[napi(catch_unwind)]
    pub fn block_size(&self) -> f64 {
        self.inner.block_size() as f64
    }

    /// [blockSize, minBlockSize, maxBlockSize, targetBlockMs, timeoutMs] as configured.
    #[napi(catch_unwind)]
    pub fn sizes(&self, mut out: Float64ArraySlice<'_>) {
        let c = self.inner.config();
        // SAFETY: as in `take`.
        let out = unsafe { out.as_mut() };
        let values = [
            c.block_size,
            c.min_block_size,
            c.max_block_size,
            c.target_block_ms,
            c.timeout_ms,
        ];
        out.iter_mut().zip(values).for_each(|(o, v)| *o = v as f64);
    }

    #[napi(catch_unwind)]
    pub fn start(&self) -> BigInt {
        BigInt::from(self.inner.config().start)
    }
}
