// A child process that leases a worker ID and mints with the default
// generator, for the multi-process lease tests. Config (JSON) in argv[2]:
//   store: 'ioredis' | 'node-redis' | 'etcd' | 'local', url, lease options,
//   count: mint this many IDs into the file `out`, then release and exit;
//   or forever: mint until killed, reporting the largest ID over IPC.
// It yields to the event loop between chunks, as a server does between
// requests, so that renewals run.
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { setImmediate as yieldLoop, setTimeout as sleep } from 'node:timers/promises';
import { configure, nextId } from '../../npm/src/node.js';
import { open } from './clients.js';

const cfg = JSON.parse(process.argv[2]);
const store = await open(cfg.store, cfg.url);
const lease = await store.lease(cfg.lease);
configure({ lease });
process.send?.({ type: 'acquired', workerId: lease.workerId, resumeAfterMs: lease.resumeAfterMs });

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
