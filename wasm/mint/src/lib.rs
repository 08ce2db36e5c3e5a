//! The browser's minting modules: batches of ULID, UUIDv7, v4, v1, v6,
//! KSUID or ObjectId texts and one such ID for a given time (`texts`), and
//! Snowflake generators with test clocks (`snowflake`), and name-based
//! UUIDs (`names`), from the core. Built
//! once per kind (a cargo feature each, see Cargo.toml), so a page that
//! imports only `ulid()` downloads the ULID module, and one that imports
//! only `nextId()` the Snowflake module: not the other kinds, the parser,
//! the decoder or the message texts of the full module (`wasm/`). Built
//! for bytes:
//!
//! - no wasm-bindgen: numeric exports over buffers, read by
//!   `npm/src/web/mint.js` and `npm/src/web/snowflake.js`, and three
//!   imports (`performance.now()`, `Date.now()`, `crypto.getRandomValues`);
//! - no `core::fmt` and no message strings: an error crosses as the core's
//!   [`Error::numbered`] index and numbers, which the JavaScript words from
//!   templates written from the core's own `Display`;
//! - a panic traps (`unreachable`); nothing here can panic on JS input.
//!
//! The clock is the core's [`FollowingClock`] over `performance.now()` and
//! `Date.now()`, as the full module's `MonotonicClock`: a wall-clock change
//! under the page never reaches the IDs. A wasm instance has one thread,
//! so the state is plain cells behind a `Sync` wrapper.
#![cfg_attr(all(target_family = "wasm", target_os = "unknown"), no_std)]
// Only for this target: elsewhere (the workspace's host builds) it is empty.
#![cfg(all(target_family = "wasm", target_os = "unknown"))]

#[cfg(feature = "snowflake")]
extern crate alloc;

#[cfg(any(feature = "texts", feature = "snowflake"))]
mod clock;
#[cfg(feature = "kinds")]
mod kinds;
#[cfg(feature = "names")]
mod names;
#[cfg(feature = "snowflake")]
mod snowflake;
#[cfg(feature = "texts")]
mod texts;
#[cfg(feature = "typeid")]
mod typeid;

use core::cell::{Cell, RefCell};

use snowmint::Error;
use snowmint::binding::MAX_TEXT_RUN;
use snowmint::texts::TextKind;

// SAFETY: wasm32-unknown-unknown without the atomics feature has one
// thread. (The Snowflake module keeps its generators and test clocks in a
// table that grows.)
#[cfg(feature = "snowflake")]
#[global_allocator]
static ALLOCATOR: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

#[cfg(feature = "texts")]
#[link(wasm_import_module = "m")]
unsafe extern "C" {
    /// `crypto.getRandomValues` over `len` bytes of this module's memory at `ptr`.
    #[link_name = "r"]
    fn get_random(ptr: *mut u8, len: usize);
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

/// State of a single-threaded instance.
struct One<T>(T);
// SAFETY: wasm32-unknown-unknown without the atomics feature has one thread.
unsafe impl<T> Sync for One<T> {}

/// The largest batch: `MAX_TEXT_RUN` of the widest texts (mint.js OUT_BYTES).
const OUT_BYTES: usize = MAX_TEXT_RUN as usize * widest();

const fn widest() -> usize {
    let (mut widest, mut i) = (0, 0);
    while i < TextKind::ALL.len() {
        if TextKind::ALL[i].width() > widest {
            widest = TextKind::ALL[i].width();
        }
        i += 1;
    }
    widest
}

/// The texts a call wrote (or a layout's names, or a text to parse), and
/// the numbers it reports: an error's index and numbers (core `Error::numbered`).
static OUT: One<RefCell<[u8; OUT_BYTES]>> = One(RefCell::new([0; OUT_BYTES]));
static NUMBERS: One<Cell<[f64; 3]>> = One(Cell::new([0.0; 3]));

/// Where the texts are: `OUT_BYTES` bytes of ASCII.
#[unsafe(no_mangle)]
pub extern "C" fn out() -> *const u8 {
    OUT.0.as_ptr().cast()
}

/// Where an error's numbers are: its index, then two numbers.
#[unsafe(no_mangle)]
pub extern "C" fn numbers() -> *const f64 {
    NUMBERS.0.as_ptr().cast()
}

/// `-1` after an error: its numbers are at [`numbers`].
fn failed(e: Error) -> f64 {
    #[cfg(feature = "snowflake")]
    if let Some(failed) = snowflake::unknown_name(&e) {
        return failed;
    }
    // Every error a call here can return is numbered; the other texts' are
    // all numbers (and linking the rest would cost each text module 1.6 KB).
    #[cfg(any(feature = "snowflake", feature = "typeid"))]
    let numbered = e.numbered();
    #[cfg(not(any(feature = "snowflake", feature = "typeid")))]
    let numbered = e.all_numbers();
    // The name-based module's: a namespace's (and no other).
    #[cfg(feature = "names")]
    let numbered = numbered.or_else(|| e.numbered_uuid());
    match numbered {
        Some((index, [a, b])) => NUMBERS.0.set([index as f64, a as f64, b as f64]),
        None => return internal(),
    }
    -1.0
}

/// `-1` with the index -1: a call this module cannot answer (a kind it
/// does not mint, a handle it never gave), which the JavaScript never makes.
fn internal() -> f64 {
    NUMBERS.0.set([-1.0, 0.0, 0.0]);
    -1.0
}
