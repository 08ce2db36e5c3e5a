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
# The licence texts live at the repository root; npm ships LICENSE* files of the package root.
cp LICENSE-MIT LICENSE-APACHE npm/
rm -rf npm/dist
cjs() { node npm/build/cjs.mjs "$@"; }
# The root, snowmint/lease, snowmint/sequence and snowmint/wasm share one bundle, so that require('snowmint'),
# require('snowmint/lease') and require('snowmint/sequence') share one copy of every module: the error classes
# (instanceof across the two), the addon, the process's lease state. snowmint/wasm is there for require()
# (of the ES module, that works only from Node 20.19 and 22.12 on).
cjs npm/build/cjs-shared.js npm/dist/shared.cjs
# Each names its exports in the form Node's CommonJS lexer (cjs-module-lexer)
# reads, as esbuild's own bundles do, so that an ES module importing the
# CommonJS entry (`import { nextId } from` it: a bundler's or a tool's choice,
# TypeScript's node16 CommonJS output) gets the named exports, not only `default`.
node - <<'JS'
const { writeFileSync } = require('node:fs');
const shared = require('./npm/dist/shared.cjs');
for (const part of ['root', 'lease', 'sequence', 'wasm']) {
  const names = Object.keys(shared[part]).filter((n) => n !== 'default');
  const bad = names.filter((n) => !/^[A-Za-z_$][\w$]*$/.test(n));
  if (bad.length) throw new Error(`${part}: names the lexer hint cannot list: ${bad}`);
  const file = part === 'root' ? 'index' : part;
  writeFileSync(`npm/dist/${file}.cjs`, `'use strict';
const ${part} = require('./shared.cjs').${part};
module.exports = ${part};
// For Node's CommonJS lexer: the names an ES module may import from this file.
0 && (module.exports = { ${names.join(', ')} });
`);
  console.log(`  npm/dist/${file}.cjs: ${names.length} named exports`);
}
JS
# snowmint/json stands alone (no addon, no other module).
cjs npm/src/json.js npm/dist/json.cjs
# snowmint/sqlite too: it throws where no addon loaded, which the shared
# bundle must not. It requires the same addon file, which Node loads once.
cjs npm/src/sqlite.js npm/dist/sqlite.cjs
# Their declarations (the `types` of each `require` condition): a .d.cts cannot
# import the .d.ts of an ES module, so these are the ESM declarations with
# their relative imports pointed at the CommonJS files beside them.
sed "s#import('./src/lease/index.js')#import('./lease.cjs')#g" npm/index.d.ts >npm/dist/index.d.cts
sed "s#from '../../index.js'#from './index.cjs'#g" npm/src/lease/index.d.ts >npm/dist/lease.d.cts
sed "s#from '../../index.js'#from './index.cjs'#g" npm/src/sequence/index.d.ts >npm/dist/sequence.d.cts
cp npm/src/json.d.ts npm/dist/json.d.cts
cp npm/src/sqlite.d.ts npm/dist/sqlite.d.cts
if grep -nE "(from |import\()'\.[^']*'" npm/dist/*.d.cts | grep -v "\.cjs'"; then
  echo "a CommonJS declaration above still imports an ES module's declarations" >&2
  exit 1
fi
ls npm/dist
