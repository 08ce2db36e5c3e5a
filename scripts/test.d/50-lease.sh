#!/usr/bin/env bash
# The Rust local lease (the snowmint-lease crate: tests, doc examples, docs
# without warnings), then snowmint/lease: lock-file leases and the zero-config default (node:cluster,
# 8 x 1M nextId(); 4 worker_threads sharing one process-wide lease), then the
# fault suite against a real Redis (ioredis and node-redis), a real etcd and a
# real ZooKeeper that the tests start and stop themselves, a Rust and a Node process
# leasing side by side with zero configuration (tests/lease/rust-node.test.js)
# and from one Redis, etcd or ZooKeeper (tests/lease/rust-node-redis.test.js,
# rust-node-etcd.test.js, rust-node-zookeeper.test.js),
# and the deployments that must refuse or lock (tests/lease/deploy.test.js:
# simulated Kubernetes, Lambda and Heroku replicas, two `new Snowflake()`,
# SNOWMINT_WORKER_ID=5 twice, a restart 3 s back under libfaketime, and
# docs/deploy.md's examples), and the README's and docs' examples that need
# Redis, etcd or ZooKeeper, run as written (tests/lease/docs.test.js). The
# crate's doctests include docs/lease.md's Rust example.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
command -v redis-server >/dev/null && command -v etcd >/dev/null && command -v faketime >/dev/null || bash scripts/setup.d/50-lease.sh
test -f /usr/share/java/zookeeper.jar && command -v java >/dev/null || bash scripts/setup.d/55-zookeeper.sh
# With the Redis, etcd and ZooKeeper drivers: the state machine's unit tests
# and proptests, the local lease, the doctests (docs/lease.md's Rust
# blocks), and lease/tests/redis.rs, etcd.rs and zookeeper.rs, the fault
# suites of the Rust driver (lease/tests/common/scenarios.rs, run per store)
# against a real redis-server (FLUSHALL, a restart without data, a deleted
# worker key, a killed holder, clocks 5 s off), a real etcd (a deleted
# worker key, a killed holder, a restart on an empty data directory, clocks
# 5 s off their peers) and a real ZooKeeper (a deleted worker znode, a
# restart on an empty data directory, clocks 5 s off the server's). The
# crate without features is what the addon builds.
features=redis,etcd,zookeeper
say "cargo test -p snowmint-lease --features $features (release)"
cargo test --release -p snowmint-lease --features "$features"
say "cargo clippy -p snowmint-lease --features $features -D warnings"
cargo clippy --release -p snowmint-lease --features "$features" --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc -p snowmint-lease --no-deps --features "$features"
# One file at a time: the machine may have two cores, and the suites time leases.
node --test --test-concurrency=1 tests/lease/
