// Real Redis, etcd and ZooKeeper servers for the lease tests: each on a free
// loopback port, in its own temp directory, started by the test and always
// stopped. Debian's redis-server and etcd-server (scripts/setup.d/50-lease.sh)
// and zookeeper (scripts/setup.d/55-zookeeper.sh).

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

/** A port no one listens on right now (the kernel picks it). */
export async function freePort() {
  const srv = createServer().listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address();
  srv.close();
  await once(srv, 'close');
  return port;
}

export function tempDir(name) {
  return mkdtempSync(join(tmpdir(), `snowmint-${name}-`));
}

export async function until(what, ok, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    if (await ok().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`${what} did not come up within ${ms} ms`);
    await sleep(50);
  }
}

/** Sends `text` and resolves with the whole reply (the server closes the connection). */
function ask(port, text) {
  return new Promise((resolve, reject) => {
    let reply = '';
    const s = connect(port, '127.0.0.1', () => s.write(text));
    s.setTimeout(1000, () => s.destroy(new Error('timeout')));
    s.on('data', (d) => (reply += d));
    s.once('end', () => resolve(reply));
    s.once('error', reject);
  });
}

/** Sends one inline command and resolves with the first reply line. */
function redisInline(port, command) {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.write(`${command}\r\n`));
    s.setTimeout(1000, () => s.destroy(new Error('timeout')));
    s.once('data', (d) => {
      s.end();
      resolve(d.toString().split('\r\n')[0]);
    });
    s.once('error', reject);
  });
}

/**
 * A server process that can be stopped and started again on the same port
 * and data directory (to take it away from the leases for a while).
 * `stopSignal` is the signal of a shutdown that does not wait for clients.
 */
export class Server {
  constructor(name, argv, ready, stopSignal = 'SIGTERM') {
    this.name = name;
    this.argv = argv;
    this.ready = ready;
    this.stopSignal = stopSignal;
    this.proc = null;
  }
  async start() {
    this.proc = spawn(this.argv[0], this.argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    this.proc.stderr.on('data', (d) => (err = (err + d).slice(-4000)));
    const exited = once(this.proc, 'exit').then(([code]) => {
      throw new Error(`${this.name} exited with ${code}: ${err}`);
    });
    await Promise.race([until(this.name, this.ready), exited]);
    exited.catch(() => {});
    return this;
  }
  async stop() {
    const p = this.proc;
    this.proc = null;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    p.kill(this.stopSignal);
    const killer = setTimeout(() => p.kill('SIGKILL'), 5000);
    await once(p, 'exit');
    clearTimeout(killer);
  }
}

/**
 * Starts `server` and gives it what the tests use besides `props` (its port,
 * how to reach it): close(), which stops it and removes `dir`, and with
 * `data` (its data directory) restartEmpty(), a restart that comes back
 * empty, as a server rebuilt from nothing or with a lost disk does.
 */
export async function serve(server, dir, props, data) {
  await server.start();
  const wipe = data && {
    async restartEmpty() {
      await server.stop();
      rmSync(data, { recursive: true, force: true });
      mkdirSync(data);
      await server.start();
    },
  };
  return Object.assign(server, props, wipe, {
    async close() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

/** redis-server with an append-only file synced on every write, as a lease store needs. */
export async function startRedis() {
  const dir = tempDir('redis');
  const port = await freePort();
  const server = new Server(
    'redis-server',
    ['redis-server', '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--protected-mode', 'no'],
    async () => (await redisInline(port, 'PING')) === '+PONG',
  );
  // restartEmpty(): the AOF is deleted while it is down (no persistence, or a lost disk).
  return serve(
    server,
    dir,
    {
      port,
      url: `redis://127.0.0.1:${port}`,
      /** Every key gone at once, as an operator's FLUSHALL does it. */
      async flushAll() {
        const reply = await redisInline(port, 'FLUSHALL');
        if (reply !== '+OK') throw new Error(`FLUSHALL answered ${reply}`);
      },
    },
    dir,
  );
}

/** A one-member etcd cluster. */
export async function startEtcd() {
  const dir = tempDir('etcd');
  const [port, peer] = [await freePort(), await freePort()];
  const client = `http://127.0.0.1:${port}`;
  const peerUrl = `http://127.0.0.1:${peer}`;
  const server = new Server(
    'etcd',
    [
      'etcd',
      '--name',
      'lease-test',
      '--data-dir',
      join(dir, 'data'),
      '--listen-client-urls',
      client,
      '--advertise-client-urls',
      client,
      '--listen-peer-urls',
      peerUrl,
      '--initial-advertise-peer-urls',
      peerUrl,
      '--initial-cluster',
      `lease-test=${peerUrl}`,
      '--log-level',
      'error',
    ],
    async () => (await fetch(`${client}/health`)).ok,
  );
  return serve(server, dir, { port, url: client }, join(dir, 'data'));
}

/**
 * A standalone ZooKeeper from Debian's jars (ZooKeeperServerMain, as zkServer.sh
 * runs it, without the admin web server). tickTime 500 ms: session timeouts
 * from 1 s to 10 s, expiry checked every half second. A JVM tuned to start
 * fast (about 1 s here) and stay small.
 */
export async function startZookeeper() {
  const dir = tempDir('zookeeper');
  const port = await freePort();
  const cfg = join(dir, 'zoo.cfg');
  writeFileSync(
    cfg,
    [
      'tickTime=500',
      `dataDir=${join(dir, 'data')}`,
      `clientPort=${port}`,
      'clientPortAddress=127.0.0.1',
      'maxClientCnxns=0',
      // Written to the OS, not fsynced per write: a test server's data outlives its restarts, not a power cut.
      'forceSync=no',
      'admin.enableServer=false',
      '4lw.commands.whitelist=srvr',
      '',
    ].join('\n'),
  );
  const jars = ['zookeeper', 'slf4j-nop'].map((j) => `/usr/share/java/${j}.jar`).join(':');
  const server = new Server(
    'zookeeper',
    ['java', '-Xmx256m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-cp', jars, 'org.apache.zookeeper.server.ZooKeeperServerMain', cfg],
    // 'srvr' names the mode only once the database is loaded and requests are served.
    async () => (await ask(port, 'srvr')).includes('Mode: standalone'),
  );
  return serve(server, dir, { port, url: `127.0.0.1:${port}` }, join(dir, 'data'));
}
