// The examples of README.md and docs/*.md that use better-sqlite3 (the
// SQLite extension, docs/database.md), run as written (tests/node/docs.js:
// how), their imports pointed at this repository, each in a process of its
// own with a lease directory of its own.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { allBlocks, assertRan, entriesOf, resolverFor, runBlock } from '../node/docs.js';

const RUNNER = 'tests/sqlite/docs.test.js';
const BLOCKS = allBlocks().filter((b) => b.runner === RUNNER);
const resolve = resolverFor(entriesOf(new URL('../../npm/entries/node.js', import.meta.url).href));

test('the blocks that use the SQLite extension are found', () => {
  assert.ok(BLOCKS.length >= 2, `only ${BLOCKS.length} blocks`);
  for (const b of BLOCKS) for (const s of b.servers) assert.equal(s, 'sqlite', `${b.where}: no server '${s}' here`);
});

for (const block of BLOCKS) {
  test(`${block.where} runs as written`, { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'snowmint-sqlite-docs-'));
    try {
      assertRan(block, await runBlock(block, { resolve, env: { SNOWMINT_LEASE_DIR: path.join(dir, 'leases') } }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
