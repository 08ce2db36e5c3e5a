#!/usr/bin/env bash
# snowmint/json: unit, JSONTestSuite and property tests in Node, then the same in headless Chromium.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
[ -d ../shared/conformance/jsontestsuite/test_parsing ] || { echo "missing ../shared/conformance/jsontestsuite (shared/ must sit beside the repository)"; exit 1; }
node --test tests/json/ tests/browser/json.test.js
