// What the tests run against: the repository's npm/ sources, or (pack test)
// the installed package named by SNOWMINT_PACKAGE, exactly as a user imports it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const PACKAGE = process.env.SNOWMINT_PACKAGE ?? new URL('../../npm/src/node.js', import.meta.url).href;
export const CLI = process.env.SNOWMINT_CLI ?? fileURLToPath(new URL('../../npm/bin/snowmint.js', import.meta.url));

export const sm = await import(PACKAGE);

/** A shared vector file from tests/vectors/. */
export function vectors(name) {
  return JSON.parse(readFileSync(new URL(`../vectors/${name}`, import.meta.url), 'utf8'));
}

/** Asserts that `fn` throws a snowmint error of `Class` with `code`. */
export function throwsCode(assert, fn, Class, code, message) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof Class, `expected ${Class.name}, got ${e && e.constructor.name}: ${e && e.message}`);
    assert.ok(e instanceof sm.SnowmintError && e instanceof Error);
    assert.equal(e.code, code, e.message);
    if (message) assert.match(e.message, message);
    return true;
  });
}
