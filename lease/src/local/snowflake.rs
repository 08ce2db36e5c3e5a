//! The generator of a local lease: an `AtomicSnowflake` that mints only
//! what the lease covers.

use snowmint::clock::{Clock, MonotonicClock};
use snowmint::snowflake::{AtomicSnowflake, Claim, Decoded, Layout};

use super::LocalLease;
use crate::error::{Error, LeaseError};

/// A Snowflake generator on a [`LocalLease`]'s worker ID: an
/// [`AtomicSnowflake`] (lock-free, shareable between threads) that hands out
/// an ID only once the lease covers it, records its high water in the lock
/// file as it goes (one write per second of minting, one `lstat` per tick),
/// and frees the worker ID with its exact high-water mark when dropped.
///
/// ```
/// use snowmint::snowflake::{Layout, OnBackwards};
/// use snowmint_lease::{LeaseOptions, LocalLease};
/// # let dir = std::env::temp_dir().join(format!("snowmint-doc2-{}", std::process::id()));
///
/// let lease = LocalLease::acquire(LeaseOptions::new().dir(&dir).layout(&Layout::SONYFLAKE))?;
/// let ids = lease.snowflake_with(Layout::SONYFLAKE, |g| g.on_backwards(OnBackwards::Fail))?;
/// let (a, b) = (ids.next()?, ids.next()?);
/// assert!(b > a);
/// # drop(ids); std::fs::remove_dir_all(&dir).unwrap();
/// # Ok::<(), snowmint_lease::Error>(())
/// ```
#[derive(Debug)]
pub struct LeasedSnowflake<C: Clock + Clone = MonotonicClock> {
    pub(super) generator: AtomicSnowflake<C>,
    pub(super) lease: LocalLease<C>,
}

impl<C: Clock + Clone> LeasedSnowflake<C> {
    /// Takes up to `max` consecutive IDs of one tick, as
    /// [`AtomicSnowflake::claim`], once the lease covers them.
    pub fn claim(&self, max: u64) -> Result<Claim, Error> {
        let claim = self.generator.claim(max)?;
        let tick_ms = self.generator.layout().ms_of_tick(claim.tick);
        self.lease.check(tick_ms, &self.generator)?;
        Ok(claim)
    }

    /// The next ID.
    #[inline]
    pub fn next(&self) -> Result<u64, Error> {
        self.claim(1).map(|c| c.first)
    }

    /// Fills `out` with increasing IDs.
    pub fn next_batch(&self, out: &mut [u64]) -> Result<(), Error> {
        let per_tick = 1u64 << self.generator.layout().sequence_bits();
        let mut rest = out;
        while !rest.is_empty() {
            let c = self.claim((rest.len() as u64).min(per_tick))?;
            let (head, tail) = rest.split_at_mut(c.count as usize);
            for (out, id) in head.iter_mut().zip(c.ids()) {
                *out = id;
            }
            rest = tail;
        }
        Ok(())
    }

    /// The leased worker ID.
    pub fn worker_id(&self) -> u32 {
        self.lease.worker_id
    }

    /// The layout.
    pub fn layout(&self) -> &Layout {
        self.generator.layout()
    }

    /// Splits an ID of this generator's layout into its fields.
    pub fn decode(&self, id: u64) -> Result<Decoded, snowmint::Error> {
        self.generator.decode(id)
    }

    /// The lease.
    pub fn lease(&self) -> &LocalLease<C> {
        &self.lease
    }

    /// The last tick this generator minted in, as Unix ms.
    pub fn high_water_ms(&self) -> Option<u64> {
        self.generator.high_water_ms()
    }

    /// Stops minting, records the exact high-water mark (the last tick
    /// minted) and frees the worker ID; what dropping does, with the error.
    pub fn release(self) -> Result<(), LeaseError> {
        self.lease.finish(self.generator.high_water_ms())
    }
}

impl<C: Clock + Clone> Drop for LeasedSnowflake<C> {
    fn drop(&mut self) {
        let _ = self.lease.finish(self.generator.high_water_ms());
    }
}
