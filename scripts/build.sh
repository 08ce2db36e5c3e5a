#!/usr/bin/env bash
# Builds every layer (core, Node addon, wasm, npm package); parts in scripts/build.d/.
source "$(dirname "$0")/lib.sh"
run_parts "$ROOT/scripts/build.d"
