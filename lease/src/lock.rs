//! The lock files: an exclusive, non-blocking file lock that the kernel
//! drops when the process dies (`flock(2)` through `File::try_lock`), on
//! files and directories opened so that no other user can steer them. Both
//! the Rust [`LocalLease`](crate::LocalLease) and the Node binding's
//! `snowmint/lease` (node/src/lease.rs, which only converts) lock through
//! here, so a Rust and a Node process on one host share one format and one
//! set of checks.
//!
//! A lock file holds three numbers as fixed-width lines written in place
//! with one positioned write (a process killed at any moment leaves either
//! the old or the new lines, never torn ones): the lease's high-water bound
//! in Unix ms, then the holder's clock reading at that write, its *report*,
//! then the holder's process ID (for the message that names who holds an
//! explicit worker ID).
//! The kernel stamps the write with its own time (the file's mtime), so
//! `report - mtime` is how far the holder's clock was from the host's at
//! that moment, whenever it is read: [`LockFile::skew`] compares a holder's
//! clock with the host's and with its live peers'. A reader of the first
//! line only (as older versions are) still finds the bound.
//!
//! A lock is only worth something while its path still names the locked
//! file: once a cleaner (systemd-tmpfiles, tmpreaper, `rm -rf /tmp/*`)
//! deletes it, the next claimant creates a new file under the same name and
//! locks that. So a claimant checks after locking that the path still names
//! the file it locked (same device and inode), and the holder checks it
//! ([`LockFile::held`], one `lstat`) before handing out IDs; a holder that
//! finds its file gone stops minting and claims again.
//! Windows instead opens lock files without `FILE_SHARE_DELETE`: nobody can
//! delete or rename a held lock file (or its directory) at all.
//!
//! The directory is trusted only if it is a real directory of the current
//! user that no one else can write (Unix: checked on the opened handle);
//! lock files are opened without following symlinks and without blocking
//! on FIFOs, and must be regular files. Windows has no such owner and mode
//! bits: there the directory must only be a real directory (not a symlink or
//! junction), and its ACL is what keeps other users out.

use std::fs::{self, File, Metadata, TryLockError};
use std::io;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use crate::error::{Code, LeaseError};

type Result<T> = std::result::Result<T, LeaseError>;

/// One line of a lock file: `u64::MAX` has 20 digits; a newline makes the
/// file readable with `cat`.
const WIDTH: usize = 21;

/// How often a claim retries one worker ID whose file was replaced between
/// opening and locking it (only a cleaner racing the claim does that).
const REPLACED_RETRIES: u32 = 8;

fn io_err(what: &str, path: &Path, e: io::Error) -> LeaseError {
    LeaseError::new(
        Code::Io,
        format!("cannot {what} lease file {}: {e}", path.display()),
    )
}

/// A lease directory or file that another user could have planted or can
/// still change: using it could hand them our worker IDs.
fn unsafe_err(path: &Path, why: &str, fix: &str) -> LeaseError {
    LeaseError::new(Code::DirUnsafe, format!("{} {why}: {fix}", path.display()))
}

const FIX_DIR: &str = "remove it (as its owner or root) so that snowmint creates its own, \
    or set SNOWMINT_LEASE_DIR (or the lease's `dir` option) to a directory that only you can write";

/// Poison only means another thread panicked mid-write; the file itself is
/// never torn (one write), so the state stays usable.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[path = "lock/skew.rs"]
mod skew;
#[path = "lock/text.rs"]
mod text;
use skew::peer_offsets;
pub use skew::{LIVE_MS, Skew};
pub use text::{format_lock_file, parse_holder, parse_lock_file};

#[cfg(unix)]
#[path = "lock/unix.rs"]
mod os;

#[cfg(windows)]
#[path = "lock/windows.rs"]
mod os;

/// Opens a lease file without following a symlink or blocking on a FIFO
/// (`write`: creating it, mode 0600), and refuses anything but a regular
/// file of ours.
fn open_lease_file(path: &Path, write: bool) -> Result<(File, Metadata)> {
    let file = os::open_file(path, write).map_err(|e| {
        if os::is_symlink(&e) {
            unsafe_err(path, "is a symbolic link", FIX_DIR)
        } else {
            io_err("open", path, e)
        }
    })?;
    let meta = file.metadata().map_err(|e| io_err("inspect", path, e))?;
    if !meta.file_type().is_file() {
        let why = format!("is not a regular file ({:?})", meta.file_type());
        return Err(unsafe_err(path, &why, FIX_DIR));
    }
    if let Some(why) = os::foreign(&meta) {
        return Err(unsafe_err(path, &why, FIX_DIR));
    }
    Ok((file, meta))
}

/// Whether `path` names the file whose metadata is `locked` (no symlink
/// followed): false once it was deleted, or replaced by another file.
fn names(path: &Path, locked: (u64, u64)) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file() && os::identity(&m) == locked)
}

/// The open, locked file and the bound it holds.
struct Held {
    file: File,
    /// (device, inode) of `file`: the path must keep naming it.
    identity: (u64, u64),
    /// The lease directory, open for as long as the lock is held: its shared
    /// `flock` keeps systemd-tmpfiles from cleaning it (Unix).
    _dir: File,
    /// What the file holds: every extension goes through here, so the bound
    /// of a lock shared by threads is the maximum over all of them.
    bound: u64,
    /// The holder's clock minus the host's at the last write (ms).
    offset: Option<i64>,
}

/// One exclusively locked lock file, `<dir>/worker-<id>.lock`. The lock
/// lasts until [`LockFile::unlock`], the drop of the `LockFile`, or the end
/// of the process (however it ends).
pub struct LockFile {
    path: PathBuf,
    worker_id: u32,
    /// The bound the file held when it was locked: the claimer mints after it.
    claimed_bound: u64,
    /// `None` once unlocked.
    held: Mutex<Option<Held>>,
}

impl std::fmt::Debug for LockFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LockFile")
            .field("path", &self.path)
            .field("worker_id", &self.worker_id)
            .field("claimed_bound", &self.claimed_bound)
            .finish_non_exhaustive()
    }
}

impl LockFile {
    /// Opens (creating it if needed) and locks `path` without blocking;
    /// `None` when another open handle (this process or another) holds it.
    fn try_lock(dir: &File, path: PathBuf, worker_id: u32) -> Result<Option<LockFile>> {
        for _ in 0..REPLACED_RETRIES {
            let (file, meta) = open_lease_file(&path, true)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => return Ok(None),
                Err(TryLockError::Error(e)) => return Err(io_err("lock", &path, e)),
            }
            // Deleted or replaced between our open and our lock: that lock
            // is on a file the next claimant will not see. Claim again.
            let identity = os::identity(&meta);
            if !names(&path, identity) {
                continue;
            }
            // Read under the lock: whatever the caller saw before may be stale.
            let bound = read_bound(&file).map_err(|e| io_err("read", &path, e))?;
            let dir = dir
                .try_clone()
                .map_err(|e| io_err("open the directory of", &path, e))?;
            return Ok(Some(LockFile {
                path,
                worker_id,
                claimed_bound: bound,
                held: Mutex::new(Some(Held {
                    file,
                    identity,
                    _dir: dir,
                    bound,
                    offset: None,
                })),
            }));
        }
        Err(LeaseError::new(
            Code::Io,
            format!(
                "lease file {} was replaced {REPLACED_RETRIES} times while being locked: is something deleting the lease directory in a loop?",
                path.display()
            ),
        ))
    }

    /// Locks the first of `ids` (in that order) whose file in `dir` no open
    /// handle holds; `None` if every one is held. Creates `dir` (mode 0700)
    /// if it is missing, and refuses one another user could control.
    pub fn claim_first(dir: &Path, ids: &[u32]) -> Result<Option<LockFile>> {
        let handle = os::open_dir(dir)?;
        for &id in ids {
            if let Some(locked) = Self::try_lock(&handle, lock_path(dir, id), id)? {
                return Ok(Some(locked));
            }
        }
        Ok(None)
    }

    /// The worker ID whose file this is.
    pub fn worker_id(&self) -> u32 {
        self.worker_id
    }

    /// The high-water bound the file held when it was locked (0 for a new file).
    pub fn claimed_bound(&self) -> u64 {
        self.claimed_bound
    }

    /// Still locked by us, and the path still names the locked file (one
    /// `lstat`): false once a cleaner deleted or replaced it, after which
    /// another process may lock a new file under the same name.
    pub fn held(&self) -> bool {
        lock(&self.held)
            .as_ref()
            .is_some_and(|h| names(&self.path, h.identity))
    }

    fn with<T>(&self, f: impl FnOnce(&mut Held) -> io::Result<T>) -> Result<T> {
        let mut guard = lock(&self.held);
        let held = guard.as_mut().ok_or_else(|| {
            LeaseError::new(
                Code::Released,
                format!("lease file {} is already unlocked", self.path.display()),
            )
        })?;
        f(held).map_err(|e| io_err("write", &self.path, e))
    }

    /// Stores `max(stored, ms)` and returns it: threads that extend one
    /// shared lock can never lower its bound, whatever order they write in.
    /// `now_ms`, the holder's clock, is written with it as its report.
    pub fn raise(&self, ms: u64, now_ms: u64) -> Result<u64> {
        self.with(|held| {
            write_bound(held, ms.max(held.bound), now_ms)?;
            Ok(held.bound)
        })
    }

    /// Stores exactly `ms` (at release: the holder's last minted tick, which
    /// may be lower than the bound it reserved), reporting `now_ms`.
    pub fn set(&self, ms: u64, now_ms: u64) -> Result<()> {
        self.with(|held| write_bound(held, ms, now_ms))
    }

    /// Whether the holder's clock, as of its last write, is more than
    /// `max_skew_ms` from the host's (the kernel's time stamped on the
    /// file), or from the mean of its live peers' (holders of other worker
    /// IDs in `dir` that wrote in the last [`LIVE_MS`], each measured the
    /// same way; peers themselves that far from the host are left out, so
    /// one bad clock does not make the good ones refuse).
    pub fn skew(&self, dir: &Path, max_skew_ms: u64) -> Result<Option<Skew>> {
        let Some(own) = lock(&self.held).as_ref().and_then(|h| h.offset) else {
            return Ok(None);
        };
        let max = i64::try_from(max_skew_ms).unwrap_or(i64::MAX);
        if own.abs() > max {
            return Ok(Some(Skew {
                skew_ms: own,
                peers: 0,
                max_skew_ms,
            }));
        }
        let peers: Vec<i64> = peer_offsets(dir, self.worker_id)?
            .into_iter()
            .filter(|o| o.abs() <= max)
            .collect();
        if peers.is_empty() {
            return Ok(None);
        }
        let mean = peers.iter().sum::<i64>() / peers.len() as i64;
        Ok(((own - mean).abs() > max).then_some(Skew {
            skew_ms: own - mean,
            peers: peers.len(),
            max_skew_ms,
        }))
    }

    /// Drops the lock (closing the file); later writes fail with
    /// [`Code::Released`].
    pub fn unlock(&self) {
        lock(&self.held).take();
    }
}

/// The failure to lock explicit worker ID `id` in `dir`: another open
/// handle holds its file, of another process (named by the pid it wrote) or
/// of this one.
pub fn in_use(dir: &Path, id: u32) -> LeaseError {
    let path = lock_path(dir, id);
    let holder = match holder_pid(dir, id) {
        Some(pid) if pid == std::process::id() => {
            format!("this process (pid {pid}) holds it already, for another generator")
        }
        Some(pid) => format!("the live process with pid {pid} holds it"),
        None => "another live process holds it".to_string(),
    };
    LeaseError::new(
        Code::WorkerIdInUse,
        format!(
            "worker ID {id} is in use on this host: {holder} (lock file {}). Two generators on one worker ID would mint the same IDs. \
             Give each process its own worker ID, or none to lease a free one; to mint without this check, at your own risk, set lease: 'none'.",
            path.display()
        ),
    )
}

/// `<dir>/worker-<id>.lock`.
fn lock_path(dir: &Path, id: u32) -> PathBuf {
    dir.join(format!("worker-{id}.lock"))
}

/// The process ID recorded in `<dir>/worker-<id>.lock` by its last writer
/// (the live holder, while the file is locked); `None` without one. Read
/// without following symlinks or blocking.
pub fn holder_pid(dir: &Path, id: u32) -> Option<u32> {
    let (file, _) = open_lease_file(&lock_path(dir, id), false).ok()?;
    let mut buf = [0u8; 3 * WIDTH];
    let n = os::read_at(&file, &mut buf).ok()?;
    parse_holder(&buf[..n])
}

/// The bound (0 if none) and the report (if any) that `file` holds.
fn read_file(file: &File) -> io::Result<(u64, Option<u64>)> {
    let mut buf = [0u8; 3 * WIDTH];
    let n = os::read_at(file, &mut buf)?;
    parse_lock_file(&buf[..n]).ok_or_else(|| {
        let text = String::from_utf8_lossy(&buf[..n]);
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("unreadable high-water mark {text:?}"),
        )
    })
}

fn read_bound(file: &File) -> io::Result<u64> {
    read_file(file).map(|(bound, _)| bound)
}

/// Unix ms of a file's last write, by the kernel's clock.
fn mtime_ms(meta: &Metadata) -> Option<i64> {
    let since = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    i64::try_from(since.as_millis()).ok()
}

fn write_bound(held: &mut Held, ms: u64, now_ms: u64) -> io::Result<()> {
    os::write_at(
        &held.file,
        format_lock_file(ms, now_ms, std::process::id()).as_bytes(),
    )?;
    held.bound = ms;
    held.offset = mtime_ms(&held.file.metadata()?).map(|m| now_ms as i64 - m);
    Ok(())
}

/// The worker ID and path of every `worker-<id>.lock` in `dir`.
fn lock_files(dir: &Path) -> Result<Vec<(u32, PathBuf)>> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| io_err("list the directory of", dir, e))? {
        let entry = entry.map_err(|e| io_err("list the directory of", dir, e))?;
        let name = entry.file_name();
        if let Some(id) = name
            .to_str()
            .and_then(|n| n.strip_prefix("worker-")?.strip_suffix(".lock"))
            .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|n| n.parse::<u32>().ok())
        {
            out.push((id, lock_path(dir, id)));
        }
    }
    Ok(out)
}

/// The high-water bounds recorded in `dir` (created and checked like a
/// claim's) for the worker IDs in `ids`, as `(worker ID, bound)` pairs,
/// bounds above 0 only. Files are read without following symlinks or
/// blocking; a file removed meanwhile has no bound.
pub fn bounds(dir: &Path, ids: RangeInclusive<u32>) -> Result<Vec<(u32, u64)>> {
    let _handle = os::open_dir(dir)?;
    let mut out = Vec::new();
    for (id, path) in lock_files(dir)? {
        if !ids.contains(&id) {
            continue;
        }
        let (file, _) = match open_lease_file(&path, false) {
            Ok(opened) => opened,
            Err(e) if e.code() == Code::Io => continue, // removed meanwhile
            Err(e) => return Err(e),
        };
        let bound = read_bound(&file).map_err(|e| io_err("read", &path, e))?;
        if bound > 0 {
            out.push((id, bound));
        }
    }
    Ok(out)
}

/// The zero-configuration lease directory: `<temp dir>/snowmint-leases-<user>`
/// (the temp dir from `TMPDIR` on Unix, the user's temp folder on Windows;
/// the user is the effective user's login name, else its uid). Node's
/// `defaultLeaseDir()` is this function, so Rust and Node processes of one
/// user lease from one directory.
pub fn default_dir() -> PathBuf {
    std::env::temp_dir().join(format!("snowmint-leases-{}", os::user_name()))
}

/// The directory a lease uses: `dir` if given, else `SNOWMINT_LEASE_DIR`
/// (when set and not empty), else [`default_dir`]. A relative path is
/// refused: processes started in different working directories would lease
/// from different directories and share worker IDs.
pub fn resolve_dir(dir: Option<&Path>) -> Result<PathBuf> {
    let env = std::env::var_os("SNOWMINT_LEASE_DIR").filter(|v| !v.is_empty());
    let (path, what) = match (dir, env) {
        (Some(d), _) => (d.to_path_buf(), "the lease option dir"),
        (None, Some(e)) => (PathBuf::from(e), "SNOWMINT_LEASE_DIR"),
        (None, None) => return Ok(default_dir()),
    };
    if path.is_relative() {
        return Err(LeaseError::new(
            Code::DirUnsafe,
            format!(
                "{what}='{}' is a relative path: processes started in different working directories would use different lease directories and share worker IDs. Give an absolute path.",
                path.display()
            ),
        ));
    }
    Ok(path)
}
