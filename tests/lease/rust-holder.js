// A Rust service (the snowmint-lease crate's coordinator driver: its
// `store_hold` example, built here) and a Node process lease from one real
// store under one prefix: they never hold one worker ID at once, each sees
// the other's key (same layout, same scripts or transactions), and the exact
// high-water mark the Rust service records at release is where the Node
// lease that takes its worker ID next starts. rust-node-redis.test.js,
// rust-node-etcd.test.js and rust-node-zookeeper.test.js run it on their store.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { open } from './clients.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const timing = { ttlMs: 1500, renewMs: 400, marginMs: 300 };

/** Starts the Rust service `bin` on `url`; resolves once it holds a worker ID. */
async function rustHolder(bin, url, prefix, min, max) {
  const child = spawn(bin, [url, prefix, String(min), String(max)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = once(child, 'exit');
  const first = await lines.next();
  if (first.done) {
    const [code] = await exited;
    throw new Error(`store_hold exited with ${code}`);
  }
  const held = JSON.parse(first.value);
  return {
    ...held,
    async stop() {
      child.stdin.end('stop\n');
      const { value } = await lines.next();
      const [code] = await exited;
      assert.equal(code, 0);
      return JSON.parse(value).releasedAt;
    },
  };
}

/**
 * The test for `store` (a name of clients.js): `start()` gives a server with
 * `url` (Node's client) and `close()`; `rustUrl(server)` is the URL the Rust
 * driver takes.
 */
export function rustNodeSuite({ name, store, start, rustUrl }) {
  let bin;
  test.before(() => {
    execFileSync('cargo', ['build', '--release', '-q', '-p', 'snowmint-lease', '--features', 'redis,etcd,zookeeper', '--example', 'store_hold'], { cwd: ROOT, stdio: 'inherit' });
    bin = join(process.env.CARGO_TARGET_DIR ?? join(ROOT, 'target'), 'release', 'examples', 'store_hold');
  });

  test(`a Rust service and a Node process on one ${name}: distinct worker IDs, each refused what the other holds, the Rust mark honoured by Node`, async () => {
    const server = await start();
    const client = await open(store, server.url);
    const url = rustUrl(server);
    try {
      const rust = await rustHolder(bin, url, 'mixed', 0, 1);
      const opts = { ...timing, prefix: 'mixed', workerIds: { min: 0, max: 1 } };
      const node = await client.lease(opts);
      assert.notEqual(node.workerId, rust.workerId);
      assert.deepEqual([node.workerId, rust.workerId].sort(), [0, 1]);
      // Both IDs are taken, one by each language: a third holder of either is refused.
      await assert.rejects(client.lease(opts), { code: 'ERR_LEASE_UNAVAILABLE' });
      await assert.rejects(rustHolder(bin, url, 'mixed', 0, 1), /exited with 1/);
      // The Rust service releases with its exact mark; Node takes its worker ID after it.
      const releasedAt = await rust.stop();
      const next = await client.lease(opts);
      assert.equal(next.workerId, rust.workerId);
      assert.equal(next.resumeAfterMs, releasedAt);
      // And the other way round: Node releases, Rust takes its worker ID after Node's bound.
      await node.release();
      const back = await rustHolder(bin, url, 'mixed', 0, 1);
      assert.equal(back.workerId, node.workerId);
      assert.ok(back.resumeAfterMs >= node.resumeAfterMs, `${back.resumeAfterMs} < ${node.resumeAfterMs}`);
      await back.stop();
      await next.release();
    } finally {
      await client.close();
      await server.close();
    }
  });
}
