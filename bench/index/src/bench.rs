//! The measuring loop every database shares, so that both are timed the
//! same way: keys minted before the clock starts, only the inserts timed,
//! key types in rotating order.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{Result, bail};

use crate::keys::{Batch, KeyKind};

/// The ~100-byte payload every row carries, so that rows are the size of
/// a narrow real table's and not just keys.
pub const PAYLOAD: &str = "snowmint index benchmark payload: a hundred bytes of text next to each key, as in a narrow table row";

/// Set by the Ctrl-C / SIGTERM handler. The loop stops at the next batch
/// and unwinds normally, so every guard (the PostgreSQL cluster, the temp
/// directories) is dropped and cleans up.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// What a database tells about its primary-key index after a run.
#[derive(Debug, Clone, Copy, Default)]
pub struct IndexStats {
    /// Size of the index on disk.
    pub bytes: u64,
    /// Mean fill of the leaf pages, in percent.
    pub leaf_density: f64,
    /// Leaf pages whose successor in key order sits earlier in the file,
    /// in percent (pgstatindex's definition).
    pub fragmentation: f64,
    /// Index pages the inserts had to fetch from outside the database's
    /// own cache (from the OS page cache or the disk).
    pub pages_read: u64,
}

/// One database under test.
pub trait Database {
    /// What it is and how it is set up, for the report's heading.
    fn describe(&mut self) -> Result<String>;
    /// Replaces the table with an empty one keyed by `kind` (untimed).
    fn create_table(&mut self, kind: KeyKind) -> Result<()>;
    /// Inserts one batch in one transaction: the timed part.
    fn insert(&mut self, batch: Batch<'_>) -> Result<()>;
    /// The index as the inserts left it (untimed).
    fn inspect(&mut self) -> Result<IndexStats>;
}

/// How big a run is.
#[derive(Debug, Clone, Copy)]
pub struct Size {
    /// Rows per key type and run.
    pub rows: usize,
    /// Rows per transaction.
    pub batch: usize,
    /// Runs per key type.
    pub reps: usize,
}

/// One timed run of one key type.
#[derive(Debug, Clone)]
pub struct Run {
    /// The key type.
    pub kind: KeyKind,
    /// Rows and seconds of each transaction, in order.
    pub batches: Vec<(usize, f64)>,
    /// The index afterwards.
    pub index: IndexStats,
}

/// Runs every kind `size.reps` times against `db`. Repetition `r` starts
/// the rotation at kind `r`, so no kind always runs first (on a cold
/// cache) or last (after the others have filled the OS cache).
pub fn measure(
    db: &mut dyn Database,
    name: &str,
    kinds: &[KeyKind],
    size: Size,
) -> Result<Vec<Run>> {
    let mut runs = Vec::with_capacity(kinds.len() * size.reps);
    for rep in 0..size.reps {
        for i in 0..kinds.len() {
            let kind = kinds[(i + rep) % kinds.len()];
            let keys = kind.mint(size.rows)?;
            db.create_table(kind)?;
            let mut batches = Vec::with_capacity(size.rows.div_ceil(size.batch));
            for batch in keys.batches(size.batch) {
                if INTERRUPTED.load(Ordering::Relaxed) {
                    bail!("interrupted");
                }
                let start = Instant::now();
                db.insert(batch)?;
                batches.push((batch.len(), start.elapsed().as_secs_f64()));
            }
            let index = db.inspect()?;
            let secs: f64 = batches.iter().map(|b| b.1).sum();
            eprintln!(
                "{name} rep {}/{}: {:<22} {} rows in {secs:6.2} s, index {:.1} MB, \
                 leaf density {:.1}%, fragmentation {:.1}%",
                rep + 1,
                size.reps,
                kind.label(),
                size.rows,
                index.bytes as f64 / 1e6,
                index.leaf_density,
                index.fragmentation,
            );
            runs.push(Run {
                kind,
                batches,
                index,
            });
        }
    }
    Ok(runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payload_is_about_a_hundred_bytes() {
        assert_eq!(PAYLOAD.len(), 100);
    }

    /// Records the order of `create_table` calls.
    struct Recorder(Vec<KeyKind>, usize);

    impl Database for Recorder {
        fn describe(&mut self) -> Result<String> {
            Ok(String::new())
        }
        fn create_table(&mut self, kind: KeyKind) -> Result<()> {
            self.0.push(kind);
            Ok(())
        }
        fn insert(&mut self, batch: Batch<'_>) -> Result<()> {
            self.1 += batch.len();
            Ok(())
        }
        fn inspect(&mut self) -> Result<IndexStats> {
            Ok(IndexStats::default())
        }
    }

    #[test]
    fn every_rep_runs_every_kind_starting_one_further_along() {
        use KeyKind::*;
        let mut db = Recorder(Vec::new(), 0);
        let size = Size {
            rows: 25,
            batch: 10,
            reps: 3,
        };
        let runs = measure(&mut db, "test", &[UuidV4, UuidV7, Sequence], size).unwrap();
        assert_eq!(
            db.0,
            [
                UuidV4, UuidV7, Sequence, UuidV7, Sequence, UuidV4, Sequence, UuidV4, UuidV7
            ]
        );
        assert_eq!(db.1, 9 * 25);
        assert!(
            runs.iter()
                .all(|r| r.batches.iter().map(|b| b.0).eq([10, 10, 5]))
        );
    }
}
