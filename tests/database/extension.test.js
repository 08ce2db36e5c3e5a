// The extension (pg/, crate snowmint-pg, pgrx) on Debian's PostgreSQL 15,
// built and installed into the server's directories by
// scripts/test.d/85-database.sh: every check of checks.js with the library
// in shared_preload_libraries (one state in shared memory: next_id(),
// ulid(), uuidv7() monotonic across sessions), and a server without it:
// ulid() and uuidv7() monotonic per session, next_id() refused.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sm } from '../node/pkg.js';
import { databaseTests } from './checks.js';
import { startPostgres } from './postgres.js';

databaseTests({
  name: 'extension on PostgreSQL 15, in shared_preload_libraries',
  server: () => startPostgres(15, { shared_preload_libraries: 'snowmint' }),
  async install(_server, admin) {
    await admin.query('CREATE EXTENSION snowmint');
    await admin.end();
  },
  // ULIDs come back as uuid (the same 128 bits).
  ulid: (expr) => `snowmint.uuid_to_ulid(${expr})`,
  acrossSessions: true,
});

describe('extension on PostgreSQL 15, not preloaded', () => {
  let server;
  before(async () => {
    server = await startPostgres(15);
    const admin = await server.connect();
    await admin.query('CREATE EXTENSION snowmint');
    await admin.end();
  });
  after(() => server?.stop());

  test('ulid(), uuidv7() and typeid() are monotonic per session; next_id() refuses to mint', async () => {
    const sessions = await Promise.all(Array.from({ length: 4 }, () => server.connect()));
    try {
      const all = new Set();
      await Promise.all(
        sessions.map(async (c) => {
          const { rows } = await c.query(
            `SELECT snowmint.uuid_to_ulid(snowmint.ulid()) AS u, snowmint.uuidv7()::text AS v, snowmint.typeid('t') AS t
             FROM generate_series(1, 3000)`,
          );
          for (const key of ['u', 'v', 't']) {
            for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1][key] < rows[i][key], `${rows[i - 1][key]} then ${rows[i][key]}`);
            for (const r of rows) all.add(r[key]);
          }
        }),
      );
      assert.equal(all.size, 4 * 3000 * 3);
      await sessions[0].query('SET snowmint.worker_id = 1');
      await assert.rejects(sessions[0].query('SELECT snowmint.next_id()'), /^error: ERR_INVALID_OPTION: next_id\(\) needs snowmint in shared_preload_libraries/);
      const { rows } = await sessions[0].query(`SELECT snowmint.next_id_at('2024-06-01T00:00:00Z', 5)::text AS id`);
      assert.equal(rows[0].id, String(new sm.Snowflake({ workerId: 1, lease: 'none' }).at(Date.UTC(2024, 5, 1), { sequence: 5 })));
    } finally {
      await Promise.all(sessions.map((c) => c.end()));
    }
  });
});
