#!/usr/bin/env bash
# Cross-compiling the Node addon for every platform package
# (scripts/build.d/25-cross.sh): Zig (PyPI `ziglang`, unpacked into the
# cache) as C compiler and linker, cargo-zigbuild (crates.io), the Rust
# targets, and rustup's llvm-tools to check the artifacts that cannot run here.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/platforms.sh"
python3 -m pip --version >/dev/null 2>&1 || apt_install python3-pip # pip download only: nothing is pip-installed
if [ ! -x "$ZIG_DIR/ziglang/zig" ]; then
  say "zig $ZIG_VERSION (PyPI ziglang)"
  tmp=$(mktemp -d)
  python3 -m pip download --quiet "ziglang==$ZIG_VERSION" --no-deps --only-binary=:all: -d "$tmp"
  rm -rf "$ZIG_DIR.part" && mkdir -p "$ZIG_DIR.part"
  python3 -m zipfile -e "$tmp"/ziglang-*.whl "$ZIG_DIR.part"
  chmod +x "$ZIG_DIR.part/ziglang/zig" # zip entries lose their mode
  rm -rf "$tmp" "$ZIG_DIR" && mv "$ZIG_DIR.part" "$ZIG_DIR"
fi
zig version >/dev/null
if ! cargo install --list | grep -qx "cargo-zigbuild v$CARGO_ZIGBUILD_VERSION:"; then
  say "cargo install cargo-zigbuild $CARGO_ZIGBUILD_VERSION"
  # No --locked: a locked dependency version may not be served by this registry.
  cargo install cargo-zigbuild --version "=$CARGO_ZIGBUILD_VERSION" --force
fi
installed=$(rustup target list --installed)
for p in "${PLATFORMS[@]}"; do
  t=${RUST_TARGET[$p]%.2.17}
  grep -qx "$t" <<<"$installed" || rustup target add "$t"
done
rustup component list --installed | grep -q '^llvm-tools' || rustup component add llvm-tools
"$LLVM_BIN/llvm-readobj" --version >/dev/null
