//! Configuration: flags, environment variables and a TOML file, in that
//! order of precedence (a flag beats its variable, which beats the file),
//! then the defaults.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Parser;
use serde::Deserialize;
use snowmint::snowflake::{Layout, Preset};

use crate::workers::Source;

/// The largest `n` of one request (HTTP `n=`, RESP `ID.BATCH`) by default.
pub const DEFAULT_MAX_BATCH: u64 = 100_000;
/// How far back (ms) the wall clock may step before the server refuses.
pub const DEFAULT_MAX_BACKWARDS_MS: u64 = 1_000;

/// The command line; every option but `--config` may also come from the file.
#[derive(Debug, Parser, Default)]
#[command(
    name = "snowmint-server",
    version,
    about = "Unique, time-ordered IDs for every language: HTTP/1.1, h2c and RESP (Redis protocol) on leased worker IDs."
)]
pub struct Args {
    /// A TOML file with any of the options below (keys in snake_case).
    #[arg(long, env = "SNOWMINT_SERVER_CONFIG")]
    pub config: Option<PathBuf>,
    /// HTTP/1.1 and h2c listen address ("off" for none; default 127.0.0.1:8080).
    #[arg(long, env = "SNOWMINT_SERVER_HTTP")]
    pub http: Option<String>,
    /// RESP (Redis protocol) listen address ("off" for none; default 127.0.0.1:6380).
    #[arg(long, env = "SNOWMINT_SERVER_RESP")]
    pub resp: Option<String>,
    /// Snowflake preset: twitter, discord, instagram, sonyflake, mastodon.
    #[arg(long, env = "SNOWMINT_SERVER_PRESET")]
    pub preset: Option<String>,
    /// A fixed worker ID: worker thread i mints on N + i (no lease; wins over --lease).
    #[arg(long, env = "SNOWMINT_WORKER_ID")]
    pub worker_id: Option<u64>,
    /// Where worker IDs come from: local (lock files), ordinal (StatefulSet pod), redis://, etcd://, zk://.
    #[arg(long, env = "SNOWMINT_LEASE")]
    pub lease: Option<String>,
    /// The lock-file directory of the local lease (default: SNOWMINT_LEASE_DIR, else the shared default).
    #[arg(long)]
    pub lease_dir: Option<PathBuf>,
    /// The key prefix of a Redis or etcd lease (default: snowmint, as Node's redisLease and etcdLease).
    #[arg(long, env = "SNOWMINT_LEASE_PREFIX")]
    pub lease_prefix: Option<String>,
    /// The TTL (ms) of a Redis or etcd lease: how soon a dead server's worker IDs are free again (default 10000; etcd rounds up to whole seconds).
    #[arg(long, env = "SNOWMINT_LEASE_TTL_MS")]
    pub lease_ttl_ms: Option<u64>,
    /// Worker threads, each on a worker ID of its own (default: the number of cores).
    #[arg(long, env = "SNOWMINT_SERVER_WORKERS")]
    pub workers: Option<usize>,
    /// Bearer token for HTTP /v1/* and password for RESP AUTH (default: none).
    #[arg(long, env = "SNOWMINT_SERVER_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// The largest n of one request.
    #[arg(long, env = "SNOWMINT_SERVER_MAX_BATCH")]
    pub max_batch: Option<u64>,
    /// How far back (ms) the wall clock may step before the server refuses and reports unready.
    #[arg(long, env = "SNOWMINT_SERVER_MAX_BACKWARDS_MS")]
    pub max_backwards_ms: Option<u64>,
    /// How far (ms) the clock may be from the lease store's and the other holders' before a
    /// coordinator's lease refuses to mint and the server reports unready (default 1000).
    #[arg(long, env = "SNOWMINT_SERVER_MAX_SKEW_MS")]
    pub max_skew_ms: Option<u64>,
    /// Seconds that in-flight requests get after SIGTERM before the leases are released anyway.
    #[arg(long, env = "SNOWMINT_SERVER_GRACE_SECS")]
    pub grace_secs: Option<u64>,
}

/// The TOML file: the same options, snake_case.
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct File {
    http: Option<String>,
    resp: Option<String>,
    preset: Option<String>,
    worker_id: Option<u64>,
    lease: Option<String>,
    lease_dir: Option<PathBuf>,
    lease_prefix: Option<String>,
    lease_ttl_ms: Option<u64>,
    workers: Option<usize>,
    token: Option<String>,
    max_batch: Option<u64>,
    max_backwards_ms: Option<u64>,
    max_skew_ms: Option<u64>,
    grace_secs: Option<u64>,
}

/// The resolved configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// HTTP listen address.
    pub http: Option<SocketAddr>,
    /// RESP listen address.
    pub resp: Option<SocketAddr>,
    /// The preset's name.
    pub preset: Preset,
    /// Its layout.
    pub layout: Layout,
    /// Where the worker IDs come from.
    pub source: Source,
    /// How a coordinator's lease is kept.
    pub coordinator: Coordinator,
    /// Worker threads (= worker IDs).
    pub workers: usize,
    /// Bearer token / RESP password.
    pub token: Option<String>,
    /// Largest n.
    pub max_batch: u64,
    /// Largest tolerated clock step back.
    pub max_backwards_ms: u64,
    /// Shutdown grace.
    pub grace_secs: u64,
}

fn addr(what: &str, value: Option<String>, default: &str) -> Result<Option<SocketAddr>, String> {
    let value = value.unwrap_or_else(|| default.to_string());
    if value == "off" {
        return Ok(None);
    }
    value
        .parse()
        .map(Some)
        .map_err(|e| format!("--{what} '{value}' is not an address like 127.0.0.1:8080 ({e})"))
}

/// The options of a coordinator's lease (Redis, etcd).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coordinator {
    /// The key prefix (Node's redisLease and etcdLease `prefix`).
    pub prefix: String,
    /// The lease's TTL in ms.
    pub ttl_ms: u64,
    /// The skew beyond which the lease refuses (an ID service does not mint
    /// on a clock it knows is off, where a library may only report it).
    pub max_skew_ms: u64,
}

impl Config {
    /// Merges the flags and variables in `args` over the file they name.
    pub fn resolve(args: Args) -> Result<Config, String> {
        let file: File = match &args.config {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read the config file {}: {e}", path.display()))?;
                toml::from_str(&text).map_err(|e| format!("config file {}: {e}", path.display()))?
            }
            None => File::default(),
        };
        let preset_name = args.preset.or(file.preset).unwrap_or("twitter".into());
        let preset = Preset::from_name(&preset_name).map_err(|e| e.to_string())?;
        let layout = preset.layout();
        let workers = args
            .workers
            .or(file.workers)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        if workers == 0 || workers > 1024 {
            return Err(format!("--workers {workers}: give 1 to 1024"));
        }
        let worker_id = args.worker_id.or(file.worker_id);
        let lease = args.lease.or(file.lease);
        let source = Source::parse(
            worker_id,
            lease.as_deref(),
            args.lease_dir.or(file.lease_dir),
        )?;
        let max_batch = args
            .max_batch
            .or(file.max_batch)
            .unwrap_or(DEFAULT_MAX_BATCH);
        if max_batch == 0 || max_batch > 10_000_000 {
            return Err(format!("--max-batch {max_batch}: give 1 to 10000000"));
        }
        let token = args.token.or(file.token).filter(|t| !t.is_empty());
        let coordinator = Coordinator {
            prefix: args
                .lease_prefix
                .or(file.lease_prefix)
                .unwrap_or("snowmint".into()),
            ttl_ms: args.lease_ttl_ms.or(file.lease_ttl_ms).unwrap_or(10_000),
            max_skew_ms: args.max_skew_ms.or(file.max_skew_ms).unwrap_or(1000),
        };
        Ok(Config {
            http: addr("http", args.http.or(file.http), "127.0.0.1:8080")?,
            resp: addr("resp", args.resp.or(file.resp), "127.0.0.1:6380")?,
            preset,
            layout,
            source,
            coordinator,
            workers,
            token,
            max_batch,
            max_backwards_ms: args
                .max_backwards_ms
                .or(file.max_backwards_ms)
                .unwrap_or(DEFAULT_MAX_BACKWARDS_MS),
            grace_secs: args.grace_secs.or(file.grace_secs).unwrap_or(10),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(argv: &[&str]) -> Result<Config, String> {
        let mut all = vec!["snowmint-server"];
        all.extend_from_slice(argv);
        Config::resolve(Args::try_parse_from(all).map_err(|e| e.to_string())?)
    }

    #[test]
    fn flags_beat_the_file_and_defaults_fill_the_rest() {
        let dir = std::env::temp_dir().join(format!("snowmint-server-cfg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("c.toml");
        std::fs::write(
            &file,
            "preset = \"discord\"\nworkers = 3\nresp = \"off\"\nworker_id = 9\n",
        )
        .unwrap();
        let c = resolve(&["--config", file.to_str().unwrap(), "--workers", "2"]).unwrap();
        assert_eq!(c.preset, Preset::Discord);
        assert_eq!(c.workers, 2);
        assert_eq!(c.resp, None);
        assert_eq!(c.http, Some("127.0.0.1:8080".parse().unwrap()));
        assert!(matches!(c.source, Source::Fixed(9)));
        std::fs::write(&file, "presets = \"discord\"\n").unwrap();
        let e = resolve(&["--config", file.to_str().unwrap()]).unwrap_err();
        assert!(e.contains("unknown field `presets`"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_values_say_what_is_wrong() {
        let e = resolve(&["--preset", "snow", "--worker-id", "1"]).unwrap_err();
        assert!(e.contains("unknown preset 'snow'"), "{e}");
        let e = resolve(&["--http", "nowhere", "--worker-id", "1"]).unwrap_err();
        assert!(e.contains("--http 'nowhere'"), "{e}");
        let e = resolve(&["--workers", "0", "--worker-id", "1"]).unwrap_err();
        assert!(e.contains("--workers 0"), "{e}");
    }
}
