#!/usr/bin/env bash
# The Node package's tests (tests/node/, node:test) against the repository's npm/.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
node --test tests/node/
