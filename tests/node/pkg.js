// What the tests run against: the repository's npm/ sources, or (pack test)
// the installed package named by SNOWMINT_PACKAGE, exactly as a user imports it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const PACKAGE = process.env.SNOWMINT_PACKAGE ?? new URL('../../npm/src/node.js', import.meta.url).href;
export const CLI = process.env.SNOWMINT_CLI ?? fileURLToPath(new URL('../../npm/bin/snowmint.js', import.meta.url));

export const sm = await import(PACKAGE);

/** The directory of the entry under test (src/ of the package copy: the repository's, a copy, or the installed one). */
export const SRC = new URL('.', import.meta.resolve(PACKAGE));

/**
 * Whether the entry under test is `snowmint/wasm` (the browser build), whose
 * default generator has no zero-config worker ID: tests that mean "the
 * default generator" configure one there, as an app must.
 */
export const WASM_ENTRY = /(^snowmint\/wasm|\/browser\.js)$/.test(PACKAGE);

/** A shared vector file from tests/vectors/. */
export function vectors(name) {
  return JSON.parse(readFileSync(new URL(`../vectors/${name}`, import.meta.url), 'utf8'));
}

/** Asserts that `fn` throws a snowmint error of `Class` with `code`. */
export function throwsCode(assert, fn, Class, code, message) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof Class, `expected ${Class.name}, got ${e?.constructor.name}: ${e?.message}`);
    assert.ok(e instanceof sm.SnowmintError && e instanceof Error);
    assert.equal(e.code, code, e.message);
    if (message) assert.match(e.message, message);
    return true;
  });
}
