//! A thread's own expiry word for its one-call runs (Linux).

use super::signal::{SIGNAL, State, blocked};
use super::thread::with_local;
use std::cell::Cell;
use std::ptr::NonNull;
use std::rc::Rc;
use std::sync::atomic::{AtomicI32, Ordering};

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
    /// No [`SAFETY_NS`](super::SAFETY_NS) off this deadline: it is the end of the run's
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
