//! snowmint/lease's rules: the lease crate's state machine
//! (`snowmint_lease::machine::Machine`) for `npm/src/lease/lease.js`, which
//! does the I/O and emits the events. Conversion only.
//!
//! Times are Unix ms as JS numbers; a fraction is rounded up (a later
//! reading never starts a lease early). NaN stands for "none".

use std::collections::HashMap;

use napi::bindgen_prelude::Float64ArraySlice;
use napi_derive::napi;
use snowmint_lease::LeaseError;
use snowmint_lease::machine::{
    Check, Claim, Machine, Mode, PeerReading, Readings, Refusal, SkewFault, SkewLimit, Timing,
    measure_skew,
};

use crate::Result;

fn ms(v: f64) -> u64 {
    if v.is_finite() && v > 0.0 {
        v.ceil() as u64
    } else {
        0
    }
}

fn opt(v: f64) -> Option<u64> {
    (!v.is_nan()).then(|| ms(v))
}

fn opt_f(v: f64) -> Option<f64> {
    (!v.is_nan()).then_some(v)
}

fn js_err(e: LeaseError) -> napi::Error<&'static str> {
    napi::Error::new(e.code().as_str(), e.message().to_string())
}

/// A lease error as data: lease.js builds the error of its class (`makeError`).
#[napi(object)]
pub struct LeaseFault {
    pub code: String,
    pub message: String,
}

impl From<LeaseError> for LeaseFault {
    fn from(e: LeaseError) -> Self {
        LeaseFault {
            code: e.code().as_str().into(),
            message: e.message().into(),
        }
    }
}

/// A clock beyond `maxSkewMs` (`ERR_CLOCK_SKEW`), with what measured it.
#[napi(object)]
pub struct SkewReport {
    pub code: String,
    pub message: String,
    pub worker_id: u32,
    pub skew_ms: f64,
    pub err_ms: f64,
    pub against: String,
    pub peers: u32,
    pub max_skew_ms: f64,
    pub refuse: bool,
}

impl From<&SkewFault> for SkewReport {
    fn from(f: &SkewFault) -> Self {
        SkewReport {
            code: f.error.code().as_str().into(),
            message: f.error.message().into(),
            worker_id: f.worker_id,
            skew_ms: f.skew_ms as f64,
            err_ms: f.err_ms as f64,
            against: f.against.as_str().into(),
            peers: f.peers as u32,
            max_skew_ms: f.max_skew_ms as f64,
            refuse: f.refuse,
        }
    }
}

/// `check` answers: covered, or (> 0) the bound a synchronous store writes first.
const COVERED: f64 = 0.0;
/// `check` refusals (the JS side asks for the error it then throws).
const LOST_SYNC: f64 = -1.0;
const SKEWED: f64 = -2.0;
const RELEASED: f64 = -3.0;
const EXPIRED: f64 = -4.0;

#[napi]
pub struct LeaseMachine {
    inner: Machine,
}

/// A lease's rules for a store of `kind` at `place` on worker IDs
/// `min..=max`. `timing`: [ttlMs, renewMs, marginMs] for a store with a TTL,
/// empty for a synchronous one (whose writes reach `reserveMs` ahead).
#[allow(clippy::too_many_arguments)]
#[napi(catch_unwind)]
pub fn lease_machine_new(
    kind: String,
    place: String,
    min: u32,
    max: u32,
    timing: Float64ArraySlice<'_>,
    reserve_ms: f64,
    max_skew_ms: f64,
    refuse: bool,
) -> Result<LeaseMachine> {
    let mode = match &timing[..] {
        [ttl, renew, margin] => Mode::Ttl(
            Timing::new(Some(ms(*ttl)), Some(ms(*renew)), Some(ms(*margin))).map_err(js_err)?,
        ),
        _ => Mode::Sync {
            reserve_ms: ms(reserve_ms),
        },
    };
    let skew = SkewLimit {
        max_skew_ms: ms(max_skew_ms),
        refuse,
    };
    Ok(LeaseMachine {
        inner: Machine::new(kind, place, min..=max, mode, skew),
    })
}

/// `[ttlMs, renewMs, marginMs]` checked and defaulted (NaN: the default).
#[napi(catch_unwind)]
pub fn lease_timing(ttl_ms: f64, renew_ms: f64, margin_ms: f64) -> Result<Vec<f64>> {
    let t = Timing::new(opt(ttl_ms), opt(renew_ms), opt(margin_ms)).map_err(js_err)?;
    Ok(vec![t.ttl_ms as f64, t.renew_ms as f64, t.margin_ms as f64])
}

/// One measure of `measure_skew`, as skew.js's `measureSkew` gives it.
#[napi(object)]
pub struct SkewMeasure {
    pub against: String,
    pub what: String,
    pub peers: u32,
    pub skew_ms: f64,
    pub err_ms: f64,
}

/// The holder's clock against the readings of a renewal sent at `sent_ms`
/// and answered at `done_ms` (`readings` as for `renewed`).
#[napi(catch_unwind)]
pub fn lease_measure_skew(
    server_name: Option<String>,
    readings: Float64ArraySlice<'_>,
    sent_ms: f64,
    done_ms: f64,
) -> Vec<SkewMeasure> {
    measure_skew(&readings_of(server_name, &readings), sent_ms, done_ms)
        .into_iter()
        .map(|m| SkewMeasure {
            against: m.against.as_str().into(),
            what: m.what,
            peers: m.peers as u32,
            skew_ms: m.skew_ms,
            err_ms: m.err_ms,
        })
        .collect()
}

/// `readings`: [server ms or NaN, then per peer: worker ID, clock ms, server ms or NaN, age bound or NaN].
fn readings_of(server_name: Option<String>, flat: &[f64]) -> Readings {
    let server = match (server_name, flat.first()) {
        (Some(name), Some(&at)) if !at.is_nan() => Some((name, at)),
        _ => None,
    };
    let peers = flat
        .get(1..)
        .unwrap_or(&[])
        .chunks_exact(4)
        .map(|p| PeerReading {
            worker_id: p[0] as u32,
            clock_ms: p[1],
            server_ms: opt_f(p[2]),
            age_max_ms: opt_f(p[3]),
        })
        .collect();
    Readings { server, peers }
}

#[napi]
impl LeaseMachine {
    /// The worker ID, or -1 before the first claim.
    #[napi(getter)]
    pub fn worker_id(&self) -> i64 {
        self.inner.worker_id().map_or(-1, i64::from)
    }
    #[napi(getter)]
    pub fn resume_after_ms(&self) -> f64 {
        self.inner.resume_after_ms() as f64
    }
    #[napi(getter)]
    pub fn epoch(&self) -> f64 {
        self.inner.epoch() as f64
    }
    #[napi(getter)]
    pub fn state(&self) -> &'static str {
        self.inner.state().as_str()
    }
    /// Whether a synchronous store's lock must be probed before `check`.
    #[napi(getter)]
    pub fn probes(&self) -> bool {
        self.inner.probes()
    }

    /// The claim order given the recorded bounds ([worker ID, bound, ...]).
    #[napi(catch_unwind)]
    pub fn claim_order(&self, bounds: Float64ArraySlice<'_>, now_ms: f64) -> Vec<u32> {
        let bounds: HashMap<u32, u64> = bounds
            .chunks_exact(2)
            .map(|p| (p[0] as u32, ms(p[1])))
            .collect();
        self.inner.claim_order(&bounds, ms(now_ms))
    }

    /// A claim's answer (`worker_id` -1: none free; throws ERR_LEASE_UNAVAILABLE).
    /// Returns the bound a synchronous store writes at once, else -1.
    #[napi(catch_unwind)]
    pub fn claimed(
        &mut self,
        worker_id: i64,
        bound: f64,
        wait_ms: f64,
        now_ms: f64,
        own_hwm: f64,
    ) -> Result<f64> {
        let got = u32::try_from(worker_id).ok().map(|worker_id| Claim {
            worker_id,
            bound: ms(bound),
            wait_ms: ms(wait_ms),
        });
        let write = self
            .inner
            .claimed(got, ms(now_ms), opt(own_hwm))
            .map_err(js_err)?;
        Ok(write.map_or(-1.0, |b| b as f64))
    }

    /// 0: covered; > 0: write this bound first (then `recorded`); < 0: refused
    /// (-1 lost lock, -2 skewed, -3 released, -4 expired).
    #[napi]
    pub fn check(&self, tick_ms: f64, still_held: bool) -> f64 {
        match self.inner.check(ms(tick_ms), still_held) {
            Ok(Check::Covered) => COVERED,
            Ok(Check::Record(b)) => b as f64,
            Err(Refusal::LostSync) => LOST_SYNC,
            Err(Refusal::Skewed(_)) => SKEWED,
            Err(Refusal::Released(_)) => RELEASED,
            Err(Refusal::Expired) => EXPIRED,
        }
    }

    /// The error of a refused `check` (code from `check`) at `now_ms`.
    #[napi(catch_unwind)]
    pub fn refusal(&self, code: f64, now_ms: f64) -> LeaseFault {
        if code == RELEASED {
            self.inner.released().into()
        } else {
            self.inner.expired(ms(now_ms)).into()
        }
    }

    /// The skew fault that fences checks (onSkew 'refuse'), if any, or the
    /// one that keeps a new lease from starting (`starting`).
    #[napi(catch_unwind)]
    pub fn skew_fault(&self, starting: bool) -> Option<SkewReport> {
        if starting {
            return self.inner.refuses_start().map(SkewReport::from);
        }
        self.inner.skew_fault().map(SkewReport::from)
    }

    #[napi(catch_unwind)]
    pub fn unavailable(&self) -> LeaseFault {
        self.inner.unavailable().into()
    }

    /// A synchronous write of `bound`, sent at `sent_ms`, done at `done_ms`.
    #[napi(catch_unwind)]
    pub fn recorded(
        &mut self,
        bound: f64,
        sent_ms: f64,
        done_ms: f64,
        server_name: Option<String>,
        readings: Option<Float64ArraySlice<'_>>,
    ) -> Option<SkewReport> {
        let r = readings.map(|f| readings_of(server_name, &f));
        self.inner
            .recorded(ms(bound), r.as_ref(), ms(sent_ms), ms(done_ms))
            .as_ref()
            .map(SkewReport::from)
    }

    #[napi(catch_unwind)]
    pub fn renew_bound(&self, sent_ms: f64) -> f64 {
        self.inner.renew_bound(ms(sent_ms)) as f64
    }

    /// A renewal that recorded `bound`; a skew beyond the limit found first in its episode.
    #[napi(catch_unwind)]
    pub fn renewed(
        &mut self,
        bound: f64,
        sent_ms: f64,
        done_ms: f64,
        server_name: Option<String>,
        readings: Option<Float64ArraySlice<'_>>,
    ) -> Option<SkewReport> {
        let r = readings.map(|f| readings_of(server_name, &f));
        self.inner
            .renewed(ms(bound), r.as_ref(), ms(sent_ms), ms(done_ms))
            .as_ref()
            .map(SkewReport::from)
    }

    #[napi(catch_unwind)]
    pub fn failed(&mut self, why: String) {
        self.inner.failed(why);
    }

    /// The worker ID is no longer ours: the ERR_LEASE_LOST to report.
    #[napi(catch_unwind)]
    pub fn lose(&mut self) -> LeaseFault {
        self.inner.lose().into()
    }

    /// Whether the lease just became held at `now_ms`.
    #[napi(catch_unwind)]
    pub fn promote(&mut self, now_ms: f64) -> bool {
        self.inner.promote(ms(now_ms))
    }

    #[napi(catch_unwind)]
    pub fn renew_due(&self, now_ms: f64) -> bool {
        self.inner.renew_due(ms(now_ms))
    }

    #[napi(catch_unwind)]
    pub fn attempting(&mut self, now_ms: f64) {
        self.inner.attempting(ms(now_ms));
    }

    #[napi(catch_unwind)]
    pub fn next_delay(&self, now_ms: f64) -> f64 {
        self.inner.next_delay(ms(now_ms)) as f64
    }

    #[napi(catch_unwind)]
    pub fn wait_delay(&self, now_ms: f64) -> f64 {
        self.inner.wait_delay(ms(now_ms)) as f64
    }

    /// [worker ID, exact high-water mark] to record as the store frees it, or null.
    #[napi(catch_unwind)]
    pub fn release(&mut self, own_hwm: f64) -> Option<Vec<f64>> {
        self.inner
            .release(opt(own_hwm))
            .map(|(id, hwm)| vec![f64::from(id), hwm as f64])
    }
}

/// The Redis lease's Lua scripts ([claim, extend, release, bounds]) and
/// [claim batch, peer sample]: the lease crate's one copy, which its Rust
/// driver sends too.
#[napi]
pub fn lease_redis_scripts() -> Vec<String> {
    use snowmint_lease::redis_scripts::{BOUNDS, CLAIM, EXTEND, RELEASE};
    [CLAIM, EXTEND, RELEASE, BOUNDS].map(String::from).to_vec()
}

#[napi]
pub const LEASE_REDIS_CLAIM_BATCH: u32 = snowmint_lease::redis_scripts::CLAIM_BATCH as u32;
#[napi]
pub const LEASE_REDIS_PEER_SAMPLE: u32 = snowmint_lease::redis_scripts::PEER_SAMPLE;
