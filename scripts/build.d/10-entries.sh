#!/usr/bin/env bash
# The package's ES entries (npm/entries/node.js, browser.js, workerd.js), generated
# from the one list of public names; first, as every later part imports them.
source "$(dirname "$0")/../lib.sh"
node "$ROOT/npm/build/entries.mjs"
echo "  npm/entries/node.js, npm/entries/browser.js, npm/entries/workerd.js"
