//! The signal side of the expiry words (Linux): the state a thread's
//! timer signal reaches, what its handler does with it, and the
//! installation of that handler on a free real-time signal.

use super::SLOTS;
use std::ptr;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, AtomicU64, AtomicUsize, Ordering};

/// Threads with words at once (the handler checks a signal's pointer against these).
const THREADS: usize = 256;

/// What the signal handler touches: atomics, and a timer fixed at setup.
pub(super) struct State {
    /// The words (a binding's JavaScript reads them with plain loads).
    pub(super) words: [AtomicI32; SLOTS],
    pub(super) deadlines: [AtomicU64; SLOTS],
    /// Slots below this may be set (the handler scans 1..hi).
    pub(super) hi: AtomicUsize,
    /// The deadline the timer is armed for (u64::MAX: none); never later than any set word's.
    pub(super) armed: AtomicU64,
    /// Set when the timer could not be armed, or is deleted: no run gets a word any more.
    pub(super) broken: AtomicBool,
    /// The `timer_t` (a pointer on Linux), set before the state is registered.
    pub(super) timer: AtomicPtr<libc::c_void>,
}

/// The states of every thread with words (the handler accepts only these).
pub(super) static LIVE: [AtomicPtr<State>; THREADS] =
    [const { AtomicPtr::new(ptr::null_mut()) }; THREADS];

/// The real-time signal this copy of the crate installed its handler on, if any.
pub(super) static SIGNAL: OnceLock<Option<i32>> = OnceLock::new();

/// CLOCK_MONOTONIC in ns (what deadlines count in).
pub fn now_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid timespec; clock_gettime is async-signal-safe.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

pub(super) fn sigset(sig: i32) -> libc::sigset_t {
    // SAFETY: sigemptyset initializes the set.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, sig);
        set
    }
}

/// Whether `sig` is blocked on this thread (then its words would never clear).
pub(super) fn blocked(sig: i32) -> bool {
    // SAFETY: queries the mask into a valid set.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_BLOCK, ptr::null(), &mut set) != 0
            || libc::sigismember(&set, sig) != 0
    }
}

impl State {
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
        let timer = self.timer.load(Ordering::Relaxed);
        // SAFETY: a live timer of this state; timer_settime is async-signal-safe.
        unsafe { libc::timer_settime(timer, libc::TIMER_ABSTIME, &spec, ptr::null_mut()) == 0 }
    }

    /// The signal handler's work: clears every word past its deadline and
    /// arms the timer for the earliest deadline left.
    fn expire(&self) {
        let now = now_ns();
        let mut earliest = u64::MAX;
        for i in 1..self.hi.load(Ordering::Acquire).min(SLOTS) {
            if self.words[i].load(Ordering::Acquire) == 0 {
                continue;
            }
            let d = self.deadlines[i].load(Ordering::Relaxed);
            if d <= now {
                self.words[i].store(0, Ordering::Release);
            } else {
                earliest = earliest.min(d);
            }
        }
        self.armed.store(earliest, Ordering::Release);
        if earliest != u64::MAX && !self.arm(earliest) {
            // No timer: expire everything now, and give no run a word from now on.
            self.broken.store(true, Ordering::Release);
            for w in &self.words {
                w.store(0, Ordering::Release);
            }
        }
    }

    /// Sets `slot`'s word for a run claimed at `start` until `deadline`
    /// (both CLOCK_MONOTONIC ns); false (word left 0) if the deadline
    /// is not after the start or the timer cannot be armed.
    pub(super) fn set(&self, slot: usize, start: u64, deadline: u64) -> bool {
        if self.broken.load(Ordering::Acquire) {
            return false;
        }
        if deadline <= start {
            return false;
        }
        // Deadline first, then the word, then the timer: a signal between
        // any two of these steps sees either no word or a word with its
        // deadline, and re-arms for the earliest set word.
        self.deadlines[slot].store(deadline, Ordering::Relaxed);
        self.words[slot].store(1, Ordering::Release);
        let mut armed = self.armed.load(Ordering::Acquire);
        while deadline < armed {
            match self
                .armed
                .compare_exchange(armed, deadline, Ordering::AcqRel, Ordering::Acquire)
            {
                // Every other set word's deadline is at or after `armed`, so
                // arming for `deadline` is never too late, even if the
                // handler re-armed since the exchange.
                Ok(_) => {
                    if self.arm(deadline) {
                        return true;
                    }
                    self.words[slot].store(0, Ordering::Release);
                    return false;
                }
                Err(now) => armed = now,
            }
        }
        true
    }
}

extern "C" fn on_signal(_sig: libc::c_int, info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo_t (SA_SIGINFO); errno is
    // this thread's and is put back.
    unsafe {
        let errno = *libc::__errno_location();
        if !info.is_null() && (*info).si_code == libc::SI_TIMER {
            let p = (*info).si_value().sival_ptr as *const State;
            // Only a live state (a signal of a deleted timer, or one sent
            // by anyone else, finds none).
            if !p.is_null() && LIVE.iter().any(|e| ptr::eq(e.load(Ordering::Acquire), p)) {
                (*p).expire();
            }
        }
        *libc::__errno_location() = errno;
    }
}

/// Installs the handler on a real-time signal that nothing else handles
/// (its disposition is SIG_DFL), from the highest down; None if none is free.
pub(super) fn signal() -> Option<i32> {
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
