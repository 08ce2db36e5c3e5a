#!/usr/bin/env bash
# snowmint/json: unit, JSONTestSuite (vendored in tests/vectors/jsontestsuite/), property
# and fuzz tests on both paths (the engine's and the scanner), in Node 20 (the scanner
# only: no source access, no JSON.rawJSON), in Node 22 (the engine paths; its build from
# scripts/setup.d/72-node-builds.sh), then the same in headless Chromium (engine paths).
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/platforms.sh"
cd "$ROOT"
node22="$(node_bin gnu x64 "$(printf '%s\n' "${NODE_GNU_VERSIONS[@]}" | grep '^22\.')")"
[ -x "$node22" ] || { echo "no Node 22 build at $node22: run scripts/setup.d/72-node-builds.sh" >&2; exit 1; }
say "Node $(node --version)"
node --test tests/json/*.test.js
say "Node $("$node22" --version)"
"$node22" --test tests/json/*.test.js
say "headless Chromium"
node --test tests/browser/json.test.js
