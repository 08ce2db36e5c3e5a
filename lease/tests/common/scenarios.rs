//! The fault scenarios every coordinator store goes through, written once
//! and run against a real server of each store (redis.rs, etcd.rs,
//! zookeeper.rs) through [`TestStore`]: how to start, reach and break it,
//! and the few ways the stores differ on purpose.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use snowmint::clock::Clock;
use snowmint_lease::driver::{Lease, SharedClock, Store};
use snowmint_lease::machine::State;
use snowmint_lease::{Code, LeaseError};

use super::{Skewed, TIMING, config, now, skew_config, until};

/// A server of one store, of the test's own, stopped when dropped.
#[allow(async_fn_in_trait)] // the tests' own trait, awaited on their runtime
pub trait TestStore: Sized {
    /// The driver's store.
    type Store: Store;
    /// The lease kind in messages (`"redis"`).
    const KIND: &'static str;
    /// The server clock a holder's clock is measured against, as messages
    /// name it after "the "; `None` for a store without a clock (etcd),
    /// whose holders are measured against their live peers only.
    const SERVER_CLOCK: Option<&'static str>;
    /// Whether a holder's renewals find its key gone once the server is
    /// restarted on an empty data directory (etcd: yes; ZooKeeper: the
    /// rebuilt server never answers the holder's session, so the holder
    /// sees a disconnection until its session ends).
    const RENEWAL_SEES_A_WIPED_STORE: bool;

    /// Starts a server, empty, and waits until it serves.
    fn start() -> Self;
    /// Starts it again on the same ports (after [`kill_and_wipe`](Self::kill_and_wipe)).
    fn spawn(&mut self);
    /// Kills it and empties its data directory.
    fn kill_and_wipe(&mut self);
    /// A store on this server with its keys under `prefix`.
    async fn store(&self, prefix: &str) -> Self::Store;
    /// How a lease of `prefix` names its place in messages.
    fn place(prefix: &str) -> String;
    /// Deletes the worker key of `id` under `prefix`, as the store does when
    /// its holder's TTL or session ends.
    async fn delete_worker(&self, prefix: &str, id: u32);
}

/// Two claims on a fresh store wait one TTL (its data may have been lost a
/// moment ago) and get distinct IDs, a third is refused, and a release
/// records the exact mark that its successor starts after.
pub async fn a_fresh_store_waits_one_ttl_then_distinct_ids_and_the_release_records_the_mark<
    S: TestStore,
>() {
    let server = S::start();
    let started = Instant::now();
    let (a, b) = tokio::join!(
        async { Lease::acquire(server.store("fresh").await, config(0..=1)).await },
        async { Lease::acquire(server.store("fresh").await, config(0..=1)).await },
    );
    let (a, b) = (a.unwrap(), b.unwrap());
    // The store may have lost its data a moment ago: the first claims wait one TTL.
    assert!(
        started.elapsed() >= Duration::from_millis(TIMING.ttl_ms - 100),
        "{:?}",
        started.elapsed()
    );
    assert_ne!(a.worker_id(), b.worker_id());
    let e = Lease::acquire(server.store("fresh").await, config(0..=1))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::Unavailable, "{e}");
    let full = format!(
        "all 2 worker IDs (0..1) of the {} lease at {}",
        S::KIND,
        S::place("fresh")
    );
    assert!(e.message().contains(&full), "{e}");
    a.check(now()).unwrap();
    let (id, hwm) = (a.worker_id(), now() + 3_000);
    a.release(Some(hwm)).await.unwrap();
    assert_eq!(a.check(now()).unwrap_err().code(), Code::Released);
    // Its successor starts after the exact mark, at once (the store is no longer young).
    let t = Instant::now();
    let c = Lease::acquire(server.store("fresh").await, config(0..=1))
        .await
        .unwrap();
    assert_eq!(c.worker_id(), id);
    assert_eq!(c.resume_after_ms(), hwm);
    assert!(
        t.elapsed() >= Duration::from_millis(2_500),
        "it waited for the mark"
    );
    c.check(hwm + 1).unwrap();
    c.release(None).await.unwrap();
    b.release(None).await.unwrap();
}

/// A holder whose worker key is deleted under it: its next renewal finds
/// the key gone, it is lost, then claims again, after what it covered.
/// Returns the holder, holding worker 0 again.
pub async fn a_deleted_worker_key_is_lost_and_claimed_again_after_its_bound<S: TestStore>(
    server: &S,
) -> Lease {
    let a = Lease::acquire(server.store("deleted").await, config(0..=0))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let covered = a.status().covered_ms;
    server.delete_worker("deleted", 0).await;
    // Its next renewal finds the key gone: lost, then claimed again, after what it covered.
    until("the loss", || a.status().losses >= 1).await;
    until("the claim again", || {
        a.epoch() == 2 && a.status().state == State::Held
    })
    .await;
    assert_eq!(a.worker_id(), 0);
    assert!(
        a.resume_after_ms() >= covered,
        "{} vs {covered}",
        a.resume_after_ms()
    );
    a
}

/// Then (after [`a_deleted_worker_key_is_lost_and_claimed_again_after_its_bound`])
/// the holder's process dies and the store drops its key: the successor
/// starts after its bound.
pub async fn a_dead_holders_successor_starts_after_its_bound<S: TestStore>(server: &S, a: Lease) {
    let covered = a.status().covered_ms;
    drop(a);
    server.delete_worker("deleted", 0).await;
    let b = Lease::acquire(server.store("deleted").await, config(0..=0))
        .await
        .unwrap();
    assert_eq!(b.worker_id(), 0);
    assert!(
        b.resume_after_ms() >= covered,
        "{} vs {covered}",
        b.resume_after_ms()
    );
    b.release(None).await.unwrap();
}

/// A holder that stops renewing keeps its worker ID until its TTL ends
/// (claims are refused until then), and the next holder starts above its
/// bound.
pub async fn a_killed_holders_worker_id_waits_for_its_ttl_and_resumes_above_its_bound<
    S: TestStore,
>() {
    let server = S::start();
    let a = Lease::acquire(server.store("killed").await, config(0..=0))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let covered = a.status().covered_ms;
    let gone = Instant::now();
    drop(a); // its renewals stop, its key stays until the TTL ends
    // Claims are refused until then.
    let b = loop {
        match Lease::acquire(server.store("killed").await, config(0..=0)).await {
            Ok(b) => break b,
            Err(e) => assert_eq!(e.code(), Code::Unavailable, "{e}"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        gone.elapsed() >= Duration::from_millis(TIMING.ttl_ms - TIMING.renew_ms),
        "{:?}",
        gone.elapsed()
    );
    assert!(
        b.resume_after_ms() >= covered,
        "{} vs {covered}",
        b.resume_after_ms()
    );
    b.release(None).await.unwrap();
}

/// The server restarted on an empty data directory under a holder of
/// worker 0: the next holder waits one TTL and starts after every tick the
/// first could have minted.
pub async fn a_restart_on_an_empty_data_dir_under_a_holder<S: TestStore>() {
    let mut server = S::start();
    let a = Lease::acquire(server.store("loss").await, config(0..=0))
        .await
        .unwrap();
    a.check(now()).unwrap();
    server.kill_and_wipe();
    // Everything `a` may still mint lies below what it covers now: no renewal succeeds any more.
    let covered = a.status().covered_ms;
    assert!(covered > now());
    server.spawn();
    let t = Instant::now();
    // The next holder of worker 0 is a new one or `a` claiming again (in
    // ZooKeeper, in a new session: the rebuilt server never answers the old
    // one), whichever claims first: either way it waits one TTL (the store
    // is young, the bound gone) and starts after every tick `a` could have
    // minted.
    let start = match Lease::acquire(server.store("loss").await, config(0..=0)).await {
        Ok(b) => {
            assert_eq!(b.worker_id(), 0);
            assert!(
                t.elapsed() >= Duration::from_millis(TIMING.ttl_ms - 100),
                "the claim on an emptied store waits one TTL"
            );
            if S::RENEWAL_SEES_A_WIPED_STORE {
                let e = a.check(now()).unwrap_err();
                assert_eq!(e.code(), Code::Expired, "{e}");
                assert_eq!(a.status().state, State::Lost);
            }
            b.check(now()).unwrap();
            let start = b.resume_after_ms();
            b.release(None).await.unwrap();
            start
        }
        Err(e) => {
            assert_eq!(e.code(), Code::Unavailable, "{e}");
            until("the claim again", || {
                a.epoch() == 2 && a.status().state == State::Held
            })
            .await;
            a.resume_after_ms()
        }
    };
    if S::RENEWAL_SEES_A_WIPED_STORE {
        assert!(a.status().losses >= 1);
    }
    assert!(
        start >= covered + TIMING.margin_ms - 1,
        "{start} vs {covered}"
    );
}

/// A lease on worker IDs 0..=7 under `skew`, on a clock `by` ms off,
/// refusing or reporting beyond 1 s; and that clock, to move.
pub async fn skewed<S: TestStore>(
    server: &S,
    by: i64,
    refuse: bool,
) -> (Result<Lease, LeaseError>, Arc<Skewed>) {
    let clock = Arc::new(Skewed(AtomicI64::new(by)));
    let shared: SharedClock = clock.clone();
    let lease = Lease::acquire_with_clock(
        server.store("skew").await,
        skew_config(0..=7, refuse),
        shared,
    )
    .await;
    (lease, clock)
}

/// A new holder 5 s ahead or behind is refused (`refuse`) or reported
/// (report only), measured against the server's clock, or for a store
/// without one against a live peer on the right time.
pub async fn a_new_holder_5s_off_is_refused_or_reported<S: TestStore>() {
    let server = S::start();
    // etcd has no clock: a holder is compared with its live peers' reports,
    // so this starts with a peer on the right time.
    let peer = match S::SERVER_CLOCK {
        Some(_) => None,
        None => Some(skewed(&server, 0, true).await.0.unwrap()),
    };
    for (by, side) in [(5_000, "ahead of"), (-5_000, "behind")] {
        let e = skewed(&server, by, true).await.0.unwrap_err();
        assert_eq!(e.code(), Code::ClockSkew, "{e}");
        let against = match S::SERVER_CLOCK {
            Some(clock) => format!("ms {side} the {clock}"),
            None => format!("ms {side} the mean of 1 live peer's last reported clocks"),
        };
        assert!(e.message().contains(&against), "{e}");
        let (lease, _) = skewed(&server, by, false).await;
        let lease = lease.unwrap();
        let skew = lease.status().skew.expect("reported");
        if S::SERVER_CLOCK.is_some() {
            assert!((skew.skew_ms - by).abs() < 200, "{skew:?}");
        } else {
            // A report is up to a renewal old: known to within half of that.
            assert!(
                (skew.skew_ms - by).abs() <= skew.err_ms as i64 + 100,
                "{skew:?}"
            );
            assert!(skew.err_ms < 1_000, "{skew:?}");
        }
        lease.release(None).await.unwrap();
    }
    if let Some(peer) = peer {
        peer.release(None).await.unwrap();
    }
}

/// A held lease whose clock jumps 5 s ahead fails every check until a
/// renewal finds it back within the limit (for a store without a clock,
/// beside a live peer on the right time).
pub async fn a_held_lease_whose_clock_jumps_5s_is_fenced_until_it_is_back<S: TestStore>() {
    let server = S::start();
    let peer = match S::SERVER_CLOCK {
        Some(_) => None,
        None => Some(skewed(&server, 0, false).await.0.unwrap()),
    };
    let (lease, clock) = skewed(&server, 0, true).await;
    let lease = lease.unwrap();
    clock.0.store(5_000, Ordering::Relaxed);
    tokio::time::sleep(Duration::from_millis(2 * TIMING.renew_ms + 100)).await;
    let e = lease.check(clock.now_ms() - 5_000).unwrap_err();
    assert_eq!(e.code(), Code::ClockSkew, "{e}");
    clock.0.store(0, Ordering::Relaxed);
    tokio::time::sleep(Duration::from_millis(2 * TIMING.renew_ms + 100)).await;
    lease.check(clock.now_ms()).unwrap();
    lease.release(None).await.unwrap();
    if let Some(peer) = peer {
        peer.release(None).await.unwrap();
    }
}
