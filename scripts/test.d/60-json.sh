#!/usr/bin/env bash
# snowmint/json: unit, JSONTestSuite (vendored in tests/vectors/jsontestsuite/) and property tests in Node, then the same in headless Chromium.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
node --test tests/json/ tests/browser/json.test.js
