#!/usr/bin/env bash
# Rust targets and components, and the npm dev tooling used by every build.
# `npm install`, not `npm ci`: the registry reachable here serves no other
# platform's optional packages, so a lockfile written here is incomplete and
# `npm ci` refuses it.
source "$(dirname "$0")/../lib.sh"
installed=$(rustup target list --installed)
for t in wasm32-unknown-unknown x86_64-unknown-none; do
  grep -qx "$t" <<<"$installed" || rustup target add "$t"
done
components=$(rustup component list --installed)
for c in clippy rustfmt; do
  grep -q "^$c" <<<"$components" || rustup component add "$c"
done
cd "$ROOT" && npm install --no-audit --no-fund --loglevel=error
