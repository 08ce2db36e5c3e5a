#!/usr/bin/env bash
# The wasm build: rustc -> wasm-bindgen (--target web, loads without a bundler)
# -> wasm-opt -Oz (npm binaryen) into npm/wasm/, then the size gate.
source "$(dirname "$0")/../lib.sh"
LIMIT_BYTES=$((25 * 1024))
OUT="$ROOT/npm/wasm"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
cd "$ROOT"
cargo build --release --target wasm32-unknown-unknown -p snowmint-wasm
rm -rf "$OUT"
wasm-bindgen --target web --out-dir "$OUT" --out-name snowmint \
  "$TARGET_DIR/wasm32-unknown-unknown/release/snowmint_wasm.wasm"
# Debian's wasm-opt (v108) breaks wasm-bindgen output: use the npm binaryen only.
"$ROOT/node_modules/.bin/wasm-opt" -Oz --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-reference-types --enable-sign-ext --enable-mutable-globals \
  -o "$OUT/snowmint_bg.wasm" "$OUT/snowmint_bg.wasm"
# What a browser downloads: the wasm and every JS file of the glue, each gzipped.
total=0
while IFS= read -r f; do
  n=$(gzip -9 -c "$f" | wc -c)
  printf '  %6d B gz  %s\n' "$n" "${f#"$OUT"/}"
  total=$((total + n))
done < <(find "$OUT" -type f \( -name '*.wasm' -o -name '*.js' \) | sort)
printf 'wasm + JS glue: %d bytes gzipped (%.1f KB; limit %d KB)\n' "$total" "$(awk "BEGIN { print $total / 1024 }")" $((LIMIT_BYTES / 1024))
if [ "$total" -gt "$LIMIT_BYTES" ]; then
  echo "FAIL: the wasm build is over its size budget" >&2
  exit 1
fi
