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
mod imp {
    use super::{SAFETY_NS, SLOTS};
    use std::cell::{Cell, RefCell};
    use std::ptr::{self, NonNull};
    use std::rc::Rc;
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
    use std::vec::Vec;

    /// Threads with words at once (the handler checks a signal's pointer against these).
    const THREADS: usize = 256;

    /// What the signal handler touches: atomics, and a timer fixed at setup.
    struct State {
        /// The words (a binding's JavaScript reads them with plain loads).
        words: [AtomicI32; SLOTS],
        deadlines: [AtomicU64; SLOTS],
        /// Slots below this may be set (the handler scans 1..hi).
        hi: AtomicUsize,
        /// The deadline the timer is armed for (u64::MAX: none); never later than any set word's.
        armed: AtomicU64,
        /// Set when the timer could not be armed, or is deleted: no run gets a word any more.
        broken: AtomicBool,
        /// The `timer_t` (a pointer on Linux), set before the state is registered.
        timer: AtomicPtr<libc::c_void>,
    }

    /// A thread's words: the state (shared with the thread's [`Word`]s,
    /// which may outlive this) and which slots are taken.
    struct Local {
        state: Rc<State>,
        used: Vec<bool>,
        sig: i32,
    }

    enum Thread {
        Unset,
        Ready(Local),
        /// Setup failed (no retry per call).
        Failed,
    }

    std::thread_local! {
        static LOCAL: RefCell<Thread> = const { RefCell::new(Thread::Unset) };
    }

    /// The states of every thread with words (the handler accepts only these).
    static LIVE: [AtomicPtr<State>; THREADS] = [const { AtomicPtr::new(ptr::null_mut()) }; THREADS];

    /// The real-time signal this copy of the crate installed its handler on, if any.
    static SIGNAL: OnceLock<Option<i32>> = OnceLock::new();

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

    fn sigset(sig: i32) -> libc::sigset_t {
        // SAFETY: sigemptyset initializes the set.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, sig);
            set
        }
    }

    /// Whether `sig` is blocked on this thread (then its words would never clear).
    fn blocked(sig: i32) -> bool {
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
        fn set(&self, slot: usize, start: u64, deadline: u64) -> bool {
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
                        self.words[slot].store(0, Ordering::Release);
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

    /// This thread's words: a timer created and the state registered; None
    /// where that failed. The signal mask is left as it is.
    fn setup() -> Option<Local> {
        let sig = signal()?;
        let state = Rc::new(State {
            words: [const { AtomicI32::new(0) }; SLOTS],
            deadlines: [const { AtomicU64::new(0) }; SLOTS],
            hi: AtomicUsize::new(1),
            armed: AtomicU64::new(u64::MAX),
            broken: AtomicBool::new(false),
            timer: AtomicPtr::new(ptr::null_mut()),
        });
        let p = Rc::as_ptr(&state);
        // SAFETY: libc calls with valid arguments; the timer's signal carries
        // `p`, which the handler dereferences only while it is in LIVE, and it
        // leaves LIVE (in `teardown`) before the last Rc can drop.
        unsafe {
            let mut ev: libc::sigevent = std::mem::zeroed();
            ev.sigev_notify = libc::SIGEV_THREAD_ID;
            ev.sigev_signo = sig;
            ev.sigev_value = libc::sigval {
                sival_ptr: p as *mut libc::c_void,
            };
            ev.sigev_notify_thread_id = libc::gettid();
            let mut timer: libc::timer_t = ptr::null_mut();
            if libc::timer_create(libc::CLOCK_MONOTONIC, &mut ev, &mut timer) != 0 {
                return None;
            }
            state.timer.store(timer, Ordering::Relaxed);
            let registered = LIVE.iter().any(|e| {
                e.compare_exchange(
                    ptr::null_mut(),
                    p as *mut State,
                    Ordering::AcqRel,
                    Ordering::Acquire,
                )
                .is_ok()
            });
            if !registered {
                libc::timer_delete(timer);
                return None;
            }
        }
        Some(Local {
            state,
            used: std::vec![false; SLOTS],
            sig,
        })
    }

    impl Local {
        /// A free slot (1..SLOTS), its word cleared; None when all are taken.
        fn take(&mut self) -> Option<usize> {
            let i = (1..SLOTS).find(|&i| !self.used[i])?;
            self.used[i] = true;
            self.state.words[i].store(0, Ordering::Release);
            self.state.hi.fetch_max(i + 1, Ordering::AcqRel);
            Some(i)
        }
    }

    /// Blocks the signal on this thread, deletes the timer, clears every
    /// word and forgets the state, then puts the thread's signal mask back:
    /// the handler never sees the state again (a signal of the deleted
    /// timer still pending finds it gone from LIVE), and a [`Word`] still
    /// held reads 0 from then on. The memory is freed with the last
    /// reference, after this.
    impl Drop for Local {
        fn drop(&mut self) {
            let state = &*self.state;
            let set = sigset(self.sig);
            // SAFETY: a valid set; the thread's mask is put back below.
            let mut old: libc::sigset_t = unsafe { std::mem::zeroed() };
            let blocked = unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old) == 0 };
            // SAFETY: this thread's timer, deleted once (the state is broken after).
            unsafe { libc::timer_delete(state.timer.load(Ordering::Relaxed)) };
            state.broken.store(true, Ordering::Release);
            for w in &state.words {
                w.store(0, Ordering::Release);
            }
            let p = state as *const State as *mut State;
            for e in &LIVE {
                let _ = e.compare_exchange(p, ptr::null_mut(), Ordering::AcqRel, Ordering::Acquire);
            }
            if blocked {
                // SAFETY: the mask read above.
                unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &old, ptr::null_mut()) };
            }
        }
    }

    /// Runs `f` on this thread's words, set up first if `set_up` (and not
    /// tried before); None where the thread has none or is exiting.
    fn with_local<R>(set_up: bool, f: impl FnOnce(&mut Local) -> R) -> Option<R> {
        LOCAL
            .try_with(|l| {
                let mut l = l.try_borrow_mut().ok()?;
                if set_up && matches!(*l, Thread::Unset) {
                    *l = setup().map_or(Thread::Failed, Thread::Ready);
                }
                match &mut *l {
                    Thread::Ready(local) => Some(f(local)),
                    _ => None,
                }
            })
            .ok()
            .flatten()
    }

    /// This thread's [`SLOTS`] words for a binding (Node's Int32Array), set
    /// up on first use, with the signal unblocked on this thread (Node's
    /// worker threads start with it blocked); None where the thread has
    /// none. Valid until [`teardown_thread`] or the thread's exit.
    pub fn thread_words() -> Option<NonNull<AtomicI32>> {
        with_local(true, |local| {
            let set = sigset(local.sig);
            // SAFETY: unblocks one signal on this thread.
            let unblocked =
                unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, ptr::null_mut()) == 0 };
            unblocked.then(|| NonNull::from(&local.state.words[0]))
        })
        .flatten()
    }

    /// A free slot of this thread (1..SLOTS), or 0 where there is none or
    /// the thread has no words.
    pub fn take_slot() -> u32 {
        with_local(false, Local::take).flatten().unwrap_or(0) as u32
    }

    /// Gives a slot back (its word cleared).
    pub fn free_slot(slot: u32) {
        let i = slot as usize;
        with_local(false, |local| {
            if (1..SLOTS).contains(&i) {
                local.state.words[i].store(0, Ordering::Release);
                local.used[i] = false;
            }
        });
    }

    /// A claim under way for a slot with a word ([`begin`], then [`set`]).
    pub struct Claim {
        state: Rc<State>,
        slot: usize,
        start: u64,
    }

    /// Before a claim for `slot`: clears its word (the old run is over) and
    /// reads the clock the deadline counts from; None if the slot has no word.
    pub fn begin(slot: u32) -> Option<Claim> {
        let i = slot as usize;
        with_local(false, |local| {
            if !(1..SLOTS).contains(&i) || !local.used[i] {
                return None;
            }
            local.state.words[i].store(0, Ordering::Release);
            Some(Claim {
                state: Rc::clone(&local.state),
                slot: i,
                start: now_ns(),
            })
        })
        .flatten()
    }

    /// After a claim begun with [`begin`]: the run is fresh for `ms` from the
    /// start; true if its word is set (and the timer armed to clear it).
    pub fn set(claim: Claim, ms: f64) -> bool {
        let life = (ms * 1e6) as u64; // `as` saturates: NaN or negative read as 0
        // `ms` reaches the rule's limit (one tick after the run's tick): the
        // signal's delivery must fit before it.
        let deadline = claim.start.saturating_add(life).saturating_sub(SAFETY_NS);
        claim.state.set(claim.slot, claim.start, deadline)
    }

    /// Tears this thread's words down now (a binding whose user code ends
    /// before the thread: Node's env cleanup), as the thread's exit would.
    pub fn teardown_thread() {
        let _ = LOCAL.try_with(|l| {
            if let Ok(mut l) = l.try_borrow_mut() {
                *l = Thread::Unset;
            }
        });
    }

    /// For tests: the signal in use (0: none) and the armed deadline's
    /// distance from now in ns (-1: none) on this thread.
    pub fn debug() -> (i32, f64) {
        let sig = SIGNAL.get().copied().flatten().unwrap_or(0);
        let armed = with_local(false, |l| l.state.armed.load(Ordering::Acquire));
        let dist = match armed {
            Some(a) if a != u64::MAX => a as f64 - now_ns() as f64,
            _ => -1.0,
        };
        (sig, dist)
    }

    /// One slot of this thread's words, for the thread's own runs
    /// (per_thread.rs): a load tells whether its run is still fresh. Its
    /// methods take `&self`, so a thread-local holds it in no `RefCell`.
    pub(crate) struct Word {
        /// What [`Word::is_set`] loads: [`NEVER`], or the word of `held`.
        word: Cell<NonNull<AtomicI32>>,
        /// The state the word lives in (kept alive by this) and its slot.
        held: Cell<Option<(Rc<State>, usize)>>,
    }

    /// The word of a [`Word`] without a slot: never set.
    static NEVER: AtomicI32 = AtomicI32::new(0);

    const fn never() -> NonNull<AtomicI32> {
        // SAFETY: a static is never null.
        unsafe { NonNull::new_unchecked(&NEVER as *const AtomicI32 as *mut AtomicI32) }
    }

    impl Word {
        /// A word without a slot yet.
        pub(crate) const fn new() -> Word {
            Word {
                word: Cell::new(never()),
                held: Cell::new(None),
            }
        }

        /// Whether the run claimed last is still fresh.
        #[inline]
        pub(crate) fn is_set(&self) -> bool {
            // SAFETY: NEVER, or a word of the state in `held`, which the Rc
            // keeps alive (`word` is pointed back at NEVER before it goes).
            // Relaxed: only a signal handler on this thread clears it.
            unsafe { self.word.get().as_ref() }.load(Ordering::Relaxed) != 0
        }

        /// Takes a slot of this thread's words (set up on first use) unless
        /// it has one; false if it has none then.
        pub(crate) fn take(&self) -> bool {
            let held = self.held.take();
            if held.is_some() {
                self.held.set(held);
                return true;
            }
            let taken = with_local(true, |local| {
                local.take().map(|slot| (Rc::clone(&local.state), slot))
            });
            match taken.flatten() {
                Some((state, slot)) => {
                    self.word.set(NonNull::from(&state.words[slot]));
                    self.held.set(Some((state, slot)));
                    true
                }
                None => false,
            }
        }

        /// Sets the word until `left` ns after `start` (CLOCK_MONOTONIC ns
        /// read before the clock reading whose tick ends then); false if it
        /// cannot be set. A word whose thread's words were torn down or
        /// lost their timer is given up (taken anew later).
        ///
        /// No [`SAFETY_NS`] off this deadline: it is the end of the run's
        /// tick, a whole tick before the rule's limit (no ID handed out more
        /// than one tick after its tick), so the signal's delivery has that
        /// tick to arrive in. Taking 200 us off would leave the last fifth
        /// of every tick to a clock read per ID.
        pub(crate) fn set(&self, start: u64, left: u64) -> bool {
            let Some((state, slot)) = self.held.take() else {
                return false;
            };
            if state.broken.load(Ordering::Acquire) {
                self.release(state, slot);
                return false;
            }
            // A blocked signal would never clear the word.
            let set = !blocked(SIGNAL.get().copied().flatten().unwrap_or(0))
                && state.set(slot, start, start.saturating_add(left));
            self.held.set(Some((state, slot)));
            set
        }

        /// Points the word back at NEVER, then gives the slot back (unless
        /// the thread's words were replaced) and drops the state.
        fn release(&self, state: Rc<State>, slot: usize) {
            self.word.set(never());
            state.words[slot].store(0, Ordering::Release);
            with_local(false, |local| {
                if Rc::ptr_eq(&local.state, &state) {
                    local.used[slot] = false;
                }
            });
        }
    }

    impl Drop for Word {
        fn drop(&mut self) {
            if let Some((state, slot)) = self.held.take() {
                self.release(state, slot);
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
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
}

pub use imp::{Claim, begin, debug, free_slot, set, take_slot, teardown_thread, thread_words};
#[cfg(target_os = "linux")]
pub(crate) use imp::{Word, now_ns};
