// The default generator is one per process: worker threads share it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { PACKAGE, sm } from './pkg.js';

const PER_THREAD = 1_000_000;
const WORKER = `
  const { parentPort, workerData } = require('node:worker_threads');
  import(workerData.pkg).then((sm) => {
    const ids = new BigUint64Array(workerData.n);
    for (let i = 0; i < ids.length; i++) ids[i] = sm.nextId();
    let increasing = true;
    for (let i = 1; i < ids.length; i++) if (ids[i] <= ids[i - 1]) increasing = false;
    parentPort.postMessage({ ids, increasing }, [ids.buffer]);
  });
`;

function run(n) {
  return new Promise((resolve, reject) => {
    const w = new Worker(WORKER, { eval: true, workerData: { pkg: PACKAGE, n } });
    w.once('message', resolve);
    w.once('error', reject);
  });
}

test('4 worker_threads x 1M nextId(): 0 duplicates, strictly increasing per thread', async () => {
  const results = await Promise.all([0, 1, 2, 3].map(() => run(PER_THREAD)));
  const all = new BigUint64Array(4 * PER_THREAD);
  results.forEach((r, i) => {
    assert.ok(r.increasing, `thread ${i} is not strictly increasing`);
    all.set(r.ids, i * PER_THREAD);
  });
  all.sort();
  let dups = 0;
  for (let i = 1; i < all.length; i++) if (all[i] === all[i - 1]) dups++;
  assert.equal(dups, 0);
});

// One layout per process: a worker thread reconfigures the shared default
// generator to every preset while this thread mints and decodes. Every ID
// must decode with the layout it was minted with (worker ID and time right),
// and no run size of an old layout may outlive it (Sonyflake has 256 IDs a tick).
const RECONFIGURE = `
  const { workerData } = require('node:worker_threads');
  import(workerData.pkg).then(async (sm) => {
    const flag = new Int32Array(workerData.flag);
    for (let round = 0; round < 5; round++) {
      for (const preset of ['sonyflake', 'discord', 'instagram', 'twitter']) {
        sm.configure({ preset, workerId: 3 });
        for (let i = 0; i < 1000; i++) sm.nextId();
        await new Promise((r) => setTimeout(r, 15));
      }
    }
    Atomics.store(flag, 0, 1);
  });
`;

test('a worker reconfiguring the default generator to every preset never leaves this thread on a stale layout', async () => {
  sm.configure({ workerId: 3 });
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const w = new Worker(RECONFIGURE, { eval: true, workerData: { pkg: PACKAGE, flag: flag.buffer } });
  const failed = new Promise((_, reject) => w.once('error', reject));
  let _minted = 0;
  let checked = 0;
  const deadline = Date.now() + 30_000;
  const mint = () => {
    while (Atomics.load(flag, 0) === 0 && Date.now() < deadline) {
      for (let i = 0; i < 200; i++, _minted++) {
        const rec = sm.decode(sm.nextId());
        const off = rec.timestamp - Date.now();
        if (rec.workerId !== 3 || off > 1000 || off < -1000) {
          throw new Error(`ID ${rec.id} decoded with a stale layout: worker ${rec.workerId}, ${off} ms from now`);
        }
        checked++;
      }
      return new Promise((r) => setImmediate(r)).then(mint);
    }
  };
  await Promise.race([mint(), failed]);
  assert.equal(Atomics.load(flag, 0), 1, 'the worker did not finish in time');
  assert.ok(checked > 1000, `only ${checked} IDs checked`);
  await w.terminate();
});
