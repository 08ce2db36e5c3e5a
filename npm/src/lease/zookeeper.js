// The many-hosts lease on ZooKeeper (the `node-zookeeper-client` client), as
// Twitter and Meituan's Leaf hand out worker IDs: a worker ID is an
// ephemeral znode `<path>/worker/<id>` (data: the holder's token and its
// last reported clock) that ZooKeeper deletes when the holder's session
// ends; its high-water bound is a persistent znode `<path>/hwm/<id>`.
// Renewal is one transaction: a versioned setData on the worker znode (it
// fails if the znode is gone or is someone else's, which fences) and the new
// bound. The worker znode's mtime is the server's clock at that write, so
// each renewal also measures the holder's clock against ZooKeeper's, and a
// peer's znode gives its last reported clock with the server's time of the
// report.
//
// How soon a dead holder's worker ID is free again is ZooKeeper's session
// timeout (the server deletes the ephemeral znode), not ttlMs; ttlMs still
// sets the fence: a holder that cannot renew stops minting ttlMs - marginMs
// after its last renewal, whatever its session does. A successor (after an
// expiry, or a session killed by an operator) starts after the recorded
// bound, so it never repeats the old holder's IDs either way.
//
// Data loss (a server rebuilt from an empty data directory) takes the bounds
// with it: as in redis.js and etcd.js, the first claim creates a marker
// `<path>/data`, and a claim that finds no bound waits until one TTL after
// the marker's creation (ctime), measured on the server's clock.

import { ConfigError, LeaseError } from '../errors.js';
import { acquireLease } from './lease.js';
import { clockOf, ttlOptions } from './options.js';
import { coordinatorSkewOptions } from './skew.js';
import { workerIdRange } from './layout.js';
import { addon } from '../addon.js';

// node-zookeeper-client's Exception codes (the package is an optional peer: not imported).
const NO_NODE = -101;
const BAD_VERSION = -103;
const NODE_EXISTS = -110;
const SESSION_EXPIRED = -112;
/** What a write on our worker znode fails with once it is not ours: gone, someone else's, or our session ended. */
const NOT_OURS = [NO_NODE, BAD_VERSION, SESSION_EXPIRED];
const EPHEMERAL = 1;
/** At most this many peers' znodes are read per renewal (a random sample), so renewals stay cheap in a large fleet. */
const PEER_SAMPLE = 16;

const codeOf = (e) => (typeof e?.getCode === 'function' ? e.getCode() : undefined);
/** A ZooKeeper `long` (an 8-byte big-endian Buffer) as a Number. */
const long = (buf) => Number(buf.readBigInt64BE(0));

/** One client call as a promise: `op(client, callback)`. */
function call(client, op) {
  return new Promise((resolve, reject) => op(client, (e, ...r) => (e ? reject(e) : resolve(r))));
}

/**
 * The session the lease works in. With a client, that client (the lease's
 * worker ID ends with its session: after it ends it cannot claim again);
 * with a function that makes clients, a new client (connected and, at
 * release, closed by the lease) whenever the current session has ended.
 *
 * A session has ended when the client says it expired, or, as Curator
 * decides it, when the client has been disconnected for longer than the
 * session timeout: the server has expired it by then, or cannot be reached
 * at all, or was rebuilt from nothing and refuses the client (a server that
 * has seen less than the client never answers it, so no expiry is reported).
 */
function sessions(clientOrFactory, connectMs) {
  const factory = typeof clientOrFactory === 'function' ? clientOrFactory : null;
  let current = null;
  let disconnectedAt = null;
  let expired = false;
  const onState = (state) => {
    // The client reports EXPIRED once, then DISCONNECTED for good.
    if (state.name === 'EXPIRED') expired = true;
    if (state.name === 'DISCONNECTED') disconnectedAt ??= performance.now();
    else disconnectedAt = null;
  };
  const use = (client) => {
    current?.removeListener('state', onState);
    current = client;
    disconnectedAt = null;
    expired = client.getState().name === 'EXPIRED';
    client.on('state', onState);
    return client;
  };
  const connect = (client) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        client.close();
        reject(new LeaseError('ERR_LEASE_TIMEOUT', `the ZooKeeper client did not connect within ${connectMs} ms`));
      }, connectMs);
      client.once('connected', () => {
        clearTimeout(timer);
        resolve(use(client));
      });
      client.connect();
    });
  return {
    /** Whether the current session has ended (its ephemeral znodes are gone, or soon will be). */
    ended() {
      if (expired) return true;
      return disconnectedAt !== null && performance.now() - disconnectedAt > current.getSessionTimeout();
    },
    /** The client to claim with: a new session if the last one ended. */
    async forClaim() {
      if (!this.ended()) return current;
      if (!factory) {
        throw new LeaseError(
          'ERR_LEASE_EXPIRED',
          'the ZooKeeper session of the lease ended (expired, or disconnected for longer than its timeout), and a client cannot open a new one: give zookeeperLease() a function that creates a client (the lease then connects a new one)',
        );
      }
      current.close();
      return connect(factory());
    },
    async first() {
      return factory ? connect(factory()) : use(clientOrFactory);
    },
    get client() {
      return current;
    },
    close() {
      current?.removeListener('state', onState);
      if (factory) current?.close();
    },
  };
}

/**
 * Leases a worker ID in ZooKeeper; resolves once the lease is held and its
 * high-water bound has passed on the lease's clock.
 *
 * @param client a `node-zookeeper-client` Client (yours: not closed by the lease; a lease on it
 *   ends with its session), or a function returning a new, unconnected Client (the lease connects
 *   it, opens a new one after a session expiry, and closes it at release)
 * @param {{ path?: string, ttlMs?: number, renewMs?: number, marginMs?: number,
 *   workerIds?: { min?: number, max?: number }, preset?: string, layout?: object,
 *   maxSkewMs?: number, onSkew?: 'warn' | 'refuse', clock?: object | (() => number) }} [options]
 */
export function zookeeperLease(client, options = {}) {
  if (typeof client !== 'function' && (typeof client?.transaction !== 'function' || typeof client?.getState !== 'function')) {
    throw new ConfigError('ERR_INVALID_OPTION', 'zookeeperLease() needs a node-zookeeper-client Client, or a function that creates one');
  }
  const root = options.path ?? '/snowmint';
  if (typeof root !== 'string' || !root.startsWith('/') || root.endsWith('/')) {
    throw new ConfigError('ERR_INVALID_OPTION', `path must be an absolute znode path without a trailing slash, got ${JSON.stringify(root)}`);
  }
  const timing = ttlOptions(options);
  const range = workerIdRange(options);
  const skew = coordinatorSkewOptions(options);
  const session = sessions(client, timing.ttlMs);
  const zk = (op) => call(session.client, op);
  const workerPath = (id) => `${root}/worker/${id}`;
  const hwmPath = (id) => `${root}/hwm/${id}`;
  const data = (s) => Buffer.from(String(s));
  /**
   * Our worker znode: its data version (only our writes move it: a setData
   * on that version fails on anyone else's) and the writes to it, one after
   * another: a renewal that timed out for the lease may still be queued in
   * the client (it sends it on reconnection), and the next one must carry the
   * version that one leaves. A new claim starts afresh (the old session's
   * queue may never drain).
   */
  let held = null;
  /** The client whose session created the lease's znode directories. */
  let ensured = null;
  const serial = (mine, fn) => {
    const run = mine.writes.then(fn, fn);
    mine.writes = run.catch(() => {});
    return run;
  };

  /** Creates a persistent znode (and its parents) unless it exists. */
  const ensure = async (path, text = null) => {
    try {
      await zk((c, cb) => c.mkdirp(path, text === null ? null : data(text), cb));
    } catch (e) {
      if (codeOf(e) !== NODE_EXISTS) throw e;
    }
  };
  const getData = async (path) => {
    try {
      const [buf, stat] = await zk((c, cb) => c.getData(path, cb));
      return { text: buf ? buf.toString() : '', stat };
    } catch (e) {
      if (codeOf(e) === NO_NODE) return null;
      throw e;
    }
  };
  const children = async (path) => {
    try {
      return (await zk((c, cb) => c.getChildren(path, cb)))[0];
    } catch (e) {
      if (codeOf(e) === NO_NODE) return [];
      throw e;
    }
  };

  const store = {
    kind: 'zookeeper',
    where: root,
    sync: false,
    // Only the free worker IDs' bounds (one read each): a taken one cannot be claimed anyway.
    async bounds() {
      await session.forClaim();
      const [used, taken] = await Promise.all([children(`${root}/hwm`), children(`${root}/worker`)]);
      const busy = new Set(taken);
      const free = used.filter((id) => !busy.has(id));
      const read = await Promise.all(free.map(async (id) => [Number(id), await getData(hwmPath(id))]));
      return new Map(read.filter(([, d]) => d !== null).map(([id, d]) => [id, Number(d.text)]));
    },
    async claim(ids, token) {
      const client = await session.forClaim();
      // Once per session: a server that lost its data also ended every session.
      if (ensured !== client) {
        await ensure(`${root}/worker`);
        await ensure(`${root}/hwm`);
        await ensure(`${root}/data`, timing.ttlMs); // the marker: its ctime is when the store's data began
        ensured = client;
      }
      const taken = new Set((await children(`${root}/worker`)).map(Number));
      for (const id of ids) {
        if (taken.has(id)) continue;
        try {
          await zk((c, cb) => c.create(workerPath(id), data(token), EPHEMERAL, cb));
        } catch (e) {
          if (codeOf(e) === NODE_EXISTS) continue;
          throw e;
        }
        held = { id, version: 0, writes: Promise.resolve() };
        const [bound, mine, marker] = await Promise.all([getData(hwmPath(id)), getData(workerPath(id)), getData(`${root}/data`)]);
        if (bound === null) await ensure(hwmPath(id));
        // The rest of the first TTL (the marker's creator's) since the marker's
        // birth, at the claim: both on the server's clock.
        const waitMs = bound === null && mine && marker ? Math.max(0, long(marker.stat.ctime) + Number(marker.text) - long(mine.stat.ctime)) : 0;
        return { workerId: id, bound: Number(bound?.text || 0), waitMs };
      }
      return null;
    },
    async extend(id, token, bound, clockMs) {
      const mine = held;
      if (mine?.id !== id || session.ended()) return false;
      let results;
      try {
        results = await serial(mine, () =>
          zk((c, cb) =>
            c
              .transaction()
              .setData(workerPath(id), data(`${token} ${clockMs}`), mine.version)
              .setData(hwmPath(id), data(bound), -1)
              .commit(cb),
          ),
        );
      } catch (e) {
        if (NOT_OURS.includes(codeOf(e))) return false;
        throw e;
      }
      const stat = results[0][0].stat;
      mine.version = stat.version;
      return { server: { name: "ZooKeeper server's clock (znode mtime)", ms: long(stat.mtime) }, peers: await peers(id) };
    },
    async release(id, token, hwm) {
      const mine = held;
      held = null;
      let timer;
      try {
        if (mine?.id !== id || session.ended()) return;
        const done = serial(mine, () => {
          const txn = session.client.transaction();
          if (hwm !== null) txn.setData(hwmPath(id), data(hwm), -1);
          return zk((_, cb) => txn.remove(workerPath(id), mine.version).commit(cb));
        });
        // A client that cannot reach the server would hold it queued forever;
        // closing the session (below) frees the worker ID anyway, once it reaches it.
        await Promise.race([done, new Promise((resolve) => (timer = setTimeout(resolve, timing.ttlMs)))]);
      } catch (e) {
        // Not ours any more (expired, or someone else's now): nothing to free.
        if (!NOT_OURS.includes(codeOf(e))) throw e;
      } finally {
        clearTimeout(timer);
        session.close();
      }
    },
  };

  /** The last reports of up to PEER_SAMPLE other live holders: their clock and the server's when they wrote it. */
  async function peers(self) {
    const ids = (await children(`${root}/worker`)).map(Number).filter((id) => id !== self);
    for (let i = ids.length - 1; i > 0 && ids.length > PEER_SAMPLE; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [ids[i], ids[j]] = [ids[j], ids[i]];
    }
    const read = await Promise.all(ids.slice(0, PEER_SAMPLE).map(async (id) => ({ id, d: await getData(workerPath(id)) })));
    const out = [];
    for (const { id, d } of read) {
      const clockMs = Number(d?.text.split(' ')[1]);
      // A peer that has not reported yet (just claimed) has no clock to compare.
      if (d && d.stat.version > 0 && Number.isFinite(clockMs)) out.push({ workerId: id, clockMs, serverMs: long(d.stat.mtime) });
    }
    return out;
  }

  const clock = clockOf(options.clock, addon.monotonicNowMs);
  return (async () => {
    await session.first();
    try {
      return await acquireLease(store, { clock, range, timing, skew });
    } catch (e) {
      session.close();
      throw e;
    }
  })();
}
