#!/usr/bin/env bash
# The wasm build: rustc -> wasm-opt -Oz (npm binaryen) into npm/wasm/, each
# module inlined in a JS file (so any bundler, static server or worker loads
# it with no configuration and no fetch). Then the ID inspector page
# (inspector/dist/). Numbered before 20-node: the Node entry's CommonJS
# bundle includes the wasm fallback.
source "$(dirname "$0")/../lib.sh"
OUT="$ROOT/npm/wasm"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
cd "$ROOT"
rm -rf "$OUT" && mkdir -p "$OUT"
# The full module (wasm/): parsing, decoding, conversions, layouts. Raw
# exports over buffers, as the minting modules have: no wasm-bindgen, so no
# glue to ship (npm/src/wasm-backend.js reads the buffers). The two
# globals rustc exports are for no one.
cargo build --profile wasm-release --target wasm32-unknown-unknown -p snowmint-wasm
"$ROOT/node_modules/.bin/wasm-opt" -Oz --converge --remove-exports --pass-arg='remove-exports@__*' --strip-debug --strip-producers --strip-target-features \
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
  -o "$OUT/snowmint_bg.wasm" "$TARGET_DIR/wasm32-unknown-unknown/wasm-release/snowmint_wasm.wasm"
embed=("$OUT/snowmint_bg.wasm" "$OUT/snowmint_bg.js")
# The minting modules (wasm/mint/), apart from the full module above, so a
# page that imports only ulid() downloads no parser, decoder or message:
# one per kind. Measured on esbuild pages (gzip): a ULID page 4.1 KB and a
# page of all seven kinds 8.6 KB, where two modules (ULID, v7, v4 | the
# rest) gave 5.2 and about 7.8 KB, and one of all seven about 6.3 KB for
# either: their common code gzips as one in a bundle, as they share one key
# (wasm/embed.mjs).
# Raw exports, no glue; the two globals rustc exports are for no one.
# The Snowflake module (configure, nextId, Snowflake, TestClock) is built for
# size ("z"): its per-ID path is JavaScript's buffer, not wasm. So are the
# name-based one (uuidv3, uuidv5): a hash per call, no batches.
declare -A MINT_MODULES=([ulid]=ulid [uuidv7]=uuidv7 [uuidv4]=uuidv4 [uuidv1]=uuidv1 [uuidv6]=uuidv6 [ksuid]=ksuid [objectid]=objectid [typeid]=typeid [snowflake]=snowflake [names]=names)
declare -A MINT_OPT=([snowflake]=z [names]=z)
for name in "${!MINT_MODULES[@]}"; do
  opt=()
  if [ -n "${MINT_OPT[$name]:-}" ]; then
    opt=(--config "profile.wasm-release.package.snowmint-wasm-mint.opt-level=\"${MINT_OPT[$name]}\""
      --config "profile.wasm-release.package.snowmint.opt-level=\"${MINT_OPT[$name]}\"")
  fi
  cargo build -q --profile wasm-release --target wasm32-unknown-unknown -p snowmint-wasm-mint --features "${MINT_MODULES[$name]}" "${opt[@]}"
  "$ROOT/node_modules/.bin/wasm-opt" -Oz --converge --remove-exports --pass-arg='remove-exports@__*' --strip-debug --strip-producers --strip-target-features \
    --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    -o "$OUT/mint-$name.wasm" "$TARGET_DIR/wasm32-unknown-unknown/wasm-release/snowmint_wasm_mint.wasm"
  printf '  npm/wasm/mint-%s.js: minting module (%s) %d bytes\n' "$name" "${MINT_MODULES[$name]}" "$(wc -c <"$OUT/mint-$name.wasm")"
  embed+=("$OUT/mint-$name.wasm" "$OUT/mint-$name.js")
done
# One key for all, the full module's too (wasm/embed.mjs says why): a page of
# everything gzips them as one, 57.4 -> 56.9 KB (brotli 48.1 -> 44.9 KB)
# against a key of the full module's own, esbuild.
node "$ROOT/wasm/embed.mjs" "${embed[@]}"
# The core's names and defaults (core/src/binding.rs), written at build time:
# the wasm module then carries no code to write them.
printf 'export default %s;\n' "$(cargo run -q --example constants -p snowmint)" >"$OUT/constants.js"
# The ID inspector: one classic script beside its page, so it opens from disk.
rm -rf inspector/dist && mkdir -p inspector/dist
"$ROOT/node_modules/.bin/esbuild" inspector/main.js --bundle --format=iife --minify --log-level=warning \
  --outfile=inspector/dist/inspector.js
cp inspector/index.html inspector/dist/

# The module ships as a file too: the workerd entry imports it as a compiled
# module (npm/src/wasm-module.js), as workerd compiles no code from bytes.
printf '  npm/wasm/: full module %d bytes; size gates: scripts/test.d/95-wasm-size.sh\n' "$(wc -c <"$OUT/snowmint_bg.wasm")"
