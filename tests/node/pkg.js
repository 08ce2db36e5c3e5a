// What the tests run against: the repository's npm/ sources, or (pack test)
// the installed package named by SNOWMINT_PACKAGE, exactly as a user imports it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// A lease directory of this test file's own (its children inherit it): the
// files of a run may execute side by side (node --test runs them in parallel
// on more cores), and explicit worker IDs are locked per host, so two files
// on `workerId: 1` would refuse each other (ERR_WORKER_ID_IN_USE), as two
// processes of an app should. Tests of leases across processes set their own.
if (!process.env.SNOWMINT_LEASE_DIR) {
  const leaseRoot = mkdtempSync(path.join(tmpdir(), 'snowmint-test-leases-'));
  process.env.SNOWMINT_LEASE_DIR = path.join(leaseRoot, 'leases');
  process.once('exit', () => rmSync(leaseRoot, { recursive: true, force: true }));
}

export const PACKAGE = process.env.SNOWMINT_PACKAGE ?? new URL('../../npm/entries/node.js', import.meta.url).href;
export const CLI = process.env.SNOWMINT_CLI ?? fileURLToPath(new URL('../../npm/bin/snowmint.js', import.meta.url));

export const sm = await import(PACKAGE);

/** The directory of the entry under test (entries/ of the package copy: the repository's, a copy, or the installed one). */
export const ENTRIES = new URL('.', import.meta.resolve(PACKAGE));
/** The package copy's sources (src/). */
export const SRC = new URL('../src/', ENTRIES);

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
