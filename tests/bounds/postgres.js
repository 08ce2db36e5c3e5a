// A private PostgreSQL cluster for a test: initdb into a temp directory,
// a free loopback port, started by the test and always stopped. As root the
// server programs run as Debian's `postgres` user (PostgreSQL refuses root),
// as in bench/index/src/pg.rs. Debian's postgresql: scripts/setup.d/80-postgres.sh.

import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../lease/servers.js';

/** Debian keeps each major version's server programs in /usr/lib/postgresql/N/bin: the newest. */
function binDir() {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(a) - Number(b))
    : [];
  if (versions.length === 0) throw new Error("PostgreSQL's initdb not found: run scripts/setup.d/80-postgres.sh");
  return join(root, versions.at(-1), 'bin');
}

/** Starts a cluster; `stop()` stops it and deletes its files. */
export async function startPostgres() {
  const bin = binDir();
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'snowmint-pg-'));
  if (root) {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const run = (program, args) => {
    const [cmd, argv] = root ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args];
    execFileSync(cmd, argv, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  };
  const data = join(dir, 'data');
  const port = await freePort();
  const stop = () => {
    try {
      if (existsSync(join(data, 'postmaster.pid'))) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '--encoding=UTF8', '--locale=C']);
    const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off`;
    run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
  } catch (e) {
    const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : '';
    stop();
    throw new Error(`${e.message}\n${e.stderr ?? ''}\n${log}`);
  }
  return { port, url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
}
