// snowmint/lease on a real ZooKeeper (a standalone server started here on a
// free loopback port): the fault suite every store with a TTL passes, and
// what only ZooKeeper has: a session that expires under its holder.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import zookeeper from 'node-zookeeper-client';
import { Snowflake, decode } from '../../npm/entries/node.js';
import { zookeeperLease } from '../../npm/src/lease/index.js';
import { assertUnique, max, ttlLeaseSuite, until, within } from './harness.js';
import { startZookeeper } from './servers.js';

const { server, timing } = ttlLeaseSuite({
  name: 'zookeeper',
  start: startZookeeper,
  stores: ['zookeeper'],
  total: 2_000_000,
  dataLoss: { 'a restart with its data directory wiped': (s) => s.restartEmpty() },
  serverClock: /ZooKeeper server's clock \(znode mtime\)/,
});

/** A client factory that keeps what it made, so a test can reach a lease's session. */
function clients(url) {
  const made = [];
  const make = () => {
    const c = zookeeper.createClient(url, { sessionTimeout: timing.ttlMs, spinDelay: 100 });
    made.push(c);
    return c;
  };
  return { make, made };
}

/**
 * A TCP relay to the server at `upstream` for the clients whose session a
 * test ends: `cut()` drops their connections and refuses new ones, `mend()`
 * lets them reconnect. `close()` stops it.
 */
async function relay(upstream) {
  const [host, port] = upstream.split(':');
  const open = new Set();
  let cut = false;
  const listener = createServer((client) => {
    if (cut) return client.destroy();
    const server = connect(Number(port), host);
    for (const [from, to] of [
      [client, server],
      [server, client],
    ]) {
      open.add(from);
      from.pipe(to);
      from.on('error', () => {});
      from.on('close', () => {
        open.delete(from);
        to.destroy();
      });
    }
  });
  listener.listen(0, '127.0.0.1');
  await once(listener, 'listening');
  const drop = () => {
    for (const socket of open) socket.destroy();
  };
  return {
    url: `127.0.0.1:${listener.address().port}`,
    upstream,
    cut() {
      cut = true;
      drop();
    },
    mend() {
      cut = false;
    },
    close() {
      listener.close();
      drop();
    },
  };
}

/**
 * Ends `client`'s session from outside, as an operator (or an expiry) would:
 * its ephemeral znodes are deleted at once. The client reaches the server
 * through `through` (a relay), which is cut first: otherwise the client,
 * whose connection the server drops when another attaches to its session,
 * reconnects within a millisecond and takes the session back before the
 * close (seen in about one attempt in two). A raw connection to the server
 * itself then attaches to the session (a ConnectRequest with its id and
 * password) and closes it, until the server answers the close; the relay is
 * mended, and the client must hear that its session expired when it
 * reconnects.
 */
async function killSession(client, through) {
  const [host, port] = through.upstream.split(':');
  const attach = Buffer.alloc(4 + 4 + 8 + 4 + 8 + 4 + 16 + 1);
  attach.writeInt32BE(attach.length - 4, 0); // length; protocol version 0, last zxid seen 0
  attach.writeInt32BE(timing.ttlMs, 16);
  client.getSessionId().copy(attach, 20);
  attach.writeInt32BE(16, 28);
  client.getSessionPassword().copy(attach, 32);
  const close = Buffer.alloc(12);
  close.writeInt32BE(8, 0); // length; xid 1, type closeSession (-11)
  close.writeInt32BE(1, 4);
  close.writeInt32BE(-11, 8);
  const expired = once(client, 'expired');
  through.cut();
  let closed = false;
  for (let attempt = 0; attempt < 5 && !closed; attempt++) {
    const chunks = [];
    const socket = connect(Number(port), host, () => socket.write(Buffer.concat([attach, close])));
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {});
    await within(once(socket, 'close'), 10_000, 'the server kept a connection that closed its session open');
    // The ConnectResponse (4 + 37 bytes), then the close's reply: length, xid 1, zxid, error 0.
    const got = Buffer.concat(chunks);
    closed = got.length >= 61 && got.readInt32BE(45) === 1 && got.readInt32BE(57) === 0;
  }
  through.mend();
  if (!closed) throw new Error('the server did not answer a closeSession in 5 attempts');
  await within(expired, 10_000, 'the client did not hear that its session ended');
}

test('zookeeper: a session that expires under a minting holder: a successor claims its worker ID at once but mints only above its bound; the old holder stops, re-acquires on a new session once free; 0 duplicates', async (t) => {
  const { url } = server();
  const opts = { ...timing, path: '/expiry', workerIds: { min: 2, max: 2 } };
  const through = await relay(url);
  const old = clients(through.url);
  const a = await zookeeperLease(old.make, opts);
  const sa = new Snowflake({ lease: a });
  const before = [];
  const errors = new Set();
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        for (let i = 0; i < 100; i++) before.push(sa.next());
      } catch (e) {
        errors.add(e.code);
      }
      await sleep(5);
    }
  })();
  try {
    await sleep(timing.renewMs * 1.5); // renewed at least once
    const lost = once(a, 'lost');
    const expiredAt = performance.now();
    await killSession(old.made[0], through);
    // The worker znode is gone: a successor gets worker ID 2 now, but starts only after a's bound.
    const b = await zookeeperLease(clients(url).make, opts);
    const waited = performance.now() - expiredAt;
    assert.equal(b.workerId, 2);
    await within(lost, timing.ttlMs * 2, 'the old holder did not notice that its session ended');
    assert.throws(() => sa.nextBatch(10), { code: 'ERR_LEASE_EXPIRED' });
    running = false;
    await loop;
    const sb = new Snowflake({ lease: b });
    const after = Array.from({ length: 1000 }, () => sb.next());
    const lastOld = max(before);
    t.diagnostic(`successor held worker ID 2 ${Math.round(waited)} ms after the session was killed; old holder minted ${before.length} IDs, errors ${[...errors]}`);
    assert.ok(after[0] > lastOld, 'the successor minted below the old holder');
    assert.ok(decode(after[0]).timestamp > b.resumeAfterMs);
    // The old holder keeps trying (on a new session) and gets the worker ID back once it is free.
    await b.release();
    await within(once(a, 'acquired'), timing.renewMs * 4, 'the old holder did not re-acquire its worker ID');
    assert.ok(old.made.length >= 2, 'the old holder did not open a new session');
    const again = Array.from({ length: 1000 }, () => sa.next());
    assert.ok(again[0] > after.at(-1));
    assertUnique([BigUint64Array.from(before), BigUint64Array.from(after), BigUint64Array.from(again)]);
  } finally {
    running = false;
    await loop;
    await a.release();
    through.close();
  }
});

test('zookeeper: a lease on a client (not a factory) ends with its session: re-acquiring fails with a message that says what to do', async () => {
  const { url } = server();
  const through = await relay(url);
  const c = zookeeper.createClient(through.url, { sessionTimeout: timing.ttlMs, spinDelay: 100 });
  const connected = once(c, 'connected');
  c.connect();
  await connected;
  try {
    const lease = await zookeeperLease(c, { ...timing, path: '/own-client' });
    assert.equal(lease.kind, 'zookeeper');
    await killSession(c, through);
    await within(once(lease, 'lost'), timing.ttlMs * 2, 'the lease did not notice that its session ended');
    await until(() => /give zookeeperLease\(\) a function that creates a client/.test(String(expiredMessage(lease))), timing.renewMs * 3, 'no hint');
    await lease.release();
  } finally {
    c.close();
    through.close();
  }
  assert.throws(() => zookeeperLease({}), { name: 'ConfigError', code: 'ERR_INVALID_OPTION' });
  assert.throws(() => zookeeperLease(c, { path: 'relative' }), { name: 'ConfigError', code: 'ERR_INVALID_OPTION' });
});

/** The message a generator on `lease` fails with now. */
function expiredMessage(lease) {
  try {
    lease.check(Date.now());
  } catch (e) {
    return e.message;
  }
  return '';
}
