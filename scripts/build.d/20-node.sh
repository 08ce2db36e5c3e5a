#!/usr/bin/env bash
# The Node package: the napi-rs addon (plain `cargo build`, one target tree for
# every Rust build) copied into npm/native/, and the CommonJS entries that
# esbuild generates from the ESM sources into npm/dist/.
source "$(dirname "$0")/../lib.sh"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
cd "$ROOT"
cargo build --release -p snowmint-node
platform=$(node -p 'const r = process.report.getReport().header; `${process.platform}-${process.arch}` + (process.platform === "linux" ? (r.glibcVersionRuntime ? "-gnu" : "-musl") : "")')
mkdir -p npm/native
case "$(uname -s)" in Darwin) lib=libsnowmint_node.dylib ;; *) lib=libsnowmint_node.so ;; esac
# Copy, then rename into place: overwriting the loaded file in place would
# crash (SIGBUS) every Node process that has the old addon open.
cp "$TARGET_DIR/release/$lib" "npm/native/.snowmint.$platform.node.tmp"
mv -f "npm/native/.snowmint.$platform.node.tmp" "npm/native/snowmint.$platform.node"
echo "  npm/native/snowmint.$platform.node"
rm -rf npm/dist
for entry in index:node json:json; do
  out=${entry%%:*} src=${entry##*:}
  [ -f "npm/src/$src.js" ] || continue
  esbuild "npm/src/$src.js" --bundle --platform=node --format=cjs --target=node18 --log-level=warning \
    --external:'*.node' --inject:npm/build/import-meta-url.js --define:import.meta.url=importMetaUrl \
    --outfile="npm/dist/$out.cjs"
done
ls npm/dist
