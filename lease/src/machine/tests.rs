//! The machine's rules, one by one, then a model of a store shared by
//! several holders with skewed clocks, crashes and data loss, where no two
//! holders may ever mint in the same tick of one worker ID.

use std::collections::{BTreeMap, HashMap};

use proptest::prelude::*;

use super::*;

const TTL: Timing = Timing {
    ttl_ms: 1_000,
    renew_ms: 300,
    margin_ms: 200,
};

fn ttl_machine(range: RangeInclusive<u32>, skew: SkewLimit) -> Machine {
    Machine::new("redis", "{t}", range, Mode::Ttl(TTL), skew)
}

fn claim(worker_id: u32, bound: u64, wait_ms: u64) -> Option<Claim> {
    Some(Claim {
        worker_id,
        bound,
        wait_ms,
    })
}

#[test]
fn a_claim_on_a_young_store_waits_pending_then_holds() {
    let mut m = ttl_machine(0..=3, SkewLimit::default());
    assert_eq!(m.claimed(claim(2, 0, 1_000), 10_000, None), Ok(None));
    assert_eq!((m.state(), m.resume_after_ms()), (State::Pending, 11_000));
    let b = m.renew_bound(10_001);
    assert_eq!(b, 11_000, "a pending lease records its start");
    assert_eq!(m.renewed(b, None, 10_001, 10_002), None);
    assert_eq!(m.check(10_500, true), Err(Refusal::Expired));
    assert!(
        m.expired(10_500)
            .message()
            .contains("starts only after 11000 (in 500 ms)")
    );
    assert!(!m.promote(11_000), "not before its start has passed");
    assert_eq!(m.next_delay(10_900), 101);
    assert!(m.promote(11_001));
    assert_eq!((m.state(), m.epoch()), (State::Held, 1));
    // Covered below the bound only.
    assert_eq!(m.check(10_999, true), Ok(Check::Covered));
    assert_eq!(m.check(11_000, true), Err(Refusal::Expired));
}

#[test]
fn renewal_bounds_never_fall_and_a_lost_lease_covers_nothing() {
    let mut m = ttl_machine(0..=0, SkewLimit::default());
    m.claimed(claim(0, 5_000, 0), 1_000, None).unwrap();
    assert_eq!(m.resume_after_ms(), 5_000);
    // The fence is below the recorded start: the start is recorded.
    assert_eq!(m.renew_bound(1_000), 5_000);
    m.renewed(5_000, None, 1_000, 1_001);
    assert!(m.promote(5_001));
    let b = m.renew_bound(5_100);
    assert_eq!(b, 5_100 + 800);
    m.renewed(b, None, 5_100, 5_101);
    assert_eq!(m.check(5_899, true), Ok(Check::Covered));
    // A later renewal sent earlier on a clock stepped back never lowers it.
    assert_eq!(m.renew_bound(4_000), 5_900);
    let lost = m.lose();
    assert_eq!(lost.code(), Code::Lost);
    assert_eq!(m.check(5_200, true), Err(Refusal::Expired));
    assert!(
        m.expired(5_300)
            .message()
            .contains("is lost (another holder may have it now): last renewed 200 ms ago")
    );
    // Claimed again on the same worker ID: after this generator's own last tick.
    m.claimed(claim(0, 5_900, 0), 5_300, Some(6_100)).unwrap();
    assert_eq!(m.resume_after_ms(), 6_100);
    // ... but not after another worker ID's generator.
    let mut other = ttl_machine(0..=1, SkewLimit::default());
    other.claimed(claim(1, 0, 0), 100, None).unwrap();
    other.claimed(claim(0, 50, 0), 100, Some(9_000)).unwrap();
    assert_eq!(other.resume_after_ms(), 50);
}

#[test]
fn after_data_loss_the_claimant_starts_after_the_old_holders_fence_with_margin_to_spare() {
    // A holds worker 0 on a clock 100 ms ahead and renews at true time 0;
    // the store then loses its data, and B, 100 ms behind, claims worker 0
    // at once: the store is young, so B waits one TTL.
    let t = 1_000_000;
    let mut a = ttl_machine(0..=0, SkewLimit::default());
    a.claimed(claim(0, 0, 0), t + 100, None).unwrap();
    let bound = a.renew_bound(t + 100);
    a.renewed(bound, None, t + 100, t + 100);
    assert!(a.promote(t + 101));
    let mut b = ttl_machine(0..=0, SkewLimit::default());
    b.claimed(claim(0, 0, TTL.ttl_ms), t - 100, None).unwrap();
    // A mints below its fence, B only after its start: clocks apart by the
    // whole margin still leave no tick to both.
    assert!(
        a.covered_ms() <= b.resume_after_ms() + 1,
        "{} vs {}",
        a.covered_ms(),
        b.resume_after_ms()
    );
    assert_eq!(a.covered_ms(), t + 100 + TTL.ttl_ms - TTL.margin_ms);
}

#[test]
fn unavailable_release_and_released() {
    let mut m = ttl_machine(3..=4, SkewLimit::default());
    let e = m.claimed(None, 1, None).unwrap_err();
    assert_eq!(e.code(), Code::Unavailable);
    assert!(
        e.message()
            .starts_with("all 2 worker IDs (3..4) of the redis lease at {t}"),
        "{e}"
    );
    assert_eq!(m.release(None), None, "nothing was claimed");
    let mut m = ttl_machine(3..=4, SkewLimit::default());
    m.claimed(claim(4, 700, 0), 1, None).unwrap();
    assert_eq!(
        m.release(None),
        Some((4, 700)),
        "the start, when nothing was minted"
    );
    assert_eq!(m.release(Some(900)), None, "once");
    let Err(Refusal::Released(e)) = m.check(1, true) else {
        panic!()
    };
    assert_eq!(e.code(), Code::Released);
    let mut m = ttl_machine(3..=4, SkewLimit::default());
    m.claimed(claim(3, 700, 0), 1, None).unwrap();
    assert_eq!(m.release(Some(900)), Some((3, 900)));
}

#[test]
fn a_sync_store_records_as_it_mints_and_fails_when_its_lock_is_gone() {
    let mut m = Machine::new(
        "local",
        "/d",
        0..=9,
        Mode::Sync {
            reserve_ms: RESERVE_MS,
        },
        SkewLimit::default(),
    );
    assert_eq!(m.claimed(claim(1, 3_000, 0), 2_000, None), Ok(Some(4_000)));
    assert_eq!(m.recorded(4_000, None, 2_000, 2_000), None);
    assert!(
        m.promote(0),
        "a sync store holds at once: its generator waits past the start"
    );
    assert!(m.probes());
    assert_eq!(m.check(3_999, true), Ok(Check::Covered));
    assert_eq!(m.check(4_000, true), Ok(Check::Record(5_000)));
    assert_eq!(m.check(3_999, false), Err(Refusal::LostSync));
    m.lose();
    assert!(!m.probes());
    assert_eq!(m.check(1, true), Err(Refusal::LostSync));
}

#[test]
fn pacing() {
    let mut m = ttl_machine(0..=0, SkewLimit::default());
    m.claimed(claim(0, 0, 5_000), 1_000, None).unwrap();
    assert!(
        !m.renew_due(1_299),
        "a pending lease renews once per renew_ms"
    );
    assert!(m.renew_due(1_300));
    assert_eq!(m.next_delay(1_000), 300);
    assert_eq!(m.next_delay(5_950), 51, "it wakes at its start");
    assert_eq!(m.wait_delay(1_000), 1_000);
    assert_eq!(m.wait_delay(7_000), 1);
    m.renewed(6_000, None, 1_000, 1_000);
    m.promote(6_001);
    assert!(m.renew_due(6_001), "a held lease renews at each turn");
    assert_eq!(m.next_delay(6_001), 300);
}

fn readings(server_ms: f64) -> Readings {
    Readings {
        server: Some(("Redis server's clock (TIME)".into(), server_ms)),
        peers: vec![],
    }
}

#[test]
fn skew_refused_fences_until_within_and_is_reported_once_per_episode() {
    let refuse = SkewLimit {
        max_skew_ms: 1_000,
        refuse: true,
    };
    let mut m = ttl_machine(0..=0, refuse);
    m.claimed(claim(0, 0, 0), 10_000, None).unwrap();
    // 5 s ahead of the server, measured to within 5 ms.
    let f = m
        .renewed(20_000, Some(&readings(5_005.0)), 10_000, 10_010)
        .expect("reported");
    assert_eq!(
        (f.skew_ms, f.err_ms, f.against, f.refuse),
        (5_000, 5, Against::Server, true)
    );
    assert!(f.error.message().contains("is 5000 ms ahead of the Redis server's clock (TIME), measured to within 5 ms: beyond maxSkewMs 1000. Minting is refused"), "{}", f.error);
    assert!(m.refuses_start().is_some(), "a new holder does not start");
    m.promote(10_011);
    assert!(matches!(m.check(10_020, true), Err(Refusal::Skewed(_))));
    assert!(
        m.refuses_start().is_none(),
        "a running holder keeps its lease"
    );
    assert_eq!(
        m.renewed(20_000, Some(&readings(5_005.0)), 10_000, 10_010),
        None,
        "once per episode"
    );
    assert!(matches!(m.check(10_020, true), Err(Refusal::Skewed(_))));
    // Within the limit plus the error bound: not beyond.
    assert_eq!(
        m.renewed(20_000, Some(&readings(10_005.0 - 1_004.0)), 10_000, 10_010),
        None
    );
    assert_eq!(m.check(10_020, true), Ok(Check::Covered));
    // Behind, with 'warn': reported, never fenced.
    let mut w = ttl_machine(0..=0, SkewLimit::default());
    w.claimed(claim(0, 0, 0), 10_000, None).unwrap();
    w.promote(10_001);
    let f = w
        .renewed(20_000, Some(&readings(15_005.0)), 10_000, 10_010)
        .unwrap();
    assert!(
        f.error
            .message()
            .contains("5000 ms behind the Redis server's clock (TIME)")
            && f.error.message().contains("sort before"),
        "{}",
        f.error
    );
    assert_eq!(w.check(10_020, true), Ok(Check::Covered));
    assert!(w.refuses_start().is_none());
}

// The model: holders with skewed clocks sharing one store, in true time.

#[derive(Debug, Clone)]
enum Op {
    Advance(u64),
    Claim(usize),
    Renew(usize),
    Mint(usize),
    Release(usize),
    Crash(usize),
    Flush,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (1u64..400).prop_map(Op::Advance),
        3 => (0usize..3).prop_map(Op::Claim),
        4 => (0usize..3).prop_map(Op::Renew),
        6 => (0usize..3).prop_map(Op::Mint),
        1 => (0usize..3).prop_map(Op::Release),
        1 => (0usize..3).prop_map(Op::Crash),
        2 => Just(Op::Flush),
    ]
}

#[derive(Default)]
struct Store {
    /// worker ID -> (holder's incarnation, expiry in true time)
    keys: HashMap<u32, (usize, u64)>,
    bounds: HashMap<u32, u64>,
    young_until: Option<u64>,
}

struct Holder {
    m: Machine,
    offset: i64,
    incarnation: usize,
    last_tick: Option<u64>,
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]
    /// Whatever the interleaving of claims, renewals, crashes, releases and
    /// data loss, with clocks apart by at most margin_ms: no two
    /// incarnations of holders mint in the same tick of one worker ID.
    #[test]
    fn no_two_holders_mint_the_same_tick(
        offsets in proptest::array::uniform3(prop_oneof![Just(-100i64), Just(100), -100i64..=100]),
        ops in proptest::collection::vec(op(), 1..200),
    ) {
        let mut t: u64 = 1_000_000;
        let mut store = Store::default();
        let mut next_incarnation = 0;
        let mut fresh = |offset: i64| {
            next_incarnation += 1;
            Holder { m: ttl_machine(0..=1, SkewLimit::default()), offset, incarnation: next_incarnation, last_tick: None }
        };
        let mut holders: Vec<Holder> = offsets.iter().map(|&o| fresh(o)).collect();
        // worker ID -> incarnation -> the highest tick it minted on it
        let mut top: BTreeMap<u32, BTreeMap<usize, u64>> = BTreeMap::new();
        let clock = |h: &Holder, t: u64| (t as i64 + h.offset) as u64;
        for op in ops {
            match op {
                Op::Advance(dt) => t += dt,
                Op::Flush => store = Store::default(),
                Op::Claim(i) => {
                    let h = &mut holders[i];
                    if !matches!(h.m.state(), State::New | State::Lost) { continue; }
                    let now = clock(h, t);
                    let order = h.m.claim_order(&store.bounds, now);
                    let young = *store.young_until.get_or_insert(t + TTL.ttl_ms);
                    let free = order.into_iter().find(|id| store.keys.get(id).is_none_or(|&(_, exp)| exp <= t));
                    let got = free.map(|id| {
                        store.keys.insert(id, (h.incarnation, t + TTL.ttl_ms));
                        let bound = store.bounds.get(&id).copied();
                        Claim { worker_id: id, bound: bound.unwrap_or(0), wait_ms: if bound.is_some() { 0 } else { young.saturating_sub(t) } }
                    });
                    if h.m.claimed(got, now, h.last_tick).is_err() { continue; }
                    // The first renewal, as a driver makes it at once.
                    let id = h.m.worker_id().unwrap();
                    let bound = h.m.renew_bound(now);
                    store.bounds.insert(id, bound);
                    h.m.renewed(bound, None, now, now);
                    h.m.promote(now);
                }
                Op::Renew(i) => {
                    let h = &mut holders[i];
                    if !matches!(h.m.state(), State::Held | State::Pending) { continue; }
                    let now = clock(h, t);
                    let id = h.m.worker_id().unwrap();
                    let bound = h.m.renew_bound(now);
                    match store.keys.get_mut(&id) {
                        Some((who, exp)) if *who == h.incarnation && *exp > t => {
                            *exp = t + TTL.ttl_ms;
                            store.bounds.insert(id, bound);
                            h.m.renewed(bound, None, now, now);
                            h.m.promote(now);
                        }
                        _ => { h.m.lose(); }
                    }
                }
                Op::Mint(i) => {
                    let h = &mut holders[i];
                    let now = clock(h, t);
                    h.m.promote(now);
                    if h.m.state() != State::Held { continue; }
                    let tick = now.max(h.m.resume_after_ms() + 1).max(h.last_tick.map_or(0, |l| l + 1));
                    if h.m.check(tick, true) == Ok(Check::Covered) {
                        let id = h.m.worker_id().unwrap();
                        // Every tick minted by another holder of this worker ID
                        // so far lies below: tenures never overlap in ticks.
                        let others = top.get(&id).into_iter().flatten().filter(|(inc, _)| **inc != h.incarnation).map(|(_, t)| *t).max();
                        prop_assert!(others.is_none_or(|o| o < tick), "worker ID {} tick {} minted after another holder's tick {:?}", id, tick, others);
                        top.entry(id).or_default().entry(h.incarnation).and_modify(|t: &mut u64| *t = (*t).max(tick)).or_insert(tick);
                        h.last_tick = Some(tick);
                    }
                }
                Op::Release(i) => {
                    let h = &mut holders[i];
                    if let Some((id, hwm)) = h.m.release(h.last_tick)
                        && store.keys.get(&id).is_some_and(|&(who, _)| who == h.incarnation)
                    {
                        store.bounds.insert(id, hwm);
                        store.keys.remove(&id);
                    }
                    let offset = h.offset;
                    holders[i] = fresh(offset);
                }
                Op::Crash(i) => {
                    let offset = holders[i].offset;
                    holders[i] = fresh(offset);
                }
            }
        }
    }
}
