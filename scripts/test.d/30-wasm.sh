#!/usr/bin/env bash
# The wasm binding outside the browser: lints for its real target, then the
# Node test suite (tests/node/) against the wasm build, as `snowmint/wasm` and
# as the root entry falling back to it where no native binary fits (a copy of
# npm/ without native/, worker ID from SNOWMINT_WORKER_ID). Left out by design: the worker_threads test (the
# default generator is per wasm instance, that is per thread), the CLI, and
# for `snowmint/wasm` the SNOWMINT_WORKER_ID test (a browser has no env).
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"

say "cargo clippy --target wasm32-unknown-unknown -p snowmint-wasm -D warnings"
cargo clippy --target wasm32-unknown-unknown -p snowmint-wasm --all-targets -- -D warnings

say "tests/node against snowmint/wasm"
SNOWMINT_PACKAGE="$ROOT/npm/src/browser.js" node --test \
  tests/node/vectors.test.js tests/node/decode-fast.test.js tests/node/generate.test.js tests/node/clock.test.js tests/node/at.test.js tests/node/convert.test.js tests/node/readme-convert.test.js tests/node/expiry.test.js

say "tests/node against the root entry with no native binary"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r npm "$tmp/npm"
rm -rf "$tmp/npm/native"
backend=$(node --input-type=module -e "import('$tmp/npm/src/node.js').then((m) => console.log(m.backendName))")
[ "$backend" = wasm ] || { echo "expected the wasm fallback, got '$backend'" >&2; exit 1; }
# Worker-ID leases need the addon's file locks: the fallback takes its worker ID from the env.
SNOWMINT_WORKER_ID=1 SNOWMINT_PACKAGE="$tmp/npm/src/node.js" node --test \
  tests/node/vectors.test.js tests/node/decode-fast.test.js tests/node/generate.test.js tests/node/clock.test.js tests/node/errors.test.js tests/node/at.test.js tests/node/convert.test.js tests/node/readme-convert.test.js
