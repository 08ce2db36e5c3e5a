#!/usr/bin/env bash
# The browser build in real headless Chromium (Debian's chromium, installed by
# scripts/setup.d/60-browsers.sh, driven by playwright-core): shared vectors,
# millions of IDs, a changed wall clock, offline minting, Web Workers, a plain
# static page, Vite and esbuild builds, and the ID inspector page.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
node --test tests/browser/wasm.test.js tests/browser/bundlers.test.js tests/browser/inspector.test.js
