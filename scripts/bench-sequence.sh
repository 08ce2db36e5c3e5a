#!/usr/bin/env bash
# The sequence benchmark, one command: installs PostgreSQL and Redis if
# missing, builds, then runs bench/sequence/bench.js against a private
# PostgreSQL cluster and a Redis server it starts (and stops) itself.
# Writes bench/sequence/results/results.md and latency.svg.
# Arguments go to the benchmark (`--seconds N` per measurement, default 2).
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
command -v redis-server >/dev/null || bash scripts/setup.d/50-lease.sh
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || bash scripts/setup.d/80-postgres.sh
[ -d node_modules/pg ] || npm install --no-audit --no-fund --loglevel=error
[ -d npm/native ] && [ -d npm/wasm ] || bash scripts/build.sh
exec node bench/sequence/bench.js "$@"
