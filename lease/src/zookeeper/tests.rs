//! The parts of the ZooKeeper store that need no ZooKeeper: URLs.

use super::*;

#[test]
fn urls_name_the_members_and_the_path() {
    let s = ZkStore::new("zk://zk1:2181,zk2:2181/ids/lease", "p").unwrap();
    assert_eq!(
        (s.hosts.as_str(), s.place()),
        ("zk1:2181,zk2:2181", "/ids/lease".into())
    );
    let s = ZkStore::new("zk://zk1:2181", "snowmint").unwrap();
    assert_eq!(s.place(), "/snowmint");
    for (bad, why) in [
        ("etcd://h:1", "unknown scheme"),
        ("zk:///x", "not HOST:PORT"),
        ("zk://h:1//x", "not an absolute znode path"),
    ] {
        let e = ZkStore::new(bad, "p").unwrap_err();
        assert_eq!(e.code(), Code::InvalidOption);
        assert!(e.message().contains(why), "{e}");
    }
}
