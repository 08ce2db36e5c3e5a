// 1M-row inserts into SQLite tables whose primary key's default comes from
// each generator, through better-sqlite3 in this Node process with the
// SQLite extension loaded from snowmint/sqlite (the addon itself): the
// extension's snowmint_next_id(), snowmint_uuidv7() and snowmint_ulid()
// (WITHOUT ROWID tables: the key is the table), a random key
// (lower(hex(randomblob(16))), what a SQLite app writes without snowmint)
// and the rowid (an INTEGER PRIMARY KEY that SQLite numbers itself).
// Per row: the insert's time (one INSERT ... SELECT over a recursive
// counter, median of --runs, into a fresh table in a file database) and the
// generator alone (SELECT count(gen()) over the same rows); the table's
// size after the insert (dbstat).
//
//   node bench/database/sqlite.js [--rows 1000000] [--runs 3] [--out FILE.md]
//
// (bench/database/sqlite-results.md is such a file, from the run
// docs/database.md names, aligned by `npx biome format --write`.) Needs the
// addon built (scripts/build.sh) and the root's npm install (better-sqlite3).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { configure } from '../../npm/entries/node.js';
import { extensionPath } from '../../npm/src/sqlite.js';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '3' }, out: { type: 'string' } },
});
const ROWS = Number(values.rows);
const RUNS = Number(values.runs);

/** [label, key column, default expression (null: the rowid), WITHOUT ROWID]. */
const KEYS = [
  ['snowmint_next_id()', 'INTEGER', 'snowmint_next_id()', true],
  ['snowmint_uuidv7()', 'TEXT', 'snowmint_uuidv7()', true],
  ['snowmint_ulid()', 'TEXT', 'snowmint_ulid()', true],
  ['lower(hex(randomblob(16)))', 'TEXT', 'lower(hex(randomblob(16)))', true],
  ['rowid (INTEGER PRIMARY KEY)', 'INTEGER', null, false],
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const counter = `WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < ${ROWS})`;

function timed(fn) {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e3; // µs
}

// A worker ID of the range reserved for databases (docs/database.md#worker-ids); no lock: a benchmark holds none.
configure({ workerId: 1000, lease: 'none' });
const dir = mkdtempSync(path.join(tmpdir(), 'snowmint-bench-sqlite-'));
const results = [];
try {
  const db = new Database(path.join(dir, 'bench.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.loadExtension(extensionPath);
  for (const [label, type, expr, withoutRowid] of KEYS) {
    const insert = [];
    let bytes = 0;
    for (let r = 0; r < RUNS; r++) {
      db.exec('DROP TABLE IF EXISTS bench');
      db.exec(`CREATE TABLE bench (id ${type} PRIMARY KEY${expr ? ` DEFAULT (${expr})` : ''}, n INTEGER NOT NULL)${withoutRowid ? ' WITHOUT ROWID' : ''}`);
      insert.push(timed(() => db.exec(`${counter} INSERT INTO bench (n) SELECT n FROM c`)) / ROWS);
      bytes = db.prepare("SELECT sum(pgsize) FROM dbstat WHERE name = 'bench'").pluck().get();
      const count = db.prepare('SELECT count(DISTINCT id) FROM bench').pluck().get();
      if (count !== ROWS) throw new Error(`${label}: ${count} distinct keys of ${ROWS}`);
    }
    const alone = expr ? median(Array.from({ length: RUNS }, () => timed(() => db.prepare(`${counter} SELECT count(${expr}) FROM c`).get()) / ROWS)) : null;
    results.push({ label, insert: median(insert), alone, mib: bytes / 2 ** 20 });
  }
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const base = results.find((r) => r.label.startsWith('lower('));
const f = (x, d = 3) => (x === null ? '-' : x.toFixed(d));
const lines = [
  `**SQLite ${new Database(':memory:').prepare('SELECT sqlite_version()').pluck().get()} (better-sqlite3, a file database, WAL), ${ROWS.toLocaleString('en-US')} rows** (ratios to a random key)`,
  '',
  '| key default | insert µs/row | x | generator alone µs/row | x | share of the insert | table MiB |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...results.map(
    (r) =>
      `| ${r.label} | ${f(r.insert)} | ${f(r.insert / base.insert, 2)} | ${f(r.alone)} | ${r.alone === null ? '-' : f(r.alone / base.alone, 2)} | ${r.alone === null ? '-' : `${Math.round((100 * r.alone) / r.insert)}%`} | ${f(r.mib, 1)} |`,
  ),
  '',
];
const text = lines.join('\n');
console.log(text);
if (values.out) writeFileSync(values.out, text);
