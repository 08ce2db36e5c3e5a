//! TypeIDs: a prefix and a UUIDv7, the next of the module's monotonic
//! generator or one for a given time.

use snowmint::at::{Pick, TimedKind};
use snowmint::clock::Clock;
use snowmint::typeid::{TypeId, check_prefix};

use crate::clock::CLOCK;
use crate::texts::{GENERATORS, PageRng};
use crate::{OUT, failed, internal};

/// A TypeID of the `len` bytes of prefix in [`OUT`] and, at Unix ms `ms`,
/// a UUIDv7 with fresh random bits (not part of the monotonic stream), or
/// (`ms` NaN) the next UUIDv7 of the module's monotonic generator, written
/// to [`OUT`]: its length, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn typeid(len: f64, ms: f64) -> f64 {
    let mut out = OUT.0.borrow_mut();
    let Some(prefix) = out.get(..len as usize) else {
        return internal();
    };
    // Checked first, so that a refused prefix takes no UUID of the stream.
    if let Err(e) = check_prefix(prefix) {
        return failed(e.into());
    }
    // All ASCII now (a-z and '_'), so its bytes are its text.
    let prefix = core::str::from_utf8(prefix).unwrap_or_default();
    let text = if ms.is_nan() {
        let v7 = GENERATORS
            .0
            .borrow_mut()
            .v7
            .generate(CLOCK.now_ms(), &mut PageRng);
        v7.and_then(|uuid| Ok(TypeId::new(prefix, uuid)?.to_text()))
    } else {
        TimedKind::TypeId.text_at(
            ms as u64,
            Pick::Any,
            u128::from_le_bytes(PageRng::bytes()),
            prefix,
        )
    };
    match text {
        Ok(text) => {
            let text = text.as_bytes();
            out[..text.len()].copy_from_slice(text);
            text.len() as f64
        }
        Err(e) => failed(e),
    }
}
