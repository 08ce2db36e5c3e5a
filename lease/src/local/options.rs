//! What a [`LocalLease`](crate::LocalLease) is asked for: the lease
//! directory, the worker IDs it may claim, and what to do about a skewed
//! clock.

use std::ops::RangeInclusive;
use std::path::PathBuf;

use snowmint::snowflake::Layout;

use crate::lock::Skew;

/// The worker IDs a lease may claim when no range or layout is given: the
/// 1,024 of the default (Twitter) layout's 10-bit worker field.
pub const DEFAULT_WORKER_IDS: RangeInclusive<u32> = 0..=1023;

/// What a lease does when its clock is too far from the host's or its
/// peers' ([`Skew`]).
#[derive(Debug, Clone, Copy, Default)]
pub enum OnSkew {
    /// Refuse to mint: acquiring and minting fail with
    /// [`Code::ClockSkew`](crate::Code::ClockSkew) (`ERR_CLOCK_SKEW`) until
    /// the clocks agree again.
    #[default]
    Refuse,
    /// Mint, and call this (e.g. to log) at each check that finds it.
    Warn(fn(&Skew)),
}

/// The default of [`LeaseOptions::max_skew_ms`].
pub const DEFAULT_MAX_SKEW_MS: u64 = 1000;

/// Where and which worker IDs a [`LocalLease`](crate::LocalLease) claims.
#[derive(Debug, Clone)]
pub struct LeaseOptions {
    pub(super) dir: Option<PathBuf>,
    pub(super) worker_ids: Option<RangeInclusive<u32>>,
    pub(super) worker_id: Option<u32>,
    pub(super) trust_local: bool,
    pub(super) max_skew_ms: u64,
    pub(super) on_skew: OnSkew,
}

impl Default for LeaseOptions {
    fn default() -> Self {
        LeaseOptions {
            dir: None,
            worker_ids: None,
            worker_id: None,
            trust_local: false,
            max_skew_ms: DEFAULT_MAX_SKEW_MS,
            on_skew: OnSkew::Refuse,
        }
    }
}

impl LeaseOptions {
    /// Zero configuration: the directory of `SNOWMINT_LEASE_DIR`, else
    /// [`default_dir`](crate::default_dir) (`<tmpdir>/snowmint-leases-<user>`,
    /// as in Node), and worker IDs 0 to 1023.
    pub fn new() -> Self {
        LeaseOptions::default()
    }

    /// The lease directory, an absolute path: every process that must not
    /// share a worker ID has to use the same one.
    pub fn dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.dir = Some(dir.into());
        self
    }

    /// Claims only worker IDs in `ids` (e.g. to give services disjoint ranges).
    pub fn worker_ids(mut self, ids: RangeInclusive<u32>) -> Self {
        self.worker_ids = Some(ids);
        self
    }

    /// Locks exactly worker ID `id`, one you chose for this process: a live
    /// process of this host that holds it already makes the acquisition fail
    /// at once with [`Code::WorkerIdInUse`](crate::Code::WorkerIdInUse)
    /// (naming its pid), and a restart on a clock that went back resumes
    /// after the last tick minted under it. Unlike a range, an explicit ID is not refused on replica
    /// platforms: giving each instance its own is the way out there.
    pub fn worker_id(mut self, id: u32) -> Self {
        self.worker_id = Some(id);
        self
    }

    /// Says that this host's lease directory is enough (one replica, or a
    /// directory that every replica shares), as `SNOWMINT_LEASE=local` does:
    /// zero configuration then neither refuses on a platform that runs
    /// replicas ([`crate::platform`]) nor warns in a container.
    pub fn trust_local(mut self, trust: bool) -> Self {
        self.trust_local = trust;
        self
    }

    /// How far (ms) the lease's clock may be from the host's, or from the
    /// mean of its live peers', checked at acquisition and at each write of
    /// the bound (default 1,000; `u64::MAX` turns the check off).
    pub fn max_skew_ms(mut self, ms: u64) -> Self {
        self.max_skew_ms = ms;
        self
    }

    /// Refuse (the default) or warn beyond `max_skew_ms`.
    pub fn on_skew(mut self, on_skew: OnSkew) -> Self {
        self.on_skew = on_skew;
        self
    }

    /// Claims among every worker ID of `layout`'s worker field (8,192 for
    /// Instagram, 65,536 for Sonyflake).
    pub fn layout(self, layout: &Layout) -> Self {
        let max = (1u64 << layout.worker_bits()) - 1;
        self.worker_ids(0..=u32::try_from(max).unwrap_or(u32::MAX))
    }
}
