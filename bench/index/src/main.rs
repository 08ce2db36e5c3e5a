//! Random primary keys wreck B-tree indexes and time-ordered ones do not:
//! this measures it with snowmint's own IDs on SQLite and PostgreSQL, and
//! writes `results.md` (a table with ratios against UUIDv4) and `plot.png`
//! (insert rate along the run). `scripts/bench-index.sh` runs it at the
//! default size; `scripts/test.d/80-bench-index.sh` runs it tiny, so that
//! it cannot rot.

mod bench;
mod keys;
mod pg;
mod plot;
mod report;
mod sqlite;

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;

use anyhow::{Context, Result};
use clap::builder::RangedU64ValueParser;
use clap::{Parser, ValueEnum};

use bench::{Database, INTERRUPTED, Size};
use keys::KeyKind;
use report::DbReport;

/// Inserts rows keyed by random and by time-ordered IDs into SQLite and a
/// private PostgreSQL cluster, and reports what each key type does to the
/// primary-key index.
#[derive(Parser)]
struct Args {
    /// Rows per key type and run; raise it for a longer, more telling run.
    #[arg(long, default_value_t = 1_000_000, value_parser = at_least_one())]
    rows: usize,
    /// Rows per transaction.
    #[arg(long, default_value_t = 10_000, value_parser = at_least_one())]
    batch: usize,
    /// Runs per key type and database; the report gives medians.
    #[arg(long, default_value_t = 3, value_parser = at_least_one())]
    reps: usize,
    /// Databases, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [Db::Sqlite, Db::Postgres])]
    db: Vec<Db>,
    /// Key types, comma-separated (default: all).
    #[arg(long, value_enum, value_delimiter = ',')]
    keys: Vec<KeyKind>,
    /// PostgreSQL's shared_buffers: small, so that the index outgrows it.
    #[arg(long, default_value = "16MB")]
    shared_buffers: String,
    /// Directory of PostgreSQL's initdb and pg_ctl (default: the newest
    /// /usr/lib/postgresql/N/bin, else PATH).
    #[arg(long)]
    pg_bin: Option<PathBuf>,
    /// OS user that runs PostgreSQL when this runs as root.
    #[arg(long, default_value = "postgres")]
    pg_user: String,
    /// TrueType font for the plot's text.
    #[arg(
        long,
        default_value = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    )]
    font: PathBuf,
    /// Where results.md and plot.png go.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/results"))]
    out: PathBuf,
    /// The command line to print as the way to reproduce the results.
    #[arg(long, default_value = "scripts/bench-index.sh")]
    command: String,
    /// Fail unless snowmint's UUIDv7 and ULID pack every index like a
    /// sequence does (leaf density at least 85%, fragmentation under 10%).
    #[arg(long)]
    check_packing: bool,
}

/// A count that must not be 0 (no rows, an empty transaction or no run
/// leaves nothing to measure).
fn at_least_one() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(1..)
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Db {
    Sqlite,
    Postgres,
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Args) -> Result<()> {
    ctrlc::set_handler(|| {
        eprintln!("interrupted: stopping after the current transaction, then cleaning up");
        INTERRUPTED.store(true, Ordering::Relaxed);
    })?;
    plot::load_font(&args.font)?;
    fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let kinds = if args.keys.is_empty() {
        KeyKind::ALL.to_vec()
    } else {
        args.keys.clone()
    };
    let size = Size {
        rows: args.rows,
        batch: args.batch,
        reps: args.reps,
    };

    let mut reports = Vec::new();
    for db in &args.db {
        let (name, mut database): (&str, Box<dyn Database>) = match db {
            Db::Sqlite => ("SQLite", Box::new(sqlite::Sqlite::new()?)),
            Db::Postgres => (
                "PostgreSQL",
                Box::new(pg::Postgres::start(&pg::Options {
                    bin: args.pg_bin.clone(),
                    user: args.pg_user.clone(),
                    shared_buffers: args.shared_buffers.clone(),
                })?),
            ),
        };
        let runs = bench::measure(database.as_mut(), name, &kinds, size)?;
        reports.push(DbReport::new(name, database.describe()?, &kinds, &runs));
    }

    let table = report::markdown(&reports, size, &args.command);
    let md = args.out.join("results.md");
    fs::write(&md, &table).with_context(|| format!("writing {}", md.display()))?;
    let png = args.out.join("plot.png");
    plot::draw(&png, size, &reports).with_context(|| format!("drawing {}", png.display()))?;
    println!("{table}");
    eprintln!("wrote {} and {}", md.display(), png.display());
    if args.check_packing {
        report::check_packing(&reports)?;
        eprintln!(
            "packing check passed: snowmint's UUIDv7 and ULID leave leaf density ≥ {}% and fragmentation < {}%",
            report::MIN_LEAF_DENSITY,
            report::MAX_FRAGMENTATION
        );
    }
    Ok(())
}
