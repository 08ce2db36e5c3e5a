//! The limit on a holder's clock skew ([`SkewLimit`]), the fault a renewal
//! reports beyond it ([`SkewFault`]), and how the [`Machine`] judges each
//! renewal's [`Readings`] against it.

use super::{Against, Machine, Measure, Readings, measure_skew};
use crate::error::{Code, LeaseError};

/// What a holder does when its clock is too far from the others'.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkewLimit {
    /// How far (ms) the holder's clock may be from the coordinator's or its
    /// peers', beyond the measure's error bound.
    pub max_skew_ms: u64,
    /// `true`: every check fails while beyond it, and a new lease does not
    /// start; `false`: only report it.
    pub refuse: bool,
}

impl Default for SkewLimit {
    /// 1000 ms, report only (the coordinator leases' default).
    fn default() -> Self {
        SkewLimit {
            max_skew_ms: 1000,
            refuse: false,
        }
    }
}

/// The holder's clock beyond the skew limit, as one renewal measured it.
#[derive(Debug, Clone, PartialEq)]
pub struct SkewFault {
    /// `ERR_CLOCK_SKEW`, with a message saying by how much and what to do.
    pub error: LeaseError,
    /// The worker ID held.
    pub worker_id: u32,
    /// Ours minus theirs, rounded to whole ms.
    pub skew_ms: i64,
    /// How far off that may be, rounded up.
    pub err_ms: u64,
    /// What it was measured against.
    pub against: Against,
    /// How many peers' reports went into it.
    pub peers: usize,
    /// The limit.
    pub max_skew_ms: u64,
    /// Whether the limit refuses ([`SkewLimit::refuse`]).
    pub refuse: bool,
}

impl Machine {
    /// A skew beyond the limit that refuses, found before the lease's first
    /// start: a new holder whose clock is off does not start (Twitter's
    /// rule); a running one that claims again keeps its lease, fenced until
    /// its clock is back within the limit. The driver releases and fails.
    pub fn refuses_start(&self) -> Option<&SkewFault> {
        self.skew_fault.as_ref().filter(|_| self.epoch == 0)
    }

    /// The skew beyond a refusing limit that fails every check while the
    /// lease is held (until a renewal finds the clock within again).
    pub fn skew_fault(&self) -> Option<&SkewFault> {
        self.skew_fault.as_ref()
    }

    /// Whether the last renewal with readings found the clock beyond the
    /// limit (refusing or not).
    pub fn skewed(&self) -> bool {
        self.skewed
    }

    /// Compares the holder's clock with the readings of a write sent at
    /// `sent_ms` and answered at `done_ms`: beyond the limit even allowing
    /// for the error bound, a fault (returned once per episode), and with a
    /// refusing limit every check fails until a renewal finds the clock
    /// within again.
    pub(super) fn judge_skew(
        &mut self,
        readings: &Readings,
        sent_ms: u64,
        done_ms: u64,
    ) -> Option<SkewFault> {
        let max = self.skew.max_skew_ms as f64;
        let mut beyond: Vec<Measure> = measure_skew(readings, sent_ms as f64, done_ms as f64)
            .into_iter()
            .filter(|m| m.excess(max) > 0.0)
            .collect();
        beyond.sort_by(|a, b| b.excess(max).total_cmp(&a.excess(max)));
        let Some(worst) = beyond.into_iter().next() else {
            self.skewed = false;
            self.skew_fault = None;
            return None;
        };
        // Rounded as JavaScript's Math.round: half up.
        let ms = (worst.skew_ms + 0.5).floor() as i64;
        let then = if self.skew.refuse {
            format!(
                "Minting is refused (onSkew 'refuse'): a new lease is not granted, and a held one mints again once a renewal finds the clock within {} ms",
                self.skew.max_skew_ms
            )
        } else {
            format!(
                "IDs are still minted (onSkew 'warn'), but they sort {} IDs minted at the same moment elsewhere",
                if ms > 0 { "after" } else { "before" }
            )
        };
        let err_ms = worst.err_ms.ceil() as u64;
        let message = format!(
            "the clock of worker ID {} ({} lease at {}) is {} ms {} {}, measured to within {err_ms} ms: beyond maxSkewMs {}. {then}. Fix the host's time synchronisation (NTP, chrony).",
            self.id_text(),
            self.kind,
            self.place,
            ms.unsigned_abs(),
            if ms > 0 { "ahead of" } else { "behind" },
            worst.what,
            self.skew.max_skew_ms,
        );
        let fault = SkewFault {
            error: LeaseError::new(Code::ClockSkew, message),
            worker_id: self.worker_id.unwrap_or(0),
            skew_ms: ms,
            err_ms,
            against: worst.against,
            peers: worst.peers,
            max_skew_ms: self.skew.max_skew_ms,
            refuse: self.skew.refuse,
        };
        if self.skew.refuse {
            self.skew_fault = Some(fault.clone());
        }
        if self.skewed {
            return None;
        }
        self.skewed = true;
        Some(fault)
    }
}
