#!/usr/bin/env bash
# The Node package: every declaration file type-checks (tsc --noEmit --strict),
# both bindings type-check against the one contract (npm/src/backend.d.ts),
# then its tests (tests/js/ and tests/node/, node:test) against the repository's npm/.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
tsc --noEmit --strict --skipLibCheck false npm/index.d.ts npm/src/backend.d.ts npm/src/json.d.ts npm/src/lease/index.d.ts npm/src/sequence/index.d.ts npm/src/sqlite.d.ts
echo "  typings: tsc --noEmit --strict passed"
node npm/build/check-backends.mjs
# tests/js/: the JS layer's parts against a fake backend; tests/node/: the package.
node --test tests/js/ tests/node/
