//! PostgreSQL in a private cluster: initdb into a temporary directory, a
//! free loopback port, a small `shared_buffers` so that the index outgrows
//! the cache within the run. The cluster is stopped and its directory
//! removed when [`Cluster`] is dropped, which happens on success, on any
//! error, and on Ctrl-C (the loop stops and unwinds, see
//! [`INTERRUPTED`](crate::bench::INTERRUPTED)).
//!
//! PostgreSQL refuses to run as root; as root, every server program runs
//! as an unprivileged OS user (Debian's `postgres`) through `runuser`.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::net::TcpListener;
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, Result, bail};
use postgres::types::ToSql;
use postgres::{Client, NoTls, Statement};
use tempfile::TempDir;

use crate::bench::{Database, IndexStats, PAYLOAD};
use crate::keys::{Batch, KeyKind};

/// How to start the cluster.
pub struct Options {
    /// Directory holding initdb and pg_ctl; found when `None`.
    pub bin: Option<PathBuf>,
    /// OS user the server runs as when this process is root.
    pub user: String,
    /// The server's `shared_buffers`.
    pub shared_buffers: String,
}

/// A running private cluster; dropping it stops the server and deletes
/// its files.
pub struct Cluster {
    bin: PathBuf,
    run_as: Option<String>,
    port: u16,
    // Declared last: removed only after `drop` has stopped the server.
    dir: TempDir,
}

impl Cluster {
    /// initdb, configure, start, and wait until the server accepts connections.
    pub fn start(opts: &Options) -> Result<Cluster> {
        let bin = match &opts.bin {
            Some(dir) => dir.clone(),
            None => find_bin_dir()?,
        };
        let root = fs::metadata("/proc/self")?.uid() == 0;
        let run_as = root.then(|| opts.user.clone());
        let dir = tempfile::Builder::new().prefix("snowmint-pg-").tempdir()?;
        if let Some(user) = &run_as {
            let id = |flag| -> Result<u32> {
                let out = Command::new("id").args([flag, user.as_str()]).output()?;
                if !out.status.success() {
                    bail!(
                        "PostgreSQL refuses to run as root, and OS user {user:?} to run it as does not exist \
                         (scripts/setup.d/80-postgres.sh installs Debian's postgresql, which creates `postgres`; \
                         or pass --pg-user)"
                    );
                }
                Ok(String::from_utf8(out.stdout)?.trim().parse()?)
            };
            std::os::unix::fs::chown(dir.path(), Some(id("-u")?), Some(id("-g")?))?;
        }
        // The port is free now; the tiny window before the server binds it
        // is an accepted race.
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let cluster = Cluster {
            bin,
            run_as,
            port,
            dir,
        };

        let data = cluster.data();
        cluster.run(
            cluster.command("initdb").arg("-D").arg(&data).args([
                "-U",
                "postgres",
                "--auth=trust",
                "--no-sync",
                "--encoding=UTF8",
                "--locale=C",
            ]),
            "initdb",
        )?;
        let mut conf = OpenOptions::new()
            .append(true)
            .open(data.join("postgresql.conf"))?;
        writeln!(
            conf,
            "\n# snowmint index benchmark\n\
             listen_addresses = '127.0.0.1'\n\
             port = {port}\n\
             unix_socket_directories = '{socket}'\n\
             shared_buffers = '{shared_buffers}'\n\
             # Nothing may run beside the timed inserts.\n\
             autovacuum = off\n\
             # The commit's WAL flush is not what is measured; the writes are.\n\
             synchronous_commit = off",
            socket = cluster.dir.path().display(),
            shared_buffers = opts.shared_buffers,
        )?;
        let log = cluster.dir.path().join("server.log");
        let started = cluster.run(
            cluster
                .command("pg_ctl")
                .arg("-D")
                .arg(&data)
                .arg("-l")
                .arg(&log)
                .args(["-w", "-t", "60", "start"]),
            "pg_ctl start",
        );
        if let Err(e) = started {
            let log = fs::read_to_string(&log).unwrap_or_default();
            return Err(e.context(format!("server log:\n{log}")));
        }
        Ok(cluster)
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// A server program, as the unprivileged user when this process is
    /// root, run from the cluster directory (a server program run as
    /// another user fails on a working directory it cannot read).
    fn command(&self, program: &str) -> Command {
        let program = self.bin.join(program);
        let mut cmd = match &self.run_as {
            Some(user) => {
                let mut cmd = Command::new("runuser");
                cmd.args(["-u", user, "--"]).arg(program);
                cmd
            }
            None => Command::new(program),
        };
        cmd.current_dir(self.dir.path());
        cmd
    }

    fn run(&self, cmd: &mut Command, what: &str) -> Result<()> {
        let out = cmd.output().with_context(|| format!("running {what}"))?;
        if !out.status.success() {
            bail!(
                "{what} failed ({}):\n{}{}",
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        Ok(())
    }

    /// A connection as the superuser.
    pub fn connect(&self) -> Result<Client> {
        let url = format!(
            "host=127.0.0.1 port={} user=postgres dbname=postgres",
            self.port
        );
        Ok(Client::connect(&url, NoTls)?)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Immediate: the cluster is thrown away, so no shutdown checkpoint.
        if self.data().join("postmaster.pid").exists() {
            let data = self.data();
            let stop = self
                .command("pg_ctl")
                .arg("-D")
                .arg(&data)
                .args(["-m", "immediate", "-w", "stop"])
                .output();
            if !stop.is_ok_and(|out| out.status.success()) {
                eprintln!(
                    "warning: could not stop the PostgreSQL cluster in {}",
                    data.display()
                );
            }
        }
    }
}

/// Debian keeps each major version's server programs off PATH, in
/// `/usr/lib/postgresql/N/bin`: the newest there, else initdb on PATH.
fn find_bin_dir() -> Result<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
        .filter(|(_, bin)| bin.join("initdb").is_file())
        .collect();
    versions.sort();
    versions
        .pop()
        .map(|(_, bin)| bin)
        .or_else(|| {
            std::env::split_paths(&std::env::var_os("PATH")?).find(|d| d.join("initdb").is_file())
        })
        .context(
            "PostgreSQL's initdb not found: run scripts/setup.d/80-postgres.sh, or pass --pg-bin",
        )
}

/// The benchmark's connection to its cluster.
pub struct Postgres {
    client: Client,
    insert: Option<Statement>,
    // Declared last: the connection closes before the server stops.
    _cluster: Cluster,
}

impl Postgres {
    /// Starts a private cluster and connects to it.
    pub fn start(opts: &Options) -> Result<Postgres> {
        let cluster = Cluster::start(opts)?;
        let mut client = cluster.connect()?;
        client.batch_execute("CREATE EXTENSION pgstattuple").context(
            "pgstatindex comes with Debian's postgresql-contrib: run scripts/setup.d/80-postgres.sh",
        )?;
        Ok(Postgres {
            client,
            insert: None,
            _cluster: cluster,
        })
    }
}

impl Database for Postgres {
    fn describe(&mut self) -> Result<String> {
        let row = self.client.query_one(
            "SELECT current_setting('server_version'), current_setting('shared_buffers')",
            &[],
        )?;
        Ok(format!(
            "PostgreSQL {} (private cluster): shared_buffers {}, 8 KiB pages, autovacuum off, synchronous_commit off",
            // "15.18 (Debian 15.18-0+deb12u1)": the version is the first word.
            row.get::<_, String>(0)
                .split(' ')
                .next()
                .unwrap_or_default(),
            row.get::<_, String>(1)
        ))
    }

    fn create_table(&mut self, kind: KeyKind) -> Result<()> {
        let id_type = if kind.is_integer() { "bigint" } else { "uuid" };
        // The checkpoint writes out what the previous run left dirty, so
        // that each run starts from the same clean state.
        self.client.batch_execute(&format!(
            "DROP TABLE IF EXISTS bench_keys;
             CREATE TABLE bench_keys (id {id_type} PRIMARY KEY, payload text NOT NULL);
             CHECKPOINT;"
        ))?;
        // One statement per transaction: the rows go into the index one by
        // one in array order, as single-row inserts would, without paying
        // a round trip per row.
        let insert = format!(
            "INSERT INTO bench_keys (id, payload) SELECT id, $2 FROM unnest($1::{id_type}[]) AS id"
        );
        self.insert = Some(self.client.prepare(&insert)?);
        Ok(())
    }

    fn insert(&mut self, batch: Batch<'_>) -> Result<()> {
        let insert = self.insert.as_ref().context("no table yet")?;
        let keys: &(dyn ToSql + Sync) = match &batch {
            Batch::Integer(keys) => keys,
            Batch::Uuid(keys) => keys,
        };
        self.client.execute(insert, &[keys, &PAYLOAD])?;
        Ok(())
    }

    fn inspect(&mut self) -> Result<IndexStats> {
        // A backend publishes its I/O counters at most once a second
        // unless asked; the flush happens before the next query runs.
        self.client
            .batch_execute("SELECT pg_stat_force_next_flush()")?;
        // Before pgstatindex, which reads every page itself.
        let pages_read: i64 = self
            .client
            .query_one(
                "SELECT idx_blks_read FROM pg_statio_user_indexes WHERE indexrelname = 'bench_keys_pkey'",
                &[],
            )?
            .get(0);
        let row = self.client.query_one(
            "SELECT index_size, avg_leaf_density, leaf_fragmentation FROM pgstatindex('bench_keys_pkey')",
            &[],
        )?;
        Ok(IndexStats {
            bytes: row.get::<_, i64>(0) as u64,
            leaf_density: row.get(1),
            fragmentation: row.get(2),
            pages_read: pages_read as u64,
        })
    }
}
