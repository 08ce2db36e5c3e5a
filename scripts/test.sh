#!/usr/bin/env bash
# The test command. Bare: set-up, build, then every suite in scripts/test.d/
# (each must pass): what CI runs. With suite names (`scripts/test.sh node
# lease`): only the set-up and build parts those suites need
# (scripts/suites.sh), then those suites; `scripts/test.sh --list` lists them.
source "$(dirname "$0")/lib.sh"
source "$ROOT/scripts/suites.sh"
# The tests run in a container (CI's is one): say that its lease directory is
# enough, rather than have every zero-config process warn. Tests of the
# refusal and the warning unset this in their children.
export SNOWMINT_LEASE=local
suite_of() { local b; b=$(basename "$1" .sh); echo "${b#[0-9][0-9]-}"; }

if [ $# -eq 0 ]; then
  export SNOWMINT_CROSS=all # the platform suites test every platform package
  bash "$ROOT/scripts/setup.sh"
  bash "$ROOT/scripts/build.sh"
  suites=("$ROOT"/scripts/test.d/*.sh)
else
  if [ "$1" = "--list" ]; then
    for f in "$ROOT"/scripts/test.d/*.sh; do suite_of "$f"; done
    exit 0
  fi
  setup=() build=() suites=()
  for name in "$@"; do
    [ -n "${SUITE_NEEDS[$name]+set}" ] || { echo "unknown suite '$name': expected one of $(for f in "$ROOT"/scripts/test.d/*.sh; do printf '%s ' "$(suite_of "$f")"; done)" >&2; exit 2; }
    needs=${SUITE_NEEDS[$name]}
    setup+=(${needs%%|*}) build+=(${needs#*|})
    [[ "$ALL_PLATFORMS_SUITES" == *" $name "* ]] && export SNOWMINT_CROSS=all
  done
  for part in $(printf '%s\n' "${setup[@]}" | sort -u); do say "setup.d/$part.sh"; bash "$ROOT/scripts/setup.d/$part.sh"; done
  for part in $(printf '%s\n' "${build[@]}" | sort -u); do say "build.d/$part.sh"; bash "$ROOT/scripts/build.d/$part.sh"; done
  for f in "$ROOT"/scripts/test.d/*.sh; do
    for name in "$@"; do [ "$(suite_of "$f")" = "$name" ] && suites+=("$f"); done
  done
fi
passed=0
times=()
for f in "${suites[@]}"; do
  say "test.d/$(basename "$f")"
  start=$SECONDS
  if bash "$f"; then
    passed=$((passed + 1))
    times+=("$(suite_of "$f") $((SECONDS - start))s")
  else
    echo "FAILED: test.d/$(basename "$f") after $((SECONDS - start))s"
    echo "suites: $passed passed, 1 failed"
    exit 1
  fi
done
echo
echo "suite times: ${times[*]}"
echo "suites: $passed passed, 0 failed in ${SECONDS}s"
