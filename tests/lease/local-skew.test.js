// Skew checks of the local lease: at the claim and at every write of its
// bound, the holder's clock (here an injected one, offset from the host's)
// is compared with the host's (the kernel's time stamped on its lock-file
// write) and with the mean of its live peers' last reports. Beyond maxSkewMs
// (default 1000): ClockError ERR_CLOCK_SKEW, or with onSkew: 'warn' a 'skew'
// event.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { ClockError, Snowflake, TestClock } from '../../npm/entries/node.js';
import { localLease } from '../../npm/src/lease/index.js';
import { storedBound } from './harness.js';
import { tempDir } from './servers.js';

const dirs = [];
const leaseDir = () => {
  const d = tempDir('skew');
  dirs.push(d);
  return d;
};
test.after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const skewed = (against, side, ms) => (e) => {
  assert.ok(e instanceof ClockError, `${e}`);
  assert.equal(e.code, 'ERR_CLOCK_SKEW');
  assert.equal(e.against, against);
  assert.ok(Math.abs(Math.abs(e.skewMs) - ms) < 100, `measured ${e.skewMs} ms`);
  assert.match(e.message, new RegExp(`is \\d+ ms ${side} the ${against === 'host' ? "host's clock" : 'mean of'}`));
  assert.match(e.message, /maxSkewMs \(1000 ms\)/);
  return true;
};

test('a holder whose clock is 5 s ahead or behind the host: refused at the claim, the worker ID stays free', () => {
  const dir = leaseDir();
  for (const [offset, side] of [
    [5000, 'ahead of'],
    [-5000, 'behind'],
  ]) {
    assert.throws(() => localLease({ dir, workerIds: { min: 0, max: 0 }, clock: () => Date.now() + offset }), skewed('host', side, 5000));
  }
  const ok = localLease({ dir, workerIds: { min: 0, max: 0 } });
  assert.equal(ok.workerId, 0);
  assert.ok(ok.resumeAfterMs <= Date.now(), 'a refused claim raised the recorded bound');
  ok.release();
});

test('a clock that jumps 5 s ahead while minting: the next write of the bound refuses, on every call', () => {
  const dir = leaseDir();
  const clock = new TestClock(Date.now());
  const lease = localLease({ dir, clock });
  const sf = new Snowflake({ lease, clock });
  sf.next();
  clock.advance(5000);
  assert.throws(() => sf.next(), skewed('host', 'ahead of', 5000));
  assert.throws(() => sf.next(), { code: 'ERR_CLOCK_SKEW' });
  assert.ok(storedBound(dir, lease.workerId) > clock.now(), 'the bound is still written first');
  lease.release();
});

test("onSkew: 'warn': the lease mints and emits 'skew' with the measured skew", async () => {
  const dir = leaseDir();
  const lease = localLease({ dir, clock: () => Date.now() - 5000, onSkew: 'warn', maxSkewMs: 2000 });
  const [info] = await once(lease, 'skew');
  assert.equal(info.workerId, lease.workerId);
  assert.equal(info.against, 'host');
  assert.equal(info.maxSkewMs, 2000);
  assert.ok(Math.abs(info.skewMs + 5000) < 100, `measured ${info.skewMs} ms`);
  lease.release();
});

test("a clock within 1 s of the host's but 1.15 s from its live peers' mean is refused; a peer 5 s off is no reference", () => {
  const dir = leaseDir();
  const a = localLease({ dir }); // the machine's clock
  const c = localLease({ dir, clock: () => Date.now() - 700 });
  assert.throws(() => localLease({ dir, clock: () => Date.now() + 800 }), skewed('peers', 'ahead of', 1150));
  c.release();
  const far = localLease({ dir, clock: () => Date.now() + 5000, maxSkewMs: Number.POSITIVE_INFINITY });
  const fine = localLease({ dir }); // compared with a's report only
  for (const l of [a, far, fine]) l.release();
});

test('bad skew options are refused', () => {
  const dir = leaseDir();
  assert.throws(() => localLease({ dir, maxSkewMs: 0 }), { code: 'ERR_INVALID_OPTION' });
  assert.throws(() => localLease({ dir, onSkew: 'ignore' }), { code: 'ERR_INVALID_OPTION' });
});

test('the zero-config default warns once and keeps minting when its clock is 5 s off the host (libfaketime on the process)', () => {
  const tmp = leaseDir();
  const code = `import { nextId } from ${JSON.stringify(new URL('../../npm/entries/node.js', import.meta.url).href)};
    let last = nextId();
    for (let i = 0; i < 100000; i++) { const id = nextId(); if (id <= last) throw new Error('not increasing'); last = id; }
    console.log('minted');`;
  const r = spawnSync('faketime', ['-f', '+5s', process.execPath, '--input-type=module', '-e', code], {
    env: { ...process.env, TMPDIR: tmp },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'minted');
  const warnings = r.stderr.match(/\[ERR_CLOCK_SKEW\] Warning: snowmint: the clock of this process's zero-config lease \(worker ID \d+\) is \d+ ms from the host's clock/g) ?? [];
  assert.equal(warnings.length, 1, r.stderr);
});
