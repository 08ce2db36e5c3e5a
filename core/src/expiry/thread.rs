//! A thread's expiry words (Linux): set up on first use, torn down with
//! the thread, and the slots, claims and deadlines a binding asks for.

use super::signal::{LIVE, SIGNAL, State, now_ns, signal, sigset};
use super::{SAFETY_NS, SLOTS};
use std::cell::RefCell;
use std::ptr::{self, NonNull};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::vec::Vec;

/// A thread's words: the state (shared with the thread's [`Word`](super::Word)s,
/// which may outlive this) and which slots are taken.
pub(super) struct Local {
    pub(super) state: Rc<State>,
    pub(super) used: Vec<bool>,
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
    pub(super) fn take(&mut self) -> Option<usize> {
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
/// timer still pending finds it gone from LIVE), and a [`Word`](super::Word) still
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
pub(super) fn with_local<R>(set_up: bool, f: impl FnOnce(&mut Local) -> R) -> Option<R> {
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
