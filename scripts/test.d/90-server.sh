#!/usr/bin/env bash
# snowmint-server (server/): its unit tests and docs without warnings, one
# debug build, then tests/server/ against that binary with clients no one
# here wrote: redis-cli, redis-benchmark, curl, h2load, Python's redis and
# requests, Node processes leasing beside the servers (the addon's
# zero-configuration nextId() on their lease directory, redisLease and
# etcdLease and zookeeperLease on their Redis, etcd and ZooKeeper), and a
# real redis-server, etcd and ZooKeeper for --lease redis://, etcd:// and
# zk:// (test_redis.py, test_etcd.py, test_zookeeper.py). Each test starts its own
# servers on free loopback ports with a lease directory of its own, and
# stops them.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
say "cargo test -p snowmint-server"
cargo test -p snowmint-server
# Without the default feature zookeeper: zk:// refused by name.
cargo clippy -p snowmint-server --all-targets --no-default-features -- -D warnings
cargo clippy -p snowmint-server --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc -p snowmint-server --no-deps
cargo build -p snowmint-server
venv="$ROOT/tmp/server-venv"
command -v redis-server >/dev/null && command -v etcd >/dev/null && command -v redis-benchmark >/dev/null && command -v h2load >/dev/null && command -v faketime >/dev/null \
  && "$venv/bin/python" -c 'import redis, requests' 2>/dev/null || bash scripts/setup.d/90-server.sh
test -f /usr/share/java/zookeeper.jar && command -v java >/dev/null || bash scripts/setup.d/55-zookeeper.sh
SNOWMINT_SERVER_BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/snowmint-server" "$venv/bin/python" -m unittest discover -v -s tests/server -p 'test_*.py'
