#!/usr/bin/env bash
# The SQLite extension (crate sqlite/, snowmint-sqlite) with real SQLite:
# the addon itself loaded from snowmint/sqlite's extensionPath into
# better-sqlite3 (Node 20) and node:sqlite (Node 24), sharing the process's
# generator with nextId(); the standalone cdylib (scripts/build.d/
# 22-sqlite.sh) in Debian's sqlite3 shell. First the crate's own checks:
# its unit tests, and clippy with the standalone entry points compiled in.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/platforms.sh" # CACHE
cd "$ROOT"

say "sqlite/: cargo test, clippy and doc -D warnings with feature extension"
cargo test -q --release -p snowmint-sqlite 2>&1 | tail -n 3
cargo clippy -q --release -p snowmint-sqlite --features extension --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc -q -p snowmint-sqlite --no-deps --features extension

say "snowmint/sqlite's declarations: tsc --noEmit --strict, by name through the exports map (ESM and CommonJS)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/node_modules" && ln -s "$ROOT/npm" "$tmp/node_modules/snowmint"
printf "import { extensionPath } from 'snowmint/sqlite';\nexport const p: string = extensionPath;\n" >"$tmp/esm.mts"
printf "import sqlite = require('snowmint/sqlite');\nexport const p: string = sqlite.extensionPath;\n" >"$tmp/cjs.cts"
printf '{ "compilerOptions": { "strict": true, "noEmit": true, "module": "nodenext", "moduleResolution": "nodenext", "target": "es2022", "skipLibCheck": false, "types": [] }, "files": ["esm.mts", "cjs.cts"] }\n' >"$tmp/tsconfig.json"
tsc -p "$tmp/tsconfig.json"
echo "  typings: snowmint/sqlite type-checks from ESM and CommonJS"

say "node --test tests/sqlite/"
SNOWMINT_NODE_SQLITE="$CACHE/node/gnu-x64-24.21.0/bin/node" node --test --test-concurrency=1 tests/sqlite/

# The benchmark cannot rot: a smoke run (2,000 rows) must write every row.
say "bench/database/sqlite.js smoke run"
out=$(mktemp -d)
trap 'rm -rf "$tmp" "$out"' EXIT
node bench/database/sqlite.js --rows 2000 --runs 1 --out "$out/results.md" >/dev/null
for key in "snowmint_next_id()" "snowmint_uuidv7()" "snowmint_ulid()" "lower(hex(randomblob(16)))" "rowid (INTEGER PRIMARY KEY)"; do
  grep -qF "| $key |" "$out/results.md" || { echo "results.md has no row for $key"; exit 1; }
done
echo "bench/database/sqlite.js smoke: every key default written"
