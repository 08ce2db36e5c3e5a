//! Where "this machine" is one replica of many. The local lease hands out
//! worker IDs among the processes that share a lease directory; a pod, a
//! task or a function instance has a directory (and a PID namespace) of
//! its own, so every replica of one image would lease worker ID 0 and their
//! IDs would collide. Zero configuration therefore refuses on the platforms
//! below ([`replica_platform`]), and warns in a plain container
//! ([`container`]), unless `SNOWMINT_LEASE=local` says that the local lease
//! is enough (one replica, or a lease directory the replicas share).
//!
//! Each platform is detected by a variable its own documentation says it
//! sets in every instance; the table in `docs/deploy.md` gives the sources.

use std::path::Path;

use crate::error::{Code, LeaseError};

/// A platform that runs replicas of one image, and the variable that gives
/// it away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Platform {
    /// The platform's name, for messages (`"Kubernetes"`).
    pub name: &'static str,
    /// The variable it sets in every instance (`"KUBERNETES_SERVICE_HOST"`).
    pub variable: &'static str,
}

const fn p(name: &'static str, variable: &'static str) -> Platform {
    Platform { name, variable }
}

/// The platforms, most specific first (a Cloud Run service on GKE is named
/// as Cloud Run, a Netlify function as AWS Lambda, where it runs).
pub const REPLICA_PLATFORMS: &[Platform] = &[
    p("AWS Lambda", "AWS_LAMBDA_FUNCTION_NAME"),
    p("Amazon ECS", "ECS_CONTAINER_METADATA_URI_V4"),
    p("Amazon ECS", "ECS_CONTAINER_METADATA_URI"),
    p("Google Cloud Run", "K_SERVICE"),
    p("Google Cloud Run jobs", "CLOUD_RUN_JOB"),
    p("Google App Engine", "GAE_INSTANCE"),
    p("Azure Container Apps", "CONTAINER_APP_NAME"),
    p("Azure App Service / Functions", "WEBSITE_INSTANCE_ID"),
    p("Heroku", "DYNO"),
    p("Fly.io", "FLY_ALLOC_ID"),
    p("Render", "RENDER_INSTANCE_ID"),
    p("Railway", "RAILWAY_REPLICA_ID"),
    p("Vercel", "VERCEL"),
    p("Netlify", "NETLIFY"),
    p("Cloud Foundry", "CF_INSTANCE_GUID"),
    p("Nomad", "NOMAD_ALLOC_ID"),
    p("Kubernetes", "KUBERNETES_SERVICE_HOST"),
];

/// The platform the environment `var` describes (the first of
/// [`REPLICA_PLATFORMS`] whose variable is set and not empty).
pub fn replica_platform_in(var: impl Fn(&str) -> Option<String>) -> Option<Platform> {
    REPLICA_PLATFORMS
        .iter()
        .find(|p| var(p.variable).is_some_and(|v| !v.is_empty()))
        .copied()
}

/// [`replica_platform_in`] of this process's environment.
pub fn replica_platform() -> Option<Platform> {
    replica_platform_in(|k| std::env::var(k).ok())
}

/// What shows that this process runs in a container (a file the runtime
/// puts there, or its cgroup): `None` on a plain host, or where it cannot
/// be told.
pub fn container() -> Option<&'static str> {
    container_at(Path::new("/"))
}

/// [`container`] of the file system under `root`.
pub fn container_at(root: &Path) -> Option<&'static str> {
    for marker in ["/.dockerenv", "/run/.containerenv"] {
        if root.join(&marker[1..]).exists() {
            return Some(marker);
        }
    }
    let cgroup = std::fs::read_to_string(root.join("proc/1/cgroup")).unwrap_or_default();
    ["docker", "kubepods", "containerd", "libpod", "lxc"]
        .iter()
        .any(|w| cgroup.contains(w))
        .then_some("/proc/1/cgroup")
}

/// What `SNOWMINT_LEASE` says: `true` for `local` (the local lease is
/// enough here), `false` when unset or empty; any other value is refused.
pub fn trusts_local_env() -> Result<bool, LeaseError> {
    match std::env::var("SNOWMINT_LEASE").as_deref() {
        Err(_) | Ok("") => Ok(false),
        Ok("local") => Ok(true),
        Ok(other) => Err(LeaseError::new(
            Code::InvalidOption,
            format!(
                "SNOWMINT_LEASE='{other}' is not understood: the only value is 'local' (this host's lease directory is enough: one replica, or a directory the replicas share)"
            ),
        )),
    }
}

/// The refusal of a zero-configuration worker ID on `platform`: what went
/// wrong and every way out.
pub fn refusal(platform: Platform) -> LeaseError {
    LeaseError::new(
        Code::NoWorkerId,
        format!(
            "no worker ID configured, and this process runs on {} ({} is set), where every replica has a lease directory of its own: each would lease worker ID 0 and mint the same IDs. \
             Give each instance its own worker ID (SNOWMINT_WORKER_ID; on a Kubernetes StatefulSet, workerIdFromHostname() or the apps.kubernetes.io/pod-index label through workerIdFromEnv), \
             or lease one from a store all replicas share (redisLease, etcdLease, zookeeperLease in snowmint/lease), \
             or use ulid() / uuidv7(), which need no worker ID. \
             If this instance is the only one, or its lease directory is shared by all of them, set SNOWMINT_LEASE=local.",
            platform.name, platform.variable
        ),
    )
}

/// What a zero-configuration local lease may do here: refuse on a replica
/// platform ([`refusal`]); in a plain container, go on with what shows it
/// (`Some`), for the caller to warn once that the lease covers this
/// container only; else go on (`None`). `trust_local` (or
/// `SNOWMINT_LEASE=local`) says the local lease is enough: no refusal, no
/// warning.
pub fn zero_config(trust_local: bool) -> Result<Option<&'static str>, LeaseError> {
    if trust_local || trusts_local_env()? {
        return Ok(None);
    }
    match replica_platform() {
        Some(platform) => Err(refusal(platform)),
        None => Ok(container()),
    }
}

/// The one-time warning of a zero-config lease in a container (`evidence`:
/// what [`zero_config`] found).
pub fn container_warning(evidence: &str) -> String {
    format!(
        "snowmint: this process runs in a container ({evidence}), so its zero-config worker ID is leased among the processes of this container only: \
         replicas of it would share worker IDs. Give each replica its own (SNOWMINT_WORKER_ID) or lease from a shared store (Redis, etcd, ZooKeeper); \
         if this container is the only one, or its lease directory is a volume they all share, set SNOWMINT_LEASE=local (which also silences this warning)."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn detects_each_platform_by_its_variable() {
        assert_eq!(replica_platform_in(env(&[])), None);
        let k8s = replica_platform_in(env(&[("KUBERNETES_SERVICE_HOST", "10.0.0.1")]));
        assert_eq!(k8s.map(|p| p.name), Some("Kubernetes"));
        let lambda = replica_platform_in(env(&[("AWS_LAMBDA_FUNCTION_NAME", "f")]));
        assert_eq!(lambda.map(|p| p.name), Some("AWS Lambda"));
        let heroku = replica_platform_in(env(&[("DYNO", "web.1")]));
        assert_eq!(heroku.map(|p| p.name), Some("Heroku"));
        // An empty variable is no evidence.
        assert_eq!(replica_platform_in(env(&[("DYNO", "")])), None);
        // Cloud Run on GKE sets both: the more specific name wins.
        let both = env(&[("KUBERNETES_SERVICE_HOST", "x"), ("K_SERVICE", "api")]);
        assert_eq!(
            replica_platform_in(both).map(|p| p.name),
            Some("Google Cloud Run")
        );
    }

    #[test]
    fn a_container_is_told_by_its_marker_files_or_cgroup() {
        let root = std::env::temp_dir().join(format!("snowmint-platform-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("proc/1")).unwrap();
        assert_eq!(container_at(&root), None);
        std::fs::write(root.join("proc/1/cgroup"), "0::/\n").unwrap();
        assert_eq!(container_at(&root), None);
        std::fs::write(root.join("proc/1/cgroup"), "0::/kubepods/besteffort/pod1\n").unwrap();
        assert_eq!(container_at(&root), Some("/proc/1/cgroup"));
        std::fs::write(root.join(".dockerenv"), "").unwrap();
        assert_eq!(container_at(&root), Some("/.dockerenv"));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_refusal_names_the_platform_and_the_ways_out() {
        let e = refusal(REPLICA_PLATFORMS[0]);
        assert_eq!(e.code().as_str(), "ERR_NO_WORKER_ID");
        for part in [
            "AWS Lambda",
            "AWS_LAMBDA_FUNCTION_NAME",
            "workerIdFromHostname()",
            "redisLease",
            "ulid() / uuidv7()",
            "SNOWMINT_LEASE=local",
        ] {
            assert!(e.message().contains(part), "{part}: {}", e.message());
        }
    }
}
