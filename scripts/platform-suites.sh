#!/usr/bin/env bash
# The Node suites against one platform package, as installed from tarballs:
# sourced by scripts/test.d/45-platforms.sh (platforms this machine runs,
# some under qemu) and run by .github/workflows/platforms.yml on real macOS,
# Windows and Linux runners, so both run the same thing:
#   bash scripts/platform-suites.sh app DIR PLATFORM PKGS  # a consumer in DIR
#   bash scripts/platform-suites.sh suites NODE DIR PLATFORM
# DIR must lie inside the repository (say under tmp/, which git ignores): the
# copied lease test finds the store clients it imports in the repository's
# node_modules. PKGS holds snowmint-*.tgz (npm pack of npm/ and npm/platforms/*).
[ -n "${ROOT:-}" ] || source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# run_tests DIR NODE ARGS...: `node --test ARGS` in DIR; prints its counts and
# seconds, or its whole report when it fails.
run_tests() {
  local dir=$1 node=$2
  shift 2
  local start=$SECONDS
  if (cd "$dir" && "$node" --test --test-reporter=tap "$@" >report.tap 2>&1); then
    echo "  $(grep -E '^# (tests|pass|fail|skipped) ' "$dir/report.tap" | tr -d '#' | paste -sd, -) in $((SECONDS - start)) s ($*)"
  else
    cat "$dir/report.tap"
    fail "node --test $* on Node $("$node" -v) in $dir"
  fi
}

# app DIR PLATFORM PKGS: a fresh app with snowmint and PLATFORM's package
# installed offline from the tarballs (npm told the target platform, so that
# it keeps the optional dependency that fits it), and the suites copied in:
# tests/node as they are, and the zero-config node:cluster test of
# tests/lease with its imports of the sources pointed at the installed package.
app() {
  local dir=$1 p=$2 os cpu libc pkgs
  # An absolute path npm reads on every OS (Windows form with / under Git Bash).
  pkgs=$(cd "$3" && { pwd -W 2>/dev/null || pwd; })
  IFS=- read -r os cpu libc <<<"$p"
  mkdir -p "$dir/tests/lease"
  cat >"$dir/package.json" <<JSON
{ "name": "consumer", "private": true, "type": "module",
  "dependencies": { "snowmint": "file:$(ls "$pkgs"/snowmint-0*.tgz)" },
  "optionalDependencies": { "snowmint-$p": "file:$(ls "$pkgs"/snowmint-"$p"-*.tgz)" } }
JSON
  local flags=(--os="$os" --cpu="$cpu")
  [ -n "$libc" ] && flags+=(--libc="$([ "$libc" = musl ] && echo musl || echo glibc)")
  (cd "$dir" && npm install --offline --no-audit --no-fund --loglevel=error "${flags[@]}")
  [ -f "$dir/node_modules/snowmint-$p/snowmint.$p.node" ] || fail "npm did not install snowmint-$p"
  cp -r "$ROOT/tests/node" "$ROOT/tests/vectors" "$dir/tests/"
  for f in local.test.js cluster-worker.js harness.js servers.js clients.js; do
    sed -e "s#'\.\./\.\./npm/entries/node\.js'#'snowmint'#" -e "s#'\.\./\.\./npm/src/lease/index\.js'#'snowmint/lease'#" \
      "$ROOT/tests/lease/$f" >"$dir/tests/lease/$f"
  done
  ! grep -nE "npm/(src|entries)" "$dir"/tests/lease/*.js || fail "a lease test still imports the repository's sources"
}

# loaded NODE DIR: the backend, the platform and the binary the root entry loads in DIR.
loaded() {
  (cd "$2" && "$1" --input-type=module -e "
    import { relative, sep } from 'node:path';
    import { backendName } from 'snowmint';
    const { platform, addonPath, nativeError } = await import('./node_modules/snowmint/src/addon.js');
    console.log(backendName, platform, addonPath ? relative(process.cwd(), addonPath).split(sep).join('/') : nativeError.message);")
}

# suites NODE DIR PLATFORM [focused]: the Node suites on NODE, which must load
# PLATFORM's package. `focused` (a second platform under the same emulator)
# runs the vectors, errors and threads only: the expiry and node:cluster tests
# check no more there than on the first, at two minutes a platform under qemu.
suites() {
  local node=$1 dir=$2 p=$3 focused=${4:-} got
  got=$(loaded "$node" "$dir")
  [ "$got" = "native $p node_modules/snowmint-$p/snowmint.$p.node" ] || fail "$p on Node $("$node" -v): loaded '$got'"
  say "$p, Node $("$node" -v): $got${focused:+ (focused)}"
  local files=(tests/node/vectors.test.js tests/node/generate.test.js tests/node/errors.test.js tests/node/workers.test.js)
  [ -n "$focused" ] || files+=(tests/node/expiry.test.js)
  SNOWMINT_PACKAGE=snowmint run_tests "$dir" "$node" "${files[@]}"
  [ -n "$focused" ] || run_tests "$dir" "$node" --test-name-pattern='node:cluster' tests/lease/local.test.js
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  case "${1:-}" in
    app | suites) "$@" ;;
    *) fail "usage: $0 app DIR PLATFORM PKGS | suites NODE DIR PLATFORM" ;;
  esac
fi
