// The code blocks of README.md and docs/*.md, found, sorted by who runs them,
// and run, so that no example in the documentation can rot. Used by
// tests/node/docs-examples.test.js (every block that needs no server),
// tests/lease/docs.test.js (Redis, etcd, ZooKeeper),
// tests/sequence/docs.test.js (PostgreSQL) and tests/sqlite/docs.test.js
// (better-sqlite3 with the SQLite extension).
//
// Who runs a ```js block:
// - `<!-- not run: REASON -->` on the line above it: nobody, for that reason;
// - first line `// deploy-example: NAME`: tests/lease/deploy.test.js, as a
//   simulated replica of a platform;
// - it imports a database or coordinator client (SERVER_OF): the suite that
//   starts that server (RUNNER_OF);
// - any other: tests/node/docs-examples.test.js.
//
// A block runs as written, as an ES module in a process of its own, with its
// imports of snowmint pointed at the package under test, and must exit with
// status 0. A line `expression; // VALUE` at the start of a line (not a
// declaration), or `expression;` followed by comment lines that hold VALUE,
// is checked when VALUE starts like a JavaScript value (a quote, a digit,
// `-`, `[`, `{`, true, false, null, `Uint8Array(`); it must then be one,
// optionally followed by a remark in parentheses:
// - `VALUE`: the result equals VALUE; an object literal shows some fields
//   (each must equal the result's), `Uint8Array(N) [..]` and a bare ISO time
//   (`2016-04-30T11:18:25.796Z`) are read as console.log prints them, and a
//   string with `…` gives the start (and end) of the text;
// - `e.g. VALUE`: one result of many (a random or current ID): the result
//   has VALUE's type and shape (a string its length, unless `…` shortens
//   it; an object its fields).
// Any other comment is prose.
//
// ```ts blocks are type-checked with tsc --strict against the package under
// test; ```rust blocks are doctests of the crate whose src/lib.rs includes
// the file (RUST_DOCTESTS); `npx snowmint ...` lines of ```sh blocks run the
// CLI and must exit with status 0.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The folder that holds README.md and docs/ (the repository, or the pack test's copy). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The clients whose import means a block needs a server, and which. */
export const SERVER_OF = {
  ioredis: 'redis',
  redis: 'redis',
  etcd3: 'etcd',
  'node-zookeeper-client': 'zookeeper',
  pg: 'postgres',
  postgres: 'postgres',
  mysql2: 'mariadb',
  'mysql2/promise': 'mariadb',
  // Not a server: the SQLite extension, whose suite builds the file the sqlite3 shell loads.
  'better-sqlite3': 'sqlite',
};

/** The test file that starts each server and runs the blocks that need it. */
export const RUNNER_OF = {
  redis: 'tests/lease/docs.test.js',
  etcd: 'tests/lease/docs.test.js',
  zookeeper: 'tests/lease/docs.test.js',
  postgres: 'tests/sequence/docs.test.js',
  mariadb: 'tests/sequence/docs.test.js',
  sqlite: 'tests/sqlite/docs.test.js',
};

export const DEPLOY_RUNNER = 'tests/lease/deploy.test.js';
export const LOCAL_RUNNER = 'tests/node/docs-examples.test.js';

/** Crates whose doctests include Markdown files: file -> the lib.rs that must include it. */
export const RUST_DOCTESTS = { core: 'core/src/lib.rs', lease: 'lease/src/lib.rs' };

/** README.md and every docs/*.md, as paths relative to ROOT. */
export function docFiles() {
  const docs = readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

/**
 * Every fenced block of `file`: { file, line (of the opening fence), lang,
 * code, notRun (the reason of a `<!-- not run: ... -->` mark, or null),
 * where (`file:line`) }, and for js blocks `imports`, `servers` and `runner`.
 */
export function blocksOf(file) {
  const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    const body = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]);
    assert.ok(i < lines.length, `${file}:${start + 1}: a code block that is never closed`);
    const mark = /^<!-- not run: (.+) -->$/.exec(lines[start - 1] ?? '');
    const block = { file, line: start + 1, where: `${file}:${start + 1}`, lang: open[1].trim(), code: `${body.join('\n')}\n`, notRun: mark ? mark[1] : null };
    if (block.lang === 'js') classify(block);
    out.push(block);
  }
  return out;
}

/** Every block of README.md and docs/*.md. */
export function allBlocks() {
  return docFiles().flatMap(blocksOf);
}

/** The bare specifiers a block imports (static and dynamic). */
function importsOf(code) {
  const specs = new Set();
  for (const m of code.matchAll(/(?:\bfrom|\bimport\s*\(?)\s*'([^']+)'/g)) specs.add(m[1]);
  return [...specs];
}

function classify(block) {
  block.imports = importsOf(block.code);
  block.servers = [...new Set(block.imports.map((s) => SERVER_OF[s]).filter(Boolean))];
  if (block.notRun !== null) block.runner = null;
  else if (block.code.startsWith('// deploy-example: ')) block.runner = DEPLOY_RUNNER;
  else if (block.servers.length > 0)
    block.runner = block.servers
      .map((s) => RUNNER_OF[s])
      .sort()
      .at(-1);
  else block.runner = LOCAL_RUNNER;
}

// --- Checked lines ---------------------------------------------------------

const LOOKS_LIKE_VALUE = /^(?:['"`[{\d-]|true\b|false\b|null\b|undefined\b|Uint8Array\()/;

/** `text` as a JavaScript expression: console.log's `Uint8Array(N) [..]` and bare ISO times made constructors. */
function normalize(text) {
  return text.replace(/\bUint8Array\(\d+\) (\[[^\]]*\])/g, 'new Uint8Array($1)').replace(/(?<![\w'"`.:-])(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)(?![\w'"`])/g, "new Date('$1')");
}

function parses(expr) {
  try {
    new Function(`return (${expr});`);
    return true;
  } catch {
    return false;
  }
}

/**
 * The value a comment states, as `{ expr, sample }`, or null for prose.
 * Throws for a comment that starts like a value but is not one.
 */
export function statedValue(comment, where) {
  let text = comment.trim();
  const sample = text.startsWith('e.g. ');
  if (sample) text = text.slice(5);
  if (!LOOKS_LIKE_VALUE.test(text)) {
    assert.ok(!sample, `${where}: 'e.g.' must be followed by a value: ${comment}`);
    return null;
  }
  // The shortest prefix that is a value and is followed by a remark in parentheses, else the whole.
  for (let at = text.indexOf(' ('); at !== -1; at = text.indexOf(' (', at + 1)) {
    const head = normalize(text.slice(0, at));
    if (text.endsWith(')') && parses(head)) return { expr: head, sample };
  }
  const whole = normalize(text);
  assert.ok(parses(whole), `${where}: this comment starts like a value, so it must be one (then an optional '(remark)'): // ${comment}`);
  return { expr: whole, sample };
}

const STATEMENT = /^(?!(?:const|let|var|import|export|function|class|if|for|while|return|throw)\b)([\w'"`[(!-].*?);\s*(?:\/\/ (.*))?$/;

/**
 * The block's code with every checked line turned into a call of `__check`,
 * and how many lines that was.
 */
export function withChecks(block) {
  const lines = block.code.split('\n');
  const out = [];
  let checked = 0;
  for (let i = 0; i < lines.length; i++) {
    const m = STATEMENT.exec(lines[i]);
    if (!m) {
      out.push(lines[i]);
      continue;
    }
    let comment = m[2];
    let last = i;
    if (comment === undefined) {
      // `expression;` then `// VALUE` lines.
      const more = [];
      while (/^\/\/ /.test(lines[last + 1] ?? '')) more.push(lines[++last].slice(3));
      comment = more.join(' ');
    }
    const where = `${block.file}:${block.line + 1 + i}`;
    const value = comment ? statedValue(comment, where) : null;
    if (value === null) {
      out.push(lines[i]);
      continue;
    }
    const shown = lines.slice(i, last + 1).join('\n');
    out.push(`__check(${m[1]}, (${value.expr}), ${value.sample}, ${JSON.stringify(`${where}: ${shown}`)});`);
    // Keep the line count, so that a stack trace's line is the block's.
    for (let j = i; j < last; j++) out.push('');
    i = last;
    checked++;
  }
  return { code: out.join('\n'), checked };
}

/** Prepended to every block: the check of a stated value (see the header). */
const CHECK = `import { isDeepStrictEqual as __equal, inspect as __inspect } from 'node:util';
const __plain = (v) => v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
function __shows(got, want, sample) {
  if (typeof want === 'string' && want.includes('…')) {
    if (typeof got !== 'string') return false;
    if (sample) return true;
    const [head, tail] = want.split('…');
    return got.startsWith(head) && got.endsWith(tail);
  }
  if (__plain(want)) return got !== null && typeof got === 'object' && Object.keys(want).every((k) => __shows(got[k], want[k], sample));
  if (Array.isArray(want)) return Array.isArray(got) && got.length === want.length && want.every((w, i) => __shows(got[i], w, sample));
  if (!sample) return __equal(got, want);
  if (typeof got !== typeof want) return false;
  if (typeof want === 'string') return got.length === want.length;
  return typeof want !== 'object' || want === null || (got !== null && got.constructor === want.constructor);
}
function __check(got, want, sample, line) {
  if (!__shows(got, want, sample)) throw new Error(\`\${line}\\n  gave \${__inspect(got)}\\n  not \${sample ? 'the shape of ' : ''}\${__inspect(want)}\`);
}
`;
const CHECK_LINES = CHECK.split('\n').length - 1;

/**
 * The block as a module file's text: its checks, and its import specifiers
 * mapped by `resolve(spec)` (undefined: left as written).
 */
export function moduleText(block, resolve) {
  const { code, checked } = withChecks(block);
  const mapped = code.replace(/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)'([^']+)'/g, (all, head, spec) => {
    const to = spec.startsWith('node:') ? undefined : resolve(spec);
    return to === undefined ? all : `${head}'${to}'`;
  });
  return { text: CHECK + mapped, checked };
}

/**
 * Resolves the specifiers of a block run against the package under test:
 * `snowmint` and its subpaths to `entries` (spec -> URL), anything else as
 * this repository resolves it (its node_modules).
 */
export function resolverFor(entries) {
  return (spec) => {
    if (spec === 'snowmint' || spec.startsWith('snowmint/')) {
      assert.ok(entries[spec], `no entry for '${spec}'`);
      return entries[spec];
    }
    return import.meta.resolve(spec);
  };
}

/** The entries of the package whose root entry is `pkg` (a bare 'snowmint' or a URL of entries/node.js). */
export function entriesOf(pkg) {
  const names = ['snowmint', 'snowmint/json', 'snowmint/lease', 'snowmint/sequence', 'snowmint/sqlite', 'snowmint/wasm'];
  if (!/^(file|data):/.test(pkg)) return Object.fromEntries(names.map((n) => [n, import.meta.resolve(n.replace(/^snowmint/, pkg))]));
  // The root entry is entries/node.js; the subpaths' entries are in src/, but snowmint/wasm's.
  const src = new URL('../src/', pkg);
  const files = { 'snowmint/json': 'json.js', 'snowmint/lease': 'lease/index.js', 'snowmint/sequence': 'sequence/index.js', 'snowmint/sqlite': 'sqlite.js', 'snowmint/wasm': '../entries/browser.js' };
  return Object.fromEntries(names.map((n) => [n, n === 'snowmint' ? pkg : new URL(files[n], src).href]));
}

/**
 * Runs a js block as a module in a child process with `env` added to this
 * process's environment. Returns { status, signal, stdout, stderr, checked }.
 * With `signalAfterLine`, sends that signal once the child has printed its
 * first line (a service that runs until it is told to stop).
 */
export async function runBlock(block, { resolve, env = {}, timeoutMs = 60_000, signalAfterLine } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'snowmint-docs-'));
  try {
    const { text, checked } = moduleText(block, resolve);
    const file = path.join(dir, `${block.file.replace(/\W/g, '-')}-${block.line}.mjs`);
    writeFileSync(file, text);
    const child = spawn(process.execPath, [file], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let signaled = false;
    child.stdout.on('data', (d) => {
      stdout += d;
      if (signalAfterLine && !signaled && stdout.includes('\n')) {
        signaled = true;
        child.kill(signalAfterLine);
      }
    });
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const [status, signal] = await once(child, 'exit');
    clearTimeout(timer);
    // Error positions in the file, as positions in the block.
    const at = (n) => (n > CHECK_LINES ? `${block.file}:${block.line + n - CHECK_LINES}` : `${block.where} (the check of a stated value)`);
    stderr = stderr.replaceAll(`${pathToFileURL(file).href}:`, '\0').replace(/\0(\d+)/g, (all, n) => at(Number(n)));
    return { status, signal, stdout, stderr, checked };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Asserts that a run of `block` exited with status 0 (and prints what it said if not). */
export function assertRan(block, run) {
  assert.deepEqual([run.status, run.signal], [0, null], `${block.where} failed:\n${run.stderr}${run.stdout}`);
}

/** Whether this is the repository (not the pack test's copy of README.md and docs/). */
export const IN_REPOSITORY = existsSync(path.join(ROOT, 'core/src/lib.rs'));
