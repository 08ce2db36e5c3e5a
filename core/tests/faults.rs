//! Fault injection: the generators must never repeat an ID and never step
//! back, whatever the clock does, and must fail with a typed error (never a
//! wrong ID) where the design says so. Run in release: the concurrent tests
//! mint millions of IDs.
#![cfg(feature = "std")]

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::thread;
use std::time::{Duration, Instant};

use rand_core::{Infallible, TryRng};
use snowmint::Error;
use snowmint::clock::{
    Clock, ClockChoice, FOLLOW_CHECK_MS, FOLLOW_MAX_JUMP_MS, FollowingClock, ManualClock,
    MonotonicClock,
};
use snowmint::objectid::ObjectIdGenerator;
use snowmint::snowflake::{AtomicSnowflake, Layout, OnBackwards, OnExhausted, Snowflake};
use snowmint::ulid::{self, UlidGenerator};
use snowmint::uuid::{TimeUuidGenerator, V7Generator};

const THREADS: usize = 4;
const PER_THREAD: usize = 1_000_000;
/// A fixed wall time for manual clocks (2023-11-14T22:13:20Z).
const T: u64 = 1_700_000_000_000;
const HOUR: u64 = 3_600_000;
/// Twitter's widths: 4096 IDs per tick.
const PER_TICK: u64 = 4096;

// ------------------------------------------------------------ helpers

/// Asserts that every thread's IDs strictly increase and that no ID occurs twice overall.
fn assert_unique_and_increasing(per_thread: &[Vec<u64>]) {
    for (t, ids) in per_thread.iter().enumerate() {
        if let Some(i) = ids.windows(2).position(|w| w[0] >= w[1]) {
            panic!("thread {t}: ID {} followed by {}", ids[i], ids[i + 1]);
        }
    }
    let mut all: Vec<u64> = per_thread.concat();
    all.sort_unstable();
    if let Some(w) = all.windows(2).find(|w| w[0] == w[1]) {
        panic!("duplicate ID {}", w[0]);
    }
}

/// One clock fault, injected while every minting thread is paused, so that
/// each fault hits threads that still have IDs to mint.
#[derive(Debug, Clone, Copy)]
enum Fault {
    /// The clock reads this many ms before the generator's last tick.
    StepBack(u64),
    /// The clock stands still for 20 ms.
    Stall,
}

const FAULTS: [Fault; 4] = [
    Fault::StepBack(1),
    Fault::StepBack(1_000),
    Fault::Stall,
    Fault::StepBack(HOUR),
];

/// Where the minting threads and the clock driver meet.
#[derive(Default)]
struct Rendezvous {
    /// Threads that reached a fault point (cumulative).
    arrived: AtomicUsize,
    /// Faults injected so far.
    released: AtomicUsize,
    /// Results (ID or error) seen right after a fault (cumulative).
    first_results: AtomicUsize,
    done: AtomicBool,
}

/// Waits for `cond`; false if it did not hold within `limit`.
fn wait_for(limit: Duration, cond: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    while !cond() {
        if start.elapsed() > limit {
            return false;
        }
        thread::yield_now();
    }
    true
}

/// Mints `PER_THREAD` IDs on each of `THREADS` threads from one shared
/// generator. With a driver, a manual clock advances 1 ms per step and
/// `faults` are injected at even intervals of the work. Returns each
/// thread's IDs and the errors seen (consecutive repeats folded).
fn mint_concurrently<C: Clock + Sync>(
    ids: &AtomicSnowflake<C>,
    driver: Option<(&ManualClock, &[Fault])>,
) -> (Vec<Vec<u64>>, Vec<Error>) {
    let faults = driver.map_or(&[][..], |(_, f)| f);
    let phases = faults.len() + 1;
    let meet = Rendezvous::default();
    thread::scope(|s| {
        let workers: Vec<_> = (0..THREADS)
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::with_capacity(PER_THREAD);
                    let mut errors: Vec<Error> = Vec::new();
                    for phase in 0..phases {
                        if phase > 0 {
                            meet.arrived.fetch_add(1, SeqCst);
                            let released = || meet.released.load(SeqCst) >= phase;
                            assert!(wait_for(Duration::from_secs(60), released), "stuck");
                        }
                        let mut first = phase > 0;
                        while out.len() < PER_THREAD * (phase + 1) / phases {
                            match ids.next() {
                                Ok(id) => out.push(id),
                                Err(e) => {
                                    if errors.last() != Some(&e) {
                                        errors.push(e);
                                    }
                                    thread::yield_now();
                                }
                            }
                            if first {
                                meet.first_results.fetch_add(1, SeqCst);
                                first = false;
                            }
                        }
                    }
                    (out, errors)
                })
            })
            .collect();
        if let Some((clock, faults)) = driver {
            s.spawn(|| drive(clock, ids, faults, &meet));
        }
        let (ids, errors): (Vec<_>, Vec<_>) =
            workers.into_iter().map(|w| w.join().unwrap()).unzip();
        meet.done.store(true, SeqCst);
        (ids, errors.concat())
    })
}

/// Advances the clock 1 ms per step; injects each fault once all threads wait for it.
fn drive<C: Clock>(
    clock: &ManualClock,
    ids: &AtomicSnowflake<C>,
    faults: &[Fault],
    meet: &Rendezvous,
) {
    let mut injected = 0;
    while !meet.done.load(SeqCst) {
        if injected < faults.len() && meet.arrived.load(SeqCst) == THREADS * (injected + 1) {
            let before = clock.now_ms();
            if let Fault::StepBack(by) = faults[injected] {
                clock.set(ids.high_water_ms().unwrap() - by);
            }
            injected += 1;
            meet.released.store(injected, SeqCst);
            // Let the threads meet the fault before the clock moves on; a
            // thread that waits (as the policy says) is given up on after a while.
            wait_for(Duration::from_millis(200), || {
                meet.first_results.load(SeqCst) >= THREADS * injected
            });
            match faults[injected - 1] {
                Fault::Stall => thread::sleep(Duration::from_millis(20)),
                // A large step back is undone the way NTP would: a jump forward.
                Fault::StepBack(by) if by > 1_000 => clock.set(before + 1),
                Fault::StepBack(_) => {}
            }
        }
        clock.advance(1);
        thread::yield_now();
    }
    assert_eq!(injected, faults.len(), "every fault was injected");
}

fn backwards_errors(errors: &[Error]) -> Vec<(u64, u64)> {
    errors
        .iter()
        .map(|e| match e {
            Error::ClockMovedBackwards { by_ms, allowed_ms } => (*by_ms, *allowed_ms),
            other => panic!("unexpected error {other}"),
        })
        .collect()
}

/// A shared generator on a faulty clock under one backwards policy.
fn faulty_run(policy: OnBackwards) -> Vec<(u64, u64)> {
    let clock = ManualClock::new(T);
    let ids = AtomicSnowflake::new(Layout::TWITTER, 5, &clock)
        .unwrap()
        .on_backwards(policy);
    let (per_thread, errors) = mint_concurrently(&ids, Some((&clock, &FAULTS)));
    assert_unique_and_increasing(&per_thread);
    backwards_errors(&errors)
}

// ------------------------------------------------------------ concurrent

#[test]
fn four_threads_share_one_generator_on_the_monotonic_clock() {
    let ids = AtomicSnowflake::new(Layout::TWITTER, 1, MonotonicClock).unwrap();
    let (per_thread, errors) = mint_concurrently(&ids, None);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        per_thread.iter().map(Vec::len).sum::<usize>(),
        THREADS * PER_THREAD
    );
    assert_unique_and_increasing(&per_thread);
}

#[test]
fn faulty_clock_with_bounded_wait_fails_only_beyond_the_bound() {
    // 1 ms and 1 s steps are waited out; the 1 h step is reported, with its size.
    let errors = faulty_run(OnBackwards::Wait { max_ms: 1_000 });
    assert!(!errors.is_empty(), "the 1 h step must be reported");
    assert!(errors.iter().all(|&e| e == (HOUR, 1_000)), "{errors:?}");
}

#[test]
fn faulty_clock_with_keep_last_tick_never_fails() {
    assert_eq!(faulty_run(OnBackwards::KeepLastTick), []);
}

#[test]
fn faulty_clock_with_fail_reports_each_step_size() {
    let errors = faulty_run(OnBackwards::Fail);
    assert!(
        errors
            .iter()
            .all(|&(by, allowed)| allowed == 0 && (1..=HOUR).contains(&by))
    );
    for step in [1, 1_000, HOUR] {
        assert!(
            errors.contains(&(step, 0)),
            "no error of exactly {step} ms in {errors:?}"
        );
    }
}

// ------------------------------------------------------------ single generator, exact outcomes

/// The two generator types share their rules; every scenario runs on both.
trait Mint {
    fn mint(&mut self) -> Result<u64, Error>;
}

impl<C: Clock> Mint for Snowflake<C> {
    fn mint(&mut self) -> Result<u64, Error> {
        self.next()
    }
}

impl<C: Clock> Mint for AtomicSnowflake<C> {
    fn mint(&mut self) -> Result<u64, Error> {
        self.next()
    }
}

/// Both generator types for one layout, worker 0, `clock` and the policies.
fn both<'c>(
    layout: Layout,
    clock: &'c ManualClock,
    backwards: OnBackwards,
    exhausted: OnExhausted,
) -> [Box<dyn Mint + 'c>; 2] {
    [
        Box::new(
            Snowflake::new(layout, 0, clock)
                .unwrap()
                .on_backwards(backwards)
                .on_exhausted(exhausted),
        ),
        Box::new(
            AtomicSnowflake::new(layout, 0, clock)
                .unwrap()
                .on_backwards(backwards)
                .on_exhausted(exhausted),
        ),
    ]
}

/// Runs `blocked` (a mint that must wait) while another thread sets the clock
/// to `to` after 20 ms; returns its result and checks that it did not return earlier.
fn mint_after_clock_moves(
    generator: &mut dyn Mint,
    clock: &ManualClock,
    to: u64,
) -> Result<u64, Error> {
    let moved = AtomicBool::new(false);
    thread::scope(|s| {
        s.spawn(|| {
            thread::sleep(Duration::from_millis(20));
            moved.store(true, SeqCst);
            clock.set(to);
        });
        let r = generator.mint();
        assert!(moved.load(SeqCst), "returned before the clock moved");
        r
    })
}

fn tick(id: u64) -> u64 {
    Layout::TWITTER.decode(id).unwrap().tick
}

fn twitter_tick(ms: u64) -> u64 {
    Layout::TWITTER.tick_of(ms).unwrap()
}

#[test]
fn step_back_under_each_policy() {
    for step in [1, 1_000, HOUR] {
        // Fail: at once, saying by how much.
        let clock = ManualClock::new(T);
        for mut g in both(
            Layout::TWITTER,
            &clock,
            OnBackwards::Fail,
            OnExhausted::Wait,
        ) {
            clock.set(T);
            let a = g.mint().unwrap();
            clock.set(T - step);
            assert_eq!(
                g.mint(),
                Err(Error::ClockMovedBackwards {
                    by_ms: step,
                    allowed_ms: 0
                })
            );
            clock.set(T);
            assert_eq!(g.mint(), Ok(a + 1), "resumes once the clock is back");
        }

        // Wait with a bound of 1 s: waits out 1 ms and 1 s, reports 1 h.
        let wait = OnBackwards::Wait { max_ms: 1_000 };
        let clock = ManualClock::new(T);
        for mut g in both(Layout::TWITTER, &clock, wait, OnExhausted::Wait) {
            clock.set(T);
            let a = g.mint().unwrap();
            clock.set(T - step);
            if step <= 1_000 {
                assert_eq!(mint_after_clock_moves(&mut *g, &clock, T), Ok(a + 1));
            } else {
                assert_eq!(
                    g.mint(),
                    Err(Error::ClockMovedBackwards {
                        by_ms: step,
                        allowed_ms: 1_000
                    })
                );
            }
        }

        // Keep the last tick: mints on without waiting, running ahead of the clock.
        let clock = ManualClock::new(T);
        for mut g in both(
            Layout::TWITTER,
            &clock,
            OnBackwards::KeepLastTick,
            OnExhausted::Wait,
        ) {
            clock.set(T);
            let a = g.mint().unwrap();
            clock.set(T - step);
            let rest: Vec<u64> = (0..PER_TICK).map(|_| g.mint().unwrap()).collect();
            assert_eq!(rest[0], a + 1);
            assert!(rest.windows(2).all(|w| w[0] < w[1]));
            assert_eq!(
                tick(*rest.last().unwrap()),
                twitter_tick(T) + 1,
                "ran ahead"
            );
        }
    }
}

#[test]
fn a_clock_reset_to_before_the_epoch_is_a_step_back() {
    // A dead RTC reads 1970: the policy applies, measured from the last tick.
    let epoch = Layout::TWITTER.epoch_ms();
    let clock = ManualClock::new(T);
    for mut g in both(
        Layout::TWITTER,
        &clock,
        OnBackwards::KeepLastTick,
        OnExhausted::Wait,
    ) {
        clock.set(T);
        let a = g.mint().unwrap();
        clock.set(epoch - 1);
        assert_eq!(g.mint(), Ok(a + 1));
    }
    clock.set(T);
    for mut g in both(
        Layout::TWITTER,
        &clock,
        OnBackwards::Fail,
        OnExhausted::Wait,
    ) {
        clock.set(T);
        g.mint().unwrap();
        clock.set(0);
        assert_eq!(
            g.mint(),
            Err(Error::ClockMovedBackwards {
                by_ms: T,
                allowed_ms: 0
            })
        );
    }
}

#[test]
fn sequence_exhaustion_waits_for_the_next_tick() {
    let clock = ManualClock::new(T);
    for mut g in both(
        Layout::TWITTER,
        &clock,
        OnBackwards::default(),
        OnExhausted::Wait,
    ) {
        clock.set(T);
        let ids: Vec<u64> = (0..PER_TICK).map(|_| g.mint().unwrap()).collect();
        assert!(ids.iter().all(|&id| tick(id) == twitter_tick(T)));
        assert!(ids.windows(2).all(|w| w[1] == w[0] + 1));
        let next = mint_after_clock_moves(&mut *g, &clock, T + 1).unwrap();
        assert_eq!(Layout::TWITTER.decode(next).unwrap().sequence, 0);
        assert_eq!(tick(next), twitter_tick(T + 1));
    }
}

#[test]
fn sequence_exhaustion_borrows_ahead_within_the_bound() {
    let borrow = OnExhausted::BorrowAhead { max_ticks: 2 };
    let clock = ManualClock::new(T);
    for mut g in both(Layout::TWITTER, &clock, OnBackwards::default(), borrow) {
        clock.set(T);
        // Three ticks' worth without the clock moving: T, T+1, T+2.
        let ids: Vec<u64> = (0..3 * PER_TICK).map(|_| g.mint().unwrap()).collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(tick(ids[0]), twitter_tick(T));
        assert_eq!(tick(ids[ids.len() - 1]), twitter_tick(T) + 2);
        // The bound is reached: wait until the clock moves, then borrow T+3.
        let next = mint_after_clock_moves(&mut *g, &clock, T + 1).unwrap();
        assert_eq!(tick(next), twitter_tick(T) + 3);
    }
}

/// 10 time bits: the last tick is 1023, reached quickly.
fn short_layout(unit_ms: u32) -> Layout {
    Layout::new(10, 41, 12, unit_ms, T).unwrap()
}

#[test]
fn time_past_the_last_tick_is_an_error_not_a_wrapped_id() {
    for unit in [1, 10] {
        let layout = short_layout(unit);
        let max_ms = T + 1023 * u64::from(unit) + u64::from(unit) - 1;
        assert_eq!(layout.max_ms(), max_ms);
        let overflow = |now_ms| Error::TimeOverflow { max_ms, now_ms };

        // At construction.
        let late = ManualClock::new(max_ms + 1);
        assert_eq!(
            Snowflake::new(layout, 0, &late).map(|_| ()),
            Err(overflow(max_ms + 1))
        );

        // The clock passes the end while minting.
        let clock = ManualClock::new(max_ms);
        for mut g in both(layout, &clock, OnBackwards::KeepLastTick, OnExhausted::Wait) {
            clock.set(max_ms);
            assert_eq!(layout.decode(g.mint().unwrap()).unwrap().tick, 1023);
            clock.set(max_ms + 1);
            assert_eq!(g.mint(), Err(overflow(max_ms + 1)));
        }

        // Borrowing ahead past the last tick.
        let borrow = OnExhausted::BorrowAhead { max_ticks: 5 };
        clock.set(max_ms);
        for mut g in both(layout, &clock, OnBackwards::default(), borrow) {
            for _ in 0..PER_TICK {
                assert_eq!(layout.decode(g.mint().unwrap()).unwrap().tick, 1023);
            }
            assert_eq!(g.mint(), Err(overflow(layout.ms_of_tick(1024))));
        }

        // Keeping the last tick after a step back, at the end of time.
        clock.set(max_ms);
        for mut g in both(layout, &clock, OnBackwards::KeepLastTick, OnExhausted::Wait) {
            clock.set(max_ms);
            for _ in 0..PER_TICK {
                g.mint().unwrap();
            }
            clock.set(max_ms - u64::from(unit));
            assert_eq!(g.mint(), Err(overflow(layout.ms_of_tick(1024))));
        }
    }
}

#[test]
fn construction_rejects_bad_epochs_workers_and_layouts() {
    let clock = ManualClock::new(T);
    assert_eq!(
        Snowflake::new(Layout::TWITTER.with_epoch(T + 1), 0, &clock).map(|_| ()),
        Err(Error::EpochInFuture {
            epoch_ms: T + 1,
            now_ms: T
        })
    );
    for preset in snowmint::snowflake::Preset::ALL {
        let layout = preset.layout();
        let max = layout.max_worker();
        assert!(
            AtomicSnowflake::new(layout, max, &clock).is_ok(),
            "{preset:?}"
        );
        assert_eq!(
            AtomicSnowflake::new(layout, max + 1, &clock).map(|_| ()),
            Err(Error::WorkerIdOutOfRange {
                worker_id: max + 1,
                max
            }),
            "{preset:?}"
        );
    }
    for (t, w, s, unit) in [
        (41, 10, 11, 1),    // 62 bits
        (41, 10, 13, 1),    // 64 bits
        (0, 51, 12, 1),     // no time
        (51, 12, 0, 1),     // no sequence
        (41, 10, 12, 0),    // no unit
        (255, 255, 255, 1), // far too wide
    ] {
        assert!(
            matches!(
                Layout::new(t, w, s, unit, 0),
                Err(Error::InvalidLayout { .. })
            ),
            "{t}/{w}/{s}/{unit}"
        );
    }
}

#[test]
fn batch_requests_outside_one_tick_are_rejected() {
    let clock = ManualClock::new(T);
    let ids = AtomicSnowflake::new(Layout::TWITTER, 0, &clock).unwrap();
    for count in [0, PER_TICK + 1] {
        assert_eq!(
            ids.claim(count),
            Err(Error::InvalidCount {
                count,
                max: PER_TICK
            })
        );
    }
}

/// A binding's test clock cannot move while a generator waits on it: each
/// policy that would wait fails at once, saying until when, and minting
/// resumes once the caller has moved the clock there.
#[test]
fn a_test_clock_fails_instead_of_waiting() {
    let clock = std::sync::Arc::new(ManualClock::new(T));
    let test_clock = || ClockChoice::Manual(clock.clone());
    let would_wait = |until_ms| {
        Err(Error::ClockWouldWait {
            now_ms: T,
            until_ms,
        })
    };

    // The 4,097th ID of a tick, on both generators.
    let atomic = AtomicSnowflake::new(Layout::TWITTER, 0, test_clock()).unwrap();
    let mut plain = Snowflake::new(Layout::TWITTER, 0, test_clock()).unwrap();
    assert_eq!(atomic.claim(PER_TICK).unwrap().count, PER_TICK);
    assert_eq!(plain.claim(PER_TICK).unwrap().count, PER_TICK);
    assert_eq!(atomic.next(), would_wait(T + 1));
    assert_eq!(plain.next(), would_wait(T + 1));

    // Borrowing past its window: 2 ticks borrowed, then the wait.
    let borrow = AtomicSnowflake::new(Layout::TWITTER, 0, test_clock())
        .unwrap()
        .on_exhausted(OnExhausted::BorrowAhead { max_ticks: 2 });
    for _ in 0..3 {
        assert_eq!(borrow.claim(PER_TICK).unwrap().count, PER_TICK);
    }
    assert_eq!(borrow.next(), would_wait(T + 1));

    // A step back under 'wait': resumes in the tick after the last one minted.
    let back = AtomicSnowflake::new(Layout::TWITTER, 0, test_clock())
        .unwrap()
        .on_backwards(OnBackwards::Wait { max_ms: 1000 });
    clock.set(T + 50);
    let last = back.next().unwrap();
    clock.set(T);
    assert_eq!(back.next(), would_wait(T + 50));
    clock.set(T + 50);
    assert!(back.next().unwrap() > last);

    // Once the caller moves the clock on, every generator mints again.
    clock.set(T + 3);
    assert!(atomic.next().is_ok() && plain.next().is_ok() && borrow.next().is_ok());
}

/// A claim that must not block (an asynchronous caller's) says until when
/// instead of waiting, on any clock, and mints once the clock is there.
#[test]
fn a_claim_that_must_not_wait_says_how_long_instead() {
    let clock = ManualClock::new(T);
    let ids = AtomicSnowflake::new(Layout::TWITTER, 0, &clock).unwrap();
    let mut plain = Snowflake::new(Layout::TWITTER, 0, &clock).unwrap();
    let would_wait = |now_ms, until_ms| Err(Error::ClockWouldWait { now_ms, until_ms });
    let mut out = [0; 16];

    // The sequence used up: until the next tick.
    assert_eq!(ids.claim(PER_TICK).unwrap().count, PER_TICK);
    assert_eq!(plain.claim(PER_TICK).unwrap().count, PER_TICK);
    assert_eq!(ids.try_claim(1), would_wait(T, T + 1));
    assert_eq!(plain.try_claim(1), would_wait(T, T + 1));
    let run = ids.claim_into(&mut out, false).unwrap();
    assert_eq!((run.count, run.wait_ms, run.high_water_ms), (0, 1, T));
    assert_eq!(out, [0; 16], "nothing written");

    // A step back of 100 ms under 'wait': until the last tick minted.
    clock.set(T + 100);
    let last = ids.next().unwrap();
    clock.set(T);
    assert_eq!(ids.try_claim(1), would_wait(T, T + 100));
    assert_eq!(ids.claim_into(&mut out, false).unwrap().wait_ms, 100);
    clock.set(T + 60);
    assert_eq!(ids.claim_into(&mut out, false).unwrap().wait_ms, 40);
    // A step beyond the policy's bound fails as a blocking claim would.
    clock.set(T + 100 - 2_000);
    assert_eq!(
        ids.claim_into(&mut out, false),
        Err(Error::ClockMovedBackwards {
            by_ms: 2_000,
            allowed_ms: 1_000
        })
    );
    // Once the clock is back, it mints after what it minted before.
    clock.set(T + 100);
    let run = ids.claim_into(&mut out, false).unwrap();
    assert_eq!((run.count, run.wait_ms), (16, 0));
    assert!(out[0] > last && out.windows(2).all(|w| w[0] < w[1]));
    assert!(plain.try_claim(1).is_ok());
}

// ------------------------------------------------------------ the default clock

/// The default clock's rule over two manual clocks: a monotonic one that
/// counts from 0 and a wall clock that starts at `T`.
struct Machine {
    mono: ManualClock,
    wall: ManualClock,
}

impl Machine {
    fn new() -> Machine {
        Machine {
            mono: ManualClock::new(0),
            wall: ManualClock::new(T),
        }
    }

    /// A generator on the machine's default clock that fails on any step
    /// back (so a clock that went back would show), and its first ID at `T`.
    fn generator(&self) -> AtomicSnowflake<FollowingClock<&ManualClock, &ManualClock>> {
        let ids = AtomicSnowflake::new(
            Layout::TWITTER,
            0,
            FollowingClock::new(&self.mono, &self.wall),
        )
        .unwrap()
        .on_backwards(OnBackwards::Fail);
        assert_eq!(id_ms(ids.next().unwrap()), T);
        ids
    }

    /// Time passes (both clocks move on) `ms` times by 1 ms; the time of the
    /// ID minted after each step. IDs strictly increase throughout.
    fn run(&self, ids: &AtomicSnowflake<impl Clock>, ms: u64) -> Vec<u64> {
        let mut last = 0;
        (0..ms)
            .map(|_| {
                self.mono.advance(1);
                self.wall.advance(1);
                let id = ids.next().unwrap();
                assert!(id > last, "ID {id} after {last}");
                last = id;
                id_ms(id)
            })
            .collect()
    }
}

fn id_ms(id: u64) -> u64 {
    Layout::TWITTER.decode(id).unwrap().timestamp_ms
}

/// How many 1 ms steps of `times` pass before an ID's time reads the wall
/// clock (`wall_at(step)`), or `None` if none does.
fn steps_to_follow(times: &[u64], wall_at: impl Fn(u64) -> u64) -> Option<u64> {
    (0..times.len() as u64).find(|&i| times[i as usize] >= wall_at(i + 1))
}

#[test]
fn the_default_clock_follows_a_wall_clock_stepped_forward() {
    let m = Machine::new();
    let ids = m.generator();
    m.run(&ids, 30);
    let wall = m.wall.now_ms() + 5 * 60_000;
    m.wall.set(wall);
    let times = m.run(&ids, 2 * FOLLOW_CHECK_MS);
    let n = steps_to_follow(&times, |i| wall + i).expect("never followed");
    assert!(n < FOLLOW_CHECK_MS, "followed after {n} ms");
    // From then on, the IDs' time is the wall clock's.
    assert_eq!(times.last(), Some(&(wall + 2 * FOLLOW_CHECK_MS)));
}

#[test]
fn the_default_clock_holds_when_the_wall_clock_steps_back_then_follows_again() {
    let m = Machine::new();
    let ids = m.generator();
    m.wall.step_back(HOUR);
    // A second of IDs: on the monotonic clock's pace, an hour ahead of the wall.
    let times = m.run(&ids, 1_000);
    assert_eq!(times, (1..=1_000).map(|i| T + i).collect::<Vec<_>>());
    // The wall clock catches up in a jump to 5 s past the IDs: they follow.
    let wall = T + 1_000 + 5_000;
    m.wall.set(wall);
    let times = m.run(&ids, 2 * FOLLOW_CHECK_MS);
    let n = steps_to_follow(&times, |i| wall + i).expect("never followed");
    assert!(n < FOLLOW_CHECK_MS, "followed after {n} ms");
    // The wall clock set back by less than the IDs are ahead: still no step back.
    m.wall.set(wall);
    m.run(&ids, 2 * FOLLOW_CHECK_MS);
}

#[test]
fn the_default_clock_follows_after_a_machine_wakes_up() {
    // Monotonic time that did not count the sleep: the wall clock alone moves on.
    for (sleep, checks) in [(30 * 60_000, 1), (10 * HOUR, 10)] {
        let m = Machine::new();
        let ids = m.generator();
        m.run(&ids, 500);
        m.wall.advance(sleep);
        let times = m.run(&ids, (checks + 1) * FOLLOW_CHECK_MS);
        let wall_at = |i| T + 500 + sleep + i;
        let n = steps_to_follow(&times, wall_at).expect("never followed");
        assert!(
            n < checks * FOLLOW_CHECK_MS,
            "{sleep} ms: followed after {n} ms"
        );
        // No reading jumps by more than the bound.
        let jump = times.windows(2).map(|w| w[1] - w[0]).max().unwrap();
        assert!(jump <= FOLLOW_MAX_JUMP_MS + 1, "a jump of {jump} ms");
    }
}

#[test]
fn the_default_clock_is_shared_and_never_goes_back_across_threads() {
    // Threads reading one clock while another thread moves its wall clock
    // both ways: each thread's readings never decrease.
    let m = Machine::new();
    let clock = FollowingClock::new(&m.mono, &m.wall);
    let done = AtomicBool::new(false);
    thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(|| {
                let mut last = 0;
                while !done.load(SeqCst) {
                    let now = clock.now_ms();
                    assert!(now >= last, "{now} after {last}");
                    last = now;
                }
            });
        }
        for i in 0..20_000u64 {
            m.mono.advance(1);
            match i % 4 {
                0 => m.wall.advance(7),
                1 => m.wall.step_back(HOUR),
                2 => m.wall.advance(HOUR + 3),
                _ => m.wall.step_back(2),
            }
        }
        done.store(true, SeqCst);
    });
}

// ------------------------------------------------------------ ULID, UUID, ObjectId

/// Deterministic randomness for the generators.
enum TestRng {
    /// A SplitMix64 stream.
    SplitMix(u64),
    /// The same bits forever (all ones or all zeros), to drive the
    /// generators' overflow and collision edges.
    Constant(u64),
}

impl TestRng {
    fn next(&mut self) -> u64 {
        match self {
            TestRng::SplitMix(state) => {
                *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = *state;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^ (z >> 31)
            }
            TestRng::Constant(bits) => *bits,
        }
    }
}

impl TryRng for TestRng {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.next() as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.next())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            chunk.copy_from_slice(&self.next().to_le_bytes()[..chunk.len()]);
        }
        Ok(())
    }
}

/// A clock that stalls, steps back 1 h, crawls behind its old value, then
/// runs forward: the ms for the `i`-th of `n` IDs.
fn faulty_ms(i: usize, n: usize) -> u64 {
    let quarter = n / 4;
    match i / quarter {
        0 => T,
        1 => T - HOUR,
        2 => T - 10 + (i % quarter / 10_000) as u64,
        _ => T + (i % quarter / 100) as u64,
    }
}

/// Mints 1M 128-bit IDs (time in the top 48 bits) on the faulty clock and
/// checks that they strictly increase and their time never goes back.
fn check_monotonic_128(name: &str, mut mint: impl FnMut(u64) -> u128) {
    let n = PER_THREAD;
    let mut last = 0u128;
    for i in 0..n {
        let now = faulty_ms(i, n);
        let id = mint(now);
        assert!(id > last, "{name}: #{i} {id:032x} after {last:032x}");
        assert!(
            (id >> 80) as u64 >= now.max((last >> 80) as u64),
            "{name}: #{i} time went back"
        );
        last = id;
    }
}

#[test]
fn monotonic_ulid_and_v7_survive_stalled_and_backwards_clocks() {
    let mut rng = TestRng::SplitMix(1);
    let mut g = UlidGenerator::new();
    check_monotonic_128("ulid", |now| g.generate(now, &mut rng).unwrap().0);
    let mut g = V7Generator::new();
    check_monotonic_128("uuidv7", |now| {
        let u = g.generate(now, &mut rng).unwrap();
        assert_eq!((u.version(), u.is_rfc_variant()), (7, true));
        u.0
    });
    // v6 keeps its 60-bit Gregorian time at the top, so it sorts the same way.
    let mut g = TimeUuidGenerator::new(&mut rng);
    let mut last = 0u128;
    let mut last_v1 = 0u64;
    for i in 0..PER_THREAD {
        let now = faulty_ms(i, PER_THREAD);
        let v6 = g.v6(now).unwrap();
        assert!(v6.0 > last, "v6 #{i}");
        last = v6.0;
        let v1 = g.v1(now).unwrap().gregorian_ticks().unwrap();
        assert!(v1 > last_v1, "v1 #{i}");
        last_v1 = v1;
    }
}

#[test]
fn ulid_random_overflow_moves_to_the_next_millisecond() {
    let mut ones = TestRng::Constant(u64::MAX);
    let mut g = UlidGenerator::new();
    let a = g.generate(T, &mut ones).unwrap();
    assert_eq!(a.random(), (1 << 80) - 1);
    let b = g.generate(T, &mut ones).unwrap();
    assert_eq!((b.timestamp_ms(), b.random()), (T + 1, (1 << 80) - 1));
    let c = g.generate(T - HOUR, &mut ones).unwrap();
    assert_eq!(c.timestamp_ms(), T + 2);

    // At the last representable millisecond there is nowhere to go: an error.
    let mut g = UlidGenerator::new();
    g.generate(ulid::MAX_MS, &mut ones).unwrap();
    let past = Err(Error::TimeOverflow {
        max_ms: ulid::MAX_MS,
        now_ms: ulid::MAX_MS + 1,
    });
    assert_eq!(g.generate(ulid::MAX_MS, &mut ones), past);
    assert_eq!(
        UlidGenerator::new().generate(ulid::MAX_MS + 1, &mut ones),
        past
    );
}

#[test]
fn ulid_at_the_unix_epoch_with_zero_randomness_does_not_repeat() {
    let mut zeros = TestRng::Constant(0);
    let mut g = UlidGenerator::new();
    let a = g.generate(0, &mut zeros).unwrap();
    let b = g.generate(0, &mut zeros).unwrap();
    assert!(b > a, "{a} then {b}");
}

/// Each v7 UUID carries random bits of its own: none repeats within a
/// generator, and a clone draws its own (two clones of one generator continue
/// from the same counter and must not mint the same next UUID), so no cache
/// of random bits may travel with the generator; `Debug` shows none.
#[test]
fn v7_random_words_serve_one_uuid_each_and_stay_with_their_generator() {
    let mut rng = TestRng::SplitMix(3);
    let mut g = V7Generator::new();
    let mut words = std::collections::HashSet::new();
    for i in 0..1000 {
        let u = g.generate(T, &mut rng).unwrap();
        assert!(words.insert(u.0 as u32), "#{i}: random word reused");
    }
    let mut twin = g.clone();
    let (a, b) = (
        g.generate(T, &mut rng).unwrap(),
        twin.generate(T, &mut rng).unwrap(),
    );
    assert_eq!(a.0 >> 32, b.0 >> 32, "clones share the counter");
    assert_ne!(a, b, "a clone minted its original's next UUID");
    let shown = format!("{g:?}");
    assert!(!shown.contains("random"), "{shown}");
}

#[test]
fn objectid_counter_exhaustion_moves_to_the_next_second() {
    const SPACE: usize = 1 << 24;
    let mut g = ObjectIdGenerator::new(&mut TestRng::SplitMix(7));
    let secs = (T / 1000) as u32;
    let mut seen = vec![0u64; SPACE / 64];
    for i in 0..SPACE {
        let id = g.generate(T).unwrap();
        assert_eq!(id.timestamp(), secs, "#{i}");
        let c = id.counter() as usize;
        assert_eq!(seen[c / 64] >> (c % 64) & 1, 0, "counter {c} repeated");
        seen[c / 64] |= 1 << (c % 64);
    }
    let next = g.generate(T).unwrap();
    assert_eq!(next.timestamp(), secs + 1, "borrowed the next second");
    // A clock that steps back does not take the generator back.
    assert_eq!(g.generate(T - HOUR).unwrap().timestamp(), secs + 1);
}

/// A lease's high-water bound past the layout's last tick is refused with
/// the bound itself in the error, never a generator whose state wrapped.
#[test]
fn a_resume_bound_past_the_layout_is_an_error_naming_it() {
    let layout = Layout::new(10, 41, 12, 1, T).unwrap();
    let bound = layout.max_ms() + 5;
    let overflow = Error::TimeOverflow {
        max_ms: layout.max_ms(),
        now_ms: bound,
    };
    let ids = AtomicSnowflake::new(layout, 0, ManualClock::new(T)).unwrap();
    assert_eq!(ids.resume_after(bound).map(|_| ()), Err(overflow.clone()));
    // The last tick itself leaves no tick after it either.
    let last = layout.ms_of_tick(layout.max_tick());
    let ids = Snowflake::new(layout, 0, ManualClock::new(T)).unwrap();
    assert!(
        matches!(ids.resume_after(last), Err(Error::TimeOverflow { now_ms, .. }) if now_ms == last)
    );
    let ids = Snowflake::new(layout, 0, ManualClock::new(T)).unwrap();
    assert!(
        ids.resume_after(last - 1).is_ok(),
        "the last tick is still free"
    );
}

// ------------------------------------------------------------ 64-bit layouts

#[test]
fn discord_mints_past_the_sign_bit_up_to_the_last_id() {
    // 2084-09-06: Discord's tick 2^41, the first IDs >= 2^63.
    let first_unsigned = Layout::DISCORD.epoch_ms() + (1 << 41);
    let clock = ManualClock::new(first_unsigned);
    let ids = AtomicSnowflake::new(Layout::DISCORD, 0, &clock).unwrap();
    assert_eq!(ids.next(), Ok(1 << 63));
    assert_eq!(ids.decode(1 << 63).unwrap().timestamp_ms, first_unsigned);
    // The last tick, the last worker: its IDs end at 2^64 - 1, then time overflows.
    clock.set(Layout::DISCORD.max_ms());
    let last = AtomicSnowflake::new(Layout::DISCORD, 1023, &clock).unwrap();
    let mut batch = vec![0; 4096];
    last.next_batch(&mut batch).unwrap();
    assert_eq!(batch[4095], u64::MAX);
    clock.advance(1);
    assert!(matches!(last.next(), Err(Error::TimeOverflow { .. })));
}

#[test]
fn mastodon_mints_its_layout_and_never_wraps_its_state() {
    let clock = ManualClock::new(T);
    let ids = Snowflake::new(Layout::MASTODON, 0, &clock).unwrap();
    let mut s = ids;
    let id = s.next().unwrap();
    assert_eq!((id >> 16, id & 0xFFFF), (T, 0));
    // The last millisecond fills the state's 64 bits: every slot but the
    // last is minted, then a typed error instead of a wrapped state.
    clock.set(Layout::MASTODON.max_ms());
    let mut s = Snowflake::new(Layout::MASTODON, 0, &clock).unwrap();
    let mut batch = vec![0; 65535];
    s.next_batch(&mut batch).unwrap();
    assert_eq!(batch[65534], u64::MAX - 1);
    assert!(matches!(s.next(), Err(Error::TimeOverflow { .. })));
    assert!(matches!(s.next(), Err(Error::TimeOverflow { .. })));
}
