//! Medians over the repetitions, the markdown table with ratios against
//! UUIDv4, and the packing promise for snowmint's 16-byte IDs.

use std::fmt::Write;

use anyhow::{Result, bail};

use crate::bench::{IndexStats, Run, Size};
use crate::keys::KeyKind;

/// The least leaf density, in percent, snowmint's UUIDv7 and ULID must
/// leave: what a sequence leaves (PostgreSQL fills rightmost leaf splits to
/// 90%), against about 60% for a v7 that is random inside a millisecond.
pub const MIN_LEAF_DENSITY: f64 = 85.0;
/// The most leaf fragmentation, in percent, they may leave (a sequence: 0;
/// a v7 random inside a millisecond: about 48%).
pub const MAX_FRAGMENTATION: f64 = 10.0;

/// One key type's medians.
#[derive(Debug, Clone)]
pub struct Summary {
    /// The key type.
    pub kind: KeyKind,
    /// Median time of all the inserts, in seconds.
    pub secs: f64,
    /// Rows inserted so far and the median insert rate (rows/s) of the
    /// transaction that ended there, one point per transaction.
    pub curve: Vec<(f64, f64)>,
    /// Median of each index figure.
    pub index: IndexStats,
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
                let curve = (0..runs[0].batches.len())
                    .map(|i| {
                        rows += runs[0].batches[i].0 as f64;
                        (rows, med(&|r| r.batches[i].0 as f64 / r.batches[i].1))
                    })
                    .collect();
                Summary {
                    kind,
                    secs: med(&|r| r.batches.iter().map(|b| b.1).sum()),
                    curve,
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

/// Rows per second over the transactions whose end falls in the given
/// fraction of the run (0.0 to 1.0).
fn rate_between(curve: &[(f64, f64)], from: f64, to: f64) -> f64 {
    let total = curve.last().map_or(0.0, |p| p.0);
    let mut prev = 0.0;
    let (mut rows, mut secs) = (0.0, 0.0);
    for &(done, rate) in curve {
        if done > from * total && done <= to * total {
            rows += done - prev;
            secs += (done - prev) / rate;
        }
        prev = done;
    }
    rows / secs
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
                rate_between(&s.curve, 0.0, 0.1),
                rate_between(&s.curve, 0.9, 1.0),
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
/// like a sequence does.
pub fn check_packing(reports: &[DbReport]) -> Result<()> {
    let failures: Vec<String> = reports
        .iter()
        .flat_map(|r| r.keys.iter().map(move |s| (r.name, s)))
        .filter(|(_, s)| s.kind.is_monotonic_snowmint_uuid())
        .filter(|(_, s)| s.index.leaf_density < MIN_LEAF_DENSITY || s.index.fragmentation >= MAX_FRAGMENTATION)
        .map(|(db, s)| {
            format!(
                "{db} {}: leaf density {:.1}% (want ≥ {MIN_LEAF_DENSITY}%), fragmentation {:.1}% (want < {MAX_FRAGMENTATION}%)",
                s.kind.label(),
                s.index.leaf_density,
                s.index.fragmentation
            )
        })
        .collect();
    if !failures.is_empty() {
        bail!(
            "snowmint's time-ordered IDs did not pack the index:\n  {}",
            failures.join("\n  ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 2.5);
    }

    #[test]
    fn rate_over_a_slice_of_the_run_weighs_by_time() {
        // 10 rows at 10/s, then 10 rows at 5/s: 20 rows in 3 s.
        let curve = [(10.0, 10.0), (20.0, 5.0)];
        assert!((rate_between(&curve, 0.0, 1.0) - 20.0 / 3.0).abs() < 1e-9);
        assert_eq!(rate_between(&curve, 0.5, 1.0), 5.0);
    }
}
