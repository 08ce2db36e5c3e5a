// Concurrency with real SQLite connections: worker_threads of one process,
// each with its own better-sqlite3 connection to one database file,
// inserting rows whose key defaults to snowmint_next_id() while also calling
// nextId(); and separate Node processes, each with its own zero-config
// worker ID (a lease among the machine's processes) and connection. No
// duplicate anywhere; each connection's IDs in order.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { sm } from './common.js';

const dir = mkdtempSync(path.join(tmpdir(), 'snowmint-sqlite-conc-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const SQLITE = new URL('../../npm/src/sqlite.js', import.meta.url).href;
const NATIVE = new URL('../../npm/entries/node.js', import.meta.url).href;
// By URL: the threads' code is a data: URL, which resolves no bare names.
const BETTER = pathToFileURL(createRequire(import.meta.url).resolve('better-sqlite3')).href;

/** The code each thread or process runs: M rows through its own connection, nextId() between them. */
const minter = (file, m) => `
  import Database from ${JSON.stringify(BETTER)};
  import { extensionPath } from ${JSON.stringify(SQLITE)};
  import { nextId } from ${JSON.stringify(NATIVE)};
  const db = new Database(${JSON.stringify(file)}, { timeout: 30000 });
  db.defaultSafeIntegers(true);
  db.loadExtension(extensionPath);
  const js = [nextId()];
  const ins = db.prepare('INSERT INTO ids (conn) VALUES (?) RETURNING id');
  const conn = Math.random().toString(36).slice(2);
  const sql = [];
  for (let i = 0; i < ${m}; i++) {
    sql.push(ins.get(conn).id);
    js.push(nextId());
  }
  db.close();
  const out = JSON.stringify({ sql: sql.map(String), js: js.map(String) });
`;

function createTable(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // The key's default is evaluated when a row is inserted, by the inserting connection
  // (WITHOUT ROWID: a rowid table's INTEGER PRIMARY KEY is the rowid, whose DEFAULT SQLite ignores).
  db.exec('CREATE TABLE ids (id INTEGER PRIMARY KEY DEFAULT (snowmint_next_id()), conn TEXT) WITHOUT ROWID');
  db.close();
}

function check(results, m) {
  const all = new Set();
  for (const { sql, js } of results) {
    assert.equal(sql.length, m);
    for (const ids of [sql, js]) {
      const big = ids.map(BigInt);
      for (let i = 1; i < big.length; i++) assert.ok(big[i - 1] < big[i], `${big[i - 1]} then ${big[i]}`);
      for (const id of ids) all.add(id);
    }
  }
  assert.equal(
    all.size,
    results.reduce((n, r) => n + r.sql.length + r.js.length, 0),
    'a duplicate',
  );
}

test('4 worker_threads x 1500 rows, each its own connection to one file, plus nextId(): no duplicate, each in order', async () => {
  const file = path.join(dir, 'threads.db');
  createTable(file);
  sm.configure({ workerId: 500 });
  const M = 1500;
  const results = await Promise.all(
    Array.from(
      { length: 4 },
      () =>
        new Promise((resolve, reject) => {
          const w = new Worker(new URL(`data:text/javascript,${encodeURIComponent(`${minter(file, M)}\nimport { parentPort } from 'node:worker_threads'; parentPort.postMessage(out);`)}`));
          w.once('message', (msg) => resolve(JSON.parse(msg)));
          w.once('error', reject);
        }),
    ),
  );
  check(results, M);
  // One process, one generator: every thread's IDs carry the worker ID configured here.
  for (const r of results) for (const id of [r.sql[0], r.js[0], r.sql.at(-1)]) assert.equal(sm.decode(BigInt(id)).workerId, 500);
  const db = new Database(file, { readonly: true });
  assert.equal(db.prepare('SELECT count(DISTINCT id) FROM ids').pluck().get(), 4 * M);
  db.close();
});

test('3 processes x 1500 rows into one file, each on its own leased worker ID: no duplicate, each in order', async () => {
  const file = path.join(dir, 'procs.db');
  createTable(file);
  const M = 1500;
  // A zero-config nextId() in each process leases a worker ID among this machine's processes.
  const env = { ...process.env, SNOWMINT_LEASE: 'local' };
  delete env.SNOWMINT_WORKER_ID;
  const results = await Promise.all(
    Array.from({ length: 3 }, async () => {
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', `${minter(file, M)}\nconsole.log(out);`], { env, cwd: process.cwd() });
      return JSON.parse(stdout);
    }),
  );
  check(results, M);
  const workers = new Set(results.map((r) => sm.decode(BigInt(r.sql[0])).workerId));
  assert.equal(workers.size, 3, `worker IDs ${[...workers]}`);
  for (const r of results) assert.equal(sm.decode(BigInt(r.js[0])).workerId, sm.decode(BigInt(r.sql[0])).workerId);
});
