#!/usr/bin/env bash
# Installs everything the build and the tests need, skipping what is already there.
# Each part lives in scripts/setup.d/ so that every component owns its own set-up.
source "$(dirname "$0")/lib.sh"
run_parts "$ROOT/scripts/setup.d"
