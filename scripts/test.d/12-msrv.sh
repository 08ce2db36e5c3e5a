#!/usr/bin/env bash
# The Rust versions the manifests promise (`rust-version`) really build the
# crates: the core (with and without its opt-in `expiry`) and the wasm binding on the workspace's version, the Node
# binding, the lease crate and the SQLite extension on their own (File::try_lock needs 1.89). Each toolchain is installed
# (minimal profile) when missing; the check builds into a target dir of its own.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
version() { sed -n 's/^rust-version = "\(.*\)"$/\1/p' "$1"; }
workspace=$(version Cargo.toml)
node=$(version node/Cargo.toml)
[ -n "$workspace" ] && [ -n "$node" ] || { echo "rust-version missing in Cargo.toml or node/Cargo.toml" >&2; exit 1; }
check() { # check VERSION PACKAGE...
  local v=$1; shift
  rustup toolchain list | grep -q "^$v-" || rustup toolchain install "$v" --profile minimal
  say "cargo +$v check $*"
  CARGO_TARGET_DIR="$ROOT/target/msrv" cargo "+$v" check -q $(printf -- '-p %s ' "$@")
}
check "$workspace" snowmint snowmint-wasm
say "cargo +$workspace check -p snowmint --features expiry"
CARGO_TARGET_DIR="$ROOT/target/msrv" cargo "+$workspace" check -q -p snowmint --features expiry
for m in lease/Cargo.toml sqlite/Cargo.toml; do
  [ "$(version $m)" = "$node" ] || { echo "$m and node/Cargo.toml must promise one rust-version" >&2; exit 1; }
done
check "$node" snowmint-node snowmint-lease snowmint-sqlite
echo "  rust-version: $workspace (snowmint, snowmint-wasm), $node (snowmint-node, snowmint-lease, snowmint-sqlite)"
