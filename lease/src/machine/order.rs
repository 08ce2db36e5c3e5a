//! Which free worker ID to try first, and how far one synchronous write of
//! the bound reaches: shared by every lease, local or with a coordinator.

use std::collections::HashMap;
use std::ops::RangeInclusive;

/// How far past the current tick one write of the bound reaches in a lease
/// whose store is written synchronously (the lock files): a holder minting
/// without pause writes its lock file about once per second, and a
/// successor after a crash waits at most this long (or takes another ID).
/// Node's local lease reads it from here (the addon's `LEASE_RESERVE_MS`).
pub const RESERVE_MS: u64 = 1000;

/// The order in which to try free worker IDs of `range`, given the
/// recorded high-water bound of each (absent: none, 0) at `now_ms`:
/// `preferred` first (a holder re-acquiring keeps its ID when it can) if
/// its bound has passed, then every ID whose bound the clock has passed,
/// lowest first (small, stable IDs; no wait), then the rest by bound (the
/// shortest wait), ties lowest first.
///
/// ```
/// use std::collections::HashMap;
/// use snowmint_lease::machine::claim_order;
/// let bounds = HashMap::from([(0, 500), (1, 50)]);
/// assert_eq!(claim_order(&(0..=2), &bounds, 100, None), [1, 2, 0]);
/// ```
pub fn claim_order(
    range: &RangeInclusive<u32>,
    bounds: &HashMap<u32, u64>,
    now_ms: u64,
    preferred: Option<u32>,
) -> Vec<u32> {
    let bound = |id: &u32| bounds.get(id).copied().unwrap_or(0);
    let (mut ready, mut later): (Vec<u32>, Vec<u32>) =
        range.clone().partition(|id| bound(id) < now_ms);
    later.sort_by_key(|id| (bound(id), *id));
    if let Some(p) = preferred.filter(|p| range.contains(p) && bound(p) < now_ms) {
        ready.retain(|id| *id != p);
        ready.insert(0, p);
    }
    ready.append(&mut later);
    ready
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn passed_bounds_lowest_first_then_shortest_wait() {
        let bounds = HashMap::from([(0, 500), (1, 50), (3, 300), (4, 200)]);
        assert_eq!(
            claim_order(&(0..=5), &bounds, 100, None),
            [1, 2, 5, 4, 3, 0]
        );
        assert_eq!(
            claim_order(&(0..=5), &bounds, 100, Some(5)),
            [5, 1, 2, 4, 3, 0]
        );
        // A preferred ID whose bound lies ahead keeps its place.
        assert_eq!(
            claim_order(&(0..=5), &bounds, 100, Some(0)),
            [1, 2, 5, 4, 3, 0]
        );
        // A bound equal to now has not passed.
        assert_eq!(
            claim_order(&(0..=1), &HashMap::from([(0, 100)]), 100, None),
            [1, 0]
        );
    }

    proptest! {
        #[test]
        fn a_permutation_ready_before_waiting_waits_ascending(
            min in 0u32..50,
            len in 1u32..60,
            raw in proptest::collection::vec((0u32..120, 0u64..400), 0..80),
            now in 0u64..400,
            preferred in proptest::option::of(0u32..120),
        ) {
            let range = min..=min + len - 1;
            let bounds: HashMap<u32, u64> = raw.into_iter().collect();
            let order = claim_order(&range, &bounds, now, preferred);
            let b = |id: u32| bounds.get(&id).copied().unwrap_or(0);
            // Every ID of the range exactly once.
            let mut sorted = order.clone();
            sorted.sort_unstable();
            prop_assert_eq!(sorted, range.clone().collect::<Vec<_>>());
            // The preferred one first when it is in range and ready.
            let skip = match preferred {
                Some(p) if range.contains(&p) && b(p) < now => {
                    prop_assert_eq!(order[0], p);
                    1
                }
                _ => 0,
            };
            let rest = &order[skip..];
            let ready = rest.iter().take_while(|&&id| b(id) < now).count();
            // Ready IDs lowest first, then no ready ID later.
            prop_assert!(rest[..ready].windows(2).all(|w| w[0] < w[1]));
            prop_assert!(rest[ready..].iter().all(|&id| b(id) >= now));
            // Waiting ones by bound, then by ID.
            prop_assert!(rest[ready..].windows(2).all(|w| (b(w[0]), w[0]) < (b(w[1]), w[1])));
        }
    }
}
