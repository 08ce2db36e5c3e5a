//! The lease errors a [`Machine`] words for its driver: released,
//! unavailable, expired.

use super::{Machine, Mode, State};
use crate::error::{Code, LeaseError};

impl Machine {
    /// `ERR_LEASE_RELEASED`.
    pub fn released(&self) -> LeaseError {
        LeaseError::new(
            Code::Released,
            format!(
                "the lease on worker ID {} was released: configure a new lease (or a workerId) to mint again",
                self.id_text()
            ),
        )
    }

    /// `ERR_LEASE_UNAVAILABLE`: every worker ID of the range is leased.
    pub fn unavailable(&self) -> LeaseError {
        let (min, max) = (*self.range.start(), *self.range.end());
        LeaseError::new(
            Code::Unavailable,
            format!(
                "all {} worker IDs ({min}..{max}) of the {} lease at {} are leased by live generators; none is shared, so this generator cannot start. Free one (stop a generator) or widen workerIds.",
                u64::from(max) - u64::from(min) + 1,
                self.kind,
                self.place
            ),
        )
    }

    /// `ERR_LEASE_EXPIRED` at `now_ms`: why the lease does not cover a tick
    /// (pending, lost, not renewed in time).
    pub fn expired(&self, now_ms: u64) -> LeaseError {
        let (id, kind, place) = (self.id_text(), &self.kind, &self.place);
        let message = if self.state == State::Pending {
            format!(
                "worker ID {id} ({kind} lease at {place}) is claimed but starts only after {} (in {} ms): its high-water bound lies ahead, or the store has none and its data is younger than one TTL, so an earlier holder may still be minting on it. Minting resumes by itself.",
                self.resume_after_ms,
                self.resume_after_ms as i128 - now_ms as i128
            )
        } else {
            let since = self.renewed_at.map_or("never".into(), |at| {
                format!("{} ms ago", now_ms as i128 - at as i128)
            });
            let why = self
                .last_error
                .as_ref()
                .map_or(String::new(), |e| format!("; last error: {e}"));
            let state = if self.state == State::Lost {
                "lost (another holder may have it now)"
            } else {
                "not renewed in time"
            };
            let retry = match self.mode {
                Mode::Ttl(t) => format!("retried every {} ms", t.renew_ms),
                Mode::Sync { .. } => "retried on the next call".into(),
            };
            format!(
                "worker ID {id} ({kind} lease at {place}) is {state}: last renewed {since}{why}. Minting stops until the lease is re-acquired (automatic, {retry})."
            )
        };
        LeaseError::new(Code::Expired, message)
    }
}
