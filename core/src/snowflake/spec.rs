//! A generator's options as a binding receives them, names already looked
//! up ([`Preset::from_name`], [`OnBackwards::from_index`], ...): built into
//! a generator here, once, for every binding.

#[cfg(target_has_atomic = "64")]
use super::AtomicSnowflake;
use super::{CustomLayout, Layout, OnBackwards, OnExhausted, Preset};
#[cfg(target_has_atomic = "64")]
use crate::clock::Clock;
use crate::error::Error;

/// Everything the options say about a Snowflake generator but its clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec {
    /// The worker ID (see `worker_parts`).
    pub worker_id: u64,
    /// The worker ID as the named parts of a preset that splits it
    /// (`(high, low)`, e.g. Twitter's datacenter and worker); replaces
    /// `worker_id` when given.
    pub worker_parts: Option<(u64, u64)>,
    /// The preset whose layout is used when `custom` is `None`.
    pub preset: Preset,
    /// Custom field widths, replacing the preset's.
    pub custom: Option<CustomLayout>,
    /// Replaces the epoch (a custom layout without one starts at the Unix epoch).
    pub epoch_ms: Option<u64>,
    /// What to do when the clock steps back.
    pub on_backwards: OnBackwards,
    /// What to do when a tick's sequence is used up.
    pub on_exhausted: OnExhausted,
    /// A worker-ID lease's high-water mark: the first ID falls in a later tick.
    pub resume_after_ms: Option<u64>,
}

impl Spec {
    /// The layout the options describe ([`Layout::resolve`]).
    pub fn layout(&self) -> Result<Layout, Error> {
        Layout::resolve(self.preset, self.custom, self.epoch_ms)
    }

    /// The worker ID the options give: `worker_parts` packed
    /// ([`Layout::worker_of_parts`]), else `worker_id`.
    pub fn worker_id(&self) -> Result<u64, Error> {
        match self.worker_parts {
            Some((high, low)) => self.layout()?.worker_of_parts(high, low),
            None => Ok(self.worker_id),
        }
    }

    /// The generator the options describe, on `clock`.
    #[cfg(target_has_atomic = "64")]
    pub fn build<C: Clock>(&self, clock: C) -> Result<AtomicSnowflake<C>, Error> {
        let generator = AtomicSnowflake::new(self.layout()?, self.worker_id()?, clock)?
            .on_backwards(self.on_backwards)
            .on_exhausted(self.on_exhausted);
        match self.resume_after_ms {
            Some(ms) => generator.resume_after(ms),
            None => Ok(generator),
        }
    }

    /// The generator that replaces `previous` (a reconfigured default
    /// generator, which other threads may have minted from): it mints
    /// only after the last tick `previous` minted in.
    #[cfg(target_has_atomic = "64")]
    pub fn build_after<C: Clock>(
        &self,
        clock: C,
        previous: Option<&AtomicSnowflake<C>>,
    ) -> Result<AtomicSnowflake<C>, Error> {
        let generator = self.build(clock)?;
        match previous.and_then(AtomicSnowflake::high_water_ms) {
            Some(ms) => generator.resume_after(ms),
            None => Ok(generator),
        }
    }
}
