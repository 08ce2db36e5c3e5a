// The binding protocol's names, defined once in the core (core/src/binding.rs,
// written into npm/index.d.ts and npm/src/errors.js by
// `cargo run -p snowmint --example protocol`, whose --check the test command
// runs): no error code raised anywhere lacks its public class, each class
// names itself even minified, and the types list what the core defines.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { CLASS_NAME_OF_CODE, CLASS_NAMES, makeError } from '../../npm/src/errors.js';
import { sm } from './pkg.js';

const ROOT = new URL('../../', import.meta.url);

/** Every file under `dir` (relative to the repository) ending in one of `exts`. */
function files(dir, exts) {
  return readdirSync(new URL(dir, ROOT), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && exts.some((x) => e.name.endsWith(x)))
    .map((e) => new URL(`${e.parentPath ?? e.path}/${e.name}`, 'file://'));
}

test('every error code raised by the core, the bindings, the lease crate and the JS layer has its class in the generated table', () => {
  const sources = [
    ...files('core/src/', ['.rs']),
    ...files('lease/src/', ['.rs']),
    ...files('node/src/', ['.rs']),
    ...files('wasm/src/', ['.rs']),
    ...files('npm/src/', ['.js']),
    ...files('npm/bin/', ['.js']),
  ];
  const seen = new Set();
  for (const file of sources) for (const [code] of readFileSync(file, 'utf8').matchAll(/\bERR_[A-Z][A-Z_]*[A-Z]\b/g)) seen.add(code);
  assert.ok(seen.size > 25, `only ${seen.size} codes found`);
  const missing = [...seen].filter((code) => !Object.hasOwn(CLASS_NAME_OF_CODE, code));
  assert.deepEqual(missing, [], 'codes raised without an entry in core/src/binding.rs ERROR_CODES');
});

test('each code makes an error of its class, whose name is the class name (also in the public API)', () => {
  for (const [code, name] of Object.entries(CLASS_NAME_OF_CODE)) {
    const e = makeError(code, 'm');
    assert.equal(e.name, name, code);
    assert.ok(e instanceof sm[name], `${code}: not an instance of the exported ${name}`);
    assert.ok(e instanceof sm.SnowmintError, code);
  }
  assert.deepEqual(
    CLASS_NAMES.filter((n) => typeof sm[n] !== 'function'),
    [],
  );
});

test('minified (esbuild --minify), every error class still says its own name', () => {
  const code = `import { makeError, ${CLASS_NAMES.join(', ')} } from ${JSON.stringify(new URL('npm/src/errors.js', ROOT).pathname)};
    globalThis.out = [${CLASS_NAMES.map((n) => `new ${n}('E', 'm').name`).join(', ')}, makeError('ERR_PARSE', 'm').name];`;
  const bundle = execFileSync(new URL('node_modules/.bin/esbuild', ROOT).pathname, ['--bundle', '--minify', '--format=esm', '--log-level=warning'], { input: code, encoding: 'utf8' });
  assert.doesNotMatch(bundle, /class ConfigError/, 'the bundle was not minified');
  const out = new Function(`${bundle.replace(/export\s*\{[^}]*\};?\s*$/, '')}; return globalThis.out;`)();
  assert.deepEqual(out, [...CLASS_NAMES, 'InvalidIdError']);
});

test("the generated unions of index.d.ts list the backend's presets and kinds, in its order", () => {
  const dts = readFileSync(new URL('npm/index.d.ts', ROOT), 'utf8');
  const union = (name) => [...new RegExp(`export type ${name} =\\s*([^;]+);`).exec(dts)[1].matchAll(/'([^']+)'/g)].map((m) => m[1]);
  assert.deepEqual(union('Preset'), [...sm.constants.presets]);
  assert.deepEqual(union('IdKind'), [...sm.constants.kinds]);
  assert.deepEqual(union('ErrorCode'), Object.keys(CLASS_NAME_OF_CODE));
});
