#!/usr/bin/env bash
# The wasm binding outside the browser: lints for its real target, then the
# Node test suite (tests/node/) against the wasm build, as `snowmint/wasm` and
# as the root entry falling back to it where no native binary fits (a copy of
# npm/ without native/, worker ID from SNOWMINT_WORKER_ID): every file, but
# the few excluded below, each with its reason.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"

say "cargo clippy --target wasm32-unknown-unknown -p snowmint-wasm, snowmint-wasm-mint -D warnings"
cargo clippy --target wasm32-unknown-unknown -p snowmint-wasm --all-targets -- -D warnings
cargo clippy --target wasm32-unknown-unknown -p snowmint-wasm-mint --all-features -- -D warnings

# Every file of tests/node runs against both, but those excluded here, each for the reason given.
declare -A WASM_EXCLUDED=(
  [workers.test.js]="the default generator is one per wasm instance, that is per thread: the worker_threads test is about one process-wide generator"
  [default-worker.test.js]="it runs the wasm entry and the no-native-binary entry in children of its own"
  [cli.test.js]="snowmint/wasm has no bin: the CLI runs in the no-native-binary pass below"
  [cjs.test.js]="snowmint/wasm has no CommonJS entry: require('snowmint') runs in the no-native-binary pass below"
  [docs-examples.test.js]="the docs' examples are Node's: zero-config nextId(), local leases and snowmint/sequence need the native addon"
)
declare -A FALLBACK_EXCLUDED=(
  [workers.test.js]="as above: a generator per thread"
  [default-worker.test.js]="as above: it makes the no-native-binary copy itself"
  [docs-examples.test.js]="as above: local leases and snowmint/sequence need the native addon"
)
# files EXCLUDED_ARRAY_NAME: the tests/node files not in that exclude list.
files() {
  local -n excluded=$1
  local f out=()
  for f in tests/node/*.test.js; do [ -n "${excluded[$(basename "$f")]+x}" ] || out+=("$f"); done
  echo "${out[@]}"
}

say "tests/node against snowmint/wasm"
SNOWMINT_PACKAGE="$ROOT/npm/entries/browser.js" node --test $(files WASM_EXCLUDED)

say "tests/node against the root entry with no native binary"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r npm "$tmp/npm"
rm -rf "$tmp/npm/native"
backend=$(node --input-type=module -e "import('$tmp/npm/entries/node.js').then((m) => console.log(m.backendName))")
[ "$backend" = wasm ] || { echo "expected the wasm fallback, got '$backend'" >&2; exit 1; }
# Worker-ID leases need the addon's file locks: the fallback takes its worker ID from the env.
SNOWMINT_WORKER_ID=1 SNOWMINT_PACKAGE="$tmp/npm/entries/node.js" SNOWMINT_CLI="$tmp/npm/bin/snowmint.js" node --test $(files FALLBACK_EXCLUDED)
