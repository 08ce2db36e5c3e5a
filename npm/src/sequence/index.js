// snowmint/sequence: short, dense IDs (1, 2, 3, ...) from a counter in a
// database the application already runs, reserved a block at a time and
// handed out locally. See docs/sequence.md.
//   sequence(store, options)   the sequence: next(), nextSync(), nextBatch(n), close()
//   postgresStore(client)      pg or postgres.js
//   mysqlStore(pool)           mysql2 (MySQL, MariaDB)
//   sqliteStore(db)            better-sqlite3
//   redisStore(client)         ioredis or node-redis
import { Sequence } from './sequence.js';

export { postgresStore } from './postgres.js';
export { mysqlStore } from './mysql.js';
export { sqliteStore } from './sqlite.js';
export { redisStore } from './redis.js';
export { SequenceError } from '../errors.js';

/** A block sequence over `store`. */
export function sequence(store, options) {
  return new Sequence(store, options);
}
