// The local lease trusts no other user: another local user who creates the
// lease directory first (or plants files in it) must get a clear
// LeaseError ERR_LEASE_DIR_UNSAFE out of the victim, never its worker IDs,
// a hang, a write into a file of their choosing, or a lock file they can
// delete. Runs as root (CI does): the attacker is a user this file creates
// with useradd and removes afterwards; the victim is root, in a child
// process with a deadline (today's code hangs on a FIFO).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from './servers.js';

const ATTACKER = `snowmint-atk${process.pid}`;
const isRoot = process.getuid?.() === 0;
const skip = isRoot ? false : 'needs root, to create the attacker user';
const LEASE = new URL('../../npm/src/lease/index.js', import.meta.url).href;
const NODE_ENTRY = new URL('../../npm/entries/node.js', import.meta.url).href;

let parent;
test.before(() => {
  if (!isRoot) return;
  execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', ATTACKER]);
  // Like /tmp: everyone may create entries, only owners may remove theirs.
  parent = tempDir('hostile');
  chmodSync(parent, 0o1777);
});
test.after(() => {
  if (!isRoot) return;
  rmSync(parent, { recursive: true, force: true });
  spawnSync('userdel', [ATTACKER]);
});

/** Runs `argv` as the attacker; returns its exit status. */
const asAttacker = (...argv) => spawnSync('runuser', ['-u', ATTACKER, '--', ...argv], { stdio: 'ignore' }).status;

/** Runs `body` (ESM, `localLease`/`nextId` in scope) as the victim in a child, 15 s deadline; returns what it printed. */
function victim(body, env = {}) {
  const code = `import { localLease } from '${LEASE}'; import { nextId } from '${NODE_ENTRY}';
    try { ${body}; console.log(JSON.stringify({ ok: true })); }
    catch (e) { console.log(JSON.stringify({ code: e.code, name: e.name, message: e.message })); }`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { env: { ...process.env, SNOWMINT_WORKER_ID: '', ...env }, timeout: 15_000, encoding: 'utf8' });
  assert.equal(r.signal, null, `the victim hung (killed after 15 s): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1));
}

const refused = (r, pattern) => {
  assert.equal(r.code, 'ERR_LEASE_DIR_UNSAFE', `the victim used the attacker's lease directory: ${JSON.stringify(r)}`);
  assert.equal(r.name, 'LeaseError');
  assert.match(r.message, pattern);
  assert.match(r.message, /SNOWMINT_LEASE_DIR|chmod/, 'the message says how to fix it');
};

const squatted = (name) => join(parent, `snowmint-leases-${name}`);

test("an attacker's 0755 lease directory (deny service, delete the victim's lock files): refused, ERR_LEASE_DIR_UNSAFE", { skip }, () => {
  const dir = squatted('a');
  assert.equal(asAttacker('mkdir', '-m', '0755', dir), 0);
  refused(victim(`localLease({ dir: '${dir}' })`), /owned by uid \d+, not by this process's uid 0/);
  // Zero configuration, through the default directory's name under TMPDIR.
  const tmp = join(parent, 'tmp-a');
  mkdirSync(tmp, { mode: 0o1777 });
  chmodSync(tmp, 0o1777);
  assert.equal(asAttacker('mkdir', '-m', '0755', join(tmp, 'snowmint-leases-root')), 0);
  refused(victim('nextId()', { TMPDIR: tmp, SNOWMINT_LEASE_DIR: '' }), /owned by uid/);
});

test("an attacker's 0777 lease directory (take every worker ID, delete lock files): refused, ERR_LEASE_DIR_UNSAFE", { skip }, () => {
  const dir = squatted('b');
  assert.equal(asAttacker('mkdir', '-m', '0777', dir), 0);
  refused(victim(`localLease({ dir: '${dir}' })`), /owned by uid/);
  assert.equal(existsSync(join(dir, 'worker-0.lock')), false, 'the victim created a lock file in it');
});

test("the victim's own directory made writable by others: refused until chmod go-w", { skip }, () => {
  const dir = join(parent, 'own-writable');
  mkdirSync(dir, { mode: 0o700 });
  chmodSync(dir, 0o777);
  refused(victim(`localLease({ dir: '${dir}' })`), /writable by other users \(mode 0777\)/);
  chmodSync(dir, 0o755);
  assert.deepEqual(victim(`localLease({ dir: '${dir}' })`), { ok: true });
});

test('a FIFO named like a lock file (hang nextId() forever): refused at once, no hang', { skip }, () => {
  const dir = squatted('c');
  assert.equal(asAttacker('mkdir', '-m', '0777', dir), 0);
  assert.equal(asAttacker('mkfifo', '-m', '0666', join(dir, 'worker-0.lock')), 0);
  refused(victim(`localLease({ dir: '${dir}' })`), /owned by uid/);
  // In a directory of the victim's own (a FIFO left there): refused too.
  const own = join(parent, 'own-fifo');
  mkdirSync(own, { mode: 0o700 });
  execFileSync('mkfifo', [join(own, 'worker-0.lock')]);
  refused(victim(`localLease({ dir: '${own}', workerIds: { min: 0, max: 0 } })`), /worker-0\.lock is not a regular file/);
});

test("a symlink named like a lock file (write into a file of the attacker's choosing): refused, the target untouched", { skip }, () => {
  const target = join(parent, 'precious');
  writeFileSync(target, 'precious\n', { mode: 0o644 });
  const dir = squatted('d');
  assert.equal(asAttacker('mkdir', '-m', '0777', dir), 0);
  assert.equal(asAttacker('ln', '-s', target, join(dir, 'worker-0.lock')), 0);
  refused(victim(`localLease({ dir: '${dir}' })`), /owned by uid/);
  const own = join(parent, 'own-link');
  mkdirSync(own, { mode: 0o700 });
  symlinkSync(target, join(own, 'worker-0.lock'));
  refused(victim(`localLease({ dir: '${own}', workerIds: { min: 0, max: 0 } })`), /worker-0\.lock is a symbolic link/);
  assert.equal(readFileSync(target, 'utf8'), 'precious\n');
  // A symlinked lease directory is refused too.
  const linked = squatted('e');
  assert.equal(asAttacker('ln', '-s', own, linked), 0);
  refused(victim(`localLease({ dir: '${linked}' })`), /is a symbolic link/);
});

test("a directory snowmint creates is 0700 with 0600 lock files: the attacker cannot delete the victim's lock file", { skip }, () => {
  const dir = join(parent, 'created', 'leases');
  const holder = spawnSync(process.execPath, ['--input-type=module', '-e', `import { localLease } from '${LEASE}'; localLease({ dir: '${dir}' });`], { encoding: 'utf8', timeout: 15_000 });
  assert.equal(holder.status, 0, holder.stderr);
  assert.equal(lstatSync(dir).mode & 0o7777, 0o700);
  assert.equal(statSync(join(dir, 'worker-0.lock')).mode & 0o777, 0o600);
  assert.notEqual(asAttacker('rm', '-f', join(dir, 'worker-0.lock')), 0);
  assert.ok(existsSync(join(dir, 'worker-0.lock')));
});

test('a relative SNOWMINT_LEASE_DIR (a different directory per working directory) is refused', () => {
  const r = victim('nextId()', { SNOWMINT_LEASE_DIR: 'leases' });
  assert.equal(r.code, 'ERR_LEASE_DIR_UNSAFE');
  assert.match(r.message, /SNOWMINT_LEASE_DIR='leases' is a relative path/);
});
