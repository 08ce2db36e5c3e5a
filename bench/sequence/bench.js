// snowmint/sequence against the database doing the counting itself, on a
// real PostgreSQL (a private cluster) and a real Redis that this script
// starts and stops. Four concurrent clients, each with its own connection
// (as four application processes would have), in one run:
//   (a) nextval() per ID            (b) UPDATE ... RETURNING per ID (Redis: INCR per ID)
//   (c) snowmint/sequence, fixed blocks of 1000 and of 10000
//   (d) snowmint/sequence, adaptive blocks (the defaults)
//   (e) nextId() (a Snowflake, no database) for scale
// Prints IDs/s, p99 and max latency of one call, round trips per 1M IDs and
// the goals met or missed, and writes results/results.md and
// results/latency.svg (latency of next() over time, refills marked).
// Run: scripts/bench-sequence.sh   (or: node bench/sequence/bench.js [--seconds N])

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { setImmediate as yieldToIo } from 'node:timers/promises';
import pg from 'pg';
import { Redis } from 'ioredis';
import { nextId } from '../../npm/entries/node.js';
import { sequence, postgresStore, redisStore } from '../../npm/src/sequence/index.js';
import { startPostgres } from '../../tests/sequence/servers.js';
import { startRedis, tempDir } from '../../tests/lease/servers.js';
import { svgPlot } from './plot.js';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SECONDS = arg('seconds', 2);
const ROUNDS = 4;
const CLIENTS = 4;
/** A client yields to the event loop (where store replies arrive) every this many IDs, as a server does between requests. */
const YIELD_EVERY = 100;
const OUT = new URL('./results/', import.meta.url);

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** A contender: `clients` functions minting one ID each, and what is measured of them. */
function contender(label, clients, { trips, track, waits } = {}) {
  return { label, clients, trips, track, waits, lat: [], timeline: [], refills: [], ids: 0, secs: 0, seen: track?.(0) };
}

/** Runs every client of `k` for `ms` and times every call; client 0's calls and block requests go on the timeline (in measured time). */
async function slice(k, ms) {
  const t0 = performance.now();
  const end = t0 + ms;
  const offset = k.secs * 1000;
  await Promise.all(
    k.clients.map(async (next, c) => {
      while (performance.now() < end) {
        for (let i = 0; i < YIELD_EVERY; i++) {
          const a = process.hrtime.bigint();
          const r = next();
          if (r instanceof Promise) await r;
          const ns = Number(process.hrtime.bigint() - a);
          k.lat.push(ns);
          if (c === 0) {
            k.timeline.push(offset + performance.now() - t0, ns);
            const now = k.track?.(0);
            if (now !== k.seen) {
              k.seen = now;
              k.refills.push(offset + performance.now() - t0);
            }
          }
        }
        k.ids += YIELD_EVERY;
        await yieldToIo();
      }
    }),
  );
  k.secs += (performance.now() - t0) / 1000;
}

/** The contender's numbers, printed: IDs/s, p99, max, round trips per 1M IDs, histogram. */
function summary(k) {
  const sorted = Float64Array.from(k.lat).sort();
  const r = { label: k.label, ids: k.ids, perSec: k.ids / k.secs, p99: pct(sorted, 0.99), max: sorted[sorted.length - 1], timeline: k.timeline, refills: k.refills };
  r.tripsPerM = k.trips ? (k.trips() / k.ids) * 1e6 : r.label.startsWith('(e)') ? 0 : 1e6;
  r.waits = k.waits?.();
  const bounds = [1e3, 2e3, 5e3, 1e4, 1e5, 1e6, Infinity];
  r.histogram = bounds.map((b, i) => sorted.filter((x) => x < b && x >= (bounds[i - 1] ?? 0)).length);
  console.log(
    `${k.label.padEnd(58)} ${fmt(r.perSec).padStart(12)} IDs/s   p99 ${us(r.p99).padStart(9)}   max ${us(r.max).padStart(9)}   ${fmt(r.tripsPerM).padStart(9)} round trips/1M IDs` +
      (r.waits === undefined ? '' : `   ${r.waits} next() waited for a block`),
  );
  return r;
}

const fmt = (n) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1));
const us = (ns) => (ns < 10_000 ? `${(ns / 1000).toFixed(2)} µs` : ns < 1e6 ? `${(ns / 1000).toFixed(0)} µs` : `${(ns / 1e6).toFixed(1)} ms`);

async function pgClients(port) {
  return Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
      await c.connect();
      return c;
    }),
  );
}

/** Sequences over one store per client; returns the next() functions, the round-trip count and client 0's refill counter. */
function sequences(stores, options) {
  const seqs = stores.map((s) => sequence(s, options));
  return {
    seqs,
    nexts: seqs.map((s) => () => s.next()),
    trips: () => seqs.reduce((n, s) => n + s.stats().roundTrips, 0),
    track: (c) => seqs[c].stats().roundTrips,
    // The first next() of each client always waits for its first block.
    waits: () => seqs.reduce((n, s) => n + s.stats().waits - 1, 0),
  };
}

async function main() {
  const dir = tempDir('bench-seq');
  const pgServer = await startPostgres();
  const redisServer = await startRedis();
  const results = [];
  const clients = await pgClients(pgServer.port);
  const redis = Array.from({ length: CLIENTS }, () => new Redis({ host: '127.0.0.1', port: redisServer.port }));
  try {
    const c0 = clients[0];
    await c0.query('CREATE SEQUENCE bench_nextval');
    await c0.query('CREATE TABLE bench_counter (name text PRIMARY KEY, last_id bigint NOT NULL)');
    await c0.query("INSERT INTO bench_counter VALUES ('bench', 0)");
    console.log(
      `${CLIENTS} concurrent clients, ${SECONDS} s each in ${ROUNDS} interleaved rounds, PostgreSQL ${(await c0.query('SHOW server_version')).rows[0].server_version} and Redis on loopback\n`,
    );

    const pgStores = clients.map((c) => postgresStore(c));
    const redisStores = redis.map((r) => redisStore(r));
    const seqRuns = [
      ['(c) snowmint/sequence, PostgreSQL, fixed blocks of 1000', pgStores, { name: 'fixed_pg', blockSize: 1000 }],
      ['(c) snowmint/sequence, Redis, fixed blocks of 1000', redisStores, { name: 'fixed_redis', blockSize: 1000 }],
      ['(c) snowmint/sequence, PostgreSQL, fixed blocks of 10000', pgStores, { name: 'fixed_pg', blockSize: 10_000 }],
      ['(c) snowmint/sequence, Redis, fixed blocks of 10000', redisStores, { name: 'fixed_redis', blockSize: 10_000 }],
      ['(d) snowmint/sequence, PostgreSQL, adaptive blocks', pgStores, { name: 'adaptive_pg' }],
      ['(d) snowmint/sequence, Redis, adaptive blocks', redisStores, { name: 'adaptive_redis' }],
    ].map(([label, stores, options]) => ({ label, ...sequences(stores, options) }));
    const contenders = [
      contender(
        '(a) PostgreSQL nextval() per ID',
        clients.map((c) => async () => BigInt((await c.query("SELECT nextval('bench_nextval') AS v")).rows[0].v)),
      ),
      contender(
        '(b) PostgreSQL UPDATE ... RETURNING per ID',
        clients.map((c) => async () => BigInt((await c.query("UPDATE bench_counter SET last_id = last_id + 1 WHERE name = 'bench' RETURNING last_id")).rows[0].last_id)),
      ),
      contender(
        '(b) Redis INCR per ID',
        redis.map((r) => async () => BigInt(await r.incr('bench'))),
      ),
      ...seqRuns.map((q) => contender(q.label, q.nexts, q)),
      contender(
        '(e) nextId(), no database',
        Array.from({ length: CLIENTS }, () => nextId),
      ),
    ];
    // Interleaved rounds in rotating order, so that a change in the machine's load hits every contender alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < contenders.length; i++) await slice(contenders[(i + round) % contenders.length], (SECONDS * 1000) / ROUNDS);
    }
    results.push(...contenders.map(summary));
    await Promise.all(seqRuns.flatMap((q) => q.seqs.map((x) => x.close())));
  } finally {
    await Promise.all(clients.map((c) => c.end()));
    for (const r of redis) r.disconnect();
    await pgServer.close();
    await redisServer.close();
    rmSync(dir, { recursive: true, force: true });
  }
  report(results);
}

function report(results) {
  const by = (prefix) => results.filter((r) => r.label.startsWith(prefix));
  const [nextval] = by('(a)');
  const ours = [...by('(c)'), ...by('(d)')];
  const goals = [];
  const short = (r) => r.label.replace('snowmint/sequence, ', '');
  for (const r of ours) {
    const ratio = r.perSec / nextval.perSec;
    goals.push([`${short(r)}: ≥ 100× the IDs/s of (a)`, `${ratio.toFixed(0)}×`, ratio >= 100]);
  }
  for (const r of by('(d)')) {
    goals.push([`${short(r)}: p99 of next() < 5 µs while blocks refill`, us(r.p99), r.p99 < 5000]);
  }
  console.log('\nGoals:');
  for (const [goal, value, met] of goals) console.log(`  ${met ? 'met   ' : 'MISSED'} ${goal}: ${value}`);
  console.log('\nLatency of one call (count per bucket):');
  const buckets = ['<1 µs', '1-2 µs', '2-5 µs', '5-10 µs', '10-100 µs', '0.1-1 ms', '≥1 ms'];
  console.log(`  ${''.padEnd(58)} ${buckets.map((b) => b.padStart(10)).join('')}`);
  for (const r of results) console.log(`  ${r.label.padEnd(58)} ${r.histogram.map((n) => String(n).padStart(10)).join('')}`);

  mkdirSync(OUT, { recursive: true });
  const md = [
    `Measured by \`scripts/bench-sequence.sh\` (${CLIENTS} concurrent clients, ${SECONDS} s each in ${ROUNDS} interleaved rounds, one connection per client; a client yields to the event loop every ${YIELD_EVERY} IDs).`,
    '',
    '| what | IDs/s | p99 of one call | max | round trips per 1M IDs | next() that waited for a block |',
    '|---|---:|---:|---:|---:|---:|',
    ...results.map((r) => `| ${r.label} | ${fmt(r.perSec)} | ${us(r.p99)} | ${us(r.max)} | ${fmt(r.tripsPerM)} | ${r.waits ?? ''} |`),
    '',
    '| goal | measured | |',
    '|---|---:|---|',
    ...goals.map(([g, v, met]) => `| ${g} | ${v} | ${met ? 'met' : '**missed**'} |`),
    '',
  ].join('\n');
  writeFileSync(new URL('results.md', OUT), md);
  const plotted = results.filter((r) => r.label.endsWith('PostgreSQL, fixed blocks of 1000') || r.label.endsWith('PostgreSQL, adaptive blocks'));
  writeFileSync(new URL('latency.svg', OUT), svgPlot(plotted));
  console.log(`\nwrote ${new URL('results.md', OUT).pathname} and latency.svg`);
}

await main();
