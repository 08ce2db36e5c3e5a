//! Run expiry words for JavaScript: api/sources.js checks a buffered run's
//! freshness with one load of an `Int32Array` instead of a clock read per
//! ID. The words, their timer and signal are the core's
//! ([`snowmint::expiry`], Linux); this module makes the thread's words an
//! `Int32Array` (`expiryWords()`), hands out slots, and tears the thread's
//! words down with its env (a worker_thread's end).
//!
//! Whatever fails leaves a run without a word: `expiryWords()` returns null,
//! `expirySlot()` 0 (slot 0 is never set), or a claim reports timing[4] = 0,
//! and api/sources.js reads the clock as before. Other platforms have no
//! words at all.

#[cfg(target_os = "linux")]
mod imp {
    use std::cell::RefCell;
    use std::ffi::c_void;
    use std::ptr;

    use napi::sys;
    use snowmint::expiry;

    /// What the JS thread holds of its words.
    struct Local {
        /// The thread's Int32Array, referenced so it is made once (V8 refuses
        /// two buffers over the same memory); null where it could not be made.
        array: sys::napi_ref,
        /// Set once the thread's words or its array failed (no retry per call).
        failed: bool,
    }

    thread_local! {
        static LOCAL: RefCell<Option<Local>> = const { RefCell::new(None) };
    }

    /// Torn down with the env (a worker_thread's end): the core deletes the
    /// timer before the memory the handler reads is freed, when no
    /// JavaScript of this env can run any more.
    unsafe extern "C" fn cleanup(_: *mut c_void) {
        LOCAL.with(|l| l.borrow_mut().take());
        expiry::teardown_thread();
    }

    /// The words are freed by the core (after `cleanup`), not by V8.
    unsafe extern "C" fn no_finalize(_: sys::napi_env, _: *mut c_void, _: *mut c_void) {}

    /// This thread's Int32Array of words, made on first call; null where the
    /// thread has none.
    pub fn words(env: sys::napi_env) -> sys::napi_value {
        let mut out = ptr::null_mut();
        LOCAL.with(|l| {
            let mut l = l.borrow_mut();
            let local = l.get_or_insert_with(|| {
                let hooked = || {
                    // SAFETY: registered once per env (this Local lives until `cleanup`).
                    let status = unsafe {
                        sys::napi_add_env_cleanup_hook(env, Some(cleanup), ptr::null_mut())
                    };
                    status == sys::Status::napi_ok || {
                        expiry::teardown_thread();
                        false
                    }
                };
                // The words, with the signal unblocked on this thread.
                let failed = expiry::thread_words().is_none() || !hooked();
                Local {
                    array: ptr::null_mut(),
                    failed,
                }
            });
            if local.failed {
                return;
            }
            // SAFETY: napi calls on this thread's env; the words live until
            // `cleanup` (the env's end).
            unsafe {
                if !local.array.is_null() {
                    sys::napi_get_reference_value(env, local.array, &mut out);
                    return;
                }
                let Some(data) = expiry::thread_words() else {
                    local.failed = true;
                    return;
                };
                let mut buffer = ptr::null_mut();
                let mut array = ptr::null_mut();
                let made = sys::napi_create_external_arraybuffer(
                    env,
                    data.as_ptr().cast(),
                    expiry::SLOTS * 4,
                    Some(no_finalize),
                    ptr::null_mut(),
                    &mut buffer,
                ) == sys::Status::napi_ok
                    && sys::napi_create_typedarray(
                        env,
                        sys::TypedarrayType::int32_array,
                        expiry::SLOTS,
                        buffer,
                        0,
                        &mut array,
                    ) == sys::Status::napi_ok
                    && sys::napi_create_reference(env, array, 1, &mut local.array)
                        == sys::Status::napi_ok;
                if made {
                    out = array;
                } else {
                    // (No external buffers here, e.g. under a V8 sandbox.)
                    local.failed = true;
                    out = ptr::null_mut();
                }
            }
        });
        out
    }

    /// A free slot of this thread (1..SLOTS), or 0 where there is none or
    /// the thread has no Int32Array of words.
    pub fn take_slot() -> u32 {
        let ready = LOCAL.with(|l| l.borrow().as_ref().is_some_and(|l| !l.failed));
        if ready { expiry::take_slot() } else { 0 }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    //! No expiry words: api/sources.js reads the clock.
    pub fn words(_env: napi::sys::napi_env) -> napi::sys::napi_value {
        std::ptr::null_mut()
    }
    pub fn take_slot() -> u32 {
        0
    }
}

pub use snowmint::expiry::{begin, set};

use napi::Env;
use napi::bindgen_prelude::Unknown;
use napi_derive::napi;

/// This thread's expiry words (an Int32Array), or null where runs have none.
#[napi(catch_unwind, ts_return_type = "Int32Array | null")]
pub fn expiry_words(env: &Env) -> Option<Unknown<'_>> {
    let value = imp::words(env.raw());
    // SAFETY: a value just made (or referenced) in this env.
    (!value.is_null()).then(|| unsafe { Unknown::from_raw_unchecked(env.raw(), value) })
}

/// A slot of this thread's words for one source (0: none left, or no words).
#[napi(catch_unwind)]
pub fn expiry_slot() -> u32 {
    imp::take_slot()
}

/// Gives a source's slot back.
#[napi(catch_unwind)]
pub fn expiry_free(slot: u32) {
    snowmint::expiry::free_slot(slot)
}

/// Test-only: `[signal, ns until the armed deadline]` (0 and -1 when none).
#[napi(catch_unwind)]
pub fn expiry_debug() -> Vec<f64> {
    let (sig, dist) = snowmint::expiry::debug();
    vec![sig.into(), dist]
}
