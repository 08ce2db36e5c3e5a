// A child process that leases a worker ID and mints with the default
// generator, for the multi-process lease tests. Config (JSON) in argv[2]:
//   store: 'ioredis' | 'node-redis' | 'etcd' | 'local', url, lease options,
//   count: mint this many IDs into the file `out`, then release and exit;
//   or forever: mint until killed, reporting the largest ID over IPC;
//   or untilStop: mint (through lease errors) until the message 'stop', then
//   write every ID to `out`, release and exit; with claimOnGo it claims only
//   on the message 'go', retrying for up to claimForMs while it is refused.
// It yields to the event loop between chunks, as a server does between
// requests, so that renewals run.
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { setImmediate as yieldLoop, setTimeout as sleep } from 'node:timers/promises';
import { configure, nextId } from '../../npm/entries/node.js';
import { open } from './clients.js';

// A minter outlives no test: when the test process ends (a failure, a
// timeout, a kill), the IPC channel closes and the minter goes with it,
// rather than minting into memory for ever. (The listener keeps the channel
// open, so every way out ends in process.exit.)
process.once('disconnect', () => process.exit(2));
const cfg = JSON.parse(process.argv[2]);
const store = await open(cfg.store, cfg.url);
if (cfg.claimOnGo) {
  process.send({ type: 'ready' });
  await once(process, 'message');
}

/** Claims, retrying while refused (another holder) or the store is not back yet, for up to claimForMs. */
async function claim() {
  const end = Date.now() + (cfg.claimForMs ?? 0);
  for (;;) {
    const claimedAt = Date.now();
    try {
      return { lease: await store.lease(cfg.lease), claimedAt };
    } catch (e) {
      if (Date.now() > end) throw e;
      await sleep(20);
    }
  }
}

const claimed = await claim().catch((e) => {
  if (!cfg.claimOnGo) throw e;
  process.send({ type: 'refused', code: e.code, message: e.message });
  process.exit(0);
});
const { lease, claimedAt } = claimed;
configure({ lease });
const acquired = () => ({ type: 'acquired', workerId: lease.workerId, resumeAfterMs: lease.resumeAfterMs, epoch: lease.epoch, claimedAt, heldAt: Date.now() });
process.send?.(acquired());

if (cfg.untilStop) {
  lease.on('acquired', () => process.send({ ...acquired(), claimedAt: null }));
  let stop = false;
  process.once('message', () => (stop = true));
  const chunks = [];
  const errors = {};
  while (!stop) {
    const chunk = new BigUint64Array(1000);
    let i = 0;
    try {
      for (; i < chunk.length; i++) chunk[i] = nextId();
      await sleep(1);
    } catch (e) {
      if (e.name !== 'LeaseError') throw e;
      await sleep(20);
      errors[e.code] = (errors[e.code] ?? 0) + 1;
    } finally {
      chunks.push(chunk.subarray(0, i)); // the IDs handed out before an error count too
    }
  }
  writeFileSync(cfg.out, Buffer.concat(chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength))));
  process.send({ type: 'done', errors });
  await lease.release();
  store.close();
  process.exit(0);
}

if (cfg.forever) {
  for (;;) {
    let max = 0n;
    for (let i = 0; i < 1000; i++) max = nextId();
    process.send({ type: 'minted', max: String(max) });
    await sleep(5);
  }
}

// Every minter holds its lease before any mints: they all overlap in time.
await once(process, 'message');
const ids = new BigUint64Array(cfg.count);
for (let i = 0; i < cfg.count; ) {
  const end = Math.min(cfg.count, i + 20_000);
  for (; i < end; i++) ids[i] = nextId();
  await yieldLoop();
}
writeFileSync(cfg.out, ids);
await lease.release();
store.close();
process.exit(0);
