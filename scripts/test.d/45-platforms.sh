#!/usr/bin/env bash
# snowmint on every platform it ships a native binary for, installed as a
# user gets it. `npm pack` of the main package and of each platform package
# (npm/platforms/), with their sizes (the main package at most 250 KB), and a
# check of each binary: format, architecture, the exported napi registration,
# the C library it links (glibc at most 2.17) or the oldest macOS it asks for,
# no link to a libnode.dll on Windows. Then, per Linux platform, a fresh
# consumer with the tarballs installed offline, and the Node suites
# (vectors, generate, errors, worker_threads, run expiry by the kernel timer,
# the zero-config node:cluster test) on that platform's Node builds
# (scripts/setup.d/72-node-builds.sh): linux-x64 glibc on Node 20, 22, 24 and
# 26; linux-x64 musl on 20, 22 and 24 (PyPI has no musl Node 26);
# linux-arm64 glibc and musl on Node 24, under qemu-user-static (musl: a
# focused subset, without the expiry and node:cluster tests that glibc runs
# under the same emulator). Also: Node 18 is refused at import with a clear
# message, a glibc Node and a musl Node beside both packages each load their
# own, and without a platform package the wasm fallback runs and says why.
# darwin and win32 cannot run here: .github/workflows/platforms.yml runs the
# same suites on real runners.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/platforms.sh"
source "$ROOT/scripts/platform-suites.sh"
# Inside the repository (tmp/ is git-ignored): see scripts/platform-suites.sh.
mkdir -p "$ROOT/tmp"
tmp=$(mktemp -d -p "$ROOT/tmp")
trap 'rm -rf "$tmp"' EXIT
pkgs="$tmp/pkgs"
mkdir "$pkgs"
say "npm pack: snowmint and its platform packages (packed / installed size)"
MAX_MAIN_PACKED=$((250 * 1024))
for dir in npm npm/platforms/*/; do
  (cd "$ROOT/$dir" && npm pack --silent --json --pack-destination "$pkgs") |
    node -e 'for (const p of JSON.parse(require("fs").readFileSync(0, "utf8")))
      console.log(`${p.name} ${p.size} ${p.unpackedSize} ${p.files.map((f) => f.path).join(",")}`)' >>"$tmp/sizes"
done
while read -r name packed unpacked _; do
  printf '  %-28s %6.1f KB packed, %6.1f KB installed\n' "$name" "$(awk "BEGIN { print $packed / 1024 }")" "$(awk "BEGIN { print $unpacked / 1024 }")"
done <"$tmp/sizes"
main_packed=$(awk '$1 == "snowmint" { print $2 }' "$tmp/sizes")
[ "$main_packed" -le "$MAX_MAIN_PACKED" ] || fail "snowmint packs to $main_packed bytes, over $MAX_MAIN_PACKED"
grep '^snowmint ' "$tmp/sizes" | grep -q '\.node' && fail "the main package ships a native binary: they belong in the platform packages"

say "the platform packages: manifests, and each binary's format, architecture and exports"
node - "$ROOT/npm" "${PLATFORMS[@]}" <<'JS'
// Each platform package is what the loader (npm/src/addon.js) looks for, and
// the main package lists exactly these, at its own version.
const { readFileSync } = require('node:fs');
const [npm, ...platforms] = process.argv.slice(2);
const main = JSON.parse(readFileSync(`${npm}/package.json`, 'utf8'));
const want = Object.fromEntries(platforms.map((p) => [`snowmint-${p}`, main.version]));
const problems = [];
if (JSON.stringify(main.optionalDependencies) !== JSON.stringify(want)) problems.push(`snowmint's optionalDependencies are ${JSON.stringify(main.optionalDependencies)}, want ${JSON.stringify(want)}`);
for (const p of platforms) {
  const m = JSON.parse(readFileSync(`${npm}/platforms/${p}/package.json`, 'utf8'));
  const [os, cpu, libc] = p.split('-');
  const expect = { name: `snowmint-${p}`, version: main.version, os: [os], cpu: [cpu], libc: libc && [libc === 'gnu' ? 'glibc' : 'musl'], main: `snowmint.${p}.node`, license: main.license };
  for (const [k, v] of Object.entries(expect)) if (JSON.stringify(m[k]) !== JSON.stringify(v)) problems.push(`${p}/package.json: ${k} is ${JSON.stringify(m[k])}, want ${JSON.stringify(v)}`);
  if (!m.files.includes(m.main)) problems.push(`${p}/package.json: files leaves out ${m.main}`);
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`  ${platforms.length} platform packages match the loader and snowmint's optionalDependencies`);
JS
readobj() { "$LLVM_BIN/llvm-readobj" "$@"; }
nm() { "$LLVM_BIN/llvm-nm" "$@"; }
for p in "${PLATFORMS[@]}"; do
  tar -xzf "$pkgs/snowmint-$p-"*.tgz -C "$tmp" && mv "$tmp/package" "$tmp/$p"
  f="$tmp/$p/snowmint.$p.node"
  [ -f "$f" ] || fail "snowmint-$p has no snowmint.$p.node"
  format=$(readobj --file-headers "$f" | sed -n 's/^Format: //p')
  case $p in
    linux-x64-*) want=elf64-x86-64 ;;
    linux-arm64-*) want=elf64-littleaarch64 ;;
    darwin-x64) want='Mach-O 64-bit x86-64' ;;
    darwin-arm64) want='Mach-O arm64' ;;
    win32-x64) want=COFF-x86-64 ;;
  esac
  [ "$format" = "$want" ] || fail "$p: format '$format', want '$want'"
  case $p in
    linux-*)
      exports=$(nm -D --defined-only "$f")
      libs=$(readobj --needed-libs "$f" | sed -n '/NeededLibraries/,/]/p')
      case $p in
        *-gnu)
          grep -q 'libc\.so\.6' <<<"$libs" || fail "$p does not link glibc: $libs"
          newest=$(nm -D "$f" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)
          [ "$(printf '%s\nGLIBC_2.17\n' "$newest" | sort -V | tail -n 1)" = GLIBC_2.17 ] || fail "$p needs $newest, over GLIBC_2.17"
          extra="glibc <= ${newest#GLIBC_}" ;;
        *-musl)
          grep -qw 'libc\.so' <<<"$libs" && ! grep -q 'libc\.so\.6' <<<"$libs" || fail "$p does not link musl's libc.so alone: $libs"
          extra="musl libc.so" ;;
      esac ;;
    darwin-*)
      exports=$(nm --extern-only --defined-only "$f")
      minos=$(readobj --macho-version-min "$f" | sed -n 's/^ *Version: //p')
      want=$([ "$p" = darwin-arm64 ] && echo 11.0 || echo 10.15)
      [ "$minos" = "$want" ] || fail "$p asks for macOS $minos, want $want"
      extra="macOS >= $minos"
      # Apple silicon runs no unsigned code: the linker must have signed it (ad hoc).
      if [ "$p" = darwin-arm64 ]; then
        "$LLVM_BIN/llvm-objdump" --macho --private-headers "$f" | grep -q 'cmd LC_CODE_SIGNATURE' || fail "$p has no code signature"
        extra="$extra, signed"
      fi ;;
    win32-*)
      exports=$(readobj --coff-exports "$f" | sed -n 's/^ *Name: //p')
      dlls=$(readobj --coff-imports "$f" | sed -n 's/^ *Name: \(.*\.dll\)$/\1/Ip' | sort -u | tr '\n' ' ')
      grep -qiE '(^| )(lib)?node(\.exe|\.dll)' <<<"$dlls" && fail "$p links Node by name ($dlls): it must find N-API in the host process"
      extra="imports $dlls" ;;
  esac
  grep -qE '(^| )_?napi_register_module_v1$' <<<"$exports" || fail "$p does not export napi_register_module_v1"
  # The addon is also the SQLite extension (node/src/sqlite.rs, docs/database.md#sqlite).
  grep -qE '(^| )_?sqlite3_snowmint_init$' <<<"$exports" || fail "$p does not export sqlite3_snowmint_init"
  # Nothing of the machine that built it (scripts/build.d/25-cross.sh remaps them).
  leaked=$(strings -n 6 "$f" | grep -F -e "$ROOT" -e "$HOME" -e "${CARGO_HOME:-$HOME/.cargo}" | head -n 3 || true)
  [ -z "$leaked" ] || fail "$p embeds paths of the machine that built it: $leaked"
  case $p in
    darwin-*)
      id=$("$LLVM_BIN/llvm-objdump" --macho --dylibs-used "$f" | sed -n '2s/^[[:space:]]*\([^ ]*\) .*/\1/p')
      [ "$id" = "@rpath/snowmint.$p.node" ] || fail "$p: install name '$id', want @rpath/snowmint.$p.node"
      extra="$extra, install name $id" ;;
  esac
  printf '  %-18s %s, exports napi_register_module_v1 and sqlite3_snowmint_init, %s\n' "$p" "$format" "$extra"
done

for p in linux-x64-gnu linux-x64-musl linux-arm64-gnu linux-arm64-musl; do app "$tmp/app-$p" "$p" "$pkgs"; done
for v in "${NODE_GNU_VERSIONS[@]}"; do suites "$(node_bin gnu x64 "$v")" "$tmp/app-linux-x64-gnu" linux-x64-gnu; done
for v in "${NODE_MUSL_VERSIONS[@]}"; do suites "$(node_bin musl x64 "$v")" "$tmp/app-linux-x64-musl" linux-x64-musl; done
# Under qemu-user the addon gets no expiry words (its timer or signal set-up
# fails there) and falls back to the clock check: expiry.test.js asks for words
# only where the platform is not emulated.
SNOWMINT_EMULATED=1 suites "$(node_bin gnu arm64 "$NODE_ARM64_GNU_VERSION")" "$tmp/app-linux-arm64-gnu" linux-arm64-gnu
SNOWMINT_EMULATED=1 suites "$(node_bin musl arm64 "$NODE_ARM64_MUSL_VERSION")" "$tmp/app-linux-arm64-musl" linux-arm64-musl focused

say "a glibc and a musl Node beside both linux-x64 packages each load their own"
both="$tmp/app-linux-x64-musl"
tar -xzf "$pkgs"/snowmint-linux-x64-gnu-*.tgz -C "$tmp" && mv "$tmp/package" "$both/node_modules/snowmint-linux-x64-gnu"
for runner in "gnu $(node_bin gnu x64 "${NODE_GNU_VERSIONS[-1]}")" "musl $(node_bin musl x64 "${NODE_MUSL_VERSIONS[-1]}")"; do
  libc=${runner%% *}
  got=$(loaded "${runner#* }" "$both")
  [ "$got" = "native linux-x64-$libc node_modules/snowmint-linux-x64-$libc/snowmint.linux-x64-$libc.node" ] || fail "a $libc Node loaded '$got'"
  echo "  $libc Node: $got"
done

say "Node $NODE_OLD_VERSION (past its end of life): the import fails and says why"
old=$(cd "$tmp/app-linux-x64-gnu" && "$(node_bin gnu x64 "$NODE_OLD_VERSION")" --input-type=module -e "import('snowmint').then(() => console.log('imported'), (e) => console.log(e.code, e.message))")
grep -q '^ERR_UNSUPPORTED_NODE snowmint needs Node.js 20 or later' <<<"$old" || fail "Node 18: $old"
echo "  $old"
old_cjs=$(cd "$tmp/app-linux-x64-gnu" && "$(node_bin gnu x64 "$NODE_OLD_VERSION")" -e "try { require('snowmint'); console.log('required'); } catch (e) { console.log(e.code); }")
[ "$old_cjs" = ERR_UNSUPPORTED_NODE ] || fail "Node 18, require('snowmint'): $old_cjs"

say "no platform package (another platform, --omit=optional): the wasm fallback, and why"
mkdir "$tmp/app-none"
printf '{ "name": "consumer", "private": true, "type": "module" }\n' >"$tmp/app-none/package.json"
(cd "$tmp/app-none" && npm install --offline --no-audit --no-fund --loglevel=error "$pkgs"/snowmint-0*.tgz)
got=$(loaded node "$tmp/app-none")
grep -q '^wasm linux-x64-gnu snowmint loaded no native binary for linux-x64-gnu, so it runs on its wasm build (tried ../native/snowmint.linux-x64-gnu.node: not installed; snowmint-linux-x64-gnu/snowmint.linux-x64-gnu.node: not installed)' <<<"$got" ||
  fail "without a platform package: $got"
echo "  $got"
mkdir "$tmp/app-none/tests" && cp -r "$ROOT/tests/node" "$ROOT/tests/vectors" "$tmp/app-none/tests/"
# Zero-config nextId() refuses there, naming what to set; worker threads never share SNOWMINT_WORKER_ID.
SNOWMINT_PACKAGE=snowmint run_tests "$tmp/app-none" node tests/node/default-worker.test.js
SNOWMINT_WORKER_ID=1 SNOWMINT_PACKAGE=snowmint run_tests "$tmp/app-none" node tests/node/vectors.test.js tests/node/generate.test.js tests/node/errors.test.js
