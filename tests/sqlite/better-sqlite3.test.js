// The SQLite extension inside this Node process, loaded into
// better-sqlite3 from require('snowmint/sqlite').extensionPath (the addon
// itself): it mints from the process-wide generator nextId() mints from,
// gives the IDs of the JS API and the shared vectors for the same time,
// worker and sequence, decodes to the JS records, and refuses bad input
// with the core's code and message.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { extensionPath } from '../../npm/src/sqlite.js';
import { addonPath } from '../../npm/src/addon.js';
import { errorOf, jsError, PRESETS, plain, sm, vectors, wasm } from './common.js';

const I64_MAX = (1n << 63n) - 1n;
const db = new Database(':memory:');
db.defaultSafeIntegers(true);
db.loadExtension(extensionPath);
after(() => db.close());

/** The first column of the first row of `sql` with `params`. */
const one = (sql, ...params) =>
  db
    .prepare(sql)
    .pluck()
    .get(...params);
const sqlError = (sql, ...params) => errorOf(() => one(sql, ...params));
/** snowmint_decode() of `id` (a bigint binds as INTEGER, a string as TEXT), parsed. */
const decodeSql = (id, preset) => JSON.parse(preset === undefined ? one('SELECT snowmint_decode(?)', id) : one('SELECT snowmint_decode(?, ?)', id, preset));

test('before the process-wide generator exists, snowmint_next_id() says how to set it up', () => {
  assert.match(sqlError('SELECT snowmint_next_id()'), /^ERR_NO_WORKER_ID: the process-wide generator is not set up yet: call nextId\(\) or configure\(\)/);
  assert.match(sqlError('SELECT snowmint_next_id_at(0)'), /^ERR_NO_WORKER_ID: /);
});

test('extensionPath is the addon this process loaded, from the ESM and CommonJS entries and by package name', () => {
  assert.equal(extensionPath, addonPath);
  assert.match(path.basename(extensionPath), /^snowmint\.[a-z0-9-]+\.node$/);
  const require = createRequire(import.meta.url);
  assert.equal(require('../../npm/dist/sqlite.cjs').extensionPath, extensionPath);
  // By name, through the package's exports map, from a project that depends on it.
  const dir = mkdtempSync(path.join(tmpdir(), 'snowmint-sqlite-'));
  try {
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(fileURLToPath(new URL('../../npm', import.meta.url)), path.join(dir, 'node_modules', 'snowmint'));
    const script = `const { extensionPath } = require('snowmint/sqlite');
      import('snowmint/sqlite').then((m) => console.log(JSON.stringify([extensionPath, m.extensionPath])));`;
    const [cjs, esm] = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8' }));
    assert.equal(cjs, extensionPath);
    assert.equal(esm, extensionPath);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('SQL and nextId() share one generator: interleaved, they never collide, each in order, one worker ID', () => {
  sm.configure({ workerId: 77 });
  const stmt = db.prepare('SELECT snowmint_next_id()').pluck();
  const js = [];
  const sql = [];
  for (let i = 0; i < 5000; i++) {
    js.push(sm.nextId());
    sql.push(stmt.get());
  }
  assert.equal(new Set([...js, ...sql].map(String)).size, 10_000, 'a duplicate between SQL and nextId()');
  for (const ids of [js, sql]) for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1] < ids[i], `${ids[i - 1]} then ${ids[i]}`);
  for (const id of [sql[0], sql.at(-1)]) assert.equal(sm.decode(id).workerId, 77);
  // A batch of 1000 rows from SQL lands after every ID nextId() handed out before it.
  const before = sm.nextId();
  const rows = db.prepare('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) SELECT snowmint_next_id() FROM n').pluck().all();
  assert.ok(rows.every((id) => id > before));
  assert.equal(new Set(rows.map(String)).size, 1000);
});

test('snowmint_configure() replaces the process-wide generator as configure() does, and configure() is seen by SQL', () => {
  const lastMs = sm.decode(sm.nextId()).timestamp;
  assert.equal(one("SELECT snowmint_configure(9, 'discord')"), 9n);
  const a = one('SELECT snowmint_next_id()');
  // As after another thread's configure(): this thread still hands out what it claimed in the
  // current tick (IDs of the old generator, unique all the same), then mints from the new one.
  for (const until = Date.now() + 5; Date.now() < until; );
  const b = sm.nextId();
  for (const id of [a, b]) assert.deepEqual([sm.decode(id, { preset: 'discord' }).workerId], [9]);
  assert.ok(sm.decode(a, { preset: 'discord' }).timestamp >= lastMs, 'the new generator mints after the old one');
  assert.notEqual(a, b);
  sm.configure({ workerId: 78, preset: 'instagram' });
  const c = one('SELECT snowmint_next_id()');
  assert.equal(sm.decode(c, { preset: 'instagram' }).workerId, 78);
  // snowmint_decode() without a preset reads with the configured layout, as decode() does.
  assert.deepEqual(decodeSql(c), plain(sm.decode(c)));
  sm.configure({ workerId: 77 });
});

test('the shared Snowflake vectors: snowmint_next_id_at gives each ID from its time, worker and sequence', () => {
  let n = 0;
  for (const v of vectors('snowflake.json')) {
    if (!v.preset) continue;
    one('SELECT snowmint_configure(?, ?)', BigInt(v.fields.worker_id), v.preset);
    if (BigInt(v.id) > I64_MAX) {
      assert.match(sqlError('SELECT snowmint_next_id_at(?, ?)', v.timestamp_ms, BigInt(v.fields.sequence)), /^ERR_TIME_OVERFLOW: /, v.name);
      continue;
    }
    assert.equal(one('SELECT snowmint_next_id_at(?, ?)', v.timestamp_ms, BigInt(v.fields.sequence)), BigInt(v.id), v.name);
    assert.deepEqual(decodeSql(BigInt(v.id), v.preset), plain(sm.decode(BigInt(v.id), { preset: v.preset })), v.name);
    n++;
  }
  assert.ok(n >= 4, `${n} vectors`);
  sm.configure({ workerId: 77 });
});

test('snowmint_next_id_at is bit-identical to Snowflake#at (native and wasm) for random times, workers and sequences', () => {
  const widths = { twitter: [10, 12], discord: [10, 12], instagram: [13, 10], sonyflake: [16, 8], mastodon: [0, 16] };
  for (const preset of PRESETS) {
    const [workerBits, sequenceBits] = widths[preset];
    const unit = preset === 'sonyflake' ? 10 : 1;
    for (let i = 0; i < 40; i++) {
      const workerId = Math.floor(Math.random() * 2 ** workerBits);
      const sequence = Math.floor(Math.random() * 2 ** sequenceBits);
      const ms = Date.UTC(2016, 0, 1) + Math.floor(Math.random() * 10 * 365 * 86_400_000);
      one('SELECT snowmint_configure(?, ?)', workerId, preset);
      const id = one('SELECT snowmint_next_id_at(?, ?)', ms, sequence);
      assert.equal(id, new sm.Snowflake({ preset, workerId, lease: 'none' }).at(ms, { sequence }), `${preset} ${workerId} ${sequence} ${ms}`);
      assert.equal(id, new wasm.Snowflake({ preset, workerId }).at(ms, { sequence }));
      if (sequence === 0 || i === 0) assert.equal(one('SELECT snowmint_next_id_at(?)', ms), new sm.Snowflake({ preset, workerId, lease: 'none' }).at(ms));
      // ...and decodes in Node (native and wasm) to the same time, worker and sequence, as the extension does.
      const rec = decodeSql(id, preset);
      for (const m of [sm, wasm]) {
        const d = m.decode(id, { preset });
        assert.deepEqual([d.workerId, d.sequence, d.timestamp], [workerId, sequence, rec.timestamp]);
        assert.ok(d.timestamp <= ms && ms - d.timestamp < unit, `${d.timestamp} ${ms}`);
      }
      assert.deepEqual(rec, plain(sm.decode(id, { preset })));
    }
  }
  sm.configure({ workerId: 77 });
});

test('the shared vectors of every other kind decode to the JS records', () => {
  let n = 0;
  for (const file of ['ulid.json', 'uuid.json', 'ksuid.json', 'objectid.json']) {
    for (const v of vectors(file)) {
      assert.deepEqual(decodeSql(v.text), plain(sm.decode(v.text)), `${file} ${v.name}`);
      n++;
    }
  }
  assert.ok(n >= 20, `${n} vectors`);
});

test('snowmint_ulid_at and snowmint_uuidv7_at: the time given, bit-identical to the JS API in every bit but the random ones', () => {
  for (const ms of [0, 1, 1_469_922_850_259, Date.now(), 2 ** 48 - 1]) {
    const u = one('SELECT snowmint_ulid_at(?)', ms);
    const v = one('SELECT snowmint_uuidv7_at(?)', ms);
    assert.equal(u.slice(0, 10), sm.ulid({ time: ms }).slice(0, 10), `${ms}`);
    assert.equal(u.slice(0, 10), wasm.ulid({ time: ms }).slice(0, 10));
    assert.equal(v.slice(0, 13), sm.uuidv7({ time: ms }).slice(0, 13), `${ms}`);
    for (const m of [sm, wasm]) {
      assert.equal(m.decode(u).timestamp, ms);
      assert.equal(m.decode(v).timestamp, ms);
    }
    assert.deepEqual(decodeSql(u), plain(sm.decode(u)));
    assert.deepEqual(decodeSql(v), plain(sm.decode(v)));
  }
});

test('round trips: IDs minted in SQL decode in Node (native and wasm) as in SQL, and IDs minted in JS decode in SQL as in JS', () => {
  const t0 = Date.now();
  const row = db.prepare('SELECT snowmint_next_id() AS s, snowmint_ulid() AS u, snowmint_uuidv7() AS v').get();
  for (const id of [row.s, row.u, row.v]) {
    const rec = decodeSql(id);
    assert.deepEqual(rec, plain(sm.decode(id)), String(id));
    const w = wasm.decode(id);
    assert.deepEqual([w.kind, w.timestamp, w.workerId, w.sequence], [rec.kind, rec.timestamp, rec.workerId, rec.sequence]);
    assert.ok(Math.abs(rec.timestamp - t0) < 60_000);
  }
  assert.equal(decodeSql(row.s).workerId, 77);
  for (const id of [sm.nextId(), sm.ulid(), sm.uuidv7(), sm.uuidv4(), sm.ksuid(), sm.objectId(), sm.typeid('user'), wasm.ulid(), wasm.uuidv7()]) {
    assert.deepEqual(decodeSql(id), plain(sm.decode(id)), String(id));
  }
  // A wasm-minted Snowflake, read with its preset.
  const ws = new wasm.Snowflake({ preset: 'sonyflake', workerId: 300 }).next();
  assert.deepEqual(decodeSql(ws, 'sonyflake'), plain(sm.decode(ws, { preset: 'sonyflake' })));
});

test('ulid() and uuidv7() in SQL and JS on one thread never collide; each stream in order', () => {
  const u = db.prepare('SELECT snowmint_ulid()').pluck();
  const v = db.prepare('SELECT snowmint_uuidv7()').pluck();
  const all = new Set();
  const streams = { su: [], sv: [], ju: [], jv: [] };
  for (let i = 0; i < 3000; i++) {
    streams.su.push(u.get());
    streams.ju.push(sm.ulid());
    streams.sv.push(v.get());
    streams.jv.push(sm.uuidv7());
  }
  for (const [name, ids] of Object.entries(streams)) {
    for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1] < ids[i], `${name}: ${ids[i - 1]} then ${ids[i]}`);
    for (const id of ids) all.add(id);
  }
  assert.equal(all.size, 12_000);
});

test('as a key default and in a trigger: one ID per row, in insert order', () => {
  // An INTEGER PRIMARY KEY of a rowid table is the rowid, whose DEFAULT SQLite ignores (docs/database.md says so).
  db.exec('CREATE TABLE quirk (id INTEGER PRIMARY KEY DEFAULT (snowmint_next_id()), body TEXT)');
  assert.equal(db.prepare("INSERT INTO quirk (body) VALUES ('x') RETURNING id").pluck().get(), 1n);
  db.exec('CREATE TABLE keyed (id INTEGER PRIMARY KEY DEFAULT (snowmint_next_id()), body TEXT) WITHOUT ROWID');
  assert.equal(sm.decode(db.prepare("INSERT INTO keyed (body) VALUES ('x') RETURNING id").pluck().get()).workerId, 77);
  db.exec(`CREATE TABLE posts (n INTEGER PRIMARY KEY, id INTEGER NOT NULL DEFAULT (snowmint_next_id()), ulid TEXT NOT NULL DEFAULT (snowmint_ulid()), body TEXT);
    CREATE TABLE audit (id TEXT PRIMARY KEY, post INTEGER);
    CREATE TRIGGER posts_audit AFTER INSERT ON posts BEGIN INSERT INTO audit VALUES (snowmint_uuidv7(), NEW.id); END;`);
  const ins = db.prepare('INSERT INTO posts (body) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < 2000; i++) ins.run(`post ${i}`);
  })();
  const rows = db.prepare('SELECT id, ulid FROM posts ORDER BY n').all();
  assert.equal(rows.length, 2000);
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1].id < rows[i].id && rows[i - 1].ulid < rows[i].ulid);
  assert.equal(one('SELECT count(DISTINCT id) FROM audit'), 2000n);
  assert.equal(one("SELECT json_extract(snowmint_decode(id), '$.workerId') FROM posts LIMIT 1"), 77n);
});

test('bad input: the core code and message, as the JS API throws them', () => {
  const same = (sql, params, fn) => assert.equal(sqlError(sql, ...params), jsError(fn), sql);
  same("SELECT snowmint_configure(1, 'tweeter')", [], () => new sm.Snowflake({ preset: 'tweeter', workerId: 1, lease: 'none' }));
  same("SELECT snowmint_configure(1024, 'twitter')", [], () => new sm.Snowflake({ workerId: 1024, lease: 'none' }));
  same("SELECT snowmint_configure(8192, 'instagram')", [], () => new sm.Snowflake({ preset: 'instagram', workerId: 8192, lease: 'none' }));
  one('SELECT snowmint_configure(9)');
  same('SELECT snowmint_next_id_at(?, 4096)', [Date.now()], () => new sm.Snowflake({ workerId: 9, lease: 'none' }).at(Date.now(), { sequence: 4096 }));
  same('SELECT snowmint_next_id_at(?, 0)', [1000], () => new sm.Snowflake({ workerId: 9, lease: 'none' }).at(1000));
  same('SELECT snowmint_ulid_at(?)', [2 ** 48], () => sm.ulid({ time: 2 ** 48 }));
  for (const bad of [
    '01ARZ3NDEKTSV4RRFFQ69G5FA!',
    '81ARZ3NDEKTSV4RRFFQ69G5FAV',
    '01ARZ3NDEKTSV4RRFFQ69G5FAé',
    'f81d4fae-7dec-11d0-a765-00a0c91e6bf!',
    'user_01h455vb4pex5vsknk084sn02!',
    '0ujtsYcgvSTl8PAuAdqWYSMnL!v',
    '18446744073709551616',
    '9223372036854775808',
    'hello',
    '',
  ]) {
    same('SELECT snowmint_decode(?)', [bad], () => sm.decode(bad));
  }
  same('SELECT snowmint_decode(-5)', [], () => sm.decode(-5n));
  same("SELECT snowmint_decode(1, 'tweeter')", [], () => sm.decode(1n, { preset: 'tweeter' }));
  // What only SQL can pass: negative times, wrong types, NULL where a value is needed.
  assert.match(sqlError('SELECT snowmint_ulid_at(-1)'), /^ERR_INVALID_ARG_VALUE: time \(Unix ms\) must be a non-negative integer, got -1$/);
  assert.match(sqlError("SELECT snowmint_uuidv7_at('now')"), /^ERR_INVALID_ARG_TYPE: time \(Unix ms\) must be an integer, got TEXT$/);
  assert.match(sqlError('SELECT snowmint_next_id_at(1.5)'), /^ERR_INVALID_ARG_TYPE: /);
  assert.match(sqlError("SELECT snowmint_decode(x'00')"), /^ERR_INVALID_ARG_TYPE: id must be an INTEGER or TEXT, got BLOB$/);
  assert.match(sqlError('SELECT snowmint_configure(NULL)'), /^ERR_INVALID_ARG_TYPE: worker_id must be an integer, got NULL$/);
  assert.match(sqlError('SELECT snowmint_configure(-1)'), /^ERR_INVALID_ARG_VALUE: worker_id must be a non-negative integer, got -1$/);
  // NULL in, NULL out, as SQL's own functions do.
  assert.deepEqual(db.prepare('SELECT snowmint_decode(NULL), snowmint_ulid_at(NULL), snowmint_next_id_at(NULL, 1)').raw().get(), [null, null, null]);
  // Configuration only from top-level SQL, never from a trigger or view.
  db.exec('CREATE TABLE t (x); CREATE TRIGGER t_conf AFTER INSERT ON t BEGIN SELECT snowmint_configure(5); END;');
  assert.match(
    errorOf(() => db.prepare('INSERT INTO t VALUES (1)').run()),
    /unsafe use of snowmint_configure/,
  );
  sm.configure({ workerId: 77 });
});

test('a second SQLite library in the process is refused, and the first keeps working', () => {
  // Another copy of better-sqlite3's addon is another SQLite library (as node:sqlite's would be).
  const require = createRequire(import.meta.url);
  const binding = path.join(path.dirname(require.resolve('better-sqlite3/package.json')), 'build/Release/better_sqlite3.node');
  const dir = mkdtempSync(path.join(tmpdir(), 'snowmint-sqlite-copy-'));
  try {
    copyFileSync(binding, path.join(dir, 'copy.node'));
    const other = new Database(':memory:', { nativeBinding: path.join(dir, 'copy.node') });
    assert.match(
      errorOf(() => other.loadExtension(extensionPath)),
      /ERR_INVALID_OPTION: snowmint's SQLite extension is already loaded into another SQLite library of this process/,
    );
    other.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(sm.decode(one('SELECT snowmint_ulid()')).kind, 'ulid');
  assert.equal(sm.decode(one('SELECT snowmint_next_id()')).workerId, 77);
});
