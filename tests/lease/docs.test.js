// The examples of README.md and docs/*.md that need Redis, etcd or ZooKeeper,
// run as written (tests/node/docs.js: how) against real servers started here,
// their imports pointed at this repository. Each finds its server in the
// environment: REDIS_URL, ETCD_URL, ZK_HOSTS. A block that shuts down on
// SIGTERM (a service) runs twice: it must print a line once it is up, then
// exit with status 0 on SIGTERM and on SIGINT, having released its worker ID
// (the second run takes the first's again, rather than waiting for it to
// expire).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { allBlocks, assertRan, entriesOf, resolverFor, runBlock } from '../node/docs.js';
import { startEtcd, startRedis, startZookeeper, tempDir } from './servers.js';

const RUNNER = 'tests/lease/docs.test.js';
const BLOCKS = allBlocks().filter((b) => b.runner === RUNNER);
const resolve = resolverFor(entriesOf(new URL('../../npm/entries/node.js', import.meta.url).href));
const START = { redis: startRedis, etcd: startEtcd, zookeeper: startZookeeper };

const servers = {};
const dir = tempDir('docs');
before(async () => {
  for (const name of new Set(BLOCKS.flatMap((b) => b.servers))) servers[name] = await START[name]();
});
after(async () => {
  for (const s of Object.values(servers)) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the blocks that need these servers are found', () => {
  assert.ok(BLOCKS.length >= 5, `only ${BLOCKS.length} blocks`);
  for (const b of BLOCKS) for (const s of b.servers) assert.ok(START[s], `${b.where}: no server '${s}' here`);
});

/** What a block finds in its environment: its servers, and a lease directory of this file's. */
function env() {
  return {
    SNOWMINT_LEASE_DIR: join(dir, 'leases'),
    ...(servers.redis && { REDIS_URL: servers.redis.url }),
    ...(servers.etcd && { ETCD_URL: servers.etcd.url }),
    ...(servers.zookeeper && { ZK_HOSTS: servers.zookeeper.url }),
  };
}

for (const block of BLOCKS) {
  const service = /process\.(once|on)\('SIGTERM'/.test(block.code);
  test(`${block.where} runs as written${service ? ', and shuts down cleanly on SIGTERM and SIGINT' : ''}`, { timeout: 120_000 }, async () => {
    if (!service) {
      assertRan(block, await runBlock(block, { resolve, env: env() }));
      return;
    }
    const lines = [];
    for (const signal of ['SIGTERM', 'SIGINT']) {
      const run = await runBlock(block, { resolve, env: env(), signalAfterLine: signal });
      assert.ok(run.stdout.length > 0, `${block.where}: printed nothing before it was stopped:\n${run.stderr}`);
      assertRan(block, run);
      lines.push(run.stdout.split('\n')[0]);
    }
    // Released, not left to expire: the second run took the first's worker ID again at once.
    assert.equal(lines[1], lines[0]);
  });
}
