// snowmint/sequence on SQLite (a file here) through better-sqlite3. SQLite
// has no server to stop: the outage is another connection holding the
// database's exclusive lock longer than the sequence's busy timeout.
import { join } from 'node:path';
import { storeSuite } from './suite.js';

storeSuite({
  name: 'sqlite',
  start: async (dir) => ({ conn: { path: join(dir, 'seq.db') }, close: async () => {} }),
  kinds: ['sqlite'],
  outageConn: { timeout: 50 },
  outage(server) {
    let locker = null;
    return {
      async down() {
        const Database = (await import('better-sqlite3')).default;
        locker = new Database(server.conn.path);
        locker.exec('BEGIN EXCLUSIVE');
      },
      async up() {
        locker.exec('COMMIT');
        locker.close();
      },
    };
  },
});
