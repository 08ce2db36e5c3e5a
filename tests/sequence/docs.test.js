// The examples of README.md and docs/*.md that need PostgreSQL,
// run as written (tests/node/docs.js: how) against a private server started
// here, their imports pointed at this repository. Each block gets a fresh
// database, so what it states (`await orders.next(); // 100000n`) holds as it
// would on a first run; it finds the database in the environment as pg and
// libpq do (PGHOST, PGPORT, PGUSER, PGDATABASE) and as DATABASE_URL.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { allBlocks, assertRan, entriesOf, resolverFor, runBlock } from '../node/docs.js';
import { startPostgres } from './servers.js';

const RUNNER = 'tests/sequence/docs.test.js';
const BLOCKS = allBlocks().filter((b) => b.runner === RUNNER);
const resolve = resolverFor(entriesOf(new URL('../../npm/entries/node.js', import.meta.url).href));

let postgres;
before(async () => {
  postgres = await startPostgres();
});
after(async () => {
  await postgres?.close();
});

test('the blocks that need these servers are found', () => {
  assert.ok(BLOCKS.length >= 2, `only ${BLOCKS.length} blocks`);
  // A block that needs MariaDB (mysql2) or Redis too would need that server started here first.
  for (const b of BLOCKS) for (const s of b.servers) assert.ok(s === 'postgres', `${b.where}: no server '${s}' here`);
});

/** A fresh PostgreSQL database for one block. */
async function freshDatabase(name) {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ ...postgres.conn, user: 'postgres', database: 'postgres' });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const { host, port } = postgres.conn;
  return { PGHOST: host, PGPORT: String(port), PGUSER: 'postgres', PGDATABASE: name, DATABASE_URL: `postgres://postgres@${host}:${port}/${name}` };
}

BLOCKS.forEach((block, i) => {
  test(`${block.where} runs as written`, { timeout: 120_000 }, async () => {
    assertRan(block, await runBlock(block, { resolve, env: await freshDatabase(`docs_${i}`) }));
  });
});
