#!/usr/bin/env bash
# The test command: set-up, build, then every suite in scripts/test.d/ (each must pass).
source "$(dirname "$0")/lib.sh"
bash "$ROOT/scripts/setup.sh"
bash "$ROOT/scripts/build.sh"
# The tests run in a container (CI's is one): say that its lease directory is
# enough, rather than have every zero-config process warn. Tests of the
# refusal and the warning unset this in their children.
export SNOWMINT_LEASE=local
passed=0
for f in "$ROOT"/scripts/test.d/*.sh; do
  say "test.d/$(basename "$f")"
  if bash "$f"; then passed=$((passed + 1)); else
    echo "FAILED: test.d/$(basename "$f")"
    echo "suites: $passed passed, 1 failed"
    exit 1
  fi
done
echo
echo "suites: $passed passed, 0 failed"
