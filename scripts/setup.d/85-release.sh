#!/usr/bin/env bash
# The release test (scripts/test.d/85-release.sh): a local registry
# (Verdaccio 5.0.0) and the package managers it installs snowmint with (pnpm 9,
# yarn 1, yarn 4 as @yarnpkg/cli-dist, Bun), pinned in tests/release/package.json
# and installed in that folder only. The musl and arm64 Node builds and qemu
# come from scripts/setup.d/72-node-builds.sh.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT/tests/release"
# Already there and matching package.json: nothing to do (npm would still take seconds to say so).
stamp=node_modules/.snowmint-release-setup
if [ -f "$stamp" ] && cmp -s package.json "$stamp"; then
  echo "  tests/release/node_modules: up to date"
  exit 0
fi
npm install --no-audit --no-fund --no-package-lock --loglevel=error
cp package.json "$stamp"
