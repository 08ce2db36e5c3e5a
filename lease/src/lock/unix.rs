//! The lock files' OS calls on Unix: owner and mode checks on the opened
//! handles, `O_NOFOLLOW | O_NONBLOCK` opens, positioned reads and writes.

use super::{FIX_DIR, Result, io_err, unsafe_err};
use std::fs::{DirBuilder, File, Metadata, OpenOptions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, FileExt, MetadataExt, OpenOptionsExt};
use std::path::Path;

/// Which file a handle or a path is: (device, inode).
pub fn identity(m: &Metadata) -> (u64, u64) {
    (m.dev(), m.ino())
}

fn euid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// The effective user's login name (as Node's `os.userInfo()` gives
/// it), else its uid.
pub fn user_name() -> String {
    let uid = euid();
    let mut buf = vec![0u8; 4096];
    // SAFETY: an all-zero passwd (null pointers, zero ids) is a valid value to overwrite.
    let mut pwd: libc::passwd = unsafe { std::mem::zeroed() };
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: every pointer is valid for the call; `buf` outlives the
    // read of `pw_name`, which points into it.
    let rc = unsafe {
        libc::getpwuid_r(
            uid,
            &mut pwd,
            buf.as_mut_ptr().cast(),
            buf.len(),
            &mut found,
        )
    };
    if rc == 0 && !found.is_null() && !pwd.pw_name.is_null() {
        // SAFETY: getpwuid_r succeeded, so pw_name is a NUL-terminated string in `buf`.
        let name = unsafe { std::ffi::CStr::from_ptr(pwd.pw_name) };
        if let Ok(name) = name.to_str() {
            return name.to_string();
        }
    }
    uid.to_string()
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
pub fn open_dir(dir: &Path) -> Result<File> {
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
            format!("run `chmod go-w {}`, or {FIX_DIR}", dir.display())
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
pub fn open_file(path: &Path, write: bool) -> io::Result<File> {
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
