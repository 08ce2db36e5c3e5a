//! The timing of a lease with a TTL, checked.

use crate::error::{Code, LeaseError};

/// How a lease with a TTL keeps its worker ID: the store forgets a holder
/// `ttl_ms` after its last renewal; the holder renews every `renew_ms` and
/// fences itself `ttl_ms - margin_ms` after a renewal it sent (`margin_ms`
/// is how far two hosts' clocks may run apart within one TTL, and what a
/// renewal's round trip may take).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// How long the store keeps a worker ID after its last renewal.
    pub ttl_ms: u64,
    /// How often the holder renews.
    pub renew_ms: u64,
    /// How long before the TTL ends the holder stops minting.
    pub margin_ms: u64,
}

impl Timing {
    /// Checks `renew_ms + margin_ms < ttl_ms` (a renewal must land before
    /// the fence), all of them positive. Defaults (`None`): a TTL of 10 s,
    /// renewals every third of it, a margin of a fifth (rounded).
    pub fn new(
        ttl_ms: Option<u64>,
        renew_ms: Option<u64>,
        margin_ms: Option<u64>,
    ) -> Result<Self, LeaseError> {
        let ttl_ms = ttl_ms.unwrap_or(10_000);
        let round = |n: u64, d: u64| (2 * n + d) / (2 * d);
        let t = Timing {
            ttl_ms,
            renew_ms: renew_ms.unwrap_or(round(ttl_ms, 3)),
            margin_ms: margin_ms.unwrap_or(round(ttl_ms, 5)),
        };
        for (k, v) in [
            ("ttlMs", t.ttl_ms),
            ("renewMs", t.renew_ms),
            ("marginMs", t.margin_ms),
        ] {
            if v == 0 {
                return Err(LeaseError::new(
                    Code::InvalidOption,
                    format!("{k} must be a positive integer, got {v}"),
                ));
            }
        }
        if t.renew_ms.saturating_add(t.margin_ms) >= t.ttl_ms {
            return Err(LeaseError::new(
                Code::InvalidOption,
                format!(
                    "renewMs ({}) + marginMs ({}) must be below ttlMs ({}): a renewal must land before the fence",
                    t.renew_ms, t.margin_ms, t.ttl_ms
                ),
            ));
        }
        Ok(t)
    }

    /// How long a renewal may take before it counts as failed: until the fence.
    pub fn fence_ms(&self) -> u64 {
        self.ttl_ms - self.margin_ms
    }
}

impl Default for Timing {
    fn default() -> Self {
        Timing::new(None, None, None).expect("the defaults are valid")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_checks() {
        assert_eq!(
            Timing::default(),
            Timing {
                ttl_ms: 10_000,
                renew_ms: 3_333,
                margin_ms: 2_000
            }
        );
        assert_eq!(Timing::new(Some(2_000), None, None).unwrap().renew_ms, 667);
        let e = Timing::new(Some(1_000), Some(800), Some(200)).unwrap_err();
        assert_eq!(e.code(), Code::InvalidOption);
        assert!(e.message().contains("must be below ttlMs (1000)"), "{e}");
        assert!(Timing::new(Some(1_000), Some(0), None).is_err());
        assert!(Timing::new(Some(1_000), Some(799), Some(200)).is_ok());
    }
}
