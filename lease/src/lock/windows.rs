//! The lock files' OS calls on Windows: no owner or mode bits, so the
//! directory must be a real directory; files opened without
//! `FILE_SHARE_DELETE`, so nobody can delete a held one.

use super::{FIX_DIR, Result, io_err, unsafe_err};
use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::os::windows::fs::{FileExt, OpenOptionsExt};
use std::path::Path;

const FILE_SHARE_READ: u32 = 1;
const FILE_SHARE_WRITE: u32 = 2;
/// Opens the directory handle itself (`CreateFileW` needs it for directories).
const FILE_FLAG_BACKUP_SEMANTICS: u32 = 0x0200_0000;
/// Opens a symlink or junction itself instead of its target.
const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;

/// The user's name as Windows sets it for the session (`USERNAME`).
pub fn user_name() -> String {
    std::env::var("USERNAME").unwrap_or_else(|_| "user".to_string())
}

/// Held files cannot be deleted or renamed (no `FILE_SHARE_DELETE`), so
/// a path names the same file for as long as it is held: one identity.
pub fn identity(_: &Metadata) -> (u64, u64) {
    (0, 0)
}

/// Creates `dir` if missing; refuses a symlink or junction. Owner and
/// ACL checks are left to the directory's ACL (the default, under the
/// user's temp dir, is private to the user).
pub fn open_dir(dir: &Path) -> Result<File> {
    std::fs::create_dir_all(dir).map_err(|e| io_err("create the directory of", dir, e))?;
    let meta =
        std::fs::symlink_metadata(dir).map_err(|e| io_err("inspect the directory of", dir, e))?;
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

pub fn open_file(path: &Path, write: bool) -> io::Result<File> {
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
