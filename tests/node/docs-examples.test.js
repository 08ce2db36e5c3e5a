// Every code block of README.md and docs/*.md runs somewhere, or is marked
// `<!-- not run: REASON -->`; this file runs the ```js blocks that need no
// server, type-checks the ```ts blocks and runs the `npx snowmint` lines of
// the ```sh blocks, against the package under test (the ```sql blocks run
// in tests/database/docs.test.js). How a block is run and
// checked: tests/node/docs.js.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { allBlocks, assertRan, DEPLOY_RUNNER, docFiles, entriesOf, IN_REPOSITORY, LOCAL_RUNNER, ROOT, RUNNER_OF, RUST_DOCTESTS, resolverFor, runBlock, withChecks } from './docs.js';
import { CLI, PACKAGE } from './pkg.js';

const BLOCKS = allBlocks();
const resolve = resolverFor(entriesOf(PACKAGE));

/** What every example may read: a state directory of its own (systemd's StateDirectory=), a StatefulSet pod's name and index. */
function exampleEnv(dir) {
  return { STATE_DIRECTORY: path.join(dir, 'state'), HOSTNAME: 'web-3', POD_INDEX: '3' };
}

/** Languages whose blocks are not run: shell sessions, manifests, markup, program output. */
const NOT_CODE = new Set(['sh', 'toml', 'html', 'text', 'json', 'yaml']);

test('every code block says its language, and is run somewhere or marked with a reason', () => {
  const runners = new Set([LOCAL_RUNNER, DEPLOY_RUNNER, ...Object.values(RUNNER_OF)]);
  let marked = 0;
  for (const b of BLOCKS) {
    assert.notEqual(b.lang, '', `${b.where}: a code block without a language (rustdoc would compile it as Rust): say js, rust, sh, text...`);
    if (b.notRun !== null) {
      assert.ok(b.notRun.length >= 10, `${b.where}: say why the block is not run`);
      marked++;
      continue;
    }
    if (b.lang === 'js') assert.ok(runners.has(b.runner), `${b.where}: no test runs this block`);
    // sql blocks run against a real PostgreSQL in tests/database/docs.test.js (the database suite).
    else
      assert.ok(
        ['ts', 'rust', 'sql'].includes(b.lang) || NOT_CODE.has(b.lang),
        `${b.where}: a \`\`\`${b.lang} block: no test runs it; use js, ts, rust or one of ${[...NOT_CODE].join(', ')}, or mark it`,
      );
  }
  // Marks are for the rare block that cannot run: keep them few.
  assert.ok(marked <= 3, `${marked} blocks are marked not run`);
});

test('the rust blocks are doctests of a crate that includes their file', { skip: !IN_REPOSITORY && 'the pack test has the docs, not the crates: 20-node.sh runs this' }, () => {
  const included = new Set();
  for (const lib of Object.values(RUST_DOCTESTS)) {
    const text = readFileSync(path.join(ROOT, lib), 'utf8');
    for (const m of text.matchAll(/include_str!\("\.\.\/\.\.\/([^"]+)"\)/g)) included.add(m[1]);
  }
  const files = new Set(BLOCKS.filter((b) => b.lang === 'rust' && b.notRun === null).map((b) => b.file));
  assert.ok(files.size > 0);
  for (const f of files) assert.ok(included.has(f), `${f} has rust blocks, but no crate's doctests include it (${Object.values(RUST_DOCTESTS).join(', ')})`);
});

for (const block of BLOCKS.filter((b) => b.runner === LOCAL_RUNNER)) {
  test(`${block.where} runs as written`, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'snowmint-example-'));
    try {
      const run = await runBlock(block, { resolve, env: exampleEnv(dir) });
      assertRan(block, run);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('the examples state values that are checked', () => {
  // A guard against a change of the comment style that would turn every check into prose.
  const checked = BLOCKS.filter((b) => b.lang === 'js' && b.notRun === null).reduce((n, b) => n + withChecks(b).checked, 0);
  assert.ok(checked >= 40, `only ${checked} checked lines`);
});

test('the ts blocks type-check (tsc --strict) against the package', () => {
  const blocks = BLOCKS.filter((b) => b.lang === 'ts' && b.notRun === null);
  if (blocks.length === 0) return;
  const dir = mkdtempSync(path.join(tmpdir(), 'snowmint-docs-ts-'));
  try {
    // The package under test as node_modules/snowmint: its package.json is above the root entry.
    const entry = fileURLToPath(import.meta.resolve(PACKAGE));
    let pkg = path.dirname(entry);
    while (!existsSync(path.join(pkg, 'package.json'))) pkg = path.dirname(pkg);
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(pkg, path.join(dir, 'node_modules', 'snowmint'), 'dir');
    const files = blocks.map((b, i) => {
      const f = `block${i}.ts`;
      writeFileSync(path.join(dir, f), `// ${b.where}\n${b.code}export {};\n`);
      return f;
    });
    writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', skipLibCheck: false, types: [] }, files }),
    );
    // This repository's TypeScript, else (the pack test's copy of the tests) the one on PATH.
    let argv = ['tsc', '-p', dir];
    try {
      argv = [process.execPath, fileURLToPath(import.meta.resolve('typescript/bin/tsc')), '-p', dir];
    } catch {}
    const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
    // tsc's `blockN.ts(line,col)` as a line of the Markdown file (the file's first line is the `// where` comment).
    const at = (all, i, line, col) => `${blocks[i].file}:${blocks[i].line + Number(line) - 1}:${col}`;
    assert.equal(r.status, 0, `${r.error ?? ''}${r.stdout}${r.stderr}`.replace(/\S*block(\d+)\.ts\((\d+),(\d+)\)/g, at));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the `npx snowmint` lines of the sh blocks run (exit status 0)', () => {
  let ran = 0;
  for (const block of BLOCKS.filter((b) => b.lang === 'sh' && b.notRun === null)) {
    for (const line of block.code.split('\n')) {
      const m = /^npx snowmint((?: [^\s#]+)*)\s*(?:#.*)?$/.exec(line);
      if (!m) continue;
      const args = m[1].trim().split(' ').filter(Boolean);
      const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
      assert.equal(r.status, 0, `${block.where}: ${line}\n${r.stderr}`);
      ran++;
    }
  }
  assert.ok(ran >= 10, `only ${ran} CLI lines`);
});

/** GitHub's anchors of a Markdown file's headings. */
function anchors(text) {
  const seen = new Map();
  const out = new Set();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (!m) continue;
    const slug = m[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

test('the links between the README, docs/ and CONTRIBUTING.md lead to a file and heading that exist', {
  skip: !IN_REPOSITORY && 'the pack test has the docs, not the files they link to: 20-node.sh runs this',
}, () => {
  let checked = 0;
  for (const file of [...docFiles(), 'CONTRIBUTING.md']) {
    const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [rel, anchor] = target.split('#');
      const to = rel === '' ? file : path.normalize(path.join(path.dirname(file), rel));
      assert.ok(existsSync(path.join(ROOT, to)), `${file}: the link (${target}) leads to no file`);
      if (anchor !== undefined && to.endsWith('.md')) {
        assert.ok(anchors(readFileSync(path.join(ROOT, to), 'utf8')).has(anchor), `${file}: the link (${target}) leads to no heading of ${to}`);
      }
      checked++;
    }
  }
  assert.ok(checked > 50, `only ${checked} links`);
});

test('docs/README.md indexes every page of docs/', () => {
  const index = readFileSync(path.join(ROOT, 'docs/README.md'), 'utf8');
  for (const file of docFiles().filter((f) => f.startsWith('docs/') && f !== 'docs/README.md')) {
    const page = path.basename(file);
    assert.ok(index.includes(`](${page})`), `docs/README.md does not link ${page}`);
  }
});
