//! SQLite, compiled in (rusqlite's bundled build): the embedded default.
//!
//! The table is `WITHOUT ROWID`, so the primary key *is* the table's
//! B-tree, as in a clustered index: where a key lands decides which page
//! the whole row is written to. A fresh database file per run, in WAL mode
//! with `synchronous=NORMAL` (the usual settings for an application
//! database) and SQLite's default 2 MiB page cache, which the table
//! outgrows within the first few thousand rows.

use std::ffi::c_int;
use std::fs;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use rusqlite::{CachedStatement, Connection, ToSql, ffi};
use tempfile::TempDir;

use crate::bench::{Database, IndexStats, PAYLOAD};
use crate::keys::{Batch, KeyKind};

/// A database file in a temporary directory, replaced for every run.
pub struct Sqlite {
    conn: Option<Connection>,
    dir: TempDir,
}

impl Sqlite {
    /// An empty temporary directory to hold the runs' database files.
    pub fn new() -> Result<Sqlite> {
        let dir = tempfile::Builder::new()
            .prefix("snowmint-sqlite-")
            .tempdir()
            .context("creating a temporary directory for SQLite")?;
        Ok(Sqlite { conn: None, dir })
    }

    fn path(&self) -> PathBuf {
        self.dir.path().join("bench.db")
    }

    fn conn(&mut self) -> Result<&mut Connection> {
        self.conn.as_mut().context("no table yet")
    }
}

impl Database for Sqlite {
    fn describe(&mut self) -> Result<String> {
        Ok(format!(
            "SQLite {} (bundled): WITHOUT ROWID table, 4 KiB pages, 2 MiB page cache, WAL, synchronous=NORMAL",
            rusqlite::version()
        ))
    }

    fn create_table(&mut self, kind: KeyKind) -> Result<()> {
        self.conn = None;
        for suffix in ["", "-wal", "-shm"] {
            let mut file = self.path().into_os_string();
            file.push(suffix);
            match fs::remove_file(&file) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e)?,
                _ => {}
            }
        }
        let conn = Connection::open(self.path())?;
        let mode: String =
            conn.pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))?;
        if mode != "wal" {
            bail!("SQLite refused WAL mode (got {mode})");
        }
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        let id_type = if kind.is_integer() { "INTEGER" } else { "BLOB" };
        conn.execute_batch(&format!(
            "CREATE TABLE bench_keys (id {id_type} PRIMARY KEY NOT NULL, payload TEXT NOT NULL) WITHOUT ROWID"
        ))?;
        cache_misses(&conn, true)?;
        self.conn = Some(conn);
        Ok(())
    }

    fn insert(&mut self, batch: Batch<'_>) -> Result<()> {
        let tx = self.conn()?.transaction()?;
        {
            let mut insert =
                tx.prepare_cached("INSERT INTO bench_keys (id, payload) VALUES (?1, ?2)")?;
            match batch {
                Batch::Integer(keys) => insert_each(&mut insert, keys)?,
                Batch::Uuid(keys) => insert_each(&mut insert, keys)?,
            }
        }
        Ok(tx.commit()?)
    }

    fn inspect(&mut self) -> Result<IndexStats> {
        let conn = self.conn()?;
        // Before dbstat, which reads every page itself.
        let pages_read = cache_misses(conn, false)?;
        // dbstat lists a B-tree's pages in key order (by `path`), so the
        // fragmentation is counted as pgstatindex counts it: a leaf whose
        // next leaf sits at a lower page number.
        let (bytes, leaf_density, fragmentation) = conn.query_row(
            "WITH pages AS (
                 SELECT pagetype, pgsize, unused,
                        lead(pageno) OVER (PARTITION BY pagetype = 'leaf' ORDER BY path) < pageno AS back
                 FROM dbstat WHERE name = 'bench_keys')
             SELECT sum(pgsize),
                    100.0 * sum(pgsize - unused) FILTER (WHERE pagetype = 'leaf')
                          / sum(pgsize) FILTER (WHERE pagetype = 'leaf'),
                    100.0 * count(*) FILTER (WHERE pagetype = 'leaf' AND back)
                          / count(*) FILTER (WHERE pagetype = 'leaf')
             FROM pages",
            [],
            |row| Ok((row.get::<_, i64>(0)?, row.get(1)?, row.get(2)?)),
        )?;
        Ok(IndexStats {
            bytes: bytes as u64,
            leaf_density,
            fragmentation,
            pages_read,
        })
    }
}

/// One execution of `insert` per key: row by row, as an application
/// inserts (SQLite runs in-process, so there is no round trip to save).
fn insert_each<K: ToSql>(insert: &mut CachedStatement<'_>, keys: &[K]) -> rusqlite::Result<()> {
    keys.iter()
        .try_for_each(|id| insert.execute((id, PAYLOAD)).map(drop))
}

/// Pages this connection fetched from outside its page cache, since the
/// last reset; `reset` zeroes the count.
fn cache_misses(conn: &Connection, reset: bool) -> Result<u64> {
    let (mut current, mut highwater): (c_int, c_int) = (0, 0);
    // SAFETY: `handle` is the live connection's own pointer, valid while
    // `conn` is borrowed; sqlite3_db_status only reads (and, on reset,
    // zeroes) that connection's counters. rusqlite has no safe wrapper.
    let rc = unsafe {
        ffi::sqlite3_db_status(
            conn.handle(),
            ffi::SQLITE_DBSTATUS_CACHE_MISS,
            &mut current,
            &mut highwater,
            c_int::from(reset),
        )
    };
    if rc != ffi::SQLITE_OK {
        bail!("sqlite3_db_status failed ({rc})");
    }
    Ok(current as u64)
}
