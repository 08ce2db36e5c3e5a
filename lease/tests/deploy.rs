//! Zero configuration where "this machine" is one replica of many: the
//! local lease refuses on a replica platform unless told that it is enough,
//! and an explicit worker ID is never refused there. One test, since it sets
//! process-wide environment variables.

use snowmint::snowflake::Layout;
use snowmint_lease::{Code, LeaseOptions, LocalLease};

#[test]
fn a_replica_platform_refuses_zero_config_but_not_an_explicit_id_or_a_trusted_directory() {
    let dir = std::env::temp_dir().join(format!("snowmint-deploy-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let options = || LeaseOptions::new().dir(&dir);
    // SAFETY: the only test of this binary, so no other thread reads the environment.
    let set = |k: &str, v: Option<&str>| unsafe {
        match v {
            Some(v) => std::env::set_var(k, v),
            None => std::env::remove_var(k),
        }
    };
    set("SNOWMINT_LEASE", None);
    for (variable, name) in [
        ("KUBERNETES_SERVICE_HOST", "Kubernetes"),
        ("AWS_LAMBDA_FUNCTION_NAME", "AWS Lambda"),
        ("DYNO", "Heroku"),
    ] {
        set(variable, Some("x"));
        let e = LocalLease::acquire(options()).unwrap_err();
        assert_eq!(e.code(), Code::NoWorkerId, "{e}");
        assert!(
            e.message().contains(name) && e.message().contains(variable),
            "{e}"
        );
        // A range is still zero configuration: each pod would claim its lowest ID.
        let e = LocalLease::acquire(options().worker_ids(0..=9)).unwrap_err();
        assert_eq!(e.code(), Code::NoWorkerId, "{e}");

        // An explicit worker ID, or a directory said to be enough, mints.
        let ids = LocalLease::acquire(options().worker_id(7))
            .unwrap()
            .snowflake(Layout::TWITTER)
            .unwrap();
        assert_eq!(ids.decode(ids.next().unwrap()).unwrap().worker_id, 7);
        drop(ids);
        let lease = LocalLease::acquire(options().trust_local(true)).unwrap();
        lease.release().unwrap();
        set("SNOWMINT_LEASE", Some("local"));
        LocalLease::acquire(options()).unwrap().release().unwrap();
        set("SNOWMINT_LEASE", Some("yes"));
        let e = LocalLease::acquire(options()).unwrap_err();
        assert_eq!(e.code(), Code::InvalidOption, "{e}");
        assert!(e.message().contains("'local'"), "{e}");
        set("SNOWMINT_LEASE", None);
        set(variable, None);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
