//! A spin lock in shared memory for the ULID and UUIDv7 streams, whose
//! critical section is a few instructions (the core's generator stepping
//! its state): per ID, one atomic exchange to take it and a store to give
//! it back. An LWLock, or PostgreSQL's own spinlock (`PgSpinLock`), is a
//! call into PostgreSQL each way, which pgrx guards with a `sigsetjmp` per
//! call: a UUIDv7's own cost measured 0.102 µs under the LWLock, 0.088 µs
//! under `PgSpinLock`, 0.070 µs under this lock.
//!
//! What runs under it calls nothing of PostgreSQL's (no allocation, no
//! error raised, no I/O but the rare refill of the random pool), so no
//! `longjmp` can leave it taken; a panic unwinds through the guard, which
//! gives it back. A backend that dies holding it takes the server through
//! crash recovery, which makes shared memory anew.

use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, Ordering};

use pgrx::shmem::PGRXSharedMemory;

/// `T` behind a test-and-set lock; lives in shared memory.
#[derive(Default)]
pub struct SpinLock<T> {
    locked: AtomicBool,
    value: UnsafeCell<T>,
}

// SAFETY: `value` is reached only through `with`, which holds the lock.
unsafe impl<T: Send> Sync for SpinLock<T> {}
// SAFETY: an atomic flag and plain data (the generators' integers).
unsafe impl<T: PGRXSharedMemory> PGRXSharedMemory for SpinLock<T> {}

/// Gives the lock back when dropped: at the end of `with`, or when a
/// panic unwinds through it.
struct Held<'a>(&'a AtomicBool);

impl Drop for Held<'_> {
    #[inline]
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

impl<T> SpinLock<T> {
    /// Runs `f` on the value with the lock held. `f` must be short and must
    /// not call into PostgreSQL (see the module docs).
    #[inline]
    pub fn with<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        if self
            .locked
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            self.wait();
        }
        let _held = Held(&self.locked);
        // SAFETY: the lock is held until `_held` drops.
        f(unsafe { &mut *self.value.get() })
    }

    /// Takes the lock when another session holds it: spins a while, then
    /// yields the CPU (the holder may be descheduled, on 2 cores say).
    #[cold]
    fn wait(&self) {
        let mut spins = 0u32;
        loop {
            while self.locked.load(Ordering::Relaxed) {
                if spins < 100 {
                    spins += 1;
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
            }
            if self
                .locked
                .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
            {
                return;
            }
        }
    }
}
