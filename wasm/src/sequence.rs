//! snowmint/sequence: the core's block-sequence state machine
//! (`snowmint::sequence::BlockSequence`), the same interface as
//! node/src/sequence.rs (`SequenceHandle` in npm/src/backend.d.ts).

use js_sys::{BigUint64Array, Float64Array};
use snowmint::sequence::{BlockSequence, Options, check_name};
use wasm_bindgen::prelude::*;

use crate::core_error;

/// A JS number the caller checked to be a whole number >= 0 (NaN: absent).
fn opt(v: f64) -> Option<u64> {
    (!v.is_nan()).then_some(v as u64)
}

#[wasm_bindgen]
pub struct SequenceHandle {
    inner: BlockSequence,
}

/// A sequence's state: `sizes` is [blockSize, minBlockSize, maxBlockSize,
/// targetBlockMs] with NaN for an absent option.
#[wasm_bindgen(js_name = sequenceNew)]
pub fn sequence_new(
    name: &str,
    sizes: &[f64],
    start: Option<u64>,
) -> Result<SequenceHandle, JsValue> {
    check_name(name).map_err(core_error)?;
    let s = |i: usize| sizes.get(i).copied().and_then(opt);
    let options = Options {
        block_size: s(0),
        min_block_size: s(1),
        max_block_size: s(2),
        target_block_ms: s(3),
        start,
    };
    let config = options.config().map_err(core_error)?;
    Ok(SequenceHandle {
        inner: BlockSequence::new(config),
    })
}

/// Checks a name (of a sequence or a table) as the core does.
#[wasm_bindgen(js_name = sequenceCheckName)]
pub fn sequence_check_name(name: &str) -> Result<(), JsValue> {
    check_name(name).map_err(core_error)
}

#[wasm_bindgen]
impl SequenceHandle {
    /// Writes [start, len] of up to `max` buffered IDs into `out`.
    pub fn take(&mut self, out: &BigUint64Array, max: f64) -> Result<(), JsValue> {
        let run = self.inner.take(max as u64).map_err(core_error)?;
        out.set_index(0, run.start);
        out.set_index(1, run.len);
        Ok(())
    }

    /// The size of the block to ask for now, or 0 for none.
    pub fn request(&mut self, now_ms: f64) -> f64 {
        self.inner.request(now_ms as u64).unwrap_or(0) as f64
    }

    #[wasm_bindgen(js_name = addBlock)]
    pub fn add_block(&mut self, start: u64, len: f64) -> Result<(), JsValue> {
        self.inner.add_block(start, len as u64).map_err(core_error)
    }

    pub fn fail(&mut self, now_ms: f64) {
        self.inner.fail(now_ms as u64)
    }

    pub fn buffered(&self) -> f64 {
        self.inner.buffered() as f64
    }

    #[wasm_bindgen(js_name = blockSize)]
    pub fn block_size(&self) -> f64 {
        self.inner.block_size() as f64
    }

    /// [blockSize, minBlockSize, maxBlockSize, targetBlockMs] as configured.
    pub fn sizes(&self, out: &Float64Array) {
        let c = self.inner.config();
        let values = [
            c.block_size,
            c.min_block_size,
            c.max_block_size,
            c.target_block_ms,
        ];
        for (i, v) in values.into_iter().enumerate() {
            out.set_index(i as u32, v as f64);
        }
    }

    pub fn start(&self) -> u64 {
        self.inner.config().start
    }
}
