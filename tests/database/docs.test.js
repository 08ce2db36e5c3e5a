// Every ```sql block of README.md and docs/*.md runs here, as written,
// against the SQL pack on a real PostgreSQL 15, or the extension for a
// block that creates it (tests/node/docs-examples.test.js counts them as
// run by this file). Each block runs in a transaction that
// is rolled back (blocks may create the same table). A statement whose
// comment reads `-- ERROR:  <text>` must raise an error whose message starts
// with <text> (up to a `...`); one whose comment starts with a value (a
// number, or a token beginning with a digit or capital letter) must return
// that value in its first column.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { allBlocks } from '../node/docs.js';
import { startPostgres } from './postgres.js';

const BLOCKS = allBlocks().filter((b) => b.lang === 'sql' && b.notRun === null);

/** The statements of a block: { sql, expect } with `expect` { error } or { value } or null. */
function statements(code) {
  const out = [];
  let sql = '';
  for (const line of code.split('\n')) {
    const comment = /^\s*--\s?(.*)$/.exec(line);
    if (comment && out.length > 0 && sql === '') {
      const last = out.at(-1);
      const error = /^ERROR:\s+(.*)$/.exec(comment[1]);
      if (error) last.expect = { error: error[1].split('...')[0].trimEnd() };
      continue;
    }
    const [code_, note] = line.split(/\s--\s(.*)$/);
    sql += `${code_}\n`;
    if (code_.trimEnd().endsWith(';')) {
      const value = note && /^([0-9A-Z][0-9A-Za-z:.\-+]*?),?(\s|$)/.exec(note);
      out.push({ sql: sql.trim(), expect: value ? { value: value[1] } : null });
      sql = '';
    }
  }
  assert.equal(sql.trim(), '', 'a statement without its closing semicolon');
  return out;
}

let server;
let pack;
let extClient;
before(async () => {
  server = await startPostgres(15);
  const admin = await server.connect();
  await admin.query('CREATE DATABASE app');
  await admin.query('CREATE DATABASE ext');
  await admin.end();
  execFileSync(
    'psql',
    ['-h', '127.0.0.1', '-p', String(server.port), '-U', 'postgres', '-d', 'app', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', new URL('../../sql/snowmint.sql', import.meta.url).pathname],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  pack = await server.connect('postgres', 'app');
  extClient = await server.connect('postgres', 'ext');
});
after(async () => {
  await pack?.end();
  await extClient?.end();
  server?.stop();
});

test('there are sql blocks to run', () => assert.ok(BLOCKS.length >= 3, `${BLOCKS.length} blocks`));

for (const block of BLOCKS) {
  test(`${block.where} runs as written`, async () => {
    const client = /CREATE EXTENSION snowmint/.test(block.code) ? extClient : pack;
    await client.query('BEGIN');
    try {
      for (const [i, s] of statements(block.code).entries()) {
        await client.query(`SAVEPOINT s${i}`);
        if (s.expect?.error) {
          await assert.rejects(client.query(s.sql), (e) => e.message.startsWith(s.expect.error), `${s.sql}: not ${s.expect.error}`);
          await client.query(`ROLLBACK TO SAVEPOINT s${i}`);
          continue;
        }
        const { rows, fields } = await client.query({ text: s.sql, rowMode: 'array' });
        if (s.expect?.value) assert.equal(String(rows[0][0]), s.expect.value, `${s.sql} (${fields[0]?.name})`);
      }
    } finally {
      await client.query('ROLLBACK');
    }
  });
}
