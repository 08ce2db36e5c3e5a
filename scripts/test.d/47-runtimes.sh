#!/usr/bin/env bash
# snowmint on the JavaScript runtimes besides Node, as a user installs it:
# the packed main package and the linux-x64 platform packages installed
# offline into a fresh app (the musl package beside the glibc one, for Bun's
# musl build), then tests/runtimes/runtimes.test.js: Deno, Bun (glibc and
# musl), workerd through miniflare, Vercel's edge-runtime, Chromium and
# Firefox ESR. Runtimes: scripts/setup.d/74-runtimes.sh.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/platforms.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
main=$(cd "$ROOT/npm" && npm pack --silent --pack-destination "$tmp" | tail -n 1)
gnu=$(cd "$ROOT/npm/platforms/linux-x64-gnu" && npm pack --silent --pack-destination "$tmp" | tail -n 1)
musl=$(cd "$ROOT/npm/platforms/linux-x64-musl" && npm pack --silent --pack-destination "$tmp" | tail -n 1)
mkdir "$tmp/app"
printf '{ "name": "consumer", "private": true, "type": "module" }\n' >"$tmp/app/package.json"
(cd "$tmp/app" && npm install --offline --no-audit --no-fund --loglevel=error "$tmp/$main" "$tmp/$gnu")
# npm on this glibc machine installs no musl package: unpack it where it would have.
mkdir "$tmp/app/node_modules/snowmint-linux-x64-musl"
tar -xzf "$tmp/$musl" -C "$tmp/app/node_modules/snowmint-linux-x64-musl" --strip-components=1
bun_version=$(node -p "require('$ROOT/tests/runtimes/package.json').devDependencies.bun")
cd "$ROOT"
SNOWMINT_RUNTIMES_APP="$tmp/app" SNOWMINT_BUN_MUSL="$(bun_musl "$bun_version")" node --test --test-concurrency=1 tests/runtimes/
