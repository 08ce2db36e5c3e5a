#!/usr/bin/env bash
# The browser build's size budget: what a page downloads for snowmint's wasm
# (the inlined module, wasm-bindgen's glue, the backend adapter), each file
# gzipped, at most 38 KB (docs/browser.md, Size: what each KB buys). Last of
# the suites, so a miss hides no other result.
source "$(dirname "$0")/../lib.sh"
LIMIT_BYTES=$((38 * 1024))
total=0
for f in npm/wasm/snowmint_bg.js npm/wasm/snowmint.js npm/wasm/constants.js npm/src/wasm-backend.js; do
  n=$(gzip -9 -c "$ROOT/$f" | wc -c)
  printf '  %6d B gz  %s\n' "$n" "$f"
  total=$((total + n))
done
printf 'wasm + JS glue: %d bytes gzipped (%s KB; limit %d KB)\n' "$total" \
  "$(awk "BEGIN { printf \"%.1f\", $total / 1024 }")" $((LIMIT_BYTES / 1024))
if [ "$total" -gt "$LIMIT_BYTES" ]; then
  echo "FAIL: the wasm build is over its size budget" >&2
  exit 1
fi
