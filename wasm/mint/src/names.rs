//! Name-based UUIDs, v3 (MD5) and v5 (SHA-1): a namespace given as text or
//! as 16 bytes, then a name hashed part by part through [`OUT`], which is
//! smaller than a name may be. The namespace's errors cross numbered
//! (`Error::numbered_uuid`); a name is any bytes.

use core::cell::RefCell;

use snowmint::Error;
use snowmint::name_based::NameHasher;
use snowmint::uuid::Uuid;

use crate::{OUT, One, failed, internal};

/// The UUID being hashed, between [`name_begin`] and [`name_end`].
static HASHER: One<RefCell<Option<NameHasher>>> = One(RefCell::new(None));

/// Begins a UUID of `version` (3 or 5) in the namespace of the `len` bytes
/// in [`OUT`]: its text (UTF-8) for `bytes` 0, its 16 bytes for 1. 0, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn name_begin(version: f64, len: f64, bytes: f64) -> f64 {
    let namespace = {
        let out = OUT.0.borrow();
        let Some(given) = out.get(..len as usize) else {
            return internal();
        };
        if bytes == 1.0 {
            Uuid::from_slice(given)
        } else {
            // UTF-8 from JS's TextEncoder.
            match core::str::from_utf8(given) {
                Ok(text) => Uuid::parse(text).map_err(Error::from),
                Err(_) => return internal(),
            }
        }
    };
    match namespace {
        Ok(ns) => {
            let hasher = match version as u8 {
                3 => NameHasher::v3(ns),
                5 => NameHasher::v5(ns),
                _ => return internal(),
            };
            *HASHER.0.borrow_mut() = Some(hasher);
            0.0
        }
        Err(e) => failed(e),
    }
}

/// Hashes the next `len` bytes of the name, from [`OUT`]. 0, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn name_part(len: f64) -> f64 {
    let out = OUT.0.borrow();
    match (HASHER.0.borrow_mut().as_mut(), out.get(..len as usize)) {
        (Some(hasher), Some(part)) => {
            hasher.update(part);
            0.0
        }
        _ => internal(),
    }
}

/// The UUID begun, as text in [`OUT`]: its length, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn name_end() -> f64 {
    let Some(hasher) = HASHER.0.borrow_mut().take() else {
        return internal();
    };
    let text = hasher.finish().to_text();
    let text = text.as_bytes();
    OUT.0.borrow_mut()[..text.len()].copy_from_slice(text);
    text.len() as f64
}
