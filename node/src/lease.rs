//! What `snowmint/lease` needs from the OS and cannot get from Node: an
//! exclusive, non-blocking file lock that the kernel drops when the process
//! dies (`flock(2)` through `File::try_lock`), lease files and directories
//! opened so that no other user can steer them, and the core's monotonic
//! clock that the default generator reads. Choosing the order of worker IDs,
//! fencing and the high-water rules live in `npm/src/lease/`.
//!
//! A lock file holds one number, the lease's high-water bound in Unix ms, as
//! fixed-width text written in place with one positioned write: a process
//! killed at any moment leaves either the old or the new number, never a torn
//! one.
//!
//! A lock is only worth something while its path still names the locked
//! file: once a cleaner (systemd-tmpfiles, tmpreaper, `rm -rf /tmp/*`)
//! deletes it, the next claimant creates a new file under the same name and
//! locks that. So a claimant checks after locking that the path still names
//! the file it locked (same device and inode), and the holder checks it on
//! every claimed run (`LeaseFile::held`, one `lstat`); a holder that finds its
//! file gone stops minting and claims again (npm/src/lease/lease.js).
//! Windows instead opens lock files without `FILE_SHARE_DELETE`: nobody can
//! delete or rename a held lock file (or its directory) at all.
//!
//! The directory is trusted only if it is a real directory of the current
//! user that no one else can write (Unix: checked on the opened handle);
//! lock files are opened without following symlinks and without blocking
//! on FIFOs, and must be regular files. Windows has no such owner and mode
//! bits: there the directory must only be a real directory (not a symlink or
//! junction), and its ACL is what keeps other users out.
//!
//! The default generator is a process-wide static (lib.rs) that every
//! `worker_thread` mints from, so its zero-config lease is process-wide too:
//! one lock, held here in `DEFAULT_LEASE`, that every JS thread's lease
//! object shares. A per-thread lock would spend a worker ID per thread and
//! record the bounds of the threads' worker IDs, not the generator's.

use std::fs::{self, File, Metadata, TryLockError};
use std::io;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use napi_derive::napi;
use snowmint::clock::{Clock, MonotonicClock};

type Result<T> = napi::Result<T, &'static str>;

/// `u64::MAX` has 20 digits; a newline makes the file readable with `cat`.
const WIDTH: usize = 21;

/// How often a claim retries one worker ID whose file was replaced between
/// opening and locking it (only a cleaner racing the claim does that).
const REPLACED_RETRIES: u32 = 8;

fn io_err(what: &str, path: &str, e: io::Error) -> napi::Error<&'static str> {
    napi::Error::new(
        "ERR_LEASE_IO",
        format!("cannot {what} lease file {path}: {e}"),
    )
}

/// A lease directory or file that another user could have planted or can
/// still change: using it could hand them our worker IDs.
fn unsafe_err(path: &str, why: &str, fix: &str) -> napi::Error<&'static str> {
    napi::Error::new("ERR_LEASE_DIR_UNSAFE", format!("{path} {why}: {fix}"))
}

const FIX_DIR: &str = "remove it (as its owner or root) so that snowmint creates its own, \
    or set SNOWMINT_LEASE_DIR (or localLease({ dir })) to a directory that only you can write";

/// Poison only means another thread panicked mid-write; the file itself is
/// never torn (one write), so the state stays usable.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(unix)]
mod os {
    use super::{FIX_DIR, Result, io_err, unsafe_err};
    use std::fs::{DirBuilder, File, Metadata, OpenOptions};
    use std::io;
    use std::os::unix::fs::{DirBuilderExt, FileExt, MetadataExt, OpenOptionsExt};

    /// Which file a handle or a path is: (device, inode).
    pub fn identity(m: &Metadata) -> (u64, u64) {
        (m.dev(), m.ino())
    }

    fn euid() -> u32 {
        // SAFETY: geteuid has no preconditions and cannot fail.
        unsafe { libc::geteuid() }
    }

    /// Owned by us and writable by no one else, or why not.
    fn owned_and_private(m: &Metadata) -> Option<String> {
        let (uid, mode) = (m.uid(), m.mode() & 0o7777);
        if uid != euid() {
            return Some(format!(
                "is owned by uid {uid}, not by this process's uid {}: another user may have created it to take or free your worker IDs",
                euid()
            ));
        }
        if mode & 0o022 != 0 {
            return Some(format!(
                "is writable by other users (mode {mode:04o}): they could delete or replace the lock files"
            ));
        }
        None
    }

    /// Creates `dir` (mode 0700, parents too) if it is missing, then opens it
    /// without following a symlink and checks the opened directory: ours,
    /// writable by no one else. The handle carries a shared `flock`, which
    /// systemd-tmpfiles honours by leaving the directory alone.
    pub fn open_dir(dir: &str) -> Result<File> {
        let open = || {
            OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NOFOLLOW | libc::O_DIRECTORY)
                .open(dir)
        };
        let handle = match open() {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                DirBuilder::new()
                    .recursive(true)
                    .mode(0o700)
                    .create(dir)
                    .map_err(|e| io_err("create the directory of", dir, e))?;
                open()
            }
            r => r,
        };
        let handle = handle.map_err(|e| match e.raw_os_error() {
            // O_DIRECTORY reports a symlink to a directory as ENOTDIR.
            Some(libc::ELOOP | libc::ENOTDIR) => {
                let link = std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink());
                let why = if link {
                    "is a symbolic link"
                } else {
                    "is not a directory"
                };
                unsafe_err(dir, why, FIX_DIR)
            }
            _ => io_err("open the directory of", dir, e),
        })?;
        let meta = handle
            .metadata()
            .map_err(|e| io_err("inspect the directory of", dir, e))?;
        if let Some(why) = owned_and_private(&meta) {
            let fix = if meta.uid() == euid() {
                format!("run `chmod go-w {dir}`, or {FIX_DIR}")
            } else {
                FIX_DIR.to_string()
            };
            return Err(unsafe_err(dir, &why, &fix));
        }
        // Best effort: the lease does not depend on it.
        let _ = handle.try_lock_shared();
        Ok(handle)
    }

    /// Opens `path` for `write` (creating it, mode 0600) or reading, without
    /// following a symlink or blocking on a FIFO.
    pub fn open_file(path: &str, write: bool) -> io::Result<File> {
        OpenOptions::new()
            .read(true)
            .write(write)
            .create(write)
            .truncate(false)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(path)
    }

    /// `open_file` refused a symlink.
    pub fn is_symlink(e: &io::Error) -> bool {
        e.raw_os_error() == Some(libc::ELOOP)
    }

    /// Why an opened regular lock file is not ours, if it is not.
    pub fn foreign(m: &Metadata) -> Option<String> {
        (m.uid() != euid()).then(|| {
            format!(
                "is owned by uid {}, not by this process's uid {}",
                m.uid(),
                euid()
            )
        })
    }

    pub fn read_at(f: &File, buf: &mut [u8]) -> io::Result<usize> {
        f.read_at(buf, 0)
    }

    pub fn write_at(f: &File, buf: &[u8]) -> io::Result<()> {
        f.write_all_at(buf, 0)
    }
}

#[cfg(windows)]
mod os {
    use super::{FIX_DIR, Result, io_err, unsafe_err};
    use std::fs::{File, Metadata, OpenOptions};
    use std::io;
    use std::os::windows::fs::{FileExt, OpenOptionsExt};

    const FILE_SHARE_READ: u32 = 1;
    const FILE_SHARE_WRITE: u32 = 2;
    /// Opens the directory handle itself (`CreateFileW` needs it for directories).
    const FILE_FLAG_BACKUP_SEMANTICS: u32 = 0x0200_0000;
    /// Opens a symlink or junction itself instead of its target.
    const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;

    /// Held files cannot be deleted or renamed (no `FILE_SHARE_DELETE`), so
    /// a path names the same file for as long as it is held: one identity.
    pub fn identity(_: &Metadata) -> (u64, u64) {
        (0, 0)
    }

    /// Creates `dir` if missing; refuses a symlink or junction. Owner and
    /// ACL checks are left to the directory's ACL (the default, under the
    /// user's temp dir, is private to the user).
    pub fn open_dir(dir: &str) -> Result<File> {
        std::fs::create_dir_all(dir).map_err(|e| io_err("create the directory of", dir, e))?;
        let meta = std::fs::symlink_metadata(dir)
            .map_err(|e| io_err("inspect the directory of", dir, e))?;
        if meta.file_type().is_symlink() {
            return Err(unsafe_err(dir, "is a symbolic link or junction", FIX_DIR));
        }
        if !meta.is_dir() {
            return Err(unsafe_err(dir, "is not a directory", FIX_DIR));
        }
        OpenOptions::new()
            .read(true)
            .share_mode(FILE_SHARE_READ | FILE_SHARE_WRITE)
            .custom_flags(FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT)
            .open(dir)
            .map_err(|e| io_err("open the directory of", dir, e))
    }

    pub fn open_file(path: &str, write: bool) -> io::Result<File> {
        OpenOptions::new()
            .read(true)
            .write(write)
            .create(write)
            .truncate(false)
            .share_mode(FILE_SHARE_READ | FILE_SHARE_WRITE)
            .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
            .open(path)
    }

    /// A symlink is opened itself (`FILE_FLAG_OPEN_REPARSE_POINT`) and then
    /// refused as not a regular file.
    pub fn is_symlink(_: &io::Error) -> bool {
        false
    }

    /// No owner check: the directory's ACL decides who can create files in it.
    pub fn foreign(_: &Metadata) -> Option<String> {
        None
    }

    pub fn read_at(f: &File, buf: &mut [u8]) -> io::Result<usize> {
        f.seek_read(buf, 0)
    }

    pub fn write_at(f: &File, mut buf: &[u8]) -> io::Result<()> {
        let mut at = 0;
        while !buf.is_empty() {
            match f.seek_write(buf, at)? {
                0 => return Err(io::ErrorKind::WriteZero.into()),
                n => {
                    buf = &buf[n..];
                    at += n as u64;
                }
            }
        }
        Ok(())
    }
}

/// Opens a lease file without following a symlink or blocking on a FIFO
/// (`write`: creating it, mode 0600), and refuses anything but a regular
/// file of ours.
fn open_lease_file(path: &str, write: bool) -> Result<(File, Metadata)> {
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
fn names(path: &str, locked: (u64, u64)) -> bool {
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
    /// What the file holds: every thread's extension goes through here, so
    /// the bound of a shared lock is the maximum over all its threads.
    bound: u64,
}

/// One locked lease file; shared by every thread when it is `DEFAULT_LEASE`.
struct Locked {
    path: String,
    worker_id: u32,
    /// The bound the file held when it was locked: the claimer mints after it.
    claimed_bound: u64,
    /// `None` once unlocked.
    held: Mutex<Option<Held>>,
}

/// The lock of the process-wide default generator's lease, once claimed.
/// Kept until the process ends, whichever JS thread claimed it, unless its
/// file is deleted or replaced: then the next claim replaces it.
static DEFAULT_LEASE: Mutex<Option<Arc<Locked>>> = Mutex::new(None);

impl Locked {
    /// Opens (creating it if needed) and locks `path` without blocking;
    /// `None` when another open handle (this process or another) holds it.
    fn try_lock(dir: &File, path: String, worker_id: u32) -> Result<Option<Locked>> {
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
            return Ok(Some(Locked {
                path,
                worker_id,
                claimed_bound: bound,
                held: Mutex::new(Some(Held {
                    file,
                    identity,
                    _dir: dir,
                    bound,
                })),
            }));
        }
        Err(napi::Error::new(
            "ERR_LEASE_IO",
            format!(
                "lease file {path} was replaced {REPLACED_RETRIES} times while being locked: is something deleting the lease directory in a loop?"
            ),
        ))
    }

    /// Locks the first of `ids` whose file in `dir` is free.
    fn first_free(dir: &str, ids: &[u32]) -> Result<Option<Locked>> {
        let handle = os::open_dir(dir)?;
        for &id in ids {
            if let Some(locked) = Self::try_lock(&handle, lease_path(dir, id), id)? {
                return Ok(Some(locked));
            }
        }
        Ok(None)
    }

    /// Still locked by us, and the path still names the locked file.
    fn held(&self) -> bool {
        lock(&self.held)
            .as_ref()
            .is_some_and(|h| names(&self.path, h.identity))
    }

    fn with<T>(&self, f: impl FnOnce(&mut Held) -> io::Result<T>) -> Result<T> {
        let mut guard = lock(&self.held);
        let held = guard.as_mut().ok_or_else(|| {
            napi::Error::new(
                "ERR_LEASE_RELEASED",
                format!("lease file {} is already unlocked", self.path),
            )
        })?;
        f(held).map_err(|e| io_err("write", &self.path, e))
    }
}

fn lease_path(dir: &str, id: u32) -> String {
    Path::new(dir)
        .join(format!("worker-{id}.lock"))
        .to_string_lossy()
        .into_owned()
}

fn read_bound(file: &File) -> io::Result<u64> {
    let mut buf = [0u8; WIDTH];
    let n = os::read_at(file, &mut buf)?;
    let text = std::str::from_utf8(&buf[..n]).unwrap_or("").trim();
    if text.is_empty() {
        return Ok(0);
    }
    text.parse().map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("unreadable high-water mark {text:?}"),
        )
    })
}

fn write_bound(held: &mut Held, ms: u64) -> io::Result<()> {
    os::write_at(&held.file, format!("{ms:>20}\n").as_bytes())?;
    held.bound = ms;
    Ok(())
}

/// An exclusively locked lease file. The lock lasts until `unlock()`, the
/// last handle to it is garbage-collected, or the process ends (however it
/// ends); the default lease's lock lasts until the process ends or its file
/// is deleted.
#[napi]
pub struct LeaseFile {
    inner: Arc<Locked>,
}

#[napi]
impl LeaseFile {
    /// The worker ID whose file this is.
    #[napi(getter)]
    pub fn worker_id(&self) -> u32 {
        self.inner.worker_id
    }

    /// The high-water bound the file held when it was locked (0 for a new file).
    #[napi(getter)]
    pub fn claimed_bound(&self) -> f64 {
        self.inner.claimed_bound as f64
    }

    /// Whether the lease still holds: locked by us and its path still names
    /// the locked file. Called once per claimed run (one `lstat`), so that a
    /// deleted lock file stops the holder before another process can mint
    /// on its worker ID.
    #[napi]
    pub fn held(&self) -> bool {
        self.inner.held()
    }

    /// Stores `max(stored, ms)` and returns it: threads that extend one
    /// shared lease can never lower its bound, whatever order they write in.
    #[napi(catch_unwind)]
    pub fn raise(&self, ms: f64) -> Result<f64> {
        self.inner.with(|held| {
            let ms = ms as u64;
            if ms > held.bound {
                write_bound(held, ms)?;
            }
            Ok(held.bound as f64)
        })
    }

    /// Stores exactly `ms` (at release: the holder's last minted tick, which
    /// may be lower than the bound it reserved).
    #[napi(catch_unwind)]
    pub fn set(&self, ms: f64) -> Result<()> {
        self.inner.with(|held| write_bound(held, ms as u64))
    }

    /// Drops the lock (closing the file); later calls fail with ERR_LEASE_RELEASED.
    #[napi]
    pub fn unlock(&self) {
        lock(&self.inner.held).take();
    }
}

/// Locks the first of `ids` (in that order) whose file `dir/worker-<id>.lock`
/// no open handle holds; `None` if every one is held. With `process_wide`
/// (the default generator's lease), the first call of the process claims and
/// every later call, from any thread, gets that same lock (one worker ID and
/// one bound for the one generator), until its file is found deleted or
/// replaced: then the next call drops it and claims anew.
#[napi(catch_unwind)]
pub fn lease_lock(dir: String, ids: Vec<u32>, process_wide: bool) -> Result<Option<LeaseFile>> {
    let wrap = |inner| LeaseFile { inner };
    if !process_wide {
        return Ok(Locked::first_free(&dir, &ids)?.map(|l| wrap(Arc::new(l))));
    }
    // Held across the claim, so that threads racing to claim take one lock.
    let mut shared = lock(&DEFAULT_LEASE);
    if !shared.as_ref().is_some_and(|l| l.held()) {
        if let Some(lost) = shared.take() {
            lock(&lost.held).take();
        }
        *shared = Locked::first_free(&dir, &ids)?.map(Arc::new);
    }
    Ok(shared.clone().map(wrap))
}

/// The high-water bounds recorded in `dir` (created and checked like a
/// claim's), as `[workerId, bound, ...]`. Files are read without following
/// symlinks or blocking; a file removed meanwhile has no bound.
#[napi(catch_unwind)]
pub fn lease_bounds(dir: String) -> Result<Vec<f64>> {
    let _handle = os::open_dir(&dir)?;
    let mut out = Vec::new();
    for entry in fs::read_dir(&dir).map_err(|e| io_err("list the directory of", &dir, e))? {
        let entry = entry.map_err(|e| io_err("list the directory of", &dir, e))?;
        let name = entry.file_name();
        let Some(id) = name
            .to_str()
            .and_then(|n| n.strip_prefix("worker-")?.strip_suffix(".lock"))
            .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let path = lease_path(&dir, id);
        let (file, _) = match open_lease_file(&path, false) {
            Ok(opened) => opened,
            Err(e) if e.status == "ERR_LEASE_IO" => continue, // removed meanwhile
            Err(e) => return Err(e),
        };
        let bound = read_bound(&file).map_err(|e| io_err("read", &path, e))?;
        if bound > 0 {
            out.extend([f64::from(id), bound as f64]);
        }
    }
    Ok(out)
}

/// The clock the default generator reads (the core's `MonotonicClock`):
/// lease deadlines are computed on the generator's own time line.
#[napi]
pub fn monotonic_now_ms() -> f64 {
    MonotonicClock.now_ms() as f64
}
