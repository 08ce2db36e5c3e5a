//! No expiry words: callers read the clock.

use core::ptr::NonNull;
use core::sync::atomic::AtomicI32;

/// No words here.
pub fn thread_words() -> Option<NonNull<AtomicI32>> {
    None
}
/// No slots here: 0.
pub fn take_slot() -> u32 {
    0
}
/// Nothing to give back.
pub fn free_slot(_slot: u32) {}
/// A claim that never sets a word.
pub struct Claim;
/// No word: None.
pub fn begin(_slot: u32) -> Option<Claim> {
    None
}
/// No word: false.
pub fn set(_claim: Claim, _ms: f64) -> bool {
    false
}
/// Nothing to tear down.
pub fn teardown_thread() {}
/// No signal (0), no timer (-1).
pub fn debug() -> (i32, f64) {
    (0, -1.0)
}
