//! Layouts of Snowflake specs: `layoutOf`, and the spec's numbers for
//! `snowflakeAt` (`at.rs`). The generators and test clocks are the
//! Snowflake module's (`wasm/mint/`), which `npm/src/wasm-backend.js`
//! puts beside this one where they are needed.

use js_sys::Object;
use snowmint::binding::{SpecSlot, spec_of_numbers};
use snowmint::snowflake::{Layout, Spec};
use wasm_bindgen::prelude::*;

use crate::{core_error, js_error, set};

/// The core's `Spec` of a spec's numbers (`snowmint::binding::SpecSlot`,
/// filled by `specArgs` in wasm-backend.js).
pub(crate) fn spec_of(args: &[f64]) -> Result<Spec, JsValue> {
    let numbers: &[f64; SpecSlot::LEN] = args
        .try_into()
        .map_err(|_| js_error("ERR_INTERNAL", "a Snowflake spec has 17 numbers"))?;
    spec_of_numbers(numbers).map_err(core_error)
}

/// `layoutOf(spec)`: validates and describes a layout.
#[wasm_bindgen(js_name = layoutOf, unchecked_return_type = "LayoutInfo")]
pub fn layout_of(spec: &[f64]) -> Result<Object, JsValue> {
    let layout = spec_of(spec)?.layout().map_err(core_error)?;
    Ok(layout_info(&layout))
}

fn layout_info(l: &Layout) -> Object {
    let info = Object::new();
    set(&info, "timeBits", l.time_bits());
    set(&info, "workerBits", l.worker_bits());
    set(&info, "sequenceBits", l.sequence_bits());
    set(&info, "unitMs", l.unit_ms());
    set(&info, "epoch", l.epoch_ms() as f64);
    set(&info, "order", l.order().name());
    let split = l.split().map_or(JsValue::NULL, |s| {
        let split = Object::new();
        set(&split, "high", s.high);
        set(&split, "low", s.low);
        set(&split, "lowBits", s.low_bits);
        split.into()
    });
    set(&info, "split", split);
    info
}
