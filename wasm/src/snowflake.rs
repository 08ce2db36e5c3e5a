//! Layouts of Snowflake specs: `layout_of`, and the spec's numbers for
//! `snowflake_at` (`at.rs`). The generators and test clocks are the
//! Snowflake module's (`wasm/mint/`), which `npm/src/wasm-backend.js`
//! puts beside this one where they are needed.

use core::cell::Cell;

use snowmint::binding::{LayoutSlot, SpecSlot, spec_of_numbers};
use snowmint::snowflake::Spec;

use crate::{Failed, One, done, set_numbers, write};

/// A spec's numbers (`snowmint::binding::SpecSlot`, filled by `specArgs`
/// in spec.js).
static SPEC: One<Cell<[f64; SpecSlot::LEN]>> = One(Cell::new([0.0; SpecSlot::LEN]));

/// Where JS writes a spec's numbers.
#[unsafe(no_mangle)]
pub extern "C" fn spec_slots() -> *mut f64 {
    SPEC.0.as_ptr().cast()
}

/// The core's `Spec` of the numbers at [`spec_slots`].
pub(crate) fn spec() -> Result<Spec, Failed> {
    Ok(spec_of_numbers(&SPEC.0.get())?)
}

/// Validates and describes the layout of the spec at [`spec_slots`], as
/// the Snowflake module does (`LayoutSlot`, the split's names in `out`):
/// 0, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn layout_of() -> f64 {
    done((|| {
        let (info, names) = LayoutSlot::of(&spec()?.layout()?);
        write(names.map(str::as_bytes));
        set_numbers(info);
        Ok(0.0)
    })())
}
