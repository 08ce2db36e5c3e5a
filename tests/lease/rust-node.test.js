// A Rust service (the snowmint-lease crate's `hold` example, built here) and
// a Node service on one host, both with zero configuration (no worker ID, no
// SNOWMINT_LEASE_DIR; one TMPDIR, as two services of one user share), lease
// from the same directory, <tmpdir>/snowmint-leases-<user>, hold distinct
// worker IDs at the same time, and mint IDs that never collide.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { decode } from '../../npm/entries/node.js';
import { forkMinter } from './harness.js';
import { assertUnique, storedBound } from './harness.js';
import { tempDir } from './servers.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const work = tempDir('rust-node');
test.after(() => rmSync(work, { recursive: true, force: true }));

// The services' environment: a TMPDIR of their own, nothing configured.
const env = { ...process.env, TMPDIR: work };
delete env.SNOWMINT_LEASE_DIR;
delete env.SNOWMINT_WORKER_ID;

const readIds = (file) => {
  const buf = readFileSync(file);
  return new BigUint64Array(buf.buffer, buf.byteOffset, buf.byteLength / 8);
};

let hold;
test.before(() => {
  execFileSync('cargo', ['build', '--release', '-q', '-p', 'snowmint-lease', '--example', 'hold'], { cwd: ROOT, stdio: 'inherit' });
  const targetDir = process.env.CARGO_TARGET_DIR ?? join(ROOT, 'target');
  hold = join(targetDir, 'release', 'examples', process.platform === 'win32' ? 'hold.exe' : 'hold');
});

/** Starts the Rust service; resolves with it and its worker ID once it holds one. */
async function startRust(out) {
  const child = spawn(hold, [out], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const [line] = await Promise.race([once(lines, 'line'), once(child, 'exit').then(([code]) => assert.fail(`the Rust service exited with ${code} before leasing`))]);
  return { child, workerId: JSON.parse(line).workerId, stop: () => child.stdin.end('stop\n') };
}

/** Starts the Node service (zero-config nextId()); resolves once it holds a worker ID. */
async function startNode(out) {
  const child = forkMinter(new URL('./zero-config-minter.js', import.meta.url).pathname, [out], { env });
  const [msg] = await Promise.race([once(child, 'message'), once(child, 'exit').then(([code]) => assert.fail(`the Node service exited with ${code} before leasing`))]);
  return { child, workerId: msg.workerId, stop: () => child.send('stop') };
}

for (const [name, first, second] of [
  ['Rust first, then Node', startRust, startNode],
  ['Node first, then Rust', startNode, startRust],
]) {
  test(`one Rust and one Node process, zero config (${name}): distinct worker IDs at once, 0 duplicates`, async () => {
    const round = tempDir('round');
    try {
      const a = await first(join(round, 'a.bin'));
      const b = await second(join(round, 'b.bin'));
      assert.notEqual(a.workerId, b.workerId, `both hold worker ID ${a.workerId}`);
      // Both lease in the one default directory, and hold their files there.
      const dir = join(work, `snowmint-leases-${userInfo().username}`);
      const files = readdirSync(dir);
      for (const s of [a, b]) assert.ok(files.includes(`worker-${s.workerId}.lock`), `${files} lacks worker ${s.workerId}`);
      await sleep(1200); // both mint at once, past one extension of the reserved bound
      a.stop();
      b.stop();
      const [[codeA], [codeB]] = await Promise.all([once(a.child, 'exit'), once(b.child, 'exit')]);
      assert.deepEqual([codeA, codeB], [0, 0]);
      const runs = [readIds(join(round, 'a.bin')), readIds(join(round, 'b.bin'))];
      for (const [i, s] of [a, b].entries()) {
        assert.ok(runs[i].length > 1000, `service ${i} minted only ${runs[i].length} IDs`);
        assert.equal(decode(runs[i][0]).workerId, s.workerId);
        assert.equal(decode(runs[i].at(-1)).workerId, s.workerId);
      }
      assertUnique(runs);
      // A new Rust holder of the Rust service's worker ID starts above its last ID.
      const rust = first === startRust ? 0 : 1;
      const mark = storedBound(dir, [a, b][rust].workerId);
      assert.ok(mark >= decode(runs[rust].at(-1)).timestamp, 'the recorded mark is below the last ID');
    } finally {
      rmSync(round, { recursive: true, force: true });
    }
    assert.ok(existsSync(work));
  });
}
