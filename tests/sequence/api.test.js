// snowmint/sequence's API on SQLite (a real file database): bad input,
// exhaustion at 2^63-1, a counter that goes back, close(), CommonJS, and
// the addon's state machine answering the shared vectors.

import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { sequence, sqliteStore, postgresStore, mysqlStore, redisStore, SequenceError } from '../../npm/src/sequence/index.js';
import { SnowmintError } from '../../npm/src/errors.js';
import { addon } from '../../npm/src/addon.js';
import { tempDir } from '../lease/servers.js';

const dir = tempDir('seq-api');
const db = new Database(join(dir, 'api.db'));
const store = sqliteStore(db);
after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const MAX = (1n << 63n) - 1n;
const code = (c) => (e) => {
  assert.ok(e instanceof SnowmintError, `${e?.constructor?.name}: ${e?.message}`);
  assert.equal(e.code, c, e.message);
  return true;
};

test('a store must be a store, and each store needs its driver', () => {
  for (const bad of [undefined, null, {}, { reserve() {} }, db, 'sqlite']) {
    assert.throws(() => sequence(bad, { name: 'x' }), code('ERR_SEQUENCE_STORE'));
  }
  assert.throws(() => sequence({ reserve() {} }, { name: 'x' }), /describe/);
  assert.throws(() => postgresStore({}), code('ERR_SEQUENCE_STORE'));
  assert.throws(() => postgresStore(db), code('ERR_SEQUENCE_STORE'));
  assert.throws(() => mysqlStore(null), code('ERR_SEQUENCE_STORE'));
  assert.throws(() => sqliteStore({ query() {} }), code('ERR_SEQUENCE_STORE'));
  assert.throws(() => redisStore({ get() {} }), code('ERR_SEQUENCE_STORE'));
  assert.throws(() => sqliteStore(db, { tabel: 'x' }), code('ERR_INVALID_OPTION'));
  assert.throws(() => postgresStore({ query() {} }, { mode: 'nextval' }), code('ERR_SEQUENCE_STORE'));
});

test('a store that answers with something else than a block is a typed error, and concurrent waiters share one block', async () => {
  const bad = sequence({ describe: 'a broken store', reserve: async () => ({ start: 5, size: 10 }) }, { name: 'broken' });
  await assert.rejects(bad.next(), (e) => code('ERR_SEQUENCE_STORE')(e) && /a broken store answered an object: reserve\(\) must resolve to/.test(e.message));
  const seq = sequence(store, { name: 'shared', blockSize: 100 });
  const ids = await Promise.all(Array.from({ length: 60 }, () => seq.next()));
  // 60 callers waited for the first block together: they got its first 60 IDs, no gap between them.
  assert.deepEqual(
    ids,
    Array.from({ length: 60 }, (_, i) => ids[0] + BigInt(i)),
  );
  // One request for the block, one prefetch once half of it was used.
  assert.equal(seq.stats().roundTrips, 2);
  await seq.close();
});

test('names and table names are identifiers: a hostile name never reaches SQL', () => {
  const hostile = 'orders"; DROP TABLE snowmint_sequences; --';
  for (const name of [hostile, '', '1st', 'a-b', 'a b', 'é', 'n'.repeat(64), "x' OR '1'='1"]) {
    assert.throws(() => sequence(store, { name }), code('ERR_SEQUENCE_NAME'));
    assert.throws(() => sqliteStore(db, { table: name }), code('ERR_SEQUENCE_NAME'));
    assert.throws(() => postgresStore({ query() {} }, { table: name }), code('ERR_SEQUENCE_NAME'));
  }
  assert.throws(() => sequence(store, { name: hostile }), /expected 1 to 63 ASCII letters, digits and '_'/);
  assert.throws(() => sequence(store, {}), code('ERR_INVALID_ARG_TYPE'));
  assert.throws(() => sequence(store, { name: 'x', nme: 'y' }), code('ERR_INVALID_OPTION'));
});

test('sizes, target and start out of range are typed errors that say what is allowed', () => {
  const bad = [
    [{ blockSize: 0 }, /blockSize = 0 is out of range: expected 1 to 4294967296/],
    [{ maxBlockSize: 2 ** 33 }, /maxBlockSize/],
    [{ minBlockSize: 100, maxBlockSize: 10 }, /minBlockSize <= blockSize <= maxBlockSize/],
    [{ blockSize: 5, minBlockSize: 10 }, /minBlockSize <= blockSize/],
    [{ targetBlockMs: 0 }, /targetBlockMs/],
    [{ start: MAX + 1n }, /start = 9223372036854775808 is out of range: expected 0 to 9223372036854775807/],
    [{ start: 1n << 70n }, /start = 18446744073709551615 is out of range/],
    [{ start: -1 }, /start must be 0 or more/],
    [{ blockSize: 1.5 }, /positive integer/],
    [{ timeoutMs: 0 }, /timeoutMs = 0 is out of range: expected 1 to 600000/],
  ];
  for (const [o, message] of bad) {
    assert.throws(() => sequence(store, { name: 'x', ...o }), code('ERR_SEQUENCE_OPTION'));
    assert.throws(() => sequence(store, { name: 'x', ...o }), message);
  }
  assert.throws(() => sequence(store, { name: 'x', blockSize: '10' }), code('ERR_INVALID_ARG_TYPE'));
  assert.throws(() => sequence(store, { name: 'x', start: '1' }), code('ERR_INVALID_ARG_TYPE'));
});

test('next(), nextSync(), nextBatch(): dense and increasing; nextSync() before a block is ERR_SEQUENCE_EMPTY', async () => {
  const seq = sequence(store, { name: 'orders', blockSize: 10, start: 100234 });
  assert.throws(() => seq.nextSync(), code('ERR_SEQUENCE_EMPTY'));
  assert.ok(seq.nextSync.length === 0);
  assert.equal(await seq.next(), 100234n);
  assert.equal(seq.nextSync(), 100235n);
  const batch = await seq.nextBatch(25);
  assert.ok(batch instanceof BigUint64Array);
  assert.deepEqual(
    [...batch],
    Array.from({ length: 25 }, (_, i) => 100236n + BigInt(i)),
  );
  await assert.rejects(seq.nextBatch(0), code('ERR_INVALID_COUNT'));
  await seq.close();
  await assert.rejects(seq.next(), code('ERR_SEQUENCE_CLOSED'));
  assert.throws(() => seq.nextSync(), code('ERR_SEQUENCE_CLOSED'));
  // A new sequence on the same name continues after every block reserved (the closed one's rest is a gap).
  const again = sequence(store, { name: 'orders', blockSize: 10 });
  assert.ok((await again.next()) >= 100234n + 30n);
  await again.close();
});

test('the last ID is 2^63-1; the next block is ERR_SEQUENCE_OVERFLOW, never a wrapped ID', async () => {
  const seq = sequence(store, { name: 'nearly_done', blockSize: 5, start: MAX - 9n });
  const ids = [];
  let err;
  for (let i = 0; i < 20 && !err; i++) {
    try {
      ids.push(await seq.next());
    } catch (e) {
      err = e;
    }
  }
  assert.deepEqual(
    ids,
    Array.from({ length: 10 }, (_, i) => MAX - 9n + BigInt(i)),
  );
  assert.ok(err instanceof SequenceError);
  assert.equal(err.code, 'ERR_SEQUENCE_OVERFLOW');
  assert.match(err.message, /would pass the largest ID 9223372036854775807/);
  await seq.close();
});

test('a counter that went back (row deleted) is refused: ERR_SEQUENCE_BACKWARDS, never a repeated ID', async () => {
  const seq = sequence(store, { name: 'reset', blockSize: 4 });
  const ids = [await seq.next()];
  db.prepare('DELETE FROM snowmint_sequences WHERE name = ?').run('reset');
  let err;
  for (let i = 0; i < 20 && !err; i++) {
    try {
      ids.push(await seq.next());
    } catch (e) {
      err = e;
    }
  }
  assert.equal(err?.code, 'ERR_SEQUENCE_BACKWARDS', err?.message);
  assert.equal(new Set(ids).size, ids.length);
  await seq.close();
});

test('require("snowmint/sequence") (CommonJS) shares the error classes with require("snowmint")', () => {
  const require = createRequire(import.meta.url);
  const cjs = require('../../npm/dist/sequence.cjs');
  const root = require('../../npm/dist/index.cjs');
  for (const name of ['sequence', 'postgresStore', 'mysqlStore', 'sqliteStore', 'redisStore']) assert.equal(typeof cjs[name], 'function', name);
  try {
    cjs.sequence(null, { name: 'x' });
    assert.fail('no error');
  } catch (e) {
    assert.ok(e instanceof cjs.SequenceError && e instanceof root.SnowmintError);
    assert.equal(e.code, 'ERR_SEQUENCE_STORE');
  }
});

test('the addon answers the shared vectors (tests/vectors/sequence.json) exactly as the core does', () => {
  const v = JSON.parse(readFileSync(new URL('../vectors/sequence.json', import.meta.url), 'utf8'));
  const sizesOf = (o) => new Float64Array(['blockSize', 'minBlockSize', 'maxBlockSize', 'targetBlockMs', 'timeoutMs'].map((k) => o[k] ?? Number.NaN));
  const handle = (o) => addon.sequenceNew('s', sizesOf(o), o.start === undefined ? undefined : BigInt(o.start));
  const error = (f) => {
    try {
      f();
      return null;
    } catch (e) {
      return e;
    }
  };
  for (const c of v.options) {
    let h;
    const e = error(() => {
      h = handle(c.options);
    });
    if (c.error) {
      assert.equal(e?.code, c.error, JSON.stringify(c));
      assert.equal(e.message, c.message);
      continue;
    }
    const sizes = new Float64Array(5);
    h.sizes(sizes);
    assert.deepEqual([...sizes], c.config);
    assert.equal(String(h.start()), c.start);
  }
  for (const c of v.names) {
    const e = error(() => addon.sequenceCheckName(c.name));
    assert.equal(e?.code ?? null, c.error, c.name);
    if (e) assert.equal(e.message, c.message);
  }
  const run = new BigUint64Array(2);
  for (const script of v.scripts) {
    const h = handle(script.options);
    for (const [i, step] of script.steps.entries()) {
      const at = `step ${i} ${JSON.stringify(step)} of ${JSON.stringify(script.options)}`;
      if (step[0] === 'request') assert.equal(h.request(step[1]), step[2], at);
      else if (step[0] === 'fail') h.fail(step[1]);
      else if (step[0] === 'add') assert.equal(error(() => h.addBlock(BigInt(step[1]), step[2]))?.code ?? null, step[3], at);
      else {
        const e = error(() => h.take(run, step[1]));
        assert.deepEqual(e ? e.code : [String(run[0]), Number(run[1])], step[2], at);
        assert.equal(h.buffered(), step[3], at);
        assert.equal(h.blockSize(), step[4], at);
      }
    }
  }
});
