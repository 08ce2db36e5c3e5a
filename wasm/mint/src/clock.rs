//! The page's clocks, for the modules that read the time (the texts'
//! and the Snowflakes'; the name-based module reads none).

use snowmint::clock::{Clock, FollowingClock};

#[link(wasm_import_module = "m")]
unsafe extern "C" {
    /// `performance.now()`: ms since the page or worker started.
    #[link_name = "m"]
    pub(crate) fn perf_now() -> f64;
    /// `Date.now()`.
    #[link_name = "w"]
    fn date_now() -> f64;
}

pub(crate) struct Mono;
impl Clock for Mono {
    fn now_ms(&self) -> u64 {
        // SAFETY: an import of plain numbers.
        unsafe { perf_now() as u64 }
    }
}

pub(crate) struct Wall;
impl Clock for Wall {
    fn now_ms(&self) -> u64 {
        // Before 1970 reads as 0 (`as` saturates), as on other targets.
        // SAFETY: an import of plain numbers.
        unsafe { date_now() as u64 }
    }
}

pub(crate) static CLOCK: FollowingClock<Mono, Wall> = FollowingClock::new(Mono, Wall);
