// PostgreSQL through `pg` (Pool or Client) or postgres.js: a table with one
// row per sequence advanced by one UPDATE ... RETURNING per block, or
// (mode 'sequence') a native sequence whose INCREMENT BY is the block size.

import { counterStore, tableOptions, storeError, MAX_SQL, bigintOf } from './store.js';

/** (text, params) => rows, over either driver. */
function queryOf(client) {
  // postgres.js: `sql` is a function with .unsafe(text, params).
  if (typeof client === 'function' && typeof client.unsafe === 'function') {
    return { run: (text, params = []) => client.unsafe(text, params), driver: 'postgres.js' };
  }
  if (client !== null && typeof client === 'object' && typeof client.query === 'function') {
    return { run: async (text, params = []) => (await client.query(text, params)).rows, driver: 'pg' };
  }
  throw storeError('postgresStore(client) needs a pg Pool or Client, or a postgres.js sql instance');
}

/**
 * Runs a CREATE ... IF NOT EXISTS that another process may run at the same
 * time: PostgreSQL's check is not atomic, so the loser of the race gets a
 * unique violation on the catalog (23505), or 'already exists' for the
 * relation (42P07) or for the table's row type (42710).
 */
const CREATE_RACE = new Set(['23505', '42P07', '42710']);
async function create(run, text) {
  try {
    await run(text);
  } catch (e) {
    if (!CREATE_RACE.has(e?.code)) throw e;
  }
}

/**
 * @param client a pg Pool or Client, or a postgres.js `sql`
 * @param options.table the table of counters (default snowmint_sequences)
 * @param options.mode 'table' (default) or 'sequence': PostgreSQL's own
 *   sequence named after the sequence, created with INCREMENT BY the first
 *   block size if missing; every nextval() reserves one block of its increment.
 */
export function postgresStore(client, options) {
  const o = tableOptions('postgresStore options', options, ['table', 'mode']);
  const { run, driver } = queryOf(client);
  if (o.mode === 'sequence') return sequenceStore(run, driver);
  if (o.mode !== undefined && o.mode !== 'table') throw storeError(`postgresStore: mode must be 'table' or 'sequence', got ${String(o.mode)}`);
  const t = `"${o.table}"`;
  return counterStore(`PostgreSQL (${driver}) table ${o.table}`, {
    async ensure(name, last) {
      await create(run, `CREATE TABLE IF NOT EXISTS ${t} (name text PRIMARY KEY, last_id bigint NOT NULL)`);
      await run(`INSERT INTO ${t} (name, last_id) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [name, String(last)]);
    },
    async advance(name, size) {
      const rows = await run(`UPDATE ${t} SET last_id = last_id + $2 WHERE name = $1 AND last_id <= ${MAX_SQL} - $2 RETURNING last_id`, [name, String(size)]);
      return rows.length ? rows[0].last_id : null;
    },
    async read(name) {
      const rows = await run(`SELECT last_id FROM ${t} WHERE name = $1`, [name]);
      return rows.length ? rows[0].last_id : null;
    },
  });
}

/** The hi/lo "pooled" idea: nextval() of a sequence with INCREMENT BY n hands out a block of n. */
function sequenceStore(run, driver) {
  const ready = new Set();
  return Object.freeze({
    describe: `PostgreSQL (${driver}) native sequence`,
    async reserve(name, size, start) {
      // The name is an identifier (the core checked it: letters, digits, '_'), quoted to keep its case.
      const ident = `"${name}"`;
      if (!ready.has(name)) {
        await create(run, `CREATE SEQUENCE IF NOT EXISTS ${ident} AS bigint INCREMENT BY ${Number(size)} MINVALUE ${start} START WITH ${start}`);
        ready.add(name);
      }
      const rows = await run('SELECT nextval($1::regclass) AS v, (SELECT seqincrement FROM pg_sequence WHERE seqrelid = $1::regclass) AS inc', [ident]);
      const inc = Number(bigintOf(rows[0].inc));
      if (inc < 1) throw new Error(`sequence ${ident} has INCREMENT BY ${inc}: a block sequence needs a positive increment`);
      return { start: bigintOf(rows[0].v), size: inc };
    },
  });
}
