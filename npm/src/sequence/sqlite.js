// SQLite through better-sqlite3 (synchronous): a table with one row per
// sequence advanced by one UPDATE ... RETURNING per block. Processes that
// share the file wait on SQLite's lock (better-sqlite3's `timeout`).

import { counterStore, tableOptions, storeError, MAX_SQL } from './store.js';

/**
 * @param db a better-sqlite3 Database
 * @param options.table the table of counters (default snowmint_sequences)
 */
export function sqliteStore(db, options) {
  const o = tableOptions('sqliteStore options', options, ['table']);
  if (db === null || typeof db !== 'object' || typeof db.prepare !== 'function' || typeof db.exec !== 'function') {
    throw storeError('sqliteStore(db) needs a better-sqlite3 Database');
  }
  const t = `"${o.table}"`;
  let stmts = null;
  const prepared = () =>
    (stmts ??= {
      advance: db.prepare(`UPDATE ${t} SET last_id = last_id + @size WHERE name = @name AND last_id <= ${MAX_SQL} - @size RETURNING last_id`).safeIntegers(true),
      read: db.prepare(`SELECT last_id FROM ${t} WHERE name = ?`).safeIntegers(true),
    });
  return counterStore(`SQLite (better-sqlite3) table ${o.table} in ${db.name}`, {
    async ensure(name, last) {
      db.exec(`CREATE TABLE IF NOT EXISTS ${t} (name TEXT PRIMARY KEY, last_id INTEGER NOT NULL)`);
      db.prepare(`INSERT OR IGNORE INTO ${t} (name, last_id) VALUES (?, ?)`).run(name, last);
    },
    async advance(name, size) {
      return prepared().advance.get({ size: BigInt(size), name })?.last_id ?? null;
    },
    async read(name) {
      return prepared().read.get(name)?.last_id ?? null;
    },
  });
}
