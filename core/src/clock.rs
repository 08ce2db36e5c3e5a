//! Time comes in through the [`Clock`] trait, so generators work without an
//! OS and tests can inject any fault. With `std`, [`MonotonicClock`] is the
//! default: a monotonic clock that follows the wall clock forward and never
//! back ([`FollowingClock`] states the rule), so a running generator never
//! sees a step back and its IDs do not fall behind true time for good when
//! the wall clock is corrected forward (NTP after boot, a machine waking up).

/// A source of Unix time in milliseconds.
pub trait Clock {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    fn now_ms(&self) -> u64;

    /// Called while a generator waits for the clock to move on.
    /// The default spins; OS clocks yield the thread.
    #[inline]
    fn relax(&self) {
        core::hint::spin_loop();
    }

    /// Whether the clock can move on while the calling thread waits. A
    /// clock that only its caller moves (a binding's test clock) answers
    /// false: a generator then fails with [`ClockWouldWait`] instead of
    /// spinning forever.
    ///
    /// [`ClockWouldWait`]: crate::Error::ClockWouldWait
    #[inline]
    fn can_wait(&self) -> bool {
        true
    }
}

impl<C: Clock + ?Sized> Clock for &C {
    #[inline]
    fn now_ms(&self) -> u64 {
        (**self).now_ms()
    }
    #[inline]
    fn relax(&self) {
        (**self).relax()
    }
    #[inline]
    fn can_wait(&self) -> bool {
        (**self).can_wait()
    }
}

/// A clock that reads whatever it was last set to: for tests, simulations
/// and callers that own their notion of time. Shareable between threads.
#[cfg(target_has_atomic = "64")]
#[derive(Debug, Default)]
pub struct ManualClock {
    ms: core::sync::atomic::AtomicU64,
}

#[cfg(target_has_atomic = "64")]
impl ManualClock {
    /// A clock that reads `ms`.
    pub const fn new(ms: u64) -> Self {
        ManualClock {
            ms: core::sync::atomic::AtomicU64::new(ms),
        }
    }

    /// Makes the clock read `ms` (backwards too).
    pub fn set(&self, ms: u64) {
        self.ms.store(ms, core::sync::atomic::Ordering::SeqCst);
    }

    /// Moves the clock forward by `ms`.
    pub fn advance(&self, ms: u64) {
        self.ms.fetch_add(ms, core::sync::atomic::Ordering::SeqCst);
    }

    /// Moves the clock backward by `ms` (saturating at 0).
    pub fn step_back(&self, ms: u64) {
        let _ = self.ms.fetch_update(
            core::sync::atomic::Ordering::SeqCst,
            core::sync::atomic::Ordering::SeqCst,
            |v| Some(v.saturating_sub(ms)),
        );
    }
}

#[cfg(target_has_atomic = "64")]
impl Clock for ManualClock {
    #[inline]
    fn now_ms(&self) -> u64 {
        self.ms.load(core::sync::atomic::Ordering::SeqCst)
    }
}

/// How often, in ms of monotonic time, a [`FollowingClock`] compares
/// itself with its wall clock: the longest it lags behind a wall clock
/// that stepped forward (by up to [`FOLLOW_MAX_JUMP_MS`]).
pub const FOLLOW_CHECK_MS: u64 = 100;

/// The largest step forward a [`FollowingClock`] takes at one comparison:
/// a wall clock further ahead is caught up with one hour per check, so a
/// wall clock set years ahead by mistake drags IDs along at most that fast.
pub const FOLLOW_MAX_JUMP_MS: u64 = 3_600_000;

/// A monotonic clock that follows a wall clock forward and never back:
/// `mono` (which never goes back, but may not count a machine's sleep)
/// plus an offset that only grows. The wall clock is read only when
/// `mono` has moved [`FOLLOW_CHECK_MS`] past the last comparison, so a
/// reading costs one `mono` read and two relaxed loads. At a comparison:
///
/// - the wall clock ahead (stepped forward, or the machine slept): the
///   clock jumps forward to it, by at most [`FOLLOW_MAX_JUMP_MS`];
/// - the wall clock behind (stepped back): the clock holds its pace and
///   follows again once the wall clock passes it.
///
/// The first reading anchors to wall time in full. [`MonotonicClock`] is
/// this rule over the OS's monotonic and wall clocks, shared by the whole
/// process; this type puts it over any two clocks (a simulation, a test
/// with two [`ManualClock`]s).
#[cfg(target_has_atomic = "64")]
#[derive(Debug, Default)]
pub struct FollowingClock<M, W> {
    mono: M,
    wall: W,
    follow: Follow,
}

#[cfg(target_has_atomic = "64")]
impl<M: Clock, W: Clock> FollowingClock<M, W> {
    /// A clock advanced by `mono` that follows `wall` forward.
    pub const fn new(mono: M, wall: W) -> Self {
        FollowingClock {
            mono,
            wall,
            follow: Follow::new(),
        }
    }
}

#[cfg(target_has_atomic = "64")]
impl<M: Clock, W: Clock> Clock for FollowingClock<M, W> {
    #[inline]
    fn now_ms(&self) -> u64 {
        self.follow
            .now_ms(self.mono.now_ms(), || self.wall.now_ms())
    }
    fn relax(&self) {
        self.mono.relax()
    }
    #[inline]
    fn can_wait(&self) -> bool {
        self.mono.can_wait()
    }
}

/// The state of [`FollowingClock`]'s rule: wall minus monotonic time as
/// of the last step forward (0 before the first reading), and when the
/// next comparison is due.
#[cfg(target_has_atomic = "64")]
#[derive(Debug, Default)]
struct Follow {
    offset: core::sync::atomic::AtomicU64,
    next_check: core::sync::atomic::AtomicU64,
}

#[cfg(target_has_atomic = "64")]
impl Follow {
    const fn new() -> Self {
        Follow {
            offset: core::sync::atomic::AtomicU64::new(0),
            next_check: core::sync::atomic::AtomicU64::new(0),
        }
    }

    /// The time at the monotonic reading `mono_ms`. Both terms only grow
    /// (a later load of an atomic never sees an older value), so no thread
    /// sees the sum go back.
    #[inline]
    fn now_ms(&self, mono_ms: u64, wall_ms: impl FnOnce() -> u64) -> u64 {
        use core::sync::atomic::Ordering::Relaxed;
        if mono_ms >= self.next_check.load(Relaxed) {
            self.check(mono_ms, wall_ms());
        }
        mono_ms + self.offset.load(Relaxed)
    }

    #[cold]
    fn check(&self, mono_ms: u64, wall_ms: u64) {
        use core::sync::atomic::Ordering::Relaxed;
        self.next_check
            .fetch_max(mono_ms + FOLLOW_CHECK_MS, Relaxed);
        let target = wall_ms.saturating_sub(mono_ms);
        let offset = self.offset.load(Relaxed);
        if target > offset {
            let step = if offset == 0 {
                target
            } else {
                target.min(offset + FOLLOW_MAX_JUMP_MS)
            };
            self.offset.fetch_max(step, Relaxed);
        }
    }
}

/// The rule of `fresh_ms` (with `std`) for a caller that times the call
/// itself (a browser's minting module, with `performance.now()`):
/// `spent_ms` if `clock`, read after `spent_ms` was, still reads a time
/// `fresh` accepts, else 0. In that order, the clock read an accepted time
/// for at least `spent_ms` after the call began.
pub fn fresh_after(spent_ms: f64, clock: &impl Clock, fresh: impl Fn(u64) -> bool) -> f64 {
    if fresh(clock.now_ms()) { spent_ms } else { 0.0 }
}

#[cfg(feature = "std")]
mod os {
    use super::Clock;
    /// The monotonic clock [`MonotonicClock`] advances by: `std`'s, or in a
    /// browser `performance.now()`.
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    pub use super::browser::Instant;
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use super::browser::{mono_ms, wall_ms};
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    use std::sync::OnceLock;
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    pub use std::time::Instant;
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    use std::time::{SystemTime, UNIX_EPOCH};

    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    fn wall_ms() -> u64 {
        // A wall clock before 1970 reads as 0; generators then report
        // `TimeBeforeEpoch` instead of minting.
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0)
    }

    /// The raw wall clock. It can jump backwards (NTP, a user changing the
    /// time), which is what the generators' clock policies are for.
    #[derive(Debug, Default, Clone, Copy)]
    pub struct SystemClock;

    impl Clock for SystemClock {
        #[inline]
        fn now_ms(&self) -> u64 {
            wall_ms()
        }
        fn relax(&self) {
            std::thread::yield_now();
        }
    }

    /// The process's default clock: [`FollowingClock`](super::FollowingClock)'s rule over
    /// [`Instant`] (in a browser `performance.now()`) and the wall clock
    /// (`Date.now()`). Every `MonotonicClock` in the process shares one
    /// state, so all generators agree and none ever sees time go back.
    #[derive(Debug, Default, Clone, Copy)]
    pub struct MonotonicClock;

    static FOLLOW: super::Follow = super::Follow::new();

    /// When the process first asked for monotonic time.
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    static START: OnceLock<Instant> = OnceLock::new();

    /// Milliseconds of monotonic time since the process first asked.
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    fn mono_ms() -> u64 {
        START.get_or_init(Instant::now).elapsed().as_millis() as u64
    }

    /// [`MonotonicClock`]'s reading and the ns until its monotonic part
    /// moves on to the next ms: the reading holds until then (unless the
    /// wall clock pulls it forward at a check), which is the deadline an
    /// expiry word gives a run of the one-call functions.
    #[cfg(all(feature = "expiry", target_os = "linux"))]
    pub(crate) fn now_ms_and_left_ns() -> (u64, u64) {
        let elapsed = START.get_or_init(Instant::now).elapsed();
        let ms = FOLLOW.now_ms(elapsed.as_millis() as u64, wall_ms);
        (
            ms,
            1_000_000 - u64::from(elapsed.subsec_nanos() % 1_000_000),
        )
    }

    /// Milliseconds from `start` to a moment at which `clock` still read a
    /// time that `fresh` accepts (the tick IDs were minted in, or earlier),
    /// or 0 if it has moved on. A binding that minted a batch at `start`
    /// hands the IDs out only until its own reading before the call plus
    /// this plus one tick, so no ID is handed out after a newer tick began.
    pub fn fresh_ms(start: Instant, clock: &impl Clock, fresh: impl Fn(u64) -> bool) -> f64 {
        super::fresh_after(start.elapsed().as_secs_f64() * 1e3, clock, fresh)
    }

    impl Clock for MonotonicClock {
        // One copy in the browser build, not one per minting function:
        // 0.3 KB gzipped there, for a call next to `performance.now()`
        // (read once per batch of IDs; no change measured per ID).
        #[cfg_attr(not(target_family = "wasm"), inline)]
        #[cfg_attr(target_family = "wasm", inline(never))]
        fn now_ms(&self) -> u64 {
            FOLLOW.now_ms(mono_ms(), wall_ms)
        }
        fn relax(&self) {
            std::thread::yield_now();
        }
    }
}

/// No OS clock in a browser: `Date.now()` is the wall clock and
/// `performance.now()` the monotonic one, imported directly. (The
/// `web-time` crate finds them through the global object, which costs the
/// browser build about 0.5 KB gzipped.)
#[cfg(all(feature = "std", target_family = "wasm", target_os = "unknown"))]
mod browser {
    use wasm_bindgen::prelude::wasm_bindgen;

    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_namespace = Date, js_name = now)]
        fn date_now() -> f64;
        #[wasm_bindgen(js_namespace = performance, js_name = now)]
        fn performance_now() -> f64;
    }

    /// Unix ms; before 1970 reads as 0, as on other targets.
    pub(super) fn wall_ms() -> u64 {
        date_now() as u64
    }

    /// Milliseconds since the page or worker started (never negative).
    pub(super) fn mono_ms() -> u64 {
        performance_now() as u64
    }

    /// A point on the monotonic clock: a reading of `performance.now()`.
    #[derive(Debug, Clone, Copy)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            Instant(performance_now())
        }

        /// The time since `self` (never negative).
        pub fn elapsed(&self) -> core::time::Duration {
            // `as` saturates: a negative difference reads as 0, no panic path.
            core::time::Duration::from_micros(((performance_now() - self.0) * 1e3) as u64)
        }
    }
}

#[cfg(all(feature = "expiry", target_os = "linux"))]
pub(crate) use os::now_ms_and_left_ns;
#[cfg(feature = "std")]
pub use os::{Instant, MonotonicClock, SystemClock, fresh_ms};

/// The clocks the bindings let a generator read, by name: the shared
/// [`MonotonicClock`], the raw [`SystemClock`], or a [`ManualClock`] shared
/// with the caller through `M` (an `Rc` or `Arc` of it).
#[derive(Debug, Clone)]
pub enum ClockChoice<M> {
    /// `"monotonic"`.
    Monotonic,
    /// `"system"`.
    System,
    /// `"test"`: read and moved by the caller only, so a generator on it
    /// never waits ([`Clock::can_wait`]).
    Manual(M),
}

impl<M> ClockChoice<M> {
    /// The bindings' names, in the order of their index encoding.
    pub const NAMES: [&'static str; 3] = ["monotonic", "system", "test"];

    /// The clock named `name`; `"test"` needs the `manual` clock.
    pub fn from_name(name: &str, manual: Option<M>) -> Result<ClockChoice<M>, crate::Error> {
        let i = Self::NAMES.iter().position(|n| *n == name);
        Self::from_index(i.map_or(f64::NAN, |i| i as f64), manual)
    }

    /// The clock at a binding's `index` into [`ClockChoice::NAMES`].
    pub fn from_index(index: f64, manual: Option<M>) -> Result<ClockChoice<M>, crate::Error> {
        let unknown = crate::Error::UnknownName {
            what: "clock",
            given: Some(crate::error::GivenName::new("test")),
            allowed: &Self::NAMES,
        };
        match (
            crate::error::by_index("clock", &Self::NAMES, &[0, 1, 2], index)?,
            manual,
        ) {
            (0, _) => Ok(ClockChoice::Monotonic),
            (1, _) => Ok(ClockChoice::System),
            (_, Some(m)) => Ok(ClockChoice::Manual(m)),
            // "test" without a test clock.
            (_, None) => Err(unknown),
        }
    }

    /// Its name (one of [`ClockChoice::NAMES`]).
    pub const fn name(&self) -> &'static str {
        match self {
            ClockChoice::Monotonic => "monotonic",
            ClockChoice::System => "system",
            ClockChoice::Manual(_) => "test",
        }
    }
}

#[cfg(feature = "std")]
impl<M: core::ops::Deref<Target = ManualClock>> Clock for ClockChoice<M> {
    #[inline]
    fn now_ms(&self) -> u64 {
        match self {
            ClockChoice::Monotonic => MonotonicClock.now_ms(),
            ClockChoice::System => SystemClock.now_ms(),
            ClockChoice::Manual(c) => c.now_ms(),
        }
    }

    /// A monotonic clock only makes a generator wait for the next tick of
    /// a used-up sequence (under one tick): spin, as yielding the thread on
    /// a busy machine can miss the tick by milliseconds. A system clock can
    /// step back by up to the policy's bound, so that wait yields (a no-op
    /// in a browser, which has one thread).
    fn relax(&self) {
        match self {
            ClockChoice::System => SystemClock.relax(),
            _ => core::hint::spin_loop(),
        }
    }

    /// A binding's test clock moves only when its (single) JS thread tells
    /// it to, and that thread is inside the call: a wait could never end.
    #[inline]
    fn can_wait(&self) -> bool {
        !matches!(self, ClockChoice::Manual(_))
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    #[test]
    fn monotonic_clock_tracks_wall_time_and_never_goes_back() {
        let c = MonotonicClock;
        let wall = SystemClock.now_ms();
        let mut last = c.now_ms();
        assert!(last.abs_diff(wall) < 1_000);
        for _ in 0..10_000 {
            let now = c.now_ms();
            assert!(now >= last);
            last = now;
        }
    }

    #[test]
    fn manual_clock_moves_both_ways() {
        let c = ManualClock::new(1_000);
        c.advance(5);
        assert_eq!(c.now_ms(), 1_005);
        c.step_back(2_000);
        assert_eq!(c.now_ms(), 0);
        c.set(42);
        assert_eq!(c.now_ms(), 42);
    }
}
