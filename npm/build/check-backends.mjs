// Type-checks both bindings against the one contract, npm/src/backend.d.ts:
// - the napi addon, as host-node.js makes it a backend ({ ...addon, name }),
//   by the declarations napi-rs derives from node/src (napi-derive writes
//   them while the crate compiles with NAPI_TYPE_DEF_TMP_FOLDER set;
//   @napi-rs/cli's generateTypeDef turns them into a .d.ts);
// - the wasm backend that npm/src/wasm-backend.js builds over the full
//   module's raw exports (its JSDoc types).
// A function renamed, dropped or retyped in either binding fails here.
// Usage: node npm/build/check-backends.mjs (after scripts/build.d/15-wasm.sh)
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTypeDef } from '@napi-rs/cli';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TARGET = path.join(process.env.CARGO_TARGET_DIR ?? path.join(ROOT, 'target'), 'backend-types');
const DEFS = path.join(TARGET, 'defs');
rmSync(DEFS, { recursive: true, force: true });
mkdirSync(DEFS, { recursive: true });
// A target tree of its own, the binding's crate cleaned: napi-derive writes
// the declarations as it expands the macros, so they must run again.
const cargo = (args) => execFileSync('cargo', [...args, '-q', '-p', 'snowmint-node', '--target-dir', TARGET], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NAPI_TYPE_DEF_TMP_FOLDER: DEFS } });
cargo(['clean']);
cargo(['check']);
const rel = (p) => `./${path.relative(TARGET, p).split(path.sep).join('/')}`;
// napi-rs names typed-array views by their Rust types; the addon's
// `ts_type`s name the contract's types.
const slices = ['Uint8', 'Int32', 'Float64', 'BigUint64'].map((t) => `type ${t}ArraySlice = ${t}Array;\n`);
const contract = `import type * as Contract from '${rel(path.join(ROOT, 'npm/src/backend.js'))}';\n`;
const { dts } = await generateTypeDef({ typeDefDir: DEFS, cwd: ROOT, dtsHeader: slices.join('') + contract });
writeFileSync(path.join(TARGET, 'napi.d.ts'), dts);

writeFileSync(
  path.join(TARGET, 'check.ts'),
  `import type { Backend } from '${rel(path.join(ROOT, 'npm/src/backend.js'))}';
import type * as Addon from './napi.js';
import { wasmBackend } from '${rel(path.join(ROOT, 'npm/src/wasm-backend.js'))}';
import { MINTERS, typeidMinter } from '${rel(path.join(ROOT, 'npm/src/web/minters.js'))}';
import { uuidv3, uuidv5 } from '${rel(path.join(ROOT, 'npm/src/web/names.js'))}';
import { snowflakeBackend } from '${rel(path.join(ROOT, 'npm/src/web/snowflake.js'))}';

export const native: Backend = { ...({} as typeof Addon), name: 'native' };
export const wasm: Backend = wasmBackend(undefined, { minters: MINTERS, typeid: typeidMinter, snowflakes: snowflakeBackend(), names: { uuidv3, uuidv5 } });
// The Snowflake module's part: what the browser's Snowflake API (api/snowflakes.js) calls.
export const snowflakes: Pick<Backend, 'name' | 'constants' | 'nameIndex' | 'layoutOf' | 'snowflakeNew' | 'defaultInit' | 'defaultConfigure' | 'defaultHandle' | 'snowflakeAt' | 'parseSnowflake' | 'testClockNew'> = snowflakeBackend();
`,
);
execFileSync(
  path.join(ROOT, 'node_modules/.bin/tsc'),
  ['--noEmit', '--strict', '--allowJs', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck', path.join(TARGET, 'check.ts')],
  { cwd: ROOT, stdio: 'inherit' },
);
console.log('  backends: the napi addon and the wasm backend type-check against npm/src/backend.d.ts');
