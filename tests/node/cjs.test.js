// The CommonJS entries: require('snowmint'), require('snowmint/lease') and
// require('snowmint/json'). The root and the lease entry share one copy of
// every module, so errors thrown by a lease are instances of the root's
// classes and a lease from one works with a generator from the other.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ENTRIES, PACKAGE, SRC, sm } from './pkg.js';

const require = createRequire(import.meta.url);
/** The CommonJS entry `sub` ('', '/lease', '/json') of the package under test, by name when it is installed. */
const load = (sub) => require(PACKAGE === 'snowmint' ? `snowmint${sub}` : fileURLToPath(new URL(`../dist/${sub.slice(1) || 'index'}.cjs`, SRC)));

test("require('snowmint/lease') works, and its errors are the root entry's classes", { skip: sm.backendName !== 'native' && 'lock-file leases need the native addon' }, (t) => {
  const root = load('');
  const lease = load('/lease');
  assert.equal(typeof lease.localLease, 'function');
  assert.equal(lease.LeaseError, root.LeaseError);
  const dir = mkdtempSync(path.join(tmpdir(), 'snowmint-cjs-'));
  const held = lease.localLease({ dir, workerIds: { min: 5, max: 5 } });
  t.after(() => {
    held.release();
    rmSync(dir, { recursive: true, force: true });
  });
  assert.ok(held instanceof lease.Lease);
  // A lease from the CommonJS lease entry drives a generator of the CommonJS root.
  const g = new root.Snowflake({ lease: held });
  assert.equal(g.decode(g.next()).workerId, 5);
  assert.throws(
    () => lease.localLease({ dir, workerIds: { min: 5, max: 5 } }),
    (e) => e instanceof root.LeaseError && e instanceof root.SnowmintError && e.code === 'ERR_LEASE_UNAVAILABLE',
  );
  assert.throws(
    () => lease.localLease({ dir, workerIds: { min: 3, max: 1 } }),
    (e) => e instanceof root.ConfigError && e.code === 'ERR_INVALID_OPTION',
  );
});

test("require('snowmint') and require('snowmint/json')", () => {
  const root = load('');
  const json = load('/json');
  assert.equal(typeof root.nextId(), 'bigint');
  assert.throws(
    () => root.decode('x'),
    (e) => e instanceof root.InvalidIdError && e.code === 'ERR_PARSE',
  );
  assert.equal(json.stringify({ id: 12345678901234567890n }), '{"id":"12345678901234567890"}');
});

test("the dual-package hazard: an error of require('snowmint') is an instance of import('snowmint')'s class of its name, and of no other", async () => {
  const cjs = load('');
  const esm = await import(new URL('node.js', ENTRIES).href);
  assert.notEqual(cjs.InvalidIdError, esm.InvalidIdError, 'two copies, as an app that mixes require and import gets');
  let fromCjs;
  try {
    cjs.decode('x');
  } catch (e) {
    fromCjs = e;
  }
  assert.ok(fromCjs instanceof esm.InvalidIdError && fromCjs instanceof esm.SnowmintError);
  assert.ok(!(fromCjs instanceof esm.ConfigError) && !(fromCjs instanceof esm.ClockError));
  let fromEsm;
  try {
    esm.configure({ workerId: -1 });
  } catch (e) {
    fromEsm = e;
  }
  assert.ok(fromEsm instanceof cjs.ConfigError && !(fromEsm instanceof cjs.InvalidIdError));
  // Not every Error with a code: only snowmint's.
  assert.ok(!(Object.assign(new Error('x'), { code: 'ERR_PARSE', name: 'InvalidIdError' }) instanceof esm.InvalidIdError));
});
