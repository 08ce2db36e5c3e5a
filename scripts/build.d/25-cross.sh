#!/usr/bin/env bash
# The platform packages (npm/platforms/<name>/): the Node addon
# cross-compiled for each with cargo-zigbuild (Zig as C compiler and linker;
# scripts/setup.d/70-cross.sh), into npm/platforms/<name>/snowmint.<name>.node,
# with the licence texts. linux-x64-gnu is built this way too (not taken from
# 20-node.sh's build): linked against glibc 2.17, it loads on older systems
# than the one that built it. Locally only this machine's package is built
# (about a minute instead of seven); SNOWMINT_CROSS=all, which CI and the bare
# test command set (the platform suites test every package), builds them all.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/platforms.sh"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
cd "$ROOT"
if [ "${SNOWMINT_CROSS:-}" = all ] || [ "${CI:-}" = true ]; then
  build=("${PLATFORMS[@]}")
else
  host=$(rustc -vV | sed -n 's/^host: //p')
  build=()
  for p in "${PLATFORMS[@]}"; do [ "${RUST_TARGET[$p]%.2.17}" = "$host" ] && build+=("$p"); done
  echo "  this machine's platform package only (${build[*]:-none}); SNOWMINT_CROSS=all builds all ${#PLATFORMS[@]}"
fi
# No path of the machine that built them: the sources' paths that panic
# locations carry are remapped (the registry's to /cargo/registry/src, the
# repository's to /snowmint; the standard library's are /rustc/<commit>
# already), and a macOS addon's install name is @rpath/<file> rather than
# the absolute path of the target directory (the linker's default); a
# Windows addon's header time stamp is zeroed below (Zig's linker takes no
# --no-insert-timestamp).
# 45-platforms.sh checks both.
registry_src="${CARGO_HOME:-$HOME/.cargo}/registry/src"
remap="--remap-path-prefix=$registry_src=/cargo/registry/src --remap-path-prefix=$ROOT=/snowmint"
for p in "${build[@]}"; do
  triple=${RUST_TARGET[$p]%.2.17}
  flags=$remap
  # A shared library cannot have musl's static C runtime: link libc.so.
  [[ $triple == *-musl ]] && flags="$flags -C target-feature=-crt-static"
  [[ $triple == *-darwin ]] && flags="$flags -C link-arg=-Wl,-install_name,@rpath/snowmint.$p.node"
  var="CARGO_TARGET_$(tr 'a-z-' 'A-Z_' <<<"$triple")_RUSTFLAGS"
  export "$var=$flags"
done
# The oldest macOS each Node build that runs there supports (Node 20: 10.15 on Intel).
export MACOSX_DEPLOYMENT_TARGET_x86_64_apple_darwin=10.15 MACOSX_DEPLOYMENT_TARGET_aarch64_apple_darwin=11.0
# Windows (GNU toolchain): the addon finds N-API in node.exe when it loads (napi's
# dyn-symbols, node/Cargo.toml) and links nothing of Node's, but napi's build
# script insists on a libnode.dll to link against: give it an empty import library.
stub="$TARGET_DIR/libnode-stub"
if [ ! -f "$stub/libnode.a" ]; then
  mkdir -p "$stub"
  printf 'LIBRARY node.exe\nEXPORTS\n' >"$stub/node.def"
  zig dlltool -d "$stub/node.def" -l "$stub/libnode.a" -m i386:x86-64
  cp "$stub/libnode.a" "$stub/libnode.dll"
fi
export LIBNODE_PATH="$stub"

for p in "${build[@]}"; do
  target=${RUST_TARGET[$p]}
  triple=${target%.2.17}
  case "$triple" in
    *-darwin) lib=libsnowmint_node.dylib ;;
    *-windows-*) lib=snowmint_node.dll ;;
    *) lib=libsnowmint_node.so ;;
  esac
  deployment_var="MACOSX_DEPLOYMENT_TARGET_${triple//-/_}"
  MACOSX_DEPLOYMENT_TARGET="${!deployment_var:-}" cargo zigbuild --release -q -p snowmint-node --target "$target"
  out="npm/platforms/$p/snowmint.$p.node"
  # Copy, then rename into place (a Node process may have the old file open).
  cp "$TARGET_DIR/$triple/release/$lib" "$out.tmp"
  if [[ $triple == *-windows-* ]]; then
    # The PE header's TimeDateStamp (the link's time; nothing reads it in a DLL without bound imports): 0.
    node -e 'const fs = require("node:fs"); const f = process.argv[1]; const b = fs.readFileSync(f); const pe = b.readUInt32LE(0x3c);
      if (b.toString("latin1", pe, pe + 4) !== "PE\0\0") throw new Error(`${f}: no PE header`); b.writeUInt32LE(0, pe + 8); fs.writeFileSync(f, b);' "$out.tmp"
  fi
  mv -f "$out.tmp" "$out"
  cp LICENSE-MIT LICENSE-APACHE "npm/platforms/$p/"
  printf '  %-60s %7d bytes\n' "$out" "$(wc -c <"$out")"
done
