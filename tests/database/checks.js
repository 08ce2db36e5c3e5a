// The checks every surface that mints in PostgreSQL passes (the SQL pack on
// 15 and 18, the extension on 15), against a real server: the shared
// vectors, the same IDs as the JS API (native and wasm) for the same time,
// worker and sequence, decode records equal to the JS ones, bounds, bad
// input errors carrying the core's code and message, concurrency (no
// duplicate, order per session, order across sessions where promised) and
// a server restart.
//
// `db` is { name, server, install(client), ulid(expr), pack, acrossSessions }: `pack` for
// the SQL pack; `acrossSessions` where ulid(), uuidv7() and typeid() are ordered across sessions; `ulid(expr)` is the
// SQL giving a ULID's text from what the surface's `expr` returns (the
// extension returns ULIDs as uuid, the pack as text).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sm, vectors } from '../node/pkg.js';

const wasm = await import('../../npm/entries/browser.js');
wasm.configure({ workerId: 1 });

const TS = (p) => `(timestamptz 'epoch' + ${p}::bigint * interval '1 millisecond')`;
const PRESETS = ['twitter', 'discord', 'instagram', 'sonyflake', 'mastodon'];
const I64_MAX = (1n << 63n) - 1n;

/** A JS decode record as the JSON the database gives (bigints as strings, the date as its ISO text). */
function plain(record) {
  const out = {};
  for (const [k, v] of Object.entries(record)) out[k] = typeof v === 'bigint' ? String(v) : v;
  if (record.timestamp !== undefined) out.date = record.date.toISOString();
  return out;
}

/** The code and message a JS call throws, as the database's error message reads. */
function jsError(fn) {
  try {
    fn();
  } catch (e) {
    return `${e.code}: ${e.message}`;
  }
  throw new Error('the JS call did not throw');
}

/** The error message `sql` raises (asserting that it raises one). */
async function sqlError(client, sql, params) {
  try {
    await client.query(sql, params);
  } catch (e) {
    return e.message;
  }
  throw new Error(`${sql} did not raise`);
}

export function databaseTests(db) {
  describe(db.name, () => {
    let server;
    let client;
    const q = async (sql, params) => (await client.query(sql, params)).rows;
    const one = async (sql, params) => Object.values((await q(sql, params))[0])[0];

    before(async () => {
      server = await db.server();
      client = await server.connect();
      await db.install(server, client);
      client = await server.connect(db.user ?? 'postgres');
    });
    after(async () => {
      await client?.end();
      server?.stop();
    });

    test('Snowflakes of the shared vectors: next_id_at gives each ID from its time, worker and sequence', async () => {
      for (const v of vectors('snowflake.json')) {
        if (!v.preset) continue;
        await q(`SELECT set_config('snowmint.preset', $1, false), set_config('snowmint.worker_id', $2, false)`, [v.preset, v.fields.worker_id]);
        const sql = `SELECT snowmint.next_id_at(${TS('$1')}, $2)::text AS id`;
        if (BigInt(v.id) > I64_MAX) {
          assert.match(await sqlError(client, sql, [v.timestamp_ms, v.fields.sequence]), /^ERR_TIME_OVERFLOW: /, v.name);
          continue;
        }
        assert.equal(await one(sql, [v.timestamp_ms, v.fields.sequence]), v.id, v.name);
        const rec = await one('SELECT snowmint.decode($1::text, $2)', [v.id, v.preset]);
        assert.deepEqual(rec, plain(sm.decode(BigInt(v.id), { preset: v.preset })), v.name);
      }
      await q('RESET snowmint.preset');
    });

    test('next_id_at is bit-identical to Snowflake#at (native and wasm) for random times, workers and sequences', async () => {
      const widths = { twitter: [10, 12], discord: [10, 12], instagram: [13, 10], sonyflake: [16, 8], mastodon: [0, 16] };
      for (const preset of PRESETS) {
        const [workerBits, sequenceBits] = widths[preset];
        const unit = preset === 'sonyflake' ? 10 : 1;
        for (let i = 0; i < 40; i++) {
          const workerId = Math.floor(Math.random() * 2 ** workerBits);
          const sequence = Math.floor(Math.random() * 2 ** sequenceBits);
          const ms = Date.UTC(2016, 0, 1) + Math.floor(Math.random() * 10 * 365 * 86_400_000);
          await q(`SELECT set_config('snowmint.preset', $1, false), set_config('snowmint.worker_id', $2, false)`, [preset, String(workerId)]);
          const id = await one(`SELECT snowmint.next_id_at(${TS('$1')}, $2)::text`, [ms, sequence]);
          assert.equal(id, String(new sm.Snowflake({ preset, workerId, lease: 'none' }).at(ms, { sequence })), `${preset} ${workerId} ${sequence} ${ms}`);
          assert.equal(id, String(new wasm.Snowflake({ preset, workerId }).at(ms, { sequence })));
          // ...and decodes in Node (native and wasm) to the same time, worker and sequence.
          for (const m of [sm, wasm]) {
            const d = m.decode(BigInt(id), { preset });
            assert.deepEqual([d.workerId, d.sequence], [workerId, sequence]);
            assert.ok(d.timestamp <= ms && ms - d.timestamp < unit, `${d.timestamp} ${ms}`);
          }
          assert.deepEqual(await one('SELECT snowmint.decode($1::bigint, $2)', [id, preset]), plain(sm.decode(BigInt(id), { preset })));
        }
      }
      await q('RESET snowmint.preset');
    });

    test('bounds of the shared vectors, and for random times the same bounds as minId/maxId', async () => {
      for (const v of vectors('bounds.json')) {
        const opt = v.kind === 'snowflake' ? v.preset : v.kind === 'typeid' ? v.prefix : null;
        const [min, max] = Object.values((await q(`SELECT snowmint.min_id($1, ${TS('$2')}, $3)::text, snowmint.max_id($1, ${TS('$2')}, $3)::text`, [v.kind, v.timestamp_ms, opt]))[0]);
        assert.deepEqual([min, max], [v.min, v.max], v.name);
      }
      for (const kind of ['ulid', 'uuidv7', 'uuidv6', 'ksuid', 'objectid', 'typeid', 'snowflake']) {
        for (let i = 0; i < 20; i++) {
          const ms = Date.UTC(2015, 0, 1) + Math.floor(Math.random() * 20 * 365 * 86_400_000);
          const opt = kind === 'snowflake' ? 'discord' : kind === 'typeid' ? 'order' : null;
          const o = kind === 'snowflake' ? { preset: 'discord' } : kind === 'typeid' ? { prefix: 'order' } : undefined;
          const row = (await q(`SELECT snowmint.min_id($1, ${TS('$2')}, $3)::text AS a, snowmint.max_id($1, ${TS('$2')}, $3)::text AS b`, [kind, ms, opt]))[0];
          assert.deepEqual([row.a, row.b], [String(sm.minId(kind, ms, o)), String(sm.maxId(kind, ms, o))], `${kind} ${ms}`);
          assert.deepEqual([row.a, row.b], [String(wasm.minId(kind, ms, o)), String(wasm.maxId(kind, ms, o))]);
        }
      }
    });

    test('*_at IDs hold their time (bit-identical where no random bits enter) and lie within the bounds', async () => {
      const rows = await q(
        `SELECT ms, ${db.ulid(`snowmint.ulid_at(${TS('ms')})`)} AS ulid, snowmint.uuidv7_at(${TS('ms')})::text AS v7,
                snowmint.ksuid_at(${TS('ms')}) AS ksuid, snowmint.typeid_at('user', ${TS('ms')}) AS typeid
         FROM (SELECT (1400000000000 + floor(random() * 1e12))::bigint AS ms FROM generate_series(1, 300)) t`,
      );
      for (const r of rows) {
        const ms = Number(r.ms);
        for (const [kind, id, step, o] of [
          ['ulid', r.ulid, 1],
          ['uuidv7', r.v7, 1],
          ['ksuid', r.ksuid, 1000],
          ['typeid', r.typeid, 1, { prefix: 'user' }],
        ]) {
          for (const m of [sm, wasm]) {
            assert.equal(m.decode(id).timestamp, ms - (ms % step), `${kind} ${id}`);
            assert.ok(String(m.minId(kind, ms, o)) <= id && id <= String(m.maxId(kind, ms, o)), `${kind} ${id}`);
          }
        }
        assert.equal(sm.uuidVersion(r.v7), 7);
      }
    });

    test('ULID <-> UUID and the decode records of the shared vectors are the JS ones', async () => {
      for (const v of vectors('ulid.json')) {
        assert.equal(await one('SELECT snowmint.ulid_to_uuid($1)::text', [v.text]), v.uuid, v.name);
        for (const input of v.inputs ?? [v.text]) assert.equal(await one('SELECT snowmint.ulid_to_uuid($1)::text', [input]), v.uuid, input);
        assert.equal(await one('SELECT snowmint.uuid_to_ulid($1::uuid)', [v.uuid]), v.text, v.name);
        assert.deepEqual(await one('SELECT snowmint.decode($1::text)', [v.text]), plain(sm.decode(v.text)), v.name);
      }
      for (const file of ['uuid.json', 'ksuid.json', 'objectid.json']) {
        for (const v of vectors(file)) {
          assert.deepEqual(await one('SELECT snowmint.decode($1::text)', [v.text]), plain(sm.decode(v.text)), `${file} ${v.name}`);
        }
      }
      for (const v of vectors('typeid/valid.json')) {
        assert.deepEqual(await one('SELECT snowmint.decode($1::text)', [v.typeid]), plain(sm.decode(v.typeid)), v.name);
      }
    });

    test('IDs minted in the database decode in Node (native and wasm) to the records the database gives', async () => {
      await q(`SET snowmint.worker_id = 77`);
      const r = (
        await q(
          `SELECT snowmint.next_id()::text AS snowflake, ${db.ulid('snowmint.ulid()')} AS ulid, snowmint.uuidv7()::text AS v7,
                  snowmint.uuidv4()::text AS v4, snowmint.ksuid() AS ksuid, snowmint.typeid('user') AS typeid`,
        )
      )[0];
      const before = Date.now();
      for (const id of Object.values(r)) {
        const rec = await one('SELECT snowmint.decode($1::text)', [id]);
        // (JS names a Snowflake's preset once its default generator has one, as it has here
        // after the Snowflakes built above; decode(text) without a preset names none.)
        const js = (m) => {
          const { preset, ...r } = plain(m.decode(id));
          assert.ok(preset === undefined || preset === 'twitter');
          return r;
        };
        assert.deepEqual(rec, js(sm), id);
        assert.deepEqual(rec, js(wasm), id);
        if (rec.timestamp !== undefined) assert.ok(Math.abs(rec.timestamp - before) < 60_000, id);
      }
      const d = sm.decode(BigInt(r.snowflake));
      assert.equal(d.workerId, 77);
    });

    test('bad input raises the core code and message', async () => {
      const same = async (sql, params, js) => assert.equal(await sqlError(client, sql, params), jsError(js), sql);
      await q('SET snowmint.worker_id = 1024');
      await same('SELECT snowmint.next_id()', [], () => new sm.Snowflake({ workerId: 1024, lease: 'none' }));
      await q('SET snowmint.worker_id = 9');
      // The core's check of a name, in its words, as JS raises it.
      await q(`SET snowmint.preset = 'tweeter'`);
      await same('SELECT snowmint.next_id()', [], () => new sm.Snowflake({ preset: 'tweeter' }));
      await q(`SET snowmint.preset = '${'é'.repeat(30)}'`);
      await same('SELECT snowmint.next_id()', [], () => new sm.Snowflake({ preset: 'é'.repeat(30) }));
      await q('RESET snowmint.preset');
      await same(`SELECT snowmint.next_id_at(${TS('$1')}, 0)`, [1000], () => new sm.Snowflake({ workerId: 9, lease: 'none' }).at(1000));
      await same(`SELECT snowmint.next_id_at(now(), 4096)`, [], () => new sm.Snowflake({ workerId: 9, lease: 'none' }).at(Date.now(), { sequence: 4096 }));
      await same(`SELECT snowmint.ulid_at(${TS('$1')})`, [-5], () => sm.ulid({ time: -5 }));
      await same(`SELECT snowmint.ksuid_at(${TS('$1')})`, [1000], () => sm.ksuid({ time: 1000 }));
      await same(`SELECT snowmint.min_id('uuidv1', now())`, [], () => sm.minId('uuidv1', Date.now()));
      await same(`SELECT snowmint.min_id('uuidv9', now())`, [], () => sm.minId('uuidv9', Date.now()));
      for (const prefix of ['User', '_user', 'a'.repeat(64), 'us-er']) {
        await same('SELECT snowmint.typeid($1)', [prefix], () => sm.typeid(prefix));
      }
      for (const bad of [
        '01ARZ3NDEKTSV4RRFFQ69G5FA!',
        '81ARZ3NDEKTSV4RRFFQ69G5FAV',
        '01ARZ3NDEKTSV4RRFFQ69G5FAé',
        'f81d4fae-7dec-11d0-a765-00a0c91e6bf!',
        'f81d4fae-7dec-11d0xa765-00a0c91e6bf6',
        'user_01h455vb4pex5vsknk084sn02!',
        'User_01h455vb4pex5vsknk084sn02q',
        'user_01h455',
        '0ujtsYcgvSTl8PAuAdqWYSMnL!v',
        '18446744073709551616',
        '9223372036854775808',
        'hello',
        '',
      ]) {
        await same('SELECT snowmint.decode($1::text)', [bad], () => sm.decode(bad));
      }
      await same('SELECT snowmint.decode($1::bigint)', ['-5'], () => sm.decode(-5n));
      for (const bad of ['01ARZ3NDEKTSV4RRFFQ69G5FA', '01ARZ3NDEKTSV4RRFFQ69G5FA!']) {
        await same('SELECT snowmint.ulid_to_uuid($1)', [bad], () => sm.ulidToUuid(bad));
      }
      await q('RESET snowmint.worker_id');
      assert.match(await sqlError(client, 'SELECT snowmint.next_id()'), /^ERR_NO_WORKER_ID: snowmint\.worker_id is not set/);
    });

    test('a role that only has USAGE on schema snowmint mints every kind', async () => {
      const admin = await server.connect();
      try {
        await admin.query('CREATE ROLE other LOGIN NOSUPERUSER');
        await admin.query('GRANT USAGE ON SCHEMA snowmint TO other');
      } finally {
        await admin.end();
      }
      const other = await server.connect('other');
      try {
        await other.query('SET snowmint.worker_id = 12');
        const { rows } = await other.query(`SELECT snowmint.next_id()::text AS s, ${db.ulid('snowmint.ulid()')} AS u, snowmint.uuidv7()::text AS v, snowmint.typeid('t') AS t, snowmint.ksuid() AS k`);
        assert.equal(sm.decode(BigInt(rows[0].s)).workerId, 12);
        if (db.pack) {
          // The pack's shared state is written by next_id() only.
          for (const sql of [`SELECT snowmint._next_id_state('twitter', snowmint._preset_layout('twitter'), 0)`, `SELECT snowmint._state('twitter', 1)`]) {
            await assert.rejects(other.query(sql), /permission denied for function/, sql);
          }
        }
        for (const id of [rows[0].u, rows[0].v, rows[0].t, rows[0].k]) assert.ok(Math.abs(sm.decode(id).timestamp - Date.now()) < 60_000, id);
      } finally {
        await other.end();
      }
    });

    test('8 sessions x 2000 IDs: no duplicate, each session in order, next_id in order across sessions', async () => {
      const sessions = await Promise.all(Array.from({ length: 8 }, () => server.connect(db.user ?? 'postgres')));
      try {
        const batch = await Promise.all(
          sessions.map(async (c, i) => {
            await c.query(`SET snowmint.worker_id = ${i % 2}`);
            const { rows } = await c.query(
              `SELECT snowmint.next_id()::text AS s, ${db.ulid('snowmint.ulid()')} AS u, snowmint.uuidv7()::text AS v, snowmint.typeid('t') AS t
               FROM generate_series(1, 2000)`,
            );
            return rows;
          }),
        );
        for (const key of ['s', 'u', 'v', 't']) {
          const all = new Set();
          for (const rows of batch) {
            const ids = rows.map((r) => (key === 's' ? BigInt(r[key]) : r[key]));
            for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1] < ids[i], `${key}: ${ids[i - 1]} then ${ids[i]}`);
            for (const id of ids) all.add(String(id));
          }
          assert.equal(all.size, 8 * 2000, `${key}: duplicates`);
        }
        // Across sessions: each ID of a worker ID minted after another one returned is larger, whichever
        // session mints it; also each ULID, UUIDv7 and TypeID where the surface promises it (the extension, preloaded).
        await Promise.all(sessions.map((c) => c.query('SET snowmint.worker_id = 0')));
        let last = [-1n, '', '', ''];
        for (let i = 0; i < 400; i++) {
          const { rows } = await sessions[i % 8].query(`SELECT snowmint.next_id()::text AS s, ${db.ulid('snowmint.ulid()')} AS u, snowmint.uuidv7()::text AS v, snowmint.typeid('t') AS t`);
          const ids = [BigInt(rows[0].s), rows[0].u, rows[0].v, rows[0].t];
          const ordered = db.acrossSessions ? 4 : 1;
          for (let k = 0; k < ordered; k++) assert.ok(ids[k] > last[k], `${last[k]} then ${ids[k]}`);
          last = ids;
        }
      } finally {
        await Promise.all(sessions.map((c) => c.end()));
      }
    });

    test('a server restart (also a crash) does not break next_id order', async () => {
      await q('SET snowmint.worker_id = 3');
      let last = BigInt(await one('SELECT max(snowmint.next_id())::text FROM generate_series(1, 5000)'));
      for (const immediate of [false, true]) {
        await client.end();
        server.restart({ immediate });
        client = await server.connect(db.user ?? 'postgres');
        await q('SET snowmint.worker_id = 3');
        const ids = (await q('SELECT snowmint.next_id()::text AS id FROM generate_series(1, 1000)')).map((r) => BigInt(r.id));
        assert.ok(ids[0] > last, `after the ${immediate ? 'crash' : 'restart'}: ${last} then ${ids[0]}`);
        last = ids.at(-1);
      }
    });

    test('a crash and a restart with the clock 3 s behind (libfaketime) mint after every earlier ID, or refuse', async () => {
      await q('SET snowmint.worker_id = 4');
      // Mint for a while first, so that the clock 3 s back falls among the minted ticks.
      const before = [];
      for (const end = Date.now() + 1500; Date.now() < end; ) {
        before.push(...(await q(`SELECT snowmint.next_id()::text AS s, ${db.ulid('snowmint.ulid()')} AS u, snowmint.uuidv7()::text AS v FROM generate_series(1, 500)`)));
      }
      await client.end();
      server.restart({ immediate: true, clock: '-3s' });
      try {
        client = await server.connect(db.user ?? 'postgres');
        await q('SET snowmint.worker_id = 4');
        const seen = new Set(before.map((r) => r.s));
        let after;
        try {
          after = await q('SELECT snowmint.next_id()::text AS s FROM generate_series(1, 2000)');
        } catch (e) {
          assert.match(e.message, /^ERR_CLOCK_BACKWARDS: /);
        }
        for (const r of after ?? []) assert.ok(!seen.has(r.s), `next_id() ${r.s} was minted before the crash`);
        if (after) assert.ok(BigInt(after[0].s) > BigInt(before.at(-1).s), `next_id(): ${before.at(-1).s} then ${after[0].s}`);
        if (db.acrossSessions) {
          // The extension's ULID and UUIDv7 streams go on after the bound it wrote before the crash.
          const [r] = await q(`SELECT ${db.ulid('snowmint.ulid()')} AS u, snowmint.uuidv7()::text AS v`);
          assert.ok(r.u > before.at(-1).u, `ulid(): ${before.at(-1).u} then ${r.u}`);
          assert.ok(r.v > before.at(-1).v, `uuidv7(): ${before.at(-1).v} then ${r.v}`);
        }
      } finally {
        await client.end();
        server.restart();
        client = await server.connect(db.user ?? 'postgres');
      }
    });
  });
}
