#!/usr/bin/env bash
# What a page pays for snowmint. First the full wasm module's files (the
# inlined module, the core's constants, the backend adapter and the words of
# its errors), each gzipped, at most 24 KB (23.4 KB with raw exports, no
# wasm-bindgen glue; 26.7 KB before, when its errors crossed as numbers; 38
# KB before that). Then pages built by esbuild and Vite (tests/size/): each
# within its gzip budget, each minting and decoding in Chromium and Firefox
# ESR against the shared vectors. Last of the suites, so a miss hides no
# other result.
source "$(dirname "$0")/../lib.sh"
LIMIT_BYTES=$((24 * 1024))
total=0
for f in npm/wasm/snowmint_bg.js npm/wasm/constants.js npm/src/wasm-backend.js npm/src/wasm-words.js; do
  n=$(gzip -9 -c "$ROOT/$f" | wc -c)
  printf '  %6d B gz  %s\n' "$n" "$f"
  total=$((total + n))
done
printf 'full module + its JavaScript: %d bytes gzipped (%s KB; limit %d KB)\n' "$total" \
  "$(awk "BEGIN { printf \"%.1f\", $total / 1024 }")" $((LIMIT_BYTES / 1024))
if [ "$total" -gt "$LIMIT_BYTES" ]; then
  echo "FAIL: the full wasm module is over its size budget" >&2
  exit 1
fi

say "pages built by esbuild and Vite: budgets, and a run in Chromium and Firefox ESR"
cd "$ROOT"
node --test tests/size/sizes.test.js
