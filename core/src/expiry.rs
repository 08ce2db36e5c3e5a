//! Run expiry words (feature `expiry`, Linux): per thread, words that the
//! kernel clears when a run's deadline passes, so that a run of IDs is
//! checked for freshness with one memory load instead of a clock read per
//! ID. [`new_ulid`](crate::new_ulid) and [`new_uuid_v7`](crate::new_uuid_v7)
//! use one for a thread's runs; the Node binding hands them to JavaScript.
//!
//! What the feature installs, on first use:
//!
//! - per process, a handler (`SA_SIGINFO | SA_RESTART | SA_ONSTACK`) on the
//!   highest real-time signal whose disposition is `SIG_DFL`;
//! - per thread that claims a word, [`SLOTS`] words, a deadline per slot
//!   (CLOCK_MONOTONIC ns) and one POSIX timer that signals only that thread
//!   (`SIGEV_THREAD_ID`), deleted and freed when the thread exits.
//!
//! A claim stores the run's deadline, sets its word to 1 and arms the timer
//! if that deadline is the earliest; the handler clears every word whose
//! deadline has passed and re-arms the timer for the earliest one left. A
//! pending signal is delivered before the thread runs any more user code,
//! so no run is used past its deadline plus the delivery latency, which
//! [`SAFETY_NS`] covers; nothing but the thread itself can delay it, and a
//! stalled thread hands nothing out. There is no updater thread to stall.
//! Idle, the timer fires once after the last run and is not armed again.
//!
//! Costs: re-arming a timer that has fired takes 5-7 us (a `timer_settime`
//! of a signalling timer; 0.5 us for one that has not fired), so only runs
//! grown to [`WORD_MIN_RUN`] IDs in a tick claim a word: a busy thread pays it
//! about once per millisecond. Other code on that thread may see `EINTR`
//! from a non-restartable call (`poll`, `epoll_wait`, `nanosleep`) about
//! once per millisecond while it mints, and once after its last run.
//!
//! Whatever fails (no free real-time signal, the signal blocked on the
//! thread, a failed `timer_create`/`timer_settime`, every slot taken)
//! leaves the run without a word, and callers read the clock as before.
//! The one-call functions never change a thread's signal mask: a thread
//! that blocks the signal gets no words. Other platforms have no words.
//!
//! One concern per file (Linux): the state the signal reaches, its handler
//! and the handler's installation (`signal`); a thread's words, set up on
//! first use, and the slots and claims a binding asks for (`thread`); the
//! word a thread's own one-call runs hold (`word`). Elsewhere `other`
//! gives the same functions, without words.

/// Shortens every run's deadline: the timer's slack (50 us by default for a
/// normal thread; POSIX timers are hrtimers and get none, but a thread may
/// have raised its slack), the timer interrupt and the signal's delivery
/// (an IPI when the thread runs on another CPU: microseconds, tens of them
/// on a busy virtual machine). 200 us is 4x the default slack and a fifth of
/// a 1 ms tick.
pub const SAFETY_NS: u64 = 200_000;

/// Words per thread; slot 0 is never set (a binding's source without a slot).
pub const SLOTS: usize = 256;

/// IDs a run reaches within one tick before it claims a word: re-arming a
/// fired timer costs 5-7 us, so only bursts pay for it. (Not
/// [`binding::MIN_RUN`](crate::binding::MIN_RUN), the smallest run a JavaScript
/// thread claims, although both are 16.)
pub const WORD_MIN_RUN: u32 = 16;

#[cfg(target_os = "linux")]
mod signal;
#[cfg(target_os = "linux")]
mod thread;
#[cfg(target_os = "linux")]
mod word;
#[cfg(target_os = "linux")]
pub use thread::{Claim, begin, debug, free_slot, set, take_slot, teardown_thread, thread_words};
#[cfg(target_os = "linux")]
pub(crate) use {signal::now_ns, word::Word};

#[cfg(not(target_os = "linux"))]
mod other;
#[cfg(not(target_os = "linux"))]
pub use other::{Claim, begin, debug, free_slot, set, take_slot, teardown_thread, thread_words};
