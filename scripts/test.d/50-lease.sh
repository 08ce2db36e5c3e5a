#!/usr/bin/env bash
# snowmint/lease: lock-file leases and the zero-config default (node:cluster,
# 8 x 1M nextId(); 4 worker_threads sharing one process-wide lease), then the
# fault suite against a real Redis (ioredis and node-redis), a real etcd and
# a real ZooKeeper that the tests start and stop themselves.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
command -v redis-server >/dev/null && command -v etcd >/dev/null || bash scripts/setup.d/50-lease.sh
test -f /usr/share/java/zookeeper.jar && command -v java >/dev/null || bash scripts/setup.d/55-zookeeper.sh
# One file at a time: the machine may have two cores, and the suites time leases.
node --test --test-concurrency=1 tests/lease/
