#!/usr/bin/env bash
# wasm-bindgen CLI at exactly the wasm-bindgen version in Cargo.lock (the
# CLI refuses modules built by any other version). wasm-opt comes from the
# npm package `binaryen` (root devDependency), never from Debian's binaryen.
source "$(dirname "$0")/../lib.sh"
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' "$ROOT/Cargo.lock")
[ -n "$want" ] || { echo "wasm-bindgen is not in Cargo.lock" >&2; exit 1; }
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$want" ]; then
  say "cargo install wasm-bindgen-cli $want"
  # --debug with no debuginfo builds in a fifth of the time, byte-identical output;
  # no --locked: a locked dependency version is not served by this registry.
  CARGO_PROFILE_DEV_DEBUG=0 cargo install wasm-bindgen-cli --version "=$want" --debug --force
fi
