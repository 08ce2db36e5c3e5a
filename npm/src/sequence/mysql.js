// MySQL and MariaDB through mysql2: a table with one row per sequence. They
// have no UPDATE ... RETURNING, so the UPDATE sets the counter through
// LAST_INSERT_ID(expr), which the same connection then reads back: the one
// atomic statement per block is the UPDATE.

import { counterStore, tableOptions, storeError, MAX_SQL } from './store.js';

/**
 * @param pool a mysql2 Pool or Connection (promise API, or the callback one, whose .promise() is used)
 * @param options.table the table of counters (default snowmint_sequences)
 */
export function mysqlStore(pool, options) {
  const o = tableOptions('mysqlStore options', options, ['table']);
  const db = typeof pool?.promise === 'function' ? pool.promise() : pool;
  if (db === null || typeof db !== 'object' || typeof db.query !== 'function') {
    throw storeError('mysqlStore(pool) needs a mysql2 Pool or Connection');
  }
  /** Runs `fn` on one connection (LAST_INSERT_ID is per connection). */
  const withConnection = async (fn) => {
    if (typeof db.getConnection !== 'function') return fn(db);
    const conn = await db.getConnection();
    try {
      return await fn(conn);
    } finally {
      conn.release();
    }
  };
  const t = `\`${o.table}\``;
  return counterStore(`MySQL/MariaDB (mysql2) table ${o.table}`, {
    async ensure(name, last) {
      await db.query(`CREATE TABLE IF NOT EXISTS ${t} (name VARCHAR(63) PRIMARY KEY, last_id BIGINT NOT NULL) ENGINE=InnoDB`);
      await db.query(`INSERT IGNORE INTO ${t} (name, last_id) VALUES (?, CAST(? AS SIGNED))`, [name, String(last)]);
    },
    advance: (name, size) =>
      withConnection(async (conn) => {
        const [res] = await conn.query(`UPDATE ${t} SET last_id = LAST_INSERT_ID(last_id + ?) WHERE name = ? AND last_id <= ${MAX_SQL} - ?`, [size, name, size]);
        if (res.affectedRows !== 1) return null;
        const [rows] = await conn.query('SELECT CAST(LAST_INSERT_ID() AS CHAR) AS last_id');
        return rows[0].last_id;
      }),
    async read(name) {
      const [rows] = await db.query(`SELECT CAST(last_id AS CHAR) AS last_id FROM ${t} WHERE name = ?`, [name]);
      return rows.length ? rows[0].last_id : null;
    },
  });
}
