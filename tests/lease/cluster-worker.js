// A node:cluster worker of the zero-config test: no worker ID, no lease
// options, just nextId() — the default generator leases its worker ID.
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { decode, nextId } from '../../npm/entries/node.js';

const ids = new BigUint64Array(Number(process.env.COUNT));
ids[0] = nextId();
process.send({ workerId: decode(ids[0]).workerId });
await once(process, 'message'); // every worker holds its worker ID before any mints on
for (let i = 1; i < ids.length; i++) ids[i] = nextId();
writeFileSync(process.env.OUT, ids);
process.disconnect();
