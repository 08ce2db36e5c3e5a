// The three ordinary deployments that minted duplicates without a word, each
// run as separate processes the way they are deployed:
// - zero configuration on a platform that runs replicas of one image (each
//   replica with a TMPDIR of its own, as a pod has): refused, naming the
//   platform, unless SNOWMINT_LEASE=local; a plain container warns once;
// - two processes that each build `new Snowflake()`: refused; with
//   `lease: 'local'` they get distinct worker IDs;
// - SNOWMINT_WORKER_ID=5 in two live processes of one host: the second is
//   refused, naming the first's pid; a restart on a clock 3 s behind
//   (libfaketime) resumes after the predecessor's last ID.
// Then docs/deploy.md's examples, each run as a simulated replica.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { assertUnique } from './harness.js';
import { startRedis, tempDir } from './servers.js';

const NODE_ENTRY = new URL('../../npm/entries/node.js', import.meta.url).href;
const CLI = new URL('../../npm/bin/snowmint.js', import.meta.url).pathname;
const work = tempDir('deploy');
test.after(() => rmSync(work, { recursive: true, force: true }));
/** A fresh TMPDIR for one process (a replica's, a host's), under `work`. */
const tmp = (name) => mkdtempSync(join(work, `${name}-`));

/** An environment with nothing configured (no worker ID, lease directory or SNOWMINT_LEASE), plus `extra`. */
function bare(extra = {}) {
  const env = { ...process.env };
  for (const k of ['SNOWMINT_WORKER_ID', 'SNOWMINT_LEASE_DIR', 'SNOWMINT_LEASE']) delete env[k];
  return { ...env, ...extra };
}

/**
 * Runs `body` (an async function body with `sm` in scope) in a child process;
 * returns what it returns (bigints as strings) and the child's stderr. An
 * error thrown in it comes back as `{ error: { name, code, message } }`.
 */
function child(body, env, cmd = []) {
  const script = `import(${JSON.stringify(NODE_ENTRY)}).then(async (sm) => {
    let out;
    try { out = await (async () => { ${body} })(); } catch (e) { out = { error: { name: e.name, code: e.code, message: e.message } }; }
    console.log(JSON.stringify(out, (k, v) => (typeof v === 'bigint' ? String(v) : v)));
  });`;
  const argv = [...cmd, process.execPath, '--input-type=module', '-e', script];
  const r = spawnSync(argv[0], argv.slice(1), { env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  return { out: JSON.parse(r.stdout), stderr: r.stderr };
}

/** Mints 20,000 IDs in a burst from each of two replicas at once; returns both runs. */
const MINT_BURST = `const ids = []; for (let i = 0; i < 20000; i++) ids.push(sm.nextId()); return { workerId: sm.decode(ids[0]).workerId, ids };`;

const PLATFORMS = [
  ['Kubernetes', { KUBERNETES_SERVICE_HOST: '10.96.0.1', HOSTNAME: 'web-7d9f8-abcde' }],
  ['AWS Lambda', { AWS_LAMBDA_FUNCTION_NAME: 'mint' }],
  ['Heroku', { DYNO: 'web.1' }],
];

for (const [name, vars] of PLATFORMS) {
  test(`zero config on ${name}: nextId() and the CLI refuse with ERR_NO_WORKER_ID, naming the platform and the ways out`, () => {
    // Two replicas, each with a TMPDIR (and so a lease directory) of its own.
    const replica = (i, extra = {}) => bare({ ...vars, TMPDIR: tmp(`replica${i}`), ...extra });
    for (const i of [1, 2]) {
      const { out } = child(MINT_BURST, replica(i));
      assert.deepEqual([out.error?.name, out.error?.code], ['ConfigError', 'ERR_NO_WORKER_ID'], JSON.stringify(out));
      assert.ok(out.error.message.includes(name), out.error.message);
      for (const way of ['workerIdFromHostname()', 'pod-index', 'redisLease', 'SNOWMINT_WORKER_ID', 'ulid() / uuidv7()', 'SNOWMINT_LEASE=local']) {
        assert.ok(out.error.message.includes(way), `${way}: ${out.error.message}`);
      }
      const cli = spawnSync(process.execPath, [CLI, 'snowflake'], { env: replica(i), encoding: 'utf8' });
      assert.equal(cli.status, 2);
      assert.match(cli.stderr, /ERR_NO_WORKER_ID/);
    }
    // What needs no worker ID still works, and so do the ways out.
    assert.equal(child('return sm.ulid().length;', replica(3)).out, 26);
    const ids = [1, 2].map((i) => child(MINT_BURST, replica(i, { SNOWMINT_WORKER_ID: String(i) })).out);
    assert.deepEqual(
      ids.map((r) => r.workerId),
      [1, 2],
    );
    assertUnique(ids.map((r) => BigUint64Array.from(r.ids, BigInt)));
    assert.equal(child(MINT_BURST, replica(4, { SNOWMINT_LEASE: 'local' })).out.workerId, 0);
    assert.equal(child(`sm.configure({ lease: 'local' }); ${MINT_BURST}`, replica(5)).out.workerId, 0);
  });
}

test("a SNOWMINT_LEASE it does not know is a ConfigError naming 'local'", () => {
  const { out } = child('return sm.nextId();', bare({ TMPDIR: tmp('badlease'), SNOWMINT_LEASE: 'yes' }));
  assert.deepEqual([out.error?.code, out.error?.name], ['ERR_INVALID_OPTION', 'ConfigError']);
  assert.match(out.error.message, /SNOWMINT_LEASE='yes' .* 'local'/);
});

test('a plain container (no orchestrator): zero config mints, and warns once that its lease covers this container only', async () => {
  const { addon } = await import('../../npm/src/addon.js');
  const env = bare({ TMPDIR: tmp('container') });
  // Asked in a child, whose SNOWMINT_LEASE is unset: is this machine a container?
  const inContainer = child(`const { addon } = await import(${JSON.stringify(new URL('../../npm/src/addon.js', import.meta.url).href)}); return addon.zeroConfigCheck(false) !== null;`, env).out;
  assert.equal(typeof addon.zeroConfigCheck, 'function');
  const { out, stderr } = child(`sm.nextId(); sm.nextId(); new sm.Snowflake({ lease: 'local' }).next(); return 'minted';`, env);
  assert.equal(out, 'minted');
  const warnings = stderr.match(/\[SNOWMINT_CONTAINER\] Warning: snowmint: this process runs in a container/g) ?? [];
  assert.equal(warnings.length, inContainer ? 1 : 0, stderr);
  if (inContainer) assert.match(stderr, /SNOWMINT_LEASE=local \(which also silences this warning\)/);
  // Said explicitly: no warning.
  const quiet = child('sm.nextId(); return 1;', { ...env, SNOWMINT_LEASE: 'local' });
  assert.doesNotMatch(quiet.stderr, /SNOWMINT_CONTAINER/);
});

test("two processes each with new Snowflake(): refused, not both on worker ID 0; with lease: 'local' distinct worker IDs", () => {
  const env = bare({ TMPDIR: tmp('own') });
  for (const options of ['', "{ preset: 'discord' }"]) {
    const { out } = child(`const g = new sm.Snowflake(${options}); const d = g.decode(175928847299117063n).sequence; return [d, g.next()];`, env);
    assert.deepEqual([out.error?.name, out.error?.code], ['ConfigError', 'ERR_NO_WORKER_ID'], JSON.stringify(out));
    assert.match(out.error.message, /lease: 'local'/);
  }
  // Two live processes at once, each with a generator of its own on the local lease.
  const script = `const g = new sm.Snowflake({ preset: 'discord', lease: 'local' });
    const ids = []; for (let i = 0; i < 20000; i++) ids.push(g.next());
    await new Promise((r) => setTimeout(r, 300));
    return { workerId: g.workerId, ids };`;
  return Promise.all([0, 1].map(() => spawnChild(script, env))).then((runs) => {
    assert.notEqual(runs[0].workerId, runs[1].workerId);
    assertUnique(runs.map((r) => BigUint64Array.from(r.ids, BigInt)));
  });
});

/** `child()`, asynchronously: the child runs alongside others. */
async function spawnChild(body, env) {
  const script = `import(${JSON.stringify(NODE_ENTRY)}).then(async (sm) => {
    const out = await (async () => { ${body} })();
    console.log(JSON.stringify(out, (k, v) => (typeof v === 'bigint' ? String(v) : v)));
  });`;
  const p = spawn(process.execPath, ['--input-type=module', '-e', script], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  p.stdout.on('data', (d) => (text += d));
  const [code] = await once(p, 'exit');
  assert.equal(code, 0);
  return JSON.parse(text);
}

test('SNOWMINT_WORKER_ID=5 in two live processes of one host: the second is refused with ERR_WORKER_ID_IN_USE naming the first', async () => {
  const env = bare({ TMPDIR: tmp('explicit'), SNOWMINT_WORKER_ID: '5' });
  // The first holds worker ID 5 until told to stop.
  const holder = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import(${JSON.stringify(NODE_ENTRY)}).then((sm) => {
    console.log(sm.decode(sm.nextId()).workerId);
    process.stdin.once('data', () => process.exit(0));
  });`,
    ],
    { env, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const [line] = await once(createInterface({ input: holder.stdout }), 'line');
  assert.equal(line, '5');
  try {
    const { out } = child('return sm.nextId();', env);
    assert.deepEqual([out.error?.name, out.error?.code], ['ConfigError', 'ERR_WORKER_ID_IN_USE'], JSON.stringify(out));
    assert.match(out.error.message, new RegExp(`worker ID 5 is in use on this host: the live process with pid ${holder.pid} holds it`));
    // The same for a generator of its own, and the CLI.
    assert.equal(child('return new sm.Snowflake({ workerId: 5 }).next();', bare({ TMPDIR: env.TMPDIR })).out.error?.code, 'ERR_WORKER_ID_IN_USE');
    const cli = spawnSync(process.execPath, [CLI, 'snowflake', '--worker-id', '5'], { env, encoding: 'utf8' });
    assert.match(cli.stderr, /ERR_WORKER_ID_IN_USE/);
    // Another ID, or lease: 'none' (no lock, at the user's risk), mints.
    assert.equal(typeof child('sm.configure({ workerId: 6 }); return sm.nextId();', env).out, 'string');
    assert.equal(typeof child("sm.configure({ workerId: 5, lease: 'none' }); return sm.nextId();", env).out, 'string');
  } finally {
    holder.stdin.end('stop\n');
    await once(holder, 'exit');
  }
  // Released: the next process takes worker ID 5 again.
  assert.equal(child('return sm.decode(sm.nextId()).workerId;', env).out, 5);
});

test('a restart with the same explicit worker ID on a clock 3 s behind (libfaketime) resumes after the last ID, never re-minting the past', () => {
  const env = bare({ TMPDIR: tmp('restart'), SNOWMINT_WORKER_ID: '9' });
  const mint = `const ids = [];
    const start = Date.now();
    while (ids.length === 0) { try { ids.push(sm.nextId()); } catch (e) { if (e.code !== 'ERR_CLOCK_BACKWARDS') throw e; } }
    for (let i = 1; i < 50000; i++) ids.push(sm.nextId());
    return { first: ids[0], last: ids.at(-1), lastMs: sm.decode(ids.at(-1)).timestamp, startMs: start, waitedMs: Date.now() - start };`;
  const before = child(mint, env).out;
  const after = child(mint, env, ['faketime', '-f', '-3s']);
  assert.ok(BigInt(after.out.first) > BigInt(before.last), `successor's first ID ${after.out.first} is not above its predecessor's last ${before.last}`);
  // How far behind the predecessor's last tick its clock started: 3 s less
  // the time between the two processes (a slow start on a loaded machine).
  const behindMs = before.lastMs - after.out.startMs;
  assert.ok(behindMs > 500, `the restart began only ${behindMs} ms behind the last tick: the test did not step its clock back`);
  assert.ok(after.out.waitedMs >= behindMs, `waited only ${after.out.waitedMs} ms for its clock to pass the last tick, ${behindMs} ms ahead`);
  assert.match(after.stderr, /\[ERR_CLOCK_SKEW\] Warning: snowmint: the clock of this process's worker ID lock \(worker ID 9\) is -\d+ ms from the host's clock/);
});

// --- docs/deploy.md's examples --------------------------------------------

const DOC = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
const SPECIFIERS = {
  snowmint: NODE_ENTRY,
  'snowmint/lease': new URL('../../npm/src/lease/index.js', import.meta.url).href,
  ioredis: import.meta.resolve('ioredis'),
};

/** Runs the example `name` of docs/deploy.md (its imports pointed at this repository) with `env`; returns its output lines. */
function runExample(name, env) {
  const m = new RegExp(`\`\`\`js\n// deploy-example: ${name}\n([\\s\\S]*?)\`\`\``).exec(DOC);
  assert.ok(m, `docs/deploy.md has no example '${name}'`);
  const file = join(tmp(name), `${name}.mjs`);
  writeFileSync(
    file,
    m[1].replace(/from '([^']+)'/g, (all, spec) => `from '${SPECIFIERS[spec] ?? spec}'`),
  );
  const r = spawnSync(process.execPath, [file], { env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n');
}

const K8S = { KUBERNETES_SERVICE_HOST: '10.96.0.1' };

test('docs/deploy.md: the StatefulSet example gives pods web-0 and web-1 worker IDs 0 and 1 under Kubernetes', () => {
  for (const n of [0, 1]) {
    assert.deepEqual(runExample('statefulset', bare({ ...K8S, HOSTNAME: `web-${n}`, TMPDIR: tmp(`pod${n}`) })), [String(n)]);
  }
});

test('docs/deploy.md: the Deployment + Redis example leases distinct worker IDs for replicas alive at once (a real Redis)', async () => {
  const redis = await startRedis();
  try {
    const { default: Redis } = await import('ioredis');
    const client = new Redis(redis.url);
    // A replica that already holds a worker ID: the example's replica must take another.
    const { redisLease } = await import(SPECIFIERS['snowmint/lease']);
    const held = await redisLease(client, { ttlMs: 10_000 });
    const out = runExample('deployment-redis', bare({ ...K8S, HOSTNAME: 'web-7d9f8-abcde', TMPDIR: tmp('deploy-pod'), REDIS_URL: redis.url }));
    assert.equal(out.length, 1);
    assert.notEqual(Number(out[0]), held.workerId);
    await held.release();
    client.disconnect();
  } finally {
    await redis.close();
  }
});

test('docs/deploy.md: the serverless example mints on AWS Lambda with no worker ID', () => {
  assert.deepEqual(runExample('serverless', bare({ AWS_LAMBDA_FUNCTION_NAME: 'mint', TMPDIR: tmp('lambda') })), ['26 36']);
});

test('docs/deploy.md: the cluster example mints in every worker with zero configuration', () => {
  const out = runExample('cluster', bare({ TMPDIR: tmp('cluster'), SNOWMINT_LEASE: 'local' }));
  assert.equal(out.length, 2);
  for (const line of out) assert.match(line, /^\d+$/);
});
