// node:sqlite (Node 22.13 and later; here Node 24 from the set-up's cache,
// scripts/setup.d/86-sqlite.sh): the same addon file loads through
// DatabaseSync#loadExtension and mints from that process's own generator.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { sm } from './common.js';

const NODE = process.env.SNOWMINT_NODE_SQLITE ?? path.join(process.env.SNOWMINT_CACHE ?? path.join(homedir(), '.cache/snowmint'), 'node/gnu-x64-24.21.0/bin/node');

test('node:sqlite loads extensionPath; SQL and nextId() share the process generator', () => {
  assert.ok(existsSync(NODE), `${NODE}: run scripts/setup.d/86-sqlite.sh`);
  const script = `
    import { DatabaseSync } from 'node:sqlite';
    import { extensionPath } from ${JSON.stringify(new URL('../../npm/src/sqlite.js', import.meta.url).href)};
    import { configure, nextId, ulid } from ${JSON.stringify(new URL('../../npm/entries/node.js', import.meta.url).href)};
    configure({ workerId: 42 });
    const db = new DatabaseSync(':memory:', { allowExtension: true });
    db.loadExtension(extensionPath);
    const next = db.prepare('SELECT snowmint_next_id() AS id');
    next.setReadBigInts(true);
    const sql = [], js = [];
    for (let i = 0; i < 2000; i++) { sql.push(String(next.get().id)); js.push(String(nextId())); }
    const row = db.prepare("SELECT snowmint_ulid() AS u, snowmint_decode(snowmint_next_id()) AS d").get();
    let error;
    try { db.prepare("SELECT snowmint_configure(1, 'tweeter')").get(); } catch (e) { error = e.message; }
    console.log(JSON.stringify({ version: process.versions.node, sqlite: process.versions.sqlite, sql, js, ulid: row.u, ulidJs: ulid(), record: JSON.parse(row.d), error }));
  `;
  const out = JSON.parse(execFileSync(NODE, ['--no-warnings', '--input-type=module', '-e', script], { encoding: 'utf8' }));
  assert.match(out.version, /^2[2-9]\./);
  assert.equal(new Set([...out.sql, ...out.js]).size, 4000, 'a duplicate between SQL and nextId()');
  for (const ids of [out.sql, out.js]) {
    const big = ids.map(BigInt);
    for (let i = 1; i < big.length; i++) assert.ok(big[i - 1] < big[i]);
    assert.equal(sm.decode(big[0]).workerId, 42);
  }
  assert.equal(out.record.workerId, 42);
  assert.equal(sm.decode(out.ulid).kind, 'ulid');
  assert.match(out.error, /^ERR_INVALID_OPTION: unknown preset 'tweeter'/);
});
