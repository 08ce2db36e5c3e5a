// The default generator's worker ID when none is configured: the Node entry
// leases one among the machine's processes; the wasm build (snowmint/wasm,
// and the Node entry's fallback when no native binary loads) has nothing to
// lease from and refuses with ERR_NO_WORKER_ID instead of minting on a worker
// ID that every page, thread and process would share.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ENTRIES, SRC, sm } from './pkg.js';

/** Runs `body` (an async function body, `sm` in scope) in a fresh process importing `entry`; returns what it prints as JSON. */
function inChild(entry, body, env = {}) {
  const script = `import(${JSON.stringify(entry)}).then(async (sm) => {
    const err = (f) => { try { f(); return null; } catch (e) { return { name: e.name, code: e.code, message: e.message, cause: e.cause?.code, config: e instanceof sm.ConfigError }; } };
    console.log(JSON.stringify(await (async () => { ${body} })(), (k, v) => (typeof v === 'bigint' ? String(v) : v)));
  });`;
  const childEnv = { ...process.env };
  delete childEnv.SNOWMINT_WORKER_ID;
  Object.assign(childEnv, env);
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: childEnv, encoding: 'utf8' }));
}

const ZERO_CONFIG = `return {
  nextId: err(() => sm.nextId()),
  nextIdString: err(() => sm.nextIdString()),
  nextIds: err(() => sm.nextIds(3)),
  configureWithoutWorkerId: err(() => sm.configure({ preset: 'discord' })),
  ulid: sm.ulid().length,
  ownSnowflake: err(() => new sm.Snowflake({ preset: 'discord' }).next()),
  ownDecodes: new sm.Snowflake({ preset: 'discord' }).decode('175928847299117063').workerId,
  configured: (sm.configure({ workerId: 7 }), sm.decode(sm.nextId()).workerId),
  backend: sm.backendName,
};`;

test('snowmint/wasm: nextId() without a worker ID is a ConfigError saying why and what to do', () => {
  const r = inChild(new URL('browser.js', ENTRIES).href, ZERO_CONFIG);
  for (const what of ['nextId', 'nextIdString', 'nextIds', 'configureWithoutWorkerId']) {
    const e = r[what];
    assert.ok(e, `${what} must throw`);
    assert.deepEqual([e.name, e.code, e.config], ['ConfigError', 'ERR_NO_WORKER_ID', true], what);
    assert.match(e.message, /every page, tab and worker .* would use worker ID 0/);
    assert.match(e.message, /configure\(\{ workerId \}\)/);
    assert.match(e.message, /ulid\(\) or uuidv7\(\)/);
  }
  assert.equal(r.ulid, 26);
  assert.equal(r.configured, 7);
  assert.equal(r.backend, 'wasm');
  // A generator of its own: no silent worker 0 either, but it still decodes.
  assert.deepEqual([r.ownSnowflake?.name, r.ownSnowflake?.code], ['ConfigError', 'ERR_NO_WORKER_ID']);
  assert.match(r.ownSnowflake.message, /this Snowflake has no worker ID: .* worker ID 0/);
  assert.equal(r.ownDecodes, 32);
});

test('the Node entry without a native binary: the same ConfigError, naming SNOWMINT_WORKER_ID', (t) => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'snowmint-nonative-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const pkg = fileURLToPath(new URL('..', SRC));
  cpSync(pkg, path.join(tmp, 'pkg'), { recursive: true, filter: (src) => path.basename(src) !== 'native' && path.basename(src) !== 'node_modules' });
  const entry = path.join(tmp, 'pkg/entries/node.js');
  const r = inChild(entry, ZERO_CONFIG);
  assert.equal(r.backend, 'wasm');
  for (const what of ['nextId', 'nextIdString', 'nextIds', 'configureWithoutWorkerId']) {
    const e = r[what];
    assert.ok(e, `${what} must throw`);
    assert.deepEqual([e.name, e.code, e.config, e.cause], ['ConfigError', 'ERR_NO_WORKER_ID', true, 'ERR_NO_NATIVE_BINARY'], what);
    assert.match(e.message, /no native binary for/);
    assert.match(e.message, /SNOWMINT_WORKER_ID/);
    assert.match(e.message, /worker ID 0/);
  }
  assert.equal(r.configured, 7);
  // SNOWMINT_WORKER_ID is one per process, but each worker thread has a generator of
  // its own here: the main thread takes it, a worker thread must configure its own.
  const withEnv = inChild(
    entry,
    `const { Worker } = await import('node:worker_threads');
    const worker = new Worker(\`Promise.all([import(\${JSON.stringify(${JSON.stringify(entry)})}), import('node:worker_threads')]).then(([sm, { parentPort }]) => {
      let refused = null;
      try { sm.nextId(); } catch (e) { refused = { code: e.code, message: e.message }; }
      sm.configure({ workerId: 13 });
      parentPort.postMessage({ refused, workerId: sm.decode(sm.nextId()).workerId });
    });\`, { eval: true });
    const fromThread = await new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
    await worker.terminate();
    return { main: sm.decode(sm.nextId()).workerId, thread: fromThread };`,
    { SNOWMINT_WORKER_ID: '12' },
  );
  assert.equal(withEnv.main, 12);
  assert.equal(withEnv.thread.refused?.code, 'ERR_NO_WORKER_ID');
  assert.match(withEnv.thread.refused.message, /in this worker thread: .* each thread mints from a generator of its own, so SNOWMINT_WORKER_ID \(one per process\) does not apply here/);
  assert.equal(withEnv.thread.workerId, 13);
});

// A layout with 4 worker bits (16 worker IDs).
const SMALL = `{ timeBits: 51, workerBits: 4, sequenceBits: 8 }`;

test('configure({ layout }) after a zero-config nextId() keeps the leased worker ID, as configured first', {
  skip: sm.backendName !== 'native' && 'the zero-config lease needs the native addon',
}, (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'snowmint-leases-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const entry = new URL('node.js', ENTRIES).href;
  const run = (body) => inChild(entry, body, { SNOWMINT_LEASE_DIR: dir });
  const after = run(`const zero = sm.decode(sm.nextId()).workerId;
    const e = err(() => sm.configure({ layout: ${SMALL} }));
    return { zero, e, id: e ? null : sm.decode(sm.nextId(), { layout: ${SMALL} }).workerId };`);
  assert.equal(after.e, null, after.e?.message);
  assert.equal(after.id, after.zero);
  const first = run(`sm.configure({ layout: ${SMALL} }); return sm.decode(sm.nextId(), { layout: ${SMALL} }).workerId;`);
  assert.ok(first < 16);
});

test('a zero-config worker ID the new layout cannot hold is a ConfigError that says so', { skip: sm.backendName !== 'native' && 'the zero-config lease needs the native addon' }, async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'snowmint-leases-'));
  const { localLease } = await import(new URL('lease/index.js', SRC).href);
  // Hold worker IDs 0 to 15 here, so that the child's zero-config lease takes 16.
  const held = Array.from({ length: 16 }, () => localLease({ dir, workerIds: { max: 15 } }));
  t.after(() => {
    for (const l of held) l.release();
    rmSync(dir, { recursive: true, force: true });
  });
  const r = inChild(
    new URL('node.js', ENTRIES).href,
    `const zero = sm.decode(sm.nextId()).workerId;
    return { zero, e: err(() => sm.configure({ layout: ${SMALL} })) };`,
    { SNOWMINT_LEASE_DIR: dir },
  );
  assert.equal(r.zero, 16);
  assert.deepEqual([r.e.name, r.e.code], ['ConfigError', 'ERR_WORKER_ID_RANGE']);
  assert.match(r.e.message, /zero-config worker ID is 16 .* only 16 worker IDs: configure the layout before the first nextId\(\)/);
});
