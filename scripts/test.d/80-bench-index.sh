#!/usr/bin/env bash
# The index benchmark cannot rot: its unit tests, then a smoke run (10k rows
# per key type, both databases, a real PostgreSQL cluster it starts and
# stops itself) into a temporary directory. The run fails unless snowmint's
# UUIDv7 and ULID pack both indexes (leaf density >= 85%, fragmentation
# < 10%) while the random keys do not; here we check that it wrote the
# table, with every key type for both databases, and the PNG.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
cargo test -q --manifest-path bench/index/Cargo.toml
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cargo run -q --manifest-path bench/index/Cargo.toml -- --rows 10000 --batch 1000 --out "$out" \
  --command "scripts/test.d/80-bench-index.sh" --check-packing >/dev/null

md="$out/results.md"
for db in "SQLite" "PostgreSQL"; do
  grep -q "^\*\*$db " "$md" || { echo "results.md has no $db table"; exit 1; }
done
for key in "UUIDv4 (random)" "UUIDv7, NOT monotonic" "UUIDv7 (snowmint)" "ULID (snowmint)" \
           "Snowflake (snowmint)" "bigint sequence"; do
  n=$(grep -cF "| $key |" "$md")
  [ "$n" -eq 2 ] || { echo "results.md has $n rows for $key, want 2"; exit 1; }
done
[ "$(head -c 8 "$out/plot.png" | od -An -tx1 | tr -d ' ')" = "89504e470d0a1a0a" ] \
  || { echo "plot.png is not a PNG"; exit 1; }
echo "bench-index smoke: table and plot written, packing check passed"
