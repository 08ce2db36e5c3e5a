// A process minting with zero configuration (the default generator's local
// lease, in SNOWMINT_LEASE_DIR) for the lock-file fault tests: it reports its
// worker ID after the first nextId(), mints until the parent says 'stop',
// counts LeaseError ERR_LEASE_LOST (the lease re-acquires by itself), then
// writes every ID it handed out to argv[2] and reports what it saw.
import { writeFileSync } from 'node:fs';
import { setImmediate as yieldLoop } from 'node:timers/promises';
import { decode, nextId } from '../../npm/entries/node.js';

const chunks = [];
let chunk = new BigUint64Array(1 << 16);
let at = 0;
const take = (id) => {
  if (at === chunk.length) {
    chunks.push(chunk);
    chunk = new BigUint64Array(1 << 16);
    at = 0;
  }
  chunk[at++] = id;
};
let stop = false;
process.on('message', (m) => m === 'stop' && (stop = true));
// Gone with the test process (tests/lease/minter.js says why).
const orphaned = () => process.exit(2);
process.once('disconnect', orphaned);

const first = nextId();
take(first);
process.send({ type: 'ready', workerId: decode(first).workerId });
let lost = 0;
const workerIds = new Set([decode(first).workerId]);
while (!stop) {
  for (let i = 0; i < 5000; i++) {
    try {
      take(nextId());
    } catch (e) {
      if (e.code !== 'ERR_LEASE_LOST') throw e;
      lost++;
    }
  }
  await yieldLoop();
}
chunks.push(chunk.subarray(0, at));
for (const c of chunks) for (const id of c) workerIds.add(decode(id).workerId);
const all = new BigUint64Array(chunks.reduce((n, c) => n + c.length, 0));
let o = 0;
for (const c of chunks) {
  all.set(c, o);
  o += c.length;
}
writeFileSync(process.argv[2], all);
process.send({ type: 'done', lost, workerIds: [...workerIds] });
process.off('disconnect', orphaned);
process.disconnect();
