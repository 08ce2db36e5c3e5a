// The fault suite every store runs against its real server: concurrent
// processes, a SIGKILLed process, an outage longer than the buffered blocks
// last, and two processes at 1x and 18x the rate.

import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { sequence } from '../../npm/src/sequence/index.js';
import { tempDir } from '../lease/servers.js';
import { openStore } from './stores.js';

const MINTER = new URL('./minter.js', import.meta.url).pathname;
const run = promisify(execFile);

/** IDs a minter wrote (whole 8-byte records only: a killed one may have stopped mid-write). */
function readIds(file) {
  const buf = readFileSync(file);
  const n = Math.floor(buf.length / 8);
  return new BigUint64Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + n * 8));
}

function assertIncreasing(ids, what) {
  for (let i = 1; i < ids.length; i++) {
    if (ids[i] <= ids[i - 1]) assert.fail(`${what}: ID ${ids[i]} at ${i} does not follow ${ids[i - 1]}`);
  }
}

function assertUnique(lists) {
  const all = new BigUint64Array(lists.reduce((n, l) => n + l.length, 0));
  let o = 0;
  for (const l of lists) {
    all.set(l, o);
    o += l.length;
  }
  all.sort();
  for (let i = 1; i < all.length; i++) if (all[i] === all[i - 1]) assert.fail(`duplicate ID ${all[i]}`);
  return all.length;
}

/** Runs a minter to its end: { ids, stalls, lateStalls, stats, ms }. */
async function mint(dir, args) {
  const out = join(dir, `${args.name}-${Math.random().toString(36).slice(2)}.ids`);
  const { stdout } = await run(process.execPath, [MINTER, JSON.stringify({ ...args, out })], { maxBuffer: 1 << 20 });
  return { ...JSON.parse(stdout), ids: readIds(out) };
}

/**
 * @param o.name the server's name
 * @param o.start () => server with conn, stop(), start(), close() (or for SQLite, a file "server")
 * @param o.kinds store kinds: the first runs every test, the others the concurrent one
 * @param o.outage (server, dir) => { down(), up() } when stopping the server is not how it goes away
 * @param o.hang whether the server is one process that SIGSTOP freezes (a hung server: connections stay open, no answer comes)
 * @param o.more (conn) => void: registers tests of this store's own (conn() gives the running server's connection)
 */
export function storeSuite(o) {
  let server;
  let dir;
  before(async () => {
    dir = tempDir(`seq-${o.name}`);
    server = await o.start(dir);
  });
  after(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const [kind] = o.kinds;
  const conn = () => server.conn;
  o.more?.(conn);

  for (const [i, k] of o.kinds.entries()) {
    const procs = i === 0 ? 8 : 4;
    const count = i === 0 ? 100_000 : 25_000;
    test(`${o.name} (${k}): ${procs} processes x ${count} next() at once: 0 duplicates, each strictly increasing`, async () => {
      const name = `conc_${k.replace(/\W/g, '_')}`;
      // Half on fixed blocks of 1000, half adaptive from the defaults.
      const runs = await Promise.all(Array.from({ length: procs }, (_, p) => mint(dir, { kind: k, conn: conn(), name, count, options: p % 2 ? {} : { blockSize: 1000 } })));
      for (const [p, r] of runs.entries()) {
        assert.equal(r.ids.length, count);
        assertIncreasing(r.ids, `process ${p}`);
      }
      const total = assertUnique(runs.map((r) => r.ids));
      const trips = runs.reduce((n, r) => n + r.stats.roundTrips, 0);
      console.log(`  ${o.name} ${k}: ${total} IDs from ${procs} processes, 0 duplicates, ${trips} round trips, slowest process ${Math.max(...runs.map((r) => r.ms)).toFixed(0)} ms`);
    });
  }

  test(`${o.name} (${kind}): a process SIGKILLed mid-block leaves only a gap`, async () => {
    const name = 'killed';
    const out = join(dir, 'killed.ids');
    const args = { kind, conn: conn(), name, count: 10_000_000, options: { blockSize: 3333 }, out };
    const child = spawn(process.execPath, [MINTER, JSON.stringify(args)], { stdio: 'ignore' });
    const deadline = Date.now() + 30_000;
    // Killed once it has written 23,000 IDs: in its seventh block of 3333.
    while (!(existsSync(out) && statSync(out).size >= 23_000 * 8)) {
      if (Date.now() > deadline) assert.fail('the minter wrote no IDs within 30 s');
      if (child.exitCode !== null) assert.fail(`the minter exited with ${child.exitCode}`);
      await sleep(5);
    }
    child.kill('SIGKILL');
    await once(child, 'exit');
    const killed = readIds(out);
    assertIncreasing(killed, 'the killed process');
    const next = await mint(dir, { kind, conn: conn(), name, count: 10_000, options: { blockSize: 3333 } });
    const last = killed[killed.length - 1];
    assert.ok(next.ids[0] > last, `the next process started at ${next.ids[0]}, not after ${last}`);
    assertUnique([killed, next.ids]);
    console.log(`  ${o.name}: killed after ${killed.length} IDs (last ${last}); the next process starts at ${next.ids[0]}: a gap of ${next.ids[0] - last - 1n}`);
  });

  test(`${o.name} (${kind}): the server away longer than the buffered blocks last: ERR_SEQUENCE_UNAVAILABLE, then recovery, no duplicate`, async () => {
    const outage = o.outage ? o.outage(server, dir) : { down: () => server.stop(), up: () => server.start() };
    const a = await openStore(kind, { ...conn(), ...o.outageConn });
    const b = await openStore(kind, conn());
    const seqA = sequence(a.store, { name: 'outage', blockSize: 200 });
    const seqB = sequence(b.store, { name: 'outage', blockSize: 200 });
    const idsA = [];
    const idsB = [await seqB.next()];
    try {
      for (let i = 0; i < 150; i++) idsA.push(await seqA.next());
      await outage.down();
      // The buffered rest of the block (and a spare, if one came) is still served.
      let err;
      const deadline = Date.now() + 20_000;
      for (;;) {
        try {
          idsA.push(await seqA.next());
        } catch (e) {
          err = e;
          break;
        }
        if (Date.now() > deadline) assert.fail('next() did not fail within 20 s of the outage');
        if (idsA.length % 10 === 0) await sleep(1);
      }
      assert.equal(err.code, 'ERR_SEQUENCE_UNAVAILABLE', err.stack);
      assert.equal(err.name, 'SequenceError');
      assert.ok(err.message.includes(a.store.describe), err.message);
      assert.ok(err.cause, 'the driver error is the cause');
      assert.ok(idsA.length >= 200, `only ${idsA.length} IDs were served from the buffer`);
      assert.throws(
        () => seqA.nextSync(),
        (e) => ['ERR_SEQUENCE_EMPTY', 'ERR_SEQUENCE_UNAVAILABLE'].includes(e.code),
      );
      const served = idsA.length;
      await outage.up();
      const upDeadline = Date.now() + 30_000;
      for (;;) {
        try {
          idsA.push(await seqA.next());
          break;
        } catch (e) {
          assert.equal(e.code, 'ERR_SEQUENCE_UNAVAILABLE');
          if (Date.now() > upDeadline) assert.fail(`no recovery within 30 s: ${e.message}`);
          await sleep(20);
        }
      }
      for (let i = 0; i < 500; i++) idsA.push(await seqA.next());
      for (let i = 0; i < 500; i++) idsB.push(await seqB.next());
      assertIncreasing(idsA, 'the sequence across the outage');
      assertUnique([BigUint64Array.from(idsA), BigUint64Array.from(idsB)]);
      console.log(`  ${o.name}: ${served} IDs served from the buffer, then "${err.message.slice(0, 160)}"; recovered after the restart at ${idsA[served]}`);
    } finally {
      await seqA.close();
      await seqB.close();
      await a.close().catch(() => {});
      await b.close().catch(() => {});
    }
  });

  if (o.hang) {
    test(`${o.name} (${kind}): a hung server (SIGSTOP): next() rejects after timeoutMs instead of hanging, then recovers, no duplicate`, async () => {
      const a = await openStore(kind, conn());
      const seq = sequence(a.store, { name: 'hung', blockSize: 100, timeoutMs: 300 });
      const ids = [];
      try {
        for (let i = 0; i < 60; i++) ids.push(await seq.next());
        server.proc.kill('SIGSTOP');
        let err;
        const t0 = Date.now();
        try {
          for (;;) {
            try {
              ids.push(await seq.next());
            } catch (e) {
              err = e;
              break;
            }
            if (Date.now() - t0 > 20_000) assert.fail('next() did not fail within 20 s of the hang');
            if (ids.length % 10 === 0) await sleep(1);
          }
        } finally {
          server.proc.kill('SIGCONT');
        }
        assert.equal(err.code, 'ERR_SEQUENCE_UNAVAILABLE', err.stack);
        assert.match(err.message, /no answer within 300 ms/);
        const served = ids.length;
        const deadline = Date.now() + 30_000;
        for (;;) {
          try {
            ids.push(await seq.next());
            break;
          } catch (e) {
            assert.equal(e.code, 'ERR_SEQUENCE_UNAVAILABLE');
            if (Date.now() > deadline) assert.fail(`no recovery within 30 s: ${e.message}`);
            await sleep(20);
          }
        }
        for (let i = 0; i < 300; i++) ids.push(await seq.next());
        assertIncreasing(ids, 'the sequence across the hang');
        console.log(`  ${o.name}: hung after ${served} IDs: "${err.message.slice(0, 140)}"; recovered at ${ids[served]} (the timed-out block is a gap)`);
      } finally {
        await seq.close();
        await a.close().catch(() => {});
      }
    });
  }

  test(`${o.name} (${kind}): processes at 1x and 18x the rate: neither stalls, block sizes diverge, round trips bounded`, async () => {
    // Blocks of about 1 s: a refill is asked for half a block (500 ms) before
    // it is needed, so a round trip slowed by a busy machine stalls no one.
    const options = { blockSize: 50, minBlockSize: 10, maxBlockSize: 1_000_000, targetBlockMs: 1000 };
    const seconds = 3;
    const [slow, fast] = await Promise.all([300, 5400].map((rate) => mint(dir, { kind, conn: conn(), name: 'rates', count: rate * seconds, rate, options })));
    for (const [what, r] of [
      ['1x', slow],
      ['18x', fast],
    ]) {
      assertIncreasing(r.ids, what);
      // The first next() waits for the first block; after the first second none may wait.
      assert.equal(r.lateStalls, 0, `${what}: ${r.lateStalls} next() calls waited on the store after the first second`);
      // About one block per second, plus the ramp from 50 (growth is at most 4x per block).
      assert.ok(r.stats.roundTrips <= seconds * 2 + 8, `${what}: ${r.stats.roundTrips} round trips in ${seconds} s`);
    }
    assertUnique([slow.ids, fast.ids]);
    assert.ok(fast.stats.blockSize >= 8 * slow.stats.blockSize, `block sizes ${slow.stats.blockSize} (1x) and ${fast.stats.blockSize} (18x)`);
    console.log(
      `  ${o.name}: 1x: block ${slow.stats.blockSize}, ${(slow.stats.roundTrips / (slow.ms / 1000)).toFixed(1)} round trips/s, ${slow.stalls} stall(s); ` +
        `18x: block ${fast.stats.blockSize}, ${(fast.stats.roundTrips / (fast.ms / 1000)).toFixed(1)} round trips/s, ${fast.stalls} stall(s)`,
    );
  });
}
