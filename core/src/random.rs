//! Randomness for the one-call functions ([`new_ulid`](crate::new_ulid)
//! and friends): each thread draws from the OS's CSPRNG, pooled.
//!
//! Natively the thread's generator is rand's `ThreadRng` (ChaCha12 seeded
//! from the OS and reseeded every 64 KiB): a few ns per ID, where even a
//! pooled OS read costs more. In a browser (`wasm32-unknown-unknown`) it is
//! [`PooledOsRng`]: the OS source is `crypto.getRandomValues`, itself a
//! CSPRNG, so a ChaCha on top adds nothing but code (about 4 KB of the
//! module's gzipped size budget); pooling keeps the cost of its call out of
//! each ID.

use core::cell::RefCell;
use core::convert::Infallible;

use rand_core::{TryCryptoRng, TryRng};

/// Bytes fetched per OS call: 1.5-7 µs per call whatever its size (and
/// `crypto.getRandomValues` takes up to 64 KiB), spread over about 300 IDs.
const POOL_BYTES: usize = 4096;

/// All zeros when empty, so that in wasm the pool is zero-initialized
/// memory rather than 4 KiB of the module's data.
struct Pool {
    bytes: [u8; POOL_BYTES],
    /// Unserved bytes, at the end of `bytes`.
    left: usize,
}

std::thread_local! {
    static POOL: RefCell<Pool> = const {
        RefCell::new(Pool { bytes: [0; POOL_BYTES], left: 0 })
    };
}

impl Pool {
    /// Moves the next bytes of the pool into `dst`, refilling as it empties.
    fn take(&mut self, mut dst: &mut [u8]) {
        while !dst.is_empty() {
            if self.left == 0 {
                // As rand's ThreadRng does when the OS cannot reseed it: an ID
                // without entropy is never an option, and no error is returned
                // for it (a browser always has crypto.getRandomValues).
                if getrandom::fill(&mut self.bytes).is_err() {
                    panic!("the OS random source failed");
                }
                self.left = POOL_BYTES;
            }
            let n = dst.len().min(self.left);
            let start = POOL_BYTES - self.left;
            let (head, rest) = dst.split_at_mut(n);
            let served = &mut self.bytes[start..start + n];
            head.copy_from_slice(served);
            // Served bytes are not kept: a later memory read cannot recover them.
            served.fill(0);
            self.left -= n;
            dst = rest;
        }
    }
}

/// The OS's CSPRNG (`getrandom`) through a per-thread pool of 4 KiB, so
/// only one call in hundreds of IDs reaches the OS. A handle is free to
/// create: all handles of a thread share its pool.
#[derive(Debug, Clone, Copy, Default)]
pub struct PooledOsRng;

impl PooledOsRng {
    /// The next `N` bytes: for a UUIDv7 this runs once per ID, so the
    /// common case (enough bytes left) is a copy without `take`'s loop.
    #[inline]
    fn bytes<const N: usize>() -> [u8; N] {
        POOL.with_borrow_mut(|p| {
            let start = POOL_BYTES - p.left;
            match p.bytes[start..].first_chunk_mut::<N>() {
                // A fixed-size move: no call to a slice copy.
                Some(served) => {
                    p.left -= N;
                    core::mem::replace(served, [0; N])
                }
                None => {
                    let mut b = [0; N];
                    p.take(&mut b);
                    b
                }
            }
        })
    }
}

impl TryRng for PooledOsRng {
    type Error = Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(u32::from_le_bytes(Self::bytes()))
    }

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(u64::from_le_bytes(Self::bytes()))
    }

    #[inline]
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        POOL.with_borrow_mut(|p| p.take(dst));
        Ok(())
    }
}

impl TryCryptoRng for PooledOsRng {}

/// The thread's generator (see the module docs for the choice).
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub(crate) type ThreadRng = rand::rngs::ThreadRng;
/// The thread's generator (see the module docs for the choice).
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub(crate) type ThreadRng = PooledOsRng;

/// A handle to the calling thread's generator.
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
#[inline]
pub(crate) fn thread_rng() -> ThreadRng {
    rand::rng()
}

/// The calling thread's generator, looked up at each draw: for a caller
/// that mostly draws nothing (a ULID within a run), which a held handle
/// would cost a lookup per call.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct EachDraw;

impl TryRng for EachDraw {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        thread_rng().try_next_u32()
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        thread_rng().try_next_u64()
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        thread_rng().try_fill_bytes(dst)
    }
}

impl TryCryptoRng for EachDraw {}

/// A handle to the calling thread's generator.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
#[inline]
pub(crate) fn thread_rng() -> ThreadRng {
    PooledOsRng
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::Rng;

    #[test]
    fn serves_fresh_bytes_across_refills() {
        let mut rng = PooledOsRng;
        // Longer than the pool, starting mid-pool: crosses two refills.
        rng.next_u32();
        let mut a = [0u8; 2 * POOL_BYTES + 3];
        rng.fill_bytes(&mut a);
        let mut b = [0u8; 2 * POOL_BYTES + 3];
        rng.fill_bytes(&mut b);
        assert_ne!(a, b);
        // Uniform bytes: no 4 KiB window of all zeros (a refill that did not happen).
        for w in a.chunks_exact(POOL_BYTES).chain(b.chunks_exact(POOL_BYTES)) {
            assert!(w.iter().filter(|&&x| x == 0).count() < w.len() / 16);
        }
        assert_ne!(rng.next_u64(), rng.next_u64());
    }
}
