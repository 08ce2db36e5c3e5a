//! The parts of the etcd store that need no etcd: URLs, range ends, report ages.

use std::time::Duration;

use super::*;

#[test]
fn urls_name_plain_http_members() {
    let s = EtcdStore::new("etcd://10.0.0.1:2379,10.0.0.2:2379/", "p").unwrap();
    assert_eq!(s.gateway.endpoints, ["10.0.0.1:2379", "10.0.0.2:2379"]);
    assert_eq!(s.place(), "p/");
    for (bad, why) in [
        ("etcds://h:1", "TLS is not built in"),
        ("redis://h:1", "unknown scheme"),
        ("etcd://h:1/x", "not HOST:PORT"),
        ("etcd://", "not HOST:PORT"),
    ] {
        let e = EtcdStore::new(bad, "p").unwrap_err();
        assert_eq!(e.code(), Code::InvalidOption);
        assert!(e.message().contains(why), "{e}");
    }
}

#[test]
fn a_range_ends_after_every_key_with_the_prefix() {
    assert_eq!(range_end("a/hwm/"), b"a/hwm0");
    assert_eq!(range_end("a\u{7f}"), b"a\x80");
}

#[test]
fn a_report_may_age_by_its_longest_recent_gap() {
    let mut r = ReportAge::default();
    let t = Instant::now();
    assert_eq!(r.bound(t, 2.0, 400), 410.0);
    assert_eq!(r.bound(t + Duration::from_millis(900), 2.0, 400), 904.0);
    assert_eq!(r.bound(t + Duration::from_millis(1300), 2.0, 400), 904.0);
}
