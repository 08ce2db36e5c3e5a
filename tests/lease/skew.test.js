// The skew arithmetic of lease.js on exact readings (no server): what a
// store's readings mean, and which options a lease accepts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coordinatorSkewOptions, measureSkew } from '../../npm/src/lease/skew.js';

test('against a server clock: our clock at the middle of the round trip minus the server time, to within half the round trip', () => {
  // Sent at 1000, answered at 1010 (our clock); the server read 6005 in between: we are ~5000 behind.
  const [server] = measureSkew({ server: { name: 'Redis server', ms: 6005 }, peers: [] }, 1000, 1010);
  assert.deepEqual(server, { against: 'server', what: 'the Redis server', peers: 0, skewMs: -5000, errMs: 5 });
});

test("against peers with the server's time of their reports: the difference of the offsets from the server, averaged", () => {
  // We are 5000 ahead of the server; peer 1 is 1000 ahead of it, peer 2 is 3000 behind it.
  const readings = {
    server: { name: 'server', ms: 10_000 },
    peers: [
      { workerId: 1, clockMs: 9_000, serverMs: 8_000 },
      { workerId: 2, clockMs: 2_000, serverMs: 5_000 },
    ],
  };
  const [server, peers] = measureSkew(readings, 15_000, 15_000);
  assert.equal(server.skewMs, 5000);
  assert.equal(peers.skewMs, 5000 - (1000 - 3000) / 2);
  assert.equal(peers.errMs, 0);
  assert.equal(peers.against, 'peers');
  assert.equal(peers.peers, 2);
  assert.match(peers.what, /mean of 2 live peers' last reported clocks/);
});

test('against peers without a server clock (etcd): a report up to ageMaxMs old, so the skew is known to within half of that', () => {
  // A peer on the true clock reported at 0 and renews every 1000 ms; we read 5000 ahead at true time 400.
  const [peers] = measureSkew({ peers: [{ workerId: 3, clockMs: 0, ageMaxMs: 1000 }] }, 5400, 5400);
  assert.equal(peers.errMs, 500);
  assert.ok(Math.abs(peers.skewMs - 5000) <= peers.errMs, `${peers.skewMs} ± ${peers.errMs}`);
  // However old the report within ageMaxMs, a true clock is within the error.
  for (const age of [0, 500, 1000]) {
    const [m] = measureSkew({ peers: [{ workerId: 3, clockMs: 0, ageMaxMs: 1000 }] }, age, age);
    assert.ok(Math.abs(m.skewMs) <= m.errMs, `age ${age}: ${m.skewMs} ± ${m.errMs}`);
  }
});

test('no server and no peers: nothing to compare with', () => {
  assert.deepEqual(measureSkew({ peers: [] }, 0, 5), []);
});

test("coordinator skew options: maxSkewMs 1000 and onSkew 'warn' by default; anything else is a ConfigError", () => {
  assert.deepEqual(coordinatorSkewOptions({}), { maxSkewMs: 1000, onSkew: 'warn' });
  assert.deepEqual(coordinatorSkewOptions({ maxSkewMs: 0, onSkew: 'refuse' }), { maxSkewMs: 0, onSkew: 'refuse' });
  for (const bad of [{ maxSkewMs: -1 }, { maxSkewMs: 1.5 }, { maxSkewMs: '1000' }, { onSkew: 'fail' }, { onSkew: true }]) {
    assert.throws(() => coordinatorSkewOptions(bad), { name: 'ConfigError', code: 'ERR_INVALID_OPTION' });
  }
});
