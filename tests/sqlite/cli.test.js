// The standalone extension (target/sqlite/snowmint.so, the crate sqlite/
// with feature `extension`) in Debian's sqlite3 shell, where the Node addon
// cannot load: the same functions, the same IDs as the JS API for the same
// time, worker and sequence, the same decode records and errors, and
// concurrent shell processes on one database file without a duplicate;
// then in one Node process (better-sqlite3), its one generator shared by
// every connection, apart from the addon's.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { extensionPath } from '../../npm/src/sqlite.js';
import { jsError, PRESETS, plain, STANDALONE, sm, vectors, wasm } from './common.js';

const dir = mkdtempSync(path.join(tmpdir(), 'snowmint-sqlite-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `sql` (after loading `ext`) in the sqlite3 shell on `db`: its stdout lines, or throws with its stderr. */
function shell(sql, { db = ':memory:', ext = STANDALONE } = {}) {
  const out = execFileSync('sqlite3', ['-batch', '-bail', '-noheader', '-list', db], { input: `.load ${ext}\n${sql}\n`, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
  return out.split('\n').filter((l) => l !== '');
}

/** The error the shell prints for `sql` (asserting it fails), without its "Error: ..." prefix. */
function shellError(sql) {
  try {
    shell(sql);
  } catch (e) {
    return e.stderr.trim().replace(/^(Parse error|Runtime error|Error)( near line \d+)?: (stepping, )?/, '');
  }
  throw new Error(`${sql} did not fail`);
}

/** SQL text literal. */
const lit = (s) => `'${String(s).replaceAll("'", "''")}'`;

test('it loads in the sqlite3 shell and mints every kind; the Node addon does not load there (napi_* resolve only in Node)', () => {
  const [version] = shell('SELECT sqlite_version();');
  assert.match(version, /^3\./);
  const [ulid, uuid, configured, id] = shell('SELECT snowmint_ulid(); SELECT snowmint_uuidv7(); SELECT snowmint_configure(3);\nSELECT snowmint_next_id();');
  assert.equal(sm.decode(ulid).kind, 'ulid');
  assert.equal(sm.decode(uuid).version, 7);
  assert.equal(configured, '3');
  assert.equal(sm.decode(BigInt(id)).workerId, 3);
  assert.ok(Math.abs(sm.decode(BigInt(id)).timestamp - Date.now()) < 60_000);
  assert.throws(() => shell('SELECT snowmint_ulid();', { ext: extensionPath }));
});

test('a process that has not configured a generator is told how', () => {
  assert.match(shellError('SELECT snowmint_next_id();'), /^ERR_NO_WORKER_ID: no Snowflake generator is configured: call snowmint_configure\(worker_id, preset\)/);
});

test('the shared vectors and random times: the IDs of Snowflake#at, the JS decode records', () => {
  const script = [];
  const expect = [];
  for (const v of vectors('snowflake.json')) {
    if (!v.preset || BigInt(v.id) >= 1n << 63n) continue;
    script.push(
      `SELECT snowmint_configure(${v.fields.worker_id}, ${lit(v.preset)});`,
      `SELECT snowmint_next_id_at(${v.timestamp_ms}, ${v.fields.sequence});`,
      `SELECT snowmint_decode(${v.id}, ${lit(v.preset)});`,
    );
    expect.push(v.fields.worker_id, v.id, plain(sm.decode(BigInt(v.id), { preset: v.preset })));
  }
  for (const preset of PRESETS) {
    const workerId = preset === 'mastodon' ? 0 : 3;
    const ms = Date.UTC(2016, 0, 1) + Math.floor(Math.random() * 10 * 365 * 86_400_000);
    script.push(`SELECT snowmint_configure(${workerId}, ${lit(preset)});`, `SELECT snowmint_next_id_at(${ms}, 5);`);
    const id = new sm.Snowflake({ preset, workerId, lease: 'none' }).at(ms, { sequence: 5 });
    assert.equal(id, new wasm.Snowflake({ preset, workerId }).at(ms, { sequence: 5 }));
    expect.push(String(workerId), String(id));
  }
  for (const file of ['ulid.json', 'uuid.json', 'ksuid.json', 'objectid.json']) {
    for (const v of vectors(file)) {
      script.push(`SELECT snowmint_decode(${lit(v.text)});`);
      expect.push(plain(sm.decode(v.text)));
    }
  }
  const out = shell(script.join('\n'));
  assert.equal(out.length, expect.length);
  for (const [i, line] of out.entries()) {
    if (typeof expect[i] === 'string') assert.equal(line, expect[i]);
    else assert.deepEqual(JSON.parse(line), expect[i]);
  }
});

test('IDs minted in the shell decode in Node (native and wasm) as in the shell', () => {
  const lines = shell("SELECT snowmint_configure(21, 'discord');\nSELECT snowmint_next_id(); SELECT snowmint_ulid(); SELECT snowmint_uuidv7(); SELECT snowmint_ulid_at(1469922850259);");
  const [, s, u, v, at] = lines;
  const recs = shell([`SELECT snowmint_decode(${s}, 'discord');`, ...[u, v, at].map((x) => `SELECT snowmint_decode(${lit(x)});`)].join('\n')).map((l) => JSON.parse(l));
  assert.deepEqual(recs[0], plain(sm.decode(BigInt(s), { preset: 'discord' })));
  const w = wasm.decode(BigInt(s), { preset: 'discord' });
  assert.deepEqual([w.timestamp, w.workerId, w.sequence], [recs[0].timestamp, 21, recs[0].sequence]);
  for (const [i, id] of [u, v, at].entries()) {
    assert.deepEqual(recs[i + 1], plain(sm.decode(id)));
    assert.equal(wasm.decode(id).timestamp, recs[i + 1].timestamp);
  }
  assert.equal(recs[3].timestamp, 1469922850259);
});

test('bad input: the core code and message, as the JS API throws them', () => {
  assert.equal(
    shellError("SELECT snowmint_configure(1, 'tweeter');"),
    jsError(() => new sm.Snowflake({ preset: 'tweeter', workerId: 1, lease: 'none' })),
  );
  assert.equal(
    shellError('SELECT snowmint_configure(1024);'),
    jsError(() => new sm.Snowflake({ workerId: 1024, lease: 'none' })),
  );
  for (const bad of ['01ARZ3NDEKTSV4RRFFQ69G5FA!', 'f81d4fae-7dec-11d0-a765-00a0c91e6bf!', '9223372036854775808', 'hello']) {
    assert.equal(
      shellError(`SELECT snowmint_decode(${lit(bad)});`),
      jsError(() => sm.decode(bad)),
    );
  }
});

test('3 shell processes x 2000 rows into one file, each its own worker ID: no duplicate, each in insert order', async () => {
  const db = path.join(dir, 'cli.db');
  shell('PRAGMA journal_mode = WAL; CREATE TABLE ids (n INTEGER PRIMARY KEY, id INTEGER NOT NULL DEFAULT (snowmint_next_id()), proc INTEGER);', { db });
  const run = promisify(execFile);
  await Promise.all(
    [1, 2, 3].map((p) => {
      const script = `.load ${STANDALONE}\n.timeout 30000\nSELECT snowmint_configure(${p});\nWITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO ids (proc) SELECT ${p} FROM n;\n`;
      const child = run('sqlite3', ['-batch', '-bail', db]);
      child.child.stdin.end(script);
      return child;
    }),
  );
  const rows = shell('SELECT proc, id FROM ids ORDER BY proc, n;', { db });
  assert.equal(rows.length, 6000);
  const ids = rows.map((r) => r.split('|')).map(([p, id]) => [Number(p), BigInt(id)]);
  assert.equal(new Set(ids.map(([, id]) => id)).size, 6000);
  for (let i = 1; i < ids.length; i++) if (ids[i][0] === ids[i - 1][0]) assert.ok(ids[i - 1][1] < ids[i][1]);
  for (const [p, id] of ids) assert.equal(sm.decode(id).workerId, p);
});

test('the standalone file in one process: every connection shares its generator, apart from the addon', () => {
  const [a, b] = [new Database(':memory:'), new Database(':memory:')];
  try {
    for (const db of [a, b]) {
      db.defaultSafeIntegers(true);
      db.loadExtension(STANDALONE);
    }
    // Configured through one connection, minting through both: one generator, its IDs in call order.
    a.prepare("SELECT snowmint_configure(600, 'discord')").get();
    const [sa, sb] = [a, b].map((db) => db.prepare('SELECT snowmint_next_id()').pluck());
    const ids = [];
    for (let i = 0; i < 3000; i++) ids.push(i % 2 ? sa.get() : sb.get());
    for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1] < ids[i], `${ids[i - 1]} then ${ids[i]}`);
    assert.equal(sm.decode(ids[0], { preset: 'discord' }).workerId, 600);
    // The addon (nextId()'s generator) is another library with a generator of its own.
    sm.configure({ workerId: 601 });
    const c = new Database(':memory:');
    c.defaultSafeIntegers(true);
    c.loadExtension(extensionPath);
    assert.equal(sm.decode(c.prepare('SELECT snowmint_next_id()').pluck().get()).workerId, 601);
    assert.equal(sm.decode(sa.get(), { preset: 'discord' }).workerId, 600);
    c.close();
  } finally {
    a.close();
    b.close();
  }
});
