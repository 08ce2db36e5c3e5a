// Real database servers for the sequence tests, each on a free loopback
// port in its own temp directory, started by the test and always stopped
// (Redis comes from tests/lease/servers.js). PostgreSQL and MariaDB refuse
// to run as root: as root they run as an unprivileged user (Debian's
// `postgres`, created by the postgresql package) through setpriv, which
// execs, so a signal to the child reaches the server itself.

import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, Server, serve, tempDir } from '../lease/servers.js';

const root = process.getuid?.() === 0;

function runAs(user, argv) {
  if (!root) return argv;
  return ['setpriv', `--reuid=${user}`, `--regid=${user}`, '--init-groups', '--', ...argv];
}

/** The directory of PostgreSQL's programs (initdb and postgres are not on PATH in Debian). */
function pgBin() {
  try {
    const out = execFileSync('sh', ['-c', 'ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1'], { encoding: 'utf8' }).trim();
    if (out) return out;
  } catch {}
  return '';
}

/** A private PostgreSQL cluster (trust auth for `postgres`); stop() is a fast shutdown that ends every session. */
export async function startPostgres() {
  const dir = tempDir('pg');
  chmodSync(dir, 0o755);
  const data = join(dir, 'data');
  const bin = pgBin();
  const prog = (name) => (bin ? join(bin, name) : name);
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
  }
  const [cmd, ...args] = runAs('postgres', [prog('initdb'), '-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '--encoding=UTF8', '--locale=C']);
  execFileSync(cmd, args, { stdio: 'ignore', cwd: dir });
  const port = await freePort();
  const pg = (await import('pg')).default;
  const ready = async () => {
    const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    c.on('error', () => {});
    try {
      await c.connect();
      await c.query('SELECT 1');
      return true;
    } finally {
      await c.end().catch(() => {});
    }
  };
  const server = new Server(
    'postgres',
    runAs('postgres', [prog('postgres'), '-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=100', '-c', 'shared_buffers=16MB']),
    ready,
    'SIGINT',
  );
  return serve(server, dir, { port, conn: { host: '127.0.0.1', port } });
}

/** A private MariaDB (mariadbd) with its own datadir, socket and port, a database `snowmint`, and no grant checks. */
export async function startMariadb() {
  const dir = tempDir('mariadb');
  const data = join(dir, 'data');
  mkdirSync(data);
  const user = root ? ['--user=root'] : [];
  execFileSync('mariadb-install-db', ['--no-defaults', `--datadir=${data}`, ...user, '--skip-test-db', '--auth-root-authentication-method=normal'], { stdio: 'ignore' });
  const port = await freePort();
  const mysql = (await import('mysql2/promise')).default;
  const ready = async () => {
    const c = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
    try {
      await c.query('CREATE DATABASE IF NOT EXISTS snowmint');
      return true;
    } finally {
      await c.end().catch(() => {});
    }
  };
  const mariadbd = ['/usr/sbin/mariadbd', '/usr/bin/mariadbd'].find((p) => {
    try {
      execFileSync('test', ['-x', p]);
      return true;
    } catch {
      return false;
    }
  });
  const server = new Server(
    'mariadbd',
    [
      mariadbd ?? 'mariadbd',
      '--no-defaults',
      `--datadir=${data}`,
      `--socket=${join(dir, 'mysqld.sock')}`,
      `--pid-file=${join(dir, 'mysqld.pid')}`,
      `--tmpdir=${dir}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      '--skip-grant-tables',
      '--skip-name-resolve',
      '--skip-log-bin',
      '--innodb-buffer-pool-size=32M',
      '--innodb-log-file-size=16M',
      '--max-connections=200',
      ...user,
    ],
    ready,
  );
  return serve(server, dir, { port, conn: { host: '127.0.0.1', port } });
}
