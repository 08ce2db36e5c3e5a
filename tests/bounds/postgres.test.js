// minId/maxId against a real PostgreSQL: IDs minted for times across a
// span go into tables keyed the way applications key them (UUIDs in a
// `uuid` column, ULIDs and the other texts in `text` compared byte-wise,
// Snowflakes in `bigint`), each with the time decoded from it; for windows
// of that span `WHERE id >= minId(kind, from) AND id <= maxId(kind, to)`
// must select exactly the rows whose decoded time lies in [from, to] (at
// the kind's resolution). Twitter's layout for the bigint column: Discord's
// IDs from 2^63 on do not fit a signed bigint.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { sm } from '../node/pkg.js';
import { startPostgres } from './postgres.js';

const FROM = Date.UTC(2024, 5, 1);
const SPAN = 10 * 60_000;
const ROWS = 3000;

/** kind, column type, how to mint one ID for `ms` (row `i`), resolution of its time in ms. */
const KINDS = [
  ['uuidv7', 'uuid', (ms) => sm.uuidv7({ time: ms }), 1],
  ['uuidv6', 'uuid', (ms) => sm.uuidv6({ time: ms }), 1],
  ['ulid', 'text COLLATE "C"', (ms) => sm.ulid({ time: ms }), 1],
  ['ksuid', 'text COLLATE "C"', (ms) => sm.ksuid({ time: ms }), 1000],
  ['objectid', 'text COLLATE "C"', (ms) => sm.objectId({ time: ms }), 1000],
  ['typeid', 'text COLLATE "C"', (ms) => sm.typeid('user', { time: ms }), 1],
  ['snowflake', 'bigint', (ms, i) => workers[i % 1024].at(ms, { sequence: Math.floor(i / 1024) }), 1],
];
const workers = Array.from({ length: 1024 }, (_, workerId) => new sm.Snowflake({ preset: 'twitter', workerId }));
const options = (kind) => (kind === 'snowflake' ? { preset: 'twitter' } : kind === 'typeid' ? { prefix: 'user' } : undefined);

let server;
let client;
/** Per kind: the decoded time of every row. */
const times = new Map();

before(async () => {
  server = await startPostgres();
  client = new pg.Client({ connectionString: server.url });
  await client.connect();
  for (const [kind, type, mint] of KINDS) {
    await client.query(`CREATE TABLE ${kind} (id ${type} PRIMARY KEY, ms bigint NOT NULL)`);
    const ids = [];
    const ms = [];
    for (let i = 0; i < ROWS; i++) {
      // Every 10th row on a window edge below, the rest anywhere in the span.
      const t = i % 10 === 0 ? FROM + (i % 7) * 60_000 : FROM + Math.floor(Math.random() * SPAN);
      const id = mint(t, i);
      ids.push(String(id));
      ms.push(sm.decode(id, kind === 'snowflake' ? { preset: 'twitter' } : undefined).timestamp);
    }
    await client.query(`INSERT INTO ${kind} SELECT * FROM unnest($1::${type.split(' ')[0]}[], $2::bigint[])`, [ids, ms]);
    times.set(kind, ms);
  }
});

after(async () => {
  await client?.end();
  server?.stop();
});

test('WHERE id BETWEEN minId(from) AND maxId(to) selects exactly the rows of [from, to]', async () => {
  const windows = [
    [FROM, FROM + SPAN],
    [FROM + 60_000, FROM + 60_000], // one millisecond that has rows
    [FROM + 60_000, FROM + 3 * 60_000],
    [FROM + 2 * 60_000 + 1, FROM + 6 * 60_000 - 1], // edges just inside and outside
    [FROM - SPAN, FROM - 1], // before every row
  ];
  for (let i = 0; i < 15; i++) {
    const a = FROM + Math.floor(Math.random() * SPAN);
    windows.push([a, a + Math.floor(Math.random() * 120_000)]);
  }
  for (const [kind, , , unit] of KINDS) {
    for (const [from, to] of windows) {
      const lo = sm.minId(kind, from, options(kind));
      const hi = sm.maxId(kind, to, options(kind));
      const { rows } = await client.query(`SELECT count(*)::int AS n, min(ms) AS first, max(ms) AS last FROM ${kind} WHERE id >= $1 AND id <= $2`, [String(lo), String(hi)]);
      // The kind's resolution: a KSUID or ObjectId of `from`'s second counts from its start.
      const [start, end] = [Math.floor(from / unit) * unit, Math.floor(to / unit) * unit];
      const want = times.get(kind).filter((ms) => ms >= start && ms <= end).length;
      assert.equal(rows[0].n, want, `${kind} [${from}, ${to}]: ${lo} .. ${hi}`);
      if (want > 0) assert.ok(Number(rows[0].first) >= start && Number(rows[0].last) <= end, kind);
    }
  }
});

test('the rows in id order are the rows in time order', async () => {
  for (const [kind] of KINDS) {
    const { rows } = await client.query(`SELECT ms FROM ${kind} ORDER BY id`);
    const ms = rows.map((r) => Number(r.ms));
    assert.ok(
      ms.every((t, i) => i === 0 || t >= ms[i - 1]),
      kind,
    );
  }
});
