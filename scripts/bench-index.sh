#!/usr/bin/env bash
# The index benchmark, one command: installs what it needs, builds in
# release, inserts rows keyed by UUIDv4, UUIDv7 (snowmint and a
# non-monotonic one), ULID, Snowflake and a bigint sequence into SQLite and
# a private PostgreSQL cluster, and writes bench/index/results/results.md
# and plot.png. Arguments go to the benchmark, e.g. `--rows 5000000` to
# scale it up or `--out DIR` to write elsewhere (`--help` lists them).
source "$(dirname "$0")/lib.sh"
bash "$ROOT/scripts/setup.d/80-postgres.sh"
cd "$ROOT"
exec cargo run --release --manifest-path bench/index/Cargo.toml -- \
  --command "scripts/bench-index.sh${*:+ $*}" --check-packing "$@"
