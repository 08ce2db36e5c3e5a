//! Run expiry words (Linux): a word per buffered run that the kernel clears
//! when the run's deadline passes, so that api/sources.js checks a run's
//! freshness with one memory load instead of a clock read per ID.
//!
//! Per JS thread (main thread, each worker_thread) this module owns an
//! `Int32Array` over memory of its own (`expiryWords()`), a deadline per
//! slot (CLOCK_MONOTONIC ns) and one POSIX timer that signals this thread
//! (`SIGEV_THREAD_ID`). A claim (`fill`, `mintText` given a slot) stores the
//! run's deadline, sets its word to 1 and arms the timer if that deadline is
//! the earliest; the signal handler clears every word whose deadline has
//! passed and re-arms the timer for the earliest one left. A pending signal
//! is delivered before the thread runs any more user code, so no run is
//! handed out past its deadline plus the delivery latency, which
//! [`SAFETY_NS`] covers; nothing but the JS thread itself can delay it, and
//! a stalled JS thread hands nothing out. Idle, the timer fires once after
//! the last run and is not armed again.
//!
//! Whatever fails (no free real-time signal, a blocked signal, a failed
//! `timer_create`/`timer_settime`, every slot taken) leaves the run without
//! a word: `expiryWords()` returns null, `expirySlot()` 0 (slot 0 is never
//! set), or a claim reports timing[4] = 0, and api/sources.js reads the
//! clock as before. Other platforms have no words at all.

/// Shortens every run's deadline: the timer's slack (50 us by default for a
/// normal thread; POSIX timers are hrtimers and get none, but a thread may
/// have raised its slack), the timer interrupt and the signal's delivery
/// (an IPI when the thread runs on another CPU: microseconds, tens of them
/// on a busy virtual machine). 200 us is 4x the default slack and a fifth of
/// a 1 ms tick.
pub const SAFETY_NS: u64 = 200_000;

#[cfg(target_os = "linux")]
mod imp {
    use super::SAFETY_NS;
    use std::cell::RefCell;
    use std::ptr;
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, AtomicU64, AtomicUsize, Ordering};

    use napi::sys;

    /// Words per thread; slot 0 is never set (a source without a slot).
    pub const SLOTS: usize = 256;
    /// Threads with words at once (the handler checks a signal's pointer against these).
    const THREADS: usize = 256;

    /// The words JavaScript reads (the memory of the thread's Int32Array).
    struct Words([AtomicI32; SLOTS]);

    /// What the signal handler touches: atomics, and a timer fixed at setup.
    struct State {
        words: *const Words,
        deadlines: [AtomicU64; SLOTS],
        /// Slots below this may be set (the handler scans 1..hi).
        hi: AtomicUsize,
        /// The deadline the timer is armed for (u64::MAX: none); never later than any set word's.
        armed: AtomicU64,
        /// Set when the handler could not arm the timer: no run gets a word any more.
        broken: AtomicBool,
        timer: libc::timer_t,
    }

    /// What only the JS thread touches.
    struct Local {
        state: *mut State,
        /// The thread's Int32Array, referenced so it is made once (V8 refuses
        /// two buffers over the same memory); null where it could not be made.
        array: sys::napi_ref,
        used: Vec<bool>,
        /// Set once the thread's setup failed (no retry per call).
        failed: bool,
    }

    thread_local! {
        static LOCAL: RefCell<Option<Local>> = const { RefCell::new(None) };
    }

    /// The states of every thread with words (the handler accepts only these).
    static LIVE: [AtomicPtr<State>; THREADS] = [const { AtomicPtr::new(ptr::null_mut()) }; THREADS];

    /// The real-time signal this copy of the addon installed its handler on, if any.
    static SIGNAL: OnceLock<Option<i32>> = OnceLock::new();

    fn mono_ns() -> u64 {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: a valid timespec; clock_gettime is async-signal-safe.
        unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
        ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
    }

    impl State {
        fn words(&self) -> &Words {
            // SAFETY: the words outlive the state (freed after it, see `teardown`).
            unsafe { &*self.words }
        }

        /// Arms the timer for `at` (absolute CLOCK_MONOTONIC ns); false if it failed.
        fn arm(&self, at: u64) -> bool {
            let spec = libc::itimerspec {
                it_interval: libc::timespec {
                    tv_sec: 0,
                    tv_nsec: 0,
                },
                it_value: libc::timespec {
                    tv_sec: (at / 1_000_000_000) as _,
                    tv_nsec: (at % 1_000_000_000) as _,
                },
            };
            // SAFETY: a live timer of this state; timer_settime is async-signal-safe.
            unsafe {
                libc::timer_settime(self.timer, libc::TIMER_ABSTIME, &spec, ptr::null_mut()) == 0
            }
        }

        /// The signal handler's work: clears every word past its deadline and
        /// arms the timer for the earliest deadline left.
        fn expire(&self) {
            let now = mono_ns();
            let words = self.words();
            let mut earliest = u64::MAX;
            for i in 1..self.hi.load(Ordering::Acquire).min(SLOTS) {
                if words.0[i].load(Ordering::Acquire) == 0 {
                    continue;
                }
                let d = self.deadlines[i].load(Ordering::Relaxed);
                if d <= now {
                    words.0[i].store(0, Ordering::Release);
                } else {
                    earliest = earliest.min(d);
                }
            }
            self.armed.store(earliest, Ordering::Release);
            if earliest != u64::MAX && !self.arm(earliest) {
                // No timer: expire everything now, and give no run a word from now on.
                self.broken.store(true, Ordering::Release);
                for w in &words.0 {
                    w.store(0, Ordering::Release);
                }
            }
        }

        /// Sets `slot`'s word for a run claimed at `start` that is fresh for
        /// `ms`; false (word left 0) if the timer cannot be armed.
        fn set(&self, slot: usize, start: u64, ms: f64) -> bool {
            if self.broken.load(Ordering::Acquire) {
                return false;
            }
            let life = (ms * 1e6) as u64; // `as` saturates: NaN or negative read as 0
            let deadline = (start + life).saturating_sub(SAFETY_NS);
            if deadline <= start {
                return false;
            }
            // Deadline first, then the word, then the timer: a signal between
            // any two of these steps sees either no word or a word with its
            // deadline, and re-arms for the earliest set word.
            self.deadlines[slot].store(deadline, Ordering::Relaxed);
            self.words().0[slot].store(1, Ordering::Release);
            let mut armed = self.armed.load(Ordering::Acquire);
            while deadline < armed {
                match self.armed.compare_exchange(
                    armed,
                    deadline,
                    Ordering::AcqRel,
                    Ordering::Acquire,
                ) {
                    // Every other set word's deadline is at or after `armed`, so
                    // arming for `deadline` is never too late, even if the
                    // handler re-armed since the exchange.
                    Ok(_) => {
                        if self.arm(deadline) {
                            return true;
                        }
                        self.words().0[slot].store(0, Ordering::Release);
                        return false;
                    }
                    Err(now) => armed = now,
                }
            }
            true
        }
    }

    extern "C" fn on_signal(
        _sig: libc::c_int,
        info: *mut libc::siginfo_t,
        _ctx: *mut libc::c_void,
    ) {
        // SAFETY: the kernel passes a valid siginfo_t (SA_SIGINFO); errno is
        // this thread's and is put back.
        unsafe {
            let errno = *libc::__errno_location();
            if !info.is_null() && (*info).si_code == libc::SI_TIMER {
                let p = (*info).si_value().sival_ptr as *mut State;
                // Only a live state (a signal of a deleted timer, or one sent
                // by anyone else, finds none).
                if !p.is_null() && LIVE.iter().any(|e| e.load(Ordering::Acquire) == p) {
                    (*p).expire();
                }
            }
            *libc::__errno_location() = errno;
        }
    }

    /// Installs the handler on a real-time signal that nothing else handles
    /// (its disposition is SIG_DFL), from the highest down; None if none is free.
    fn signal() -> Option<i32> {
        *SIGNAL.get_or_init(|| {
            for sig in (libc::SIGRTMIN()..=libc::SIGRTMAX()).rev() {
                // SAFETY: plain sigaction calls with valid structs.
                unsafe {
                    let mut old: libc::sigaction = std::mem::zeroed();
                    if libc::sigaction(sig, ptr::null(), &mut old) != 0
                        || old.sa_sigaction != libc::SIG_DFL
                    {
                        continue;
                    }
                    let mut act: libc::sigaction = std::mem::zeroed();
                    act.sa_sigaction = on_signal as *const () as usize;
                    act.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART | libc::SA_ONSTACK;
                    libc::sigemptyset(&mut act.sa_mask);
                    if libc::sigaction(sig, &act, ptr::null_mut()) == 0 {
                        return Some(sig);
                    }
                }
            }
            None
        })
    }

    /// This thread's state: set up (signal unblocked, timer created, state
    /// registered) on first use; None where that failed.
    fn setup(env: sys::napi_env) -> Option<*mut State> {
        let sig = signal()?;
        // SAFETY: libc calls with valid arguments; the state is leaked into
        // LIVE and LOCAL and freed only by `teardown`.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, sig);
            if libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, ptr::null_mut()) != 0 {
                return None;
            }
            let words = Box::into_raw(Box::new(Words([const { AtomicI32::new(0) }; SLOTS])));
            let state = Box::into_raw(Box::new(State {
                words,
                deadlines: [const { AtomicU64::new(0) }; SLOTS],
                hi: AtomicUsize::new(1),
                armed: AtomicU64::new(u64::MAX),
                broken: AtomicBool::new(false),
                timer: ptr::null_mut(),
            }));
            let mut ev: libc::sigevent = std::mem::zeroed();
            ev.sigev_notify = libc::SIGEV_THREAD_ID;
            ev.sigev_signo = sig;
            ev.sigev_value = libc::sigval {
                sival_ptr: state.cast(),
            };
            ev.sigev_notify_thread_id = libc::gettid();
            let registered =
                libc::timer_create(libc::CLOCK_MONOTONIC, &mut ev, &mut (*state).timer) == 0;
            let registered = registered
                && match LIVE.iter().find(|e| {
                    e.compare_exchange(ptr::null_mut(), state, Ordering::AcqRel, Ordering::Acquire)
                        .is_ok()
                }) {
                    Some(_) => true,
                    None => {
                        libc::timer_delete((*state).timer);
                        false
                    }
                };
            if !registered {
                drop(Box::from_raw(state));
                drop(Box::from_raw(words));
                return None;
            }
            // Torn down with the env (a worker_thread's end): the timer is
            // deleted before the memory the handler reads is freed.
            if sys::napi_add_env_cleanup_hook(env, Some(cleanup), ptr::null_mut())
                != sys::Status::napi_ok
            {
                teardown(state, sig);
                return None;
            }
            Some(state)
        }
    }

    unsafe extern "C" fn cleanup(_: *mut libc::c_void) {
        let local = LOCAL.with(|l| l.borrow_mut().take());
        if let (Some(local), Some(Some(sig))) = (local, SIGNAL.get())
            && !local.state.is_null()
        {
            // SAFETY: this thread's state, set up by `setup`.
            unsafe { teardown(local.state, *sig) };
        }
    }

    /// Blocks the signal on this thread, deletes the timer, forgets the
    /// state, then frees it: the handler never sees freed memory. The words
    /// are freed too: the env (and with it the Int32Array's users) is gone.
    unsafe fn teardown(state: *mut State, sig: i32) {
        // SAFETY: `state` came from `setup` on this thread and is freed once.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, sig);
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, ptr::null_mut());
            libc::timer_delete((*state).timer);
            for e in &LIVE {
                let _ =
                    e.compare_exchange(state, ptr::null_mut(), Ordering::AcqRel, Ordering::Acquire);
            }
            let words = (*state).words as *mut Words;
            drop(Box::from_raw(state));
            // The Int32Array's finalizer does nothing: the words are freed here,
            // when no JavaScript of this env can run any more.
            drop(Box::from_raw(words));
        }
    }

    unsafe extern "C" fn no_finalize(_: sys::napi_env, _: *mut libc::c_void, _: *mut libc::c_void) {
    }

    /// This thread's Int32Array of words, made on first call; null where the
    /// thread has none.
    pub fn words(env: sys::napi_env) -> sys::napi_value {
        let mut out = ptr::null_mut();
        LOCAL.with(|l| {
            let mut l = l.borrow_mut();
            if l.is_none() {
                let state = setup(env);
                *l = Some(Local {
                    state: state.unwrap_or(ptr::null_mut()),
                    array: ptr::null_mut(),
                    used: vec![false; SLOTS],
                    failed: state.is_none(),
                });
            }
            let local = l.as_mut().expect("set above");
            if local.failed {
                return;
            }
            // SAFETY: napi calls on this thread's env; the words live until teardown.
            unsafe {
                if !local.array.is_null() {
                    sys::napi_get_reference_value(env, local.array, &mut out);
                    return;
                }
                let data = (*local.state).words as *mut libc::c_void;
                let mut buffer = ptr::null_mut();
                let mut array = ptr::null_mut();
                let made = sys::napi_create_external_arraybuffer(
                    env,
                    data,
                    SLOTS * 4,
                    Some(no_finalize),
                    ptr::null_mut(),
                    &mut buffer,
                ) == sys::Status::napi_ok
                    && sys::napi_create_typedarray(
                        env,
                        sys::TypedarrayType::int32_array,
                        SLOTS,
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

    /// A free slot of this thread (1..SLOTS), or 0 where there is none.
    pub fn take_slot() -> u32 {
        LOCAL.with(|l| {
            let mut l = l.borrow_mut();
            let Some(local) = l.as_mut().filter(|l| !l.failed) else {
                return 0;
            };
            let Some(i) = (1..SLOTS).find(|&i| !local.used[i]) else {
                return 0;
            };
            local.used[i] = true;
            // SAFETY: the live state of this thread.
            let state = unsafe { &*local.state };
            state.words().0[i].store(0, Ordering::Release);
            state.hi.fetch_max(i + 1, Ordering::AcqRel);
            i as u32
        })
    }

    /// Gives a slot back (its word cleared).
    pub fn free_slot(slot: u32) {
        let i = slot as usize;
        LOCAL.with(|l| {
            if let Some(local) = l
                .borrow_mut()
                .as_mut()
                .filter(|l| !l.failed && (1..SLOTS).contains(&i))
            {
                // SAFETY: the live state of this thread.
                unsafe { &*local.state }.words().0[i].store(0, Ordering::Release);
                local.used[i] = false;
            }
        });
    }

    /// A claim under way for a slot with a word (`begin`, then `set`).
    pub struct Claim {
        state: *const State,
        slot: usize,
        start: u64,
    }

    /// Before a claim for `slot`: clears its word (the old run is over) and
    /// reads the clock the deadline counts from; None if the slot has no word.
    pub fn begin(slot: u32) -> Option<Claim> {
        let i = slot as usize;
        LOCAL.with(|l| {
            let l = l.borrow();
            let local = l
                .as_ref()
                .filter(|l| !l.failed && (1..SLOTS).contains(&i) && l.used[i])?;
            // SAFETY: the live state of this thread (freed only by its env's teardown).
            let state = unsafe { &*local.state };
            state.words().0[i].store(0, Ordering::Release);
            Some(Claim {
                state: local.state,
                slot: i,
                start: mono_ns(),
            })
        })
    }

    /// After a claim begun with `begin`: the run is fresh for `ms` from the
    /// start; true if its word is set (and the timer armed to clear it).
    pub fn set(claim: Claim, ms: f64) -> bool {
        // SAFETY: `begin` found it live on this thread moments ago, within the same call.
        unsafe { &*claim.state }.set(claim.slot, claim.start, ms)
    }

    /// Test-only: the signal in use (0: none) and the armed deadline's distance from now in ns (-1: none).
    pub fn debug() -> (i32, f64) {
        let sig = SIGNAL.get().copied().flatten().unwrap_or(0);
        let armed = LOCAL.with(|l| {
            l.borrow()
                .as_ref()
                .filter(|l| !l.failed)
                .map(|l| unsafe { &*l.state }.armed.load(Ordering::Acquire))
        });
        let dist = match armed {
            Some(a) if a != u64::MAX => a as f64 - mono_ns() as f64,
            _ => -1.0,
        };
        (sig, dist)
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
    pub fn free_slot(_slot: u32) {}
    pub struct Claim;
    pub fn begin(_slot: u32) -> Option<Claim> {
        None
    }
    pub fn set(_claim: Claim, _ms: f64) -> bool {
        false
    }
    pub fn debug() -> (i32, f64) {
        (0, -1.0)
    }
}

pub use imp::{begin, set};

use napi::Env;
use napi::bindgen_prelude::Unknown;
use napi_derive::napi;

/// This thread's expiry words (an Int32Array), or null where runs have none.
#[napi(catch_unwind)]
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
    imp::free_slot(slot)
}

/// Test-only: `[signal, ns until the armed deadline]` (0 and -1 when none).
#[napi(catch_unwind)]
pub fn expiry_debug() -> Vec<f64> {
    let (sig, dist) = imp::debug();
    vec![sig.into(), dist]
}
