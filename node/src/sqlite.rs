//! The SQLite extension's entry points in the addon itself: a Node process
//! that loads the addon's own file into SQLite (`require('snowmint/sqlite')
//! .extensionPath`) gets the same copy of this library, so
//! `snowmint_next_id()` mints from the process-wide default generator, the
//! one `nextId()` mints from (snowflake.rs), and `snowmint_configure()`
//! replaces it as `configure()` does. The functions are the crate
//! snowmint-sqlite's; this file only hands them that generator.

use std::ffi::{c_char, c_int};
use std::sync::atomic::Ordering;

use snowmint::clock::ClockChoice;
use snowmint::snowflake::{Layout, OnBackwards, OnExhausted, Preset, Spec};
use snowmint_sqlite::{Failure, Snowflakes, ffi};

use crate::snowflake::{DEFAULT, GENERATION};

struct ProcessDefault;

fn not_configured() -> Failure {
    Failure::new(
        "ERR_NO_WORKER_ID",
        "the process-wide generator is not set up yet: call nextId() or configure() in JavaScript first (they lease or take a worker ID), or snowmint_configure(worker_id, preset) in SQL",
    )
}

impl Snowflakes for ProcessDefault {
    fn next_id(&self) -> Result<u64, Failure> {
        match DEFAULT.read().unwrap_or_else(|e| e.into_inner()).as_ref() {
            Some(g) => Ok(g.next()?),
            None => Err(not_configured()),
        }
    }

    /// As `configure({ workerId, preset })` (default_configure): the new
    /// generator mints after the last tick of the one it replaces, and the
    /// JS threads see the new generation.
    fn configure(&self, worker_id: u64, preset: Preset) -> Result<(), Failure> {
        let spec = Spec {
            worker_id,
            worker_parts: None,
            preset,
            custom: None,
            epoch_ms: None,
            on_backwards: OnBackwards::default(),
            on_exhausted: OnExhausted::default(),
            resume_after_ms: None,
        };
        let mut default = DEFAULT.write().unwrap_or_else(|e| e.into_inner());
        *default = Some(spec.build_after(ClockChoice::Monotonic, default.as_ref())?);
        GENERATION.fetch_add(1, Ordering::Release);
        Ok(())
    }

    fn current(&self) -> Option<(Layout, u64)> {
        let default = DEFAULT.read().unwrap_or_else(|e| e.into_inner());
        default.as_ref().map(|g| (*g.layout(), g.worker_id()))
    }
}

/// The entry point SQLite derives from the addon's file name (`snowmint.<platform>.node`).
///
/// # Safety
/// Called by SQLite's extension loader.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sqlite3_snowmint_init(
    db: *mut ffi::sqlite3,
    pz_err_msg: *mut *mut c_char,
    p_api: *mut ffi::sqlite3_api_routines,
) -> c_int {
    // SAFETY: the loader's arguments.
    unsafe { snowmint_sqlite::init(db, pz_err_msg, p_api, &ProcessDefault) }
}

/// The entry point SQLite tries for any file name (a copy or link of the addon).
///
/// # Safety
/// Called by SQLite's extension loader.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sqlite3_extension_init(
    db: *mut ffi::sqlite3,
    pz_err_msg: *mut *mut c_char,
    p_api: *mut ffi::sqlite3_api_routines,
) -> c_int {
    // SAFETY: the loader's arguments.
    unsafe { snowmint_sqlite::init(db, pz_err_msg, p_api, &ProcessDefault) }
}
