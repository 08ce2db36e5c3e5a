// snowmint/sequence on a real PostgreSQL (a private cluster started here):
// pg (Pool and Client), postgres.js, and the native-sequence mode.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { sequence, postgresStore } from '../../npm/src/sequence/index.js';
import { storeSuite } from './suite.js';
import { startPostgres } from './servers.js';

storeSuite({
  name: 'postgresql',
  start: startPostgres,
  kinds: ['pg', 'postgres.js', 'pg-sequence', 'pg-client'],
  more(conn) {
    test('postgresql: an existing sequence keeps its INCREMENT BY (hi/lo pooled); an app calling nextval() itself interleaves without a duplicate; names keep their case', async () => {
      const pool = new pg.Pool({ ...conn(), user: 'postgres', database: 'postgres', max: 2 });
      try {
        await pool.query('CREATE SEQUENCE "Legacy_ids" INCREMENT BY 50 START WITH 1000');
        const seq = sequence(postgresStore(pool, { mode: 'sequence' }), { name: 'Legacy_ids', blockSize: 10 });
        const ours = [];
        for (let i = 0; i < 60; i++) ours.push(await seq.next());
        assert.deepEqual(
          ours.slice(0, 50),
          Array.from({ length: 50 }, (_, i) => 1000n + BigInt(i)),
        );
        // The other app reserves its own block of 50 from the same sequence (the pooled optimizer's reading).
        const theirs = BigInt((await pool.query(`SELECT nextval('"Legacy_ids"') AS v`)).rows[0].v);
        const theirBlock = Array.from({ length: 50 }, (_, i) => theirs + BigInt(i));
        for (let i = 0; i < 200; i++) ours.push(await seq.next());
        assert.equal(new Set([...ours, ...theirBlock]).size, ours.length + theirBlock.length);
        await seq.close();
        // A table of another name, in mixed case, is created and used as it is named.
        const custom = sequence(postgresStore(pool, { table: 'Counters' }), { name: 'Invoices', start: 55012 });
        assert.equal(await custom.next(), 55012n);
        const row = await pool.query('SELECT name, last_id FROM "Counters"');
        assert.equal(row.rows[0].name, 'Invoices');
        await custom.close();
      } finally {
        await pool.end();
      }
    });
  },
});
