//! The one-call functions with expiry words (feature `expiry`): no ID is
//! handed out more than one tick after its tick, with threads stalled
//! between bursts; runs really skip the clock on Linux; IDs stay strictly
//! increasing per thread and unique across threads; a thread that exits
//! (or tears its words down) leaves no timer. Run in release (10-core.sh).
#![cfg(feature = "expiry")]

use std::thread;
use std::time::{Duration, Instant};

use snowmint::clock::{Clock, MonotonicClock};
use snowmint::{expiry, new_ulid, new_uuid_v7, thread_clock_reads};

/// Where runs must get words: Linux, except under qemu-user
/// (SNOWMINT_EMULATED, as the platform suites set it), where the timers and
/// signals may not be there and the clock is read as without the feature.
fn words_expected() -> bool {
    cfg!(target_os = "linux") && std::env::var_os("SNOWMINT_EMULATED").is_none()
}

/// A small xorshift, seeded per thread (the stalls need no quality).
struct Stalls(u64);

impl Stalls {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Stalls the thread 0-3 ms: half the time asleep, half spinning
    /// (a thread busy in other code, which no signal waits for).
    fn stall(&mut self) {
        let us = self.next() % 3_000;
        if self.next() % 2 == 0 {
            thread::sleep(Duration::from_micros(us));
        } else {
            let until = Instant::now() + Duration::from_micros(us);
            while Instant::now() < until {}
        }
    }
}

fn ulid_ms() -> u64 {
    new_ulid().unwrap().timestamp_ms()
}

fn v7_ms() -> u64 {
    (new_uuid_v7().unwrap().0 >> 80) as u64
}

/// Mints bursts of 40 ULIDs and 40 v7s (a burst grows a run past WORD_MIN_RUN,
/// so it claims a word), stalls 0-3 ms, for `rounds` rounds. Returns every
/// ID handed out more than one tick after its tick: one whose ms is below
/// the clock's reading right before the call, less one tick. That reading
/// is a lower bound of when the ID was handed out, so a correct run is
/// never flagged; the reading right after the call is not: the thread may
/// be descheduled between the handout and that read (2 cores, other jobs).
fn stalled_rounds(rounds: usize, seed: u64) -> Vec<String> {
    let mut stalls = Stalls(seed);
    let mut stale = Vec::new();
    for r in 0..rounds {
        for (name, mint) in [("ulid", ulid_ms as fn() -> u64), ("v7", v7_ms)] {
            for _ in 0..40 {
                let before = MonotonicClock.now_ms();
                let ms = mint();
                let after = MonotonicClock.now_ms();
                if ms + 1 < before {
                    stale.push(format!(
                        "{name} of ms {ms} handed out at {before}..{after} (round {r})"
                    ));
                }
            }
        }
        stalls.stall();
    }
    stale
}

#[test]
fn no_id_is_handed_out_more_than_one_tick_after_its_tick_with_threads_stalled() {
    let results: Vec<(Vec<String>, u64)> = thread::scope(|s| {
        let threads: Vec<_> = (1..=4u64)
            .map(|i| {
                s.spawn(move || {
                    let stale = stalled_rounds(400, 0x9E37_79B9_7F4A_7C15 * i);
                    (stale, thread_clock_reads())
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    for (i, (stale, reads)) in results.iter().enumerate() {
        assert!(
            stale.is_empty(),
            "thread {i}: {} stale IDs, first {:?}",
            stale.len(),
            &stale[..stale.len().min(5)]
        );
        if words_expected() {
            // 32,000 IDs per thread: with words, about 16 clock reads per burst.
            assert!(
                *reads < 32_000 * 3 / 4,
                "thread {i} read the clock {reads} times for 32,000 IDs: no words used"
            );
        }
    }
}

#[test]
fn runs_skip_the_clock_on_linux() {
    if !words_expected() {
        eprintln!("no expiry words expected here: skipped");
        return;
    }
    let reads = thread::spawn(|| {
        for _ in 0..200_000 {
            new_ulid().unwrap();
            new_uuid_v7().unwrap();
        }
        thread_clock_reads()
    })
    .join()
    .unwrap();
    assert!(reads < 40_000, "{reads} clock reads for 400,000 IDs");
    assert!(expiry::debug().0 > 0, "a real-time signal is installed");
}

#[cfg(target_os = "linux")]
#[test]
fn a_thread_with_the_signal_blocked_gets_no_words_and_reads_the_clock() {
    let (reads, stale) = thread::spawn(|| {
        // SAFETY: blocks every signal on this thread only.
        unsafe {
            let mut all: libc::sigset_t = std::mem::zeroed();
            libc::sigfillset(&mut all);
            assert_eq!(
                libc::pthread_sigmask(libc::SIG_BLOCK, &all, std::ptr::null_mut()),
                0
            );
        }
        let stale = stalled_rounds(50, 7);
        for _ in 0..10_000 {
            new_ulid().unwrap();
        }
        (thread_clock_reads(), stale)
    })
    .join()
    .unwrap();
    assert_eq!(stale, Vec::<String>::new());
    assert_eq!(reads, 50 * 80 + 10_000, "every ID read the clock");
}

#[test]
fn four_threads_mint_strictly_increasing_unique_ids() {
    const PER_THREAD: usize = 150_000;
    let per_thread: Vec<(Vec<u128>, Vec<u128>, u64)> = thread::scope(|s| {
        let threads: Vec<_> = (1..=4u64)
            .map(|i| {
                s.spawn(move || {
                    let mut stalls = Stalls(0x2545_F491_4F6C_DD1D * i);
                    let (mut ulids, mut v7s) = (
                        Vec::with_capacity(PER_THREAD),
                        Vec::with_capacity(PER_THREAD),
                    );
                    for n in 0..PER_THREAD {
                        ulids.push(new_ulid().unwrap().0);
                        v7s.push(new_uuid_v7().unwrap().0);
                        if n % 20_000 == 0 {
                            stalls.stall();
                        }
                    }
                    (ulids, v7s, thread_clock_reads())
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let mut all = Vec::with_capacity(8 * PER_THREAD);
    for (t, (ulids, v7s, reads)) in per_thread.iter().enumerate() {
        for (name, ids) in [("ulid", ulids), ("v7", v7s)] {
            if let Some(i) = ids.windows(2).position(|w| w[0] >= w[1]) {
                panic!(
                    "thread {t}: {name} {:x} followed by {:x}",
                    ids[i],
                    ids[i + 1]
                );
            }
            all.extend_from_slice(ids);
        }
        if words_expected() {
            assert!(
                *reads < PER_THREAD as u64,
                "thread {t}: {reads} clock reads for {} IDs",
                2 * PER_THREAD
            );
        }
    }
    assert_eq!(all.len(), 1_200_000);
    all.sort_unstable();
    if let Some(w) = all.windows(2).find(|w| w[0] == w[1]) {
        panic!("duplicate ID {:x}", w[0]);
    }
}

/// This thread's kernel ID ("PID/task/TID").
#[cfg(target_os = "linux")]
fn tid() -> String {
    let link = std::fs::read_link("/proc/thread-self").unwrap();
    link.to_string_lossy()
        .rsplit('/')
        .next()
        .unwrap()
        .to_string()
}

/// Whether a POSIX timer of this process signals thread `tid`.
#[cfg(target_os = "linux")]
fn has_timer(tid: &str) -> bool {
    let timers = std::fs::read_to_string("/proc/self/timers").unwrap();
    let want = format!("notify: signal/tid.{tid}");
    timers.lines().any(|l| l == want)
}

/// Mints bursts until this thread's timer is armed (a run claimed a word).
#[cfg(target_os = "linux")]
fn mint_until_armed() -> bool {
    for _ in 0..100 {
        let until = Instant::now() + Duration::from_millis(2);
        while Instant::now() < until {} // the last run expired: the next burst claims
        for _ in 0..40 {
            new_ulid().unwrap();
        }
        if expiry::debug().1 > 0.0 {
            return true;
        }
    }
    false
}

#[cfg(target_os = "linux")]
#[test]
fn threads_that_exit_leave_no_timers() {
    if !words_expected() {
        eprintln!("no expiry words expected here: skipped");
        return;
    }
    let tids: Vec<String> = (0..8)
        .map(|i| {
            thread::spawn(move || {
                assert!(
                    mint_until_armed(),
                    "thread {i}: no timer armed after 100 bursts"
                );
                let tid = tid();
                assert!(has_timer(&tid), "thread {i} has no timer while it mints");
                // Exits with its timer armed half the time.
                if i % 2 == 0 {
                    thread::sleep(Duration::from_millis(2));
                }
                tid
            })
            .join()
            .unwrap()
        })
        .collect();
    for tid in &tids {
        assert!(
            !has_timer(tid),
            "thread {tid} exited, its timer is still there"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn words_torn_down_by_a_binding_are_taken_anew() {
    if !words_expected() {
        eprintln!("no expiry words expected here: skipped");
        return;
    }
    thread::spawn(|| {
        let tid = tid();
        assert!(mint_until_armed());
        expiry::teardown_thread();
        assert!(!has_timer(&tid), "the timer outlived teardown_thread()");
        // Minting goes on, fresh, and claims words of a new setup.
        assert_eq!(stalled_rounds(20, 3), Vec::<String>::new());
        assert!(mint_until_armed(), "no words after teardown_thread()");
        assert!(has_timer(&tid));
    })
    .join()
    .unwrap();
}
