//! The Rust local lease against real lock files in a temp directory: distinct
//! worker IDs, the high-water rule across a release and a clock stepped back,
//! the recorded reserve, a deleted lock file, the directory checks, and
//! worker IDs above 1,023 for wider layouts.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use snowmint::clock::ManualClock;
use snowmint::snowflake::{Layout, OnBackwards};
use snowmint_lease::{Code, Error, LeaseOptions, LocalLease, OnSkew, RESERVE_MS, Skew};

/// A fresh directory under the temp dir (removed on drop); not created, so
/// the lease creates it.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let root =
            std::env::temp_dir().join(format!("snowmint-lease-test-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        TempDir(root)
    }
    fn leases(&self) -> PathBuf {
        self.0.join("leases")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn stored(dir: &std::path::Path, id: u32) -> u64 {
    let text = std::fs::read_to_string(dir.join(format!("worker-{id}.lock"))).unwrap();
    text.lines().next().unwrap().trim().parse().unwrap()
}

/// A fixed time for tests on a ManualClock, which is then far from the
/// host's: their leases turn the skew check off.
const T0: u64 = 1_750_000_000_000;

fn no_skew(dir: PathBuf) -> LeaseOptions {
    LeaseOptions::new().dir(dir).max_skew_ms(u64::MAX)
}

fn host_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

#[test]
fn two_leases_in_one_process_get_distinct_worker_ids_and_mint_distinct_ids() {
    let tmp = TempDir::new();
    let opts = LeaseOptions::new().dir(tmp.leases());
    let a = LocalLease::acquire(opts.clone()).unwrap();
    let b = LocalLease::acquire(opts.clone()).unwrap();
    assert_eq!(
        (a.worker_id(), b.worker_id()),
        (0, 1),
        "the lowest free IDs, in order"
    );
    let (a, b) = (
        a.snowflake(Layout::TWITTER).unwrap(),
        b.snowflake(Layout::TWITTER).unwrap(),
    );
    let mut seen = HashSet::new();
    for _ in 0..50_000 {
        assert!(seen.insert(a.next().unwrap()));
        assert!(seen.insert(b.next().unwrap()));
    }
    // Released: free again, but its mark has not passed, so a claim
    // prefers a fresh ID; one limited to it starts above its mark.
    let last_a = a.high_water_ms().unwrap();
    drop(a);
    assert_eq!(LocalLease::acquire(opts.clone()).unwrap().worker_id(), 2);
    let c = LocalLease::acquire(opts.worker_ids(0..=0)).unwrap();
    assert!(c.resume_after_ms() >= last_a);
}

#[test]
fn one_leased_generator_shared_by_four_threads_mints_unique_ids_within_its_recorded_bound() {
    let tmp = TempDir::new();
    let ids = LocalLease::acquire(LeaseOptions::new().dir(tmp.leases()))
        .unwrap()
        .snowflake(Layout::TWITTER)
        .unwrap();
    let runs: Vec<Vec<u64>> = std::thread::scope(|s| {
        let threads: Vec<_> = (0..4)
            .map(|_| s.spawn(|| (0..200_000).map(|_| ids.next().unwrap()).collect()))
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let mut all: Vec<u64> = runs.iter().flatten().copied().collect();
    let last_ms = all
        .iter()
        .map(|id| ids.decode(*id).unwrap().timestamp_ms)
        .max()
        .unwrap();
    assert!(stored(&tmp.leases(), 0) > last_ms);
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 800_000);
}

#[test]
fn a_dropped_lease_is_re_acquired_above_its_high_water_even_on_a_clock_stepped_back() {
    let tmp = TempDir::new();
    let clock = ManualClock::new(T0);
    let opts = no_skew(tmp.leases()).worker_ids(7..=7);
    let a = LocalLease::acquire_with_clock(opts.clone(), &clock).unwrap();
    assert_eq!(
        a.resume_after_ms(),
        T0,
        "a new file: starts after the claim"
    );
    let a = a.snowflake(Layout::TWITTER).unwrap();
    clock.advance(1);
    let mut last = 0;
    for _ in 0..2000 {
        for _ in 0..50 {
            let id = a.next().unwrap();
            assert!(id > last);
            last = id;
        }
        clock.advance(1);
    }
    let last_ms = a.decode(last).unwrap().timestamp_ms;
    assert!(
        stored(&tmp.leases(), 7) > last_ms,
        "the reserve covers every ID minted"
    );
    drop(a);
    assert_eq!(
        stored(&tmp.leases(), 7),
        last_ms,
        "release records the exact high-water mark"
    );

    clock.step_back(10_000);
    let b = LocalLease::acquire_with_clock(opts, &clock).unwrap();
    assert_eq!(b.worker_id(), 7);
    assert_eq!(b.resume_after_ms(), last_ms);
    let b = b
        .snowflake_with(Layout::TWITTER, |g| g.on_backwards(OnBackwards::Fail))
        .unwrap();
    let err = b.next().unwrap_err();
    assert_eq!(err.code(), "ERR_CLOCK_BACKWARDS", "{err}");
    clock.advance(10_000);
    let first = b.next().unwrap();
    assert!(
        first > last,
        "{first} is not above the previous holder's {last}"
    );
}

#[test]
fn a_long_mint_extends_the_recorded_bound_once_per_reserve() {
    let tmp = TempDir::new();
    let clock = ManualClock::new(T0);
    let lease = LocalLease::acquire_with_clock(no_skew(tmp.leases()), &clock).unwrap();
    assert_eq!(
        stored(&tmp.leases(), 0),
        T0 + RESERVE_MS,
        "recorded before the first ID"
    );
    let ids = lease.snowflake(Layout::TWITTER).unwrap();
    for _ in 0..5000 {
        clock.advance(1);
        let id = ids.next().unwrap();
        let ms = ids.decode(id).unwrap().timestamp_ms;
        assert!(stored(&tmp.leases(), 0) > ms);
    }
}

#[test]
fn an_explicit_worker_id_is_locked_names_its_holder_and_resumes_after_its_last_tick() {
    let tmp = TempDir::new();
    let clock = ManualClock::new(T0);
    let explicit = || no_skew(tmp.leases()).worker_id(5);
    let ids = LocalLease::acquire_with_clock(explicit(), &clock)
        .unwrap()
        .snowflake(Layout::TWITTER)
        .unwrap();
    assert_eq!(ids.worker_id(), 5);
    clock.advance(1);
    let last = (0..1000).map(|_| ids.next().unwrap()).max().unwrap();
    // A second holder of worker ID 5 (here: another generator of this process).
    let e = LocalLease::acquire_with_clock(explicit(), &clock).unwrap_err();
    assert_eq!(e.code(), Code::WorkerIdInUse, "{e}");
    let pid = std::process::id().to_string();
    assert!(
        e.message().contains(&pid) && e.message().contains("worker ID 5"),
        "{e}"
    );
    // Restarted on a clock 3 s behind: after the last tick minted, never before.
    drop(ids);
    clock.step_back(3000);
    let lease = LocalLease::acquire_with_clock(explicit(), &clock).unwrap();
    assert!(lease.resume_after_ms() >= Layout::TWITTER.decode(last).unwrap().timestamp_ms);
    let ids = lease
        .snowflake_with(Layout::TWITTER, |g| {
            g.on_backwards(OnBackwards::KeepLastTick)
        })
        .unwrap();
    assert!(ids.next().unwrap() > last);
}

#[test]
fn every_worker_id_taken_fails_with_unavailable() {
    let tmp = TempDir::new();
    let opts = LeaseOptions::new().dir(tmp.leases()).worker_ids(10..=13);
    let held: Vec<_> = (0..4)
        .map(|_| LocalLease::acquire(opts.clone()).unwrap())
        .collect();
    let ids: HashSet<_> = held.iter().map(|l| l.worker_id()).collect();
    assert_eq!(ids, HashSet::from([10, 11, 12, 13]));
    let err = LocalLease::acquire(opts).unwrap_err();
    assert_eq!(err.code(), Code::Unavailable);
    assert!(err.message().contains("all 4 worker IDs (10..13)"), "{err}");
}

#[test]
fn a_deleted_lock_file_fails_one_call_then_the_lease_re_claims_and_mints_above() {
    let tmp = TempDir::new();
    let clock = ManualClock::new(T0);
    let ids = LocalLease::acquire_with_clock(no_skew(tmp.leases()), &clock)
        .unwrap()
        .snowflake(Layout::TWITTER)
        .unwrap();
    clock.advance(1);
    let before = ids.next().unwrap();
    assert!(
        ids.next().unwrap() > before,
        "same tick: no new check needed"
    );
    std::fs::remove_dir_all(tmp.leases()).unwrap();
    // Same tick: checked before the deletion, so still handed out.
    let same_tick = ids.next().unwrap();
    clock.advance(1);
    let err = ids.next().unwrap_err();
    assert_eq!(err.code(), "ERR_LEASE_LOST", "{err}");
    assert!(err.to_string().contains("re-acquired worker ID 0"), "{err}");
    clock.advance(1);
    let after = ids.next().unwrap();
    assert!(after > same_tick);
    assert_eq!(ids.decode(after).unwrap().worker_id, 0);
    assert!(stored(&tmp.leases(), 0) > ids.decode(after).unwrap().timestamp_ms);
}

#[test]
fn a_worker_id_held_by_another_after_a_deletion_is_not_minted_on() {
    let tmp = TempDir::new();
    let clock = ManualClock::new(T0);
    let opts = no_skew(tmp.leases()).worker_ids(0..=0);
    let ids = LocalLease::acquire_with_clock(opts.clone(), &clock)
        .unwrap()
        .snowflake(Layout::TWITTER)
        .unwrap();
    clock.advance(1);
    ids.next().unwrap();
    std::fs::remove_dir_all(tmp.leases()).unwrap();
    let newcomer = LocalLease::acquire_with_clock(opts, &clock).unwrap();
    assert_eq!(newcomer.worker_id(), 0);
    clock.advance(1);
    for _ in 0..3 {
        let err = ids.next().unwrap_err();
        assert_eq!(err.code(), "ERR_LEASE_LOST");
        assert!(err.to_string().contains("held by another process"), "{err}");
    }
    drop(newcomer);
    clock.advance(1);
    assert_eq!(
        ids.next().unwrap_err().code(),
        "ERR_LEASE_LOST",
        "re-claimed on this call"
    );
    clock.advance(1);
    ids.next().unwrap();
}

#[test]
fn released_and_wider_layouts() {
    let tmp = TempDir::new();
    let lease = LocalLease::acquire(
        LeaseOptions::new()
            .dir(tmp.leases())
            .layout(&Layout::SONYFLAKE)
            .worker_ids(40_000..=40_000),
    )
    .unwrap();
    assert_eq!(lease.worker_id(), 40_000);
    let ids = lease.snowflake(Layout::SONYFLAKE).unwrap();
    assert_eq!(ids.decode(ids.next().unwrap()).unwrap().worker_id, 40_000);
    drop(ids);

    let wide = LocalLease::acquire(
        LeaseOptions::new()
            .dir(tmp.leases())
            .worker_ids(2000..=2000),
    )
    .unwrap();
    let err = wide.snowflake(Layout::TWITTER).unwrap_err();
    assert_eq!(err.code(), "ERR_WORKER_ID_RANGE", "{err}");
    assert!(matches!(err, Error::Id(_)));
}

#[test]
fn a_clock_5_s_off_the_hosts_refuses_at_acquisition_and_minting_or_warns() {
    let tmp = TempDir::new();
    for (offset, side) in [(5_000i64, "ahead of"), (-5_000, "behind")] {
        let clock = ManualClock::new(host_now().saturating_add_signed(offset));
        let err = LocalLease::acquire_with_clock(LeaseOptions::new().dir(tmp.leases()), &clock)
            .unwrap_err();
        assert_eq!(err.code(), Code::ClockSkew);
        assert_eq!(err.code().as_str(), "ERR_CLOCK_SKEW");
        assert!(
            err.message()
                .contains(&format!(" ms {side} the host's clock")),
            "{err}"
        );
        let ms: u64 = err
            .message()
            .split(" is ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(ms.abs_diff(5000) < 100, "measured {ms} ms: {err}");
    }
    // Refused at acquisition: the worker ID was freed again.
    assert_eq!(
        LocalLease::acquire(LeaseOptions::new().dir(tmp.leases()))
            .unwrap()
            .worker_id(),
        0
    );

    // In time at acquisition, then the clock jumps 5 s ahead: the next write of the bound refuses.
    let clock = ManualClock::new(host_now());
    let ids = LocalLease::acquire_with_clock(LeaseOptions::new().dir(tmp.leases()), &clock)
        .unwrap()
        .snowflake(Layout::TWITTER)
        .unwrap();
    clock.advance(1);
    ids.next().unwrap();
    clock.set(host_now() + 5_000);
    assert_eq!(ids.next().unwrap_err().code(), "ERR_CLOCK_SKEW");
    assert_eq!(
        ids.next().unwrap_err().code(),
        "ERR_CLOCK_SKEW",
        "still refused"
    );

    static WARNED: AtomicU32 = AtomicU32::new(0);
    fn warn(skew: &Skew) {
        assert_eq!(skew.against(), "host");
        assert!(skew.skew_ms > 4_900);
        WARNED.fetch_add(1, Ordering::SeqCst);
    }
    let clock = ManualClock::new(host_now() + 5_000);
    let opts = LeaseOptions::new()
        .dir(tmp.leases())
        .on_skew(OnSkew::Warn(warn));
    let ids = LocalLease::acquire_with_clock(opts, &clock)
        .unwrap()
        .snowflake(Layout::TWITTER)
        .unwrap();
    clock.advance(1);
    ids.next().unwrap();
    assert_eq!(WARNED.load(Ordering::SeqCst), 1);
}

#[test]
fn a_clock_within_the_hosts_limit_but_far_from_its_live_peers_mean_refuses() {
    let tmp = TempDir::new();
    let opts = LeaseOptions::new().dir(tmp.leases());
    let _a = LocalLease::acquire(opts.clone()).unwrap(); // the machine's clock: offset ~0
    let behind = ManualClock::new(host_now() - 700);
    let _c = LocalLease::acquire_with_clock(opts.clone(), &behind).unwrap();
    // +800 ms: within 1 s of the host, but 1,150 ms from the peers' mean (-350).
    let ahead = ManualClock::new(host_now() + 800);
    let err = LocalLease::acquire_with_clock(opts.clone(), &ahead).unwrap_err();
    assert_eq!(err.code(), Code::ClockSkew);
    assert!(
        err.message()
            .contains("ahead of the mean of 2 live peers' clocks"),
        "{err}"
    );
    // A peer 5 s off is not trusted as a reference: it does not make good clocks refuse.
    drop(_c);
    let far = ManualClock::new(host_now() + 5_000);
    let _far = LocalLease::acquire_with_clock(opts.clone().max_skew_ms(u64::MAX), &far).unwrap();
    LocalLease::acquire(opts).unwrap();
}

#[cfg(unix)]
mod hostile {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn refused(dir: PathBuf, why: &str) {
        let err = LocalLease::acquire(LeaseOptions::new().dir(dir)).unwrap_err();
        assert_eq!(err.code(), Code::DirUnsafe, "{err}");
        assert!(err.message().contains(why), "{err}");
    }

    #[test]
    fn unsafe_directories_and_lock_files_are_refused() {
        let tmp = TempDir::new();
        let real = tmp.0.join("real");
        std::fs::create_dir(&real).unwrap();
        std::os::unix::fs::symlink(&real, tmp.0.join("link")).unwrap();
        refused(tmp.0.join("link"), "is a symbolic link");

        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o777)).unwrap();
        refused(real.clone(), "is writable by other users (mode 0777)");
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o700)).unwrap();

        std::fs::write(tmp.0.join("file"), "").unwrap();
        refused(tmp.0.join("file"), "is not a directory");

        refused(PathBuf::from("relative/leases"), "is a relative path");

        // A lock file that is a symlink or a FIFO: never followed, never blocked on.
        std::fs::write(tmp.0.join("target"), "").unwrap();
        std::os::unix::fs::symlink(tmp.0.join("target"), real.join("worker-0.lock")).unwrap();
        refused(real.clone(), "is a symbolic link");
        std::fs::remove_file(real.join("worker-0.lock")).unwrap();
        let fifo = std::ffi::CString::new(real.join("worker-0.lock").to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        refused(real, "is not a regular file");
    }

    #[test]
    fn a_new_directory_is_private() {
        let tmp = TempDir::new();
        let _lease = LocalLease::acquire(LeaseOptions::new().dir(tmp.leases())).unwrap();
        let mode = std::fs::metadata(tmp.leases())
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o700);
        let file = std::fs::metadata(tmp.leases().join("worker-0.lock")).unwrap();
        assert_eq!(file.permissions().mode() & 0o777, 0o600);
    }
}
