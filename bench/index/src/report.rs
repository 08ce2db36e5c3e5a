//! Medians over the repetitions, the markdown table with ratios against
//! UUIDv4, and the packing promise for snowmint's 16-byte IDs.

use std::fmt::Write;

use anyhow::{Result, bail};

use crate::bench::{IndexStats, Run, Size};
use crate::keys::KeyKind;

/// The least leaf density, in percent, snowmint's UUIDv7 and ULID must
/// leave: what a sequence leaves (PostgreSQL fills rightmost leaf splits to
/// 90%), against 60-70% for a v7 that is random inside a millisecond.
pub const MIN_LEAF_DENSITY: f64 = 85.0;
/// The most leaf fragmentation, in percent, they may leave (a sequence: 0;
/// a v7 random inside a millisecond: about 50%).
pub const MAX_FRAGMENTATION: f64 = 10.0;

/// One key type's medians.
#[derive(Debug, Clone)]
pub struct Summary {
    /// The key type.
    pub kind: KeyKind,
    /// Median time of all the inserts, in seconds.
    pub secs: f64,
    /// For each transaction: rows inserted when it ended, and its median
    /// time over the runs in seconds.
    pub transactions: Vec<(f64, f64)>,
    /// Median of each index figure.
    pub index: IndexStats,
}

impl Summary {
    /// Rows inserted by the whole run.
    pub fn rows(&self) -> f64 {
        self.transactions.last().map_or(0.0, |t| t.0)
    }

    /// Rows per second over the transactions that ended after `from` and
    /// no later than `to` rows.
    pub fn rate_between(&self, from: f64, to: f64) -> f64 {
        let (mut prev, mut rows, mut secs) = (0.0, 0.0, 0.0);
        for &(done, t) in &self.transactions {
            if done > from && done <= to {
                rows += done - prev;
                secs += t;
            }
            prev = done;
        }
        rows / secs
    }

    /// The insert rate along the run, one point per transaction, each over
    /// the transactions that ended within 10% of its row count, and over at
    /// least the two on either side. Single transactions swing with every
    /// checkpoint (SQLite's WAL checkpoints every ~3 transactions here); a
    /// window that grows with the run keeps the start legible on a log axis
    /// and the rest smooth.
    pub fn rate_curve(&self) -> Vec<(f64, f64)> {
        let t = &self.transactions;
        let rows_before = |i: usize| if i == 0 { 0.0 } else { t[i - 1].0 };
        (0..t.len())
            .map(|i| {
                let done = t[i].0;
                let lo = t
                    .iter()
                    .position(|x| x.0 > 0.9 * done)
                    .unwrap_or(i)
                    .min(i.saturating_sub(2));
                let hi = t
                    .iter()
                    .rposition(|x| x.0 <= 1.1 * done)
                    .unwrap_or(i)
                    .max((i + 2).min(t.len() - 1));
                let secs: f64 = t[lo..=hi].iter().map(|x| x.1).sum();
                (done, (t[hi].0 - rows_before(lo)) / secs)
            })
            .collect()
    }
}

/// One database's results.
#[derive(Debug, Clone)]
pub struct DbReport {
    /// Short name (plot panels).
    pub name: &'static str,
    /// What it is and how it was set up.
    pub setup: String,
    /// One per key type, in the order asked for.
    pub keys: Vec<Summary>,
}

impl DbReport {
    /// Medians per key type over `runs`.
    pub fn new(name: &'static str, setup: String, kinds: &[KeyKind], runs: &[Run]) -> DbReport {
        let keys = kinds
            .iter()
            .map(|&kind| {
                let runs: Vec<&Run> = runs.iter().filter(|r| r.kind == kind).collect();
                let med = |f: &dyn Fn(&Run) -> f64| median(runs.iter().map(|r| f(r)).collect());
                let mut rows = 0.0;
                let transactions = (0..runs[0].batches.len())
                    .map(|i| {
                        rows += runs[0].batches[i].0 as f64;
                        (rows, med(&|r| r.batches[i].1))
                    })
                    .collect();
                Summary {
                    kind,
                    secs: med(&|r| r.batches.iter().map(|b| b.1).sum()),
                    transactions,
                    index: IndexStats {
                        bytes: med(&|r| r.index.bytes as f64) as u64,
                        leaf_density: med(&|r| r.index.leaf_density),
                        fragmentation: med(&|r| r.index.fragmentation),
                        pages_read: med(&|r| r.index.pages_read as f64) as u64,
                    },
                }
            })
            .collect();
        DbReport { name, setup, keys }
    }

    fn get(&self, kind: KeyKind) -> Option<&Summary> {
        self.keys.iter().find(|s| s.kind == kind)
    }
}

/// The median (the mean of the middle two for an even count).
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// The results as markdown: how they were made, then a table per database.
pub fn markdown(reports: &[DbReport], size: Size, command: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "{} rows per key type, {} rows per transaction, {} repetitions in rotating key order; every figure \
         is the median. Keys are minted before the clock starts; only the inserts are timed.\n\n\
         Reproduce: `{command}`\n",
        size.rows, size.batch, size.reps
    );
    md.push_str(
        "- *insert time*: all the transactions together; *rows/s, first / last 10%*: the rate over the first \
         and the last tenth of the rows.\n\
         - *leaf density*, *leaf fragmentation*: PostgreSQL's `pgstatindex`, and the same figures from SQLite's \
         `dbstat`; fragmentation counts leaf pages whose next leaf in key order lies earlier in the file.\n\
         - *index pages read from outside the cache*: PostgreSQL's `idx_blks_read` (misses in shared_buffers), \
         SQLite's page-cache misses; the OS page cache may still have served them.\n\
         - SQLite's `WITHOUT ROWID` table is its primary-key index, so its size includes the payload.\n\n",
    );
    for report in reports {
        let v4 = report.get(KeyKind::UuidV4);
        let _ = writeln!(md, "**{}**\n", report.setup);
        md.push_str(
            "| key | insert time | faster than UUIDv4 | rows/s, first 10% | rows/s, last 10% \
             | index size | size vs UUIDv4 | leaf density | leaf fragmentation | index pages read from outside the cache |\n\
             |---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
        );
        for s in &report.keys {
            let _ = writeln!(
                md,
                "| {} | {:.2} s | {} | {:.0} | {:.0} | {:.1} MB | {} | {:.1}% | {:.1}% | {} |",
                s.kind.label(),
                s.secs,
                times(v4.map(|v4| v4.secs / s.secs)),
                s.rate_between(0.0, 0.1 * s.rows()),
                s.rate_between(0.9 * s.rows(), s.rows()),
                s.index.bytes as f64 / 1e6,
                times(v4.map(|v4| s.index.bytes as f64 / v4.index.bytes as f64)),
                s.index.leaf_density,
                s.index.fragmentation,
                s.index.pages_read,
            );
        }
        md.push('\n');
    }
    md
}

/// A ratio as "1.23×", or a dash without a UUIDv4 run to compare with.
fn times(ratio: Option<f64>) -> String {
    ratio.map_or("–".into(), |r| format!("{r:.2}×"))
}

/// Fails unless snowmint's UUIDv7 and ULID packed every database's index
/// like a sequence does, or unless the random kinds did not: a check that
/// passed for everything would prove nothing about the measurement.
pub fn check_packing(reports: &[DbReport]) -> Result<()> {
    let mut failures = Vec::new();
    for report in reports {
        for s in &report.keys {
            let (density, frag) = (s.index.leaf_density, s.index.fragmentation);
            let what = format!(
                "{} {}: leaf density {density:.1}%, fragmentation {frag:.1}%",
                report.name,
                s.kind.label()
            );
            match s.kind {
                KeyKind::UuidV7 | KeyKind::Ulid
                    if density < MIN_LEAF_DENSITY || frag >= MAX_FRAGMENTATION =>
                {
                    failures.push(format!(
                        "{what}: want ≥ {MIN_LEAF_DENSITY}% and < {MAX_FRAGMENTATION}%"
                    ))
                }
                KeyKind::UuidV4 | KeyKind::UuidV7Random if frag < MAX_FRAGMENTATION => failures
                    .push(format!(
                        "{what}: random keys that look packed mean the measurement is broken"
                    )),
                _ => {}
            }
        }
    }
    if !failures.is_empty() {
        bail!("packing check failed:\n  {}", failures.join("\n  "));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(kind: KeyKind, leaf_density: f64, fragmentation: f64) -> DbReport {
        let index = IndexStats {
            leaf_density,
            fragmentation,
            ..IndexStats::default()
        };
        let keys = vec![Summary {
            index,
            ..summary(kind, vec![(1.0, 1.0)])
        }];
        DbReport {
            name: "db",
            setup: String::new(),
            keys,
        }
    }

    #[test]
    fn packing_check_wants_ordered_keys_packed_and_random_ones_not() {
        assert!(check_packing(&[report(KeyKind::UuidV7, 90.0, 0.0)]).is_ok());
        assert!(check_packing(&[report(KeyKind::Ulid, 84.9, 0.0)]).is_err());
        assert!(check_packing(&[report(KeyKind::Ulid, 90.0, 10.0)]).is_err());
        assert!(check_packing(&[report(KeyKind::UuidV7Random, 60.0, 48.0)]).is_ok());
        assert!(check_packing(&[report(KeyKind::UuidV4, 90.0, 0.0)]).is_err());
        // Only time-ordered and random 16-byte keys are judged.
        assert!(check_packing(&[report(KeyKind::Sequence, 50.0, 50.0)]).is_ok());
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 2.5);
    }

    fn summary(kind: KeyKind, transactions: Vec<(f64, f64)>) -> Summary {
        let secs = transactions.iter().map(|t| t.1).sum();
        Summary {
            kind,
            secs,
            transactions,
            index: IndexStats::default(),
        }
    }

    #[test]
    fn rate_over_a_slice_of_the_run_weighs_by_time() {
        // 10 rows in 1 s, then 10 rows in 2 s: 20 rows in 3 s.
        let s = summary(KeyKind::Sequence, vec![(10.0, 1.0), (20.0, 2.0)]);
        assert_eq!(s.rate_between(0.0, s.rows()), 20.0 / 3.0);
        assert_eq!(s.rate_between(10.0, 20.0), 5.0);
    }

    #[test]
    fn rate_curve_smooths_over_a_window_that_grows_with_the_run() {
        let mut t: Vec<(f64, f64)> = (1..=100).map(|i| (i as f64 * 10.0, 1.0)).collect();
        t[94].1 = 5.0; // one slow transaction, ending at 950 rows
        let curve = summary(KeyKind::Sequence, t).rate_curve();
        // At 10 rows the window is the first three transactions.
        assert_eq!(curve[0], (10.0, 10.0));
        // At 500 rows it spans 460..550: ten transactions, all quick.
        assert_eq!(curve[49], (500.0, 10.0));
        // At 1000 rows it spans 910..1000: ten transactions, one slow.
        assert_eq!(curve[99], (1000.0, 100.0 / 14.0));
    }
}
