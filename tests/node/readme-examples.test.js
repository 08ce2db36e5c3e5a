// The README's examples that run without a server, run as written: every
// `expression; // value` line must give that value (read as JavaScript; a
// trailing parenthesis is a remark), the other lines run as they are.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SRC } from './pkg.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The first js block after `heading` in the README. */
function block(heading) {
  const section = README.split(heading)[1];
  assert.ok(section, `README has no '${heading}'`);
  return section.split('```js\n')[1].split('```')[0];
}

/**
 * Runs `code` with the names of `scope` in scope: lines of the form
 * `expression; // value` are checked, imports dropped, the rest run as is.
 * Returns how many lines were checked.
 */
function runChecked(code, scope) {
  let checked = 0;
  const body = [];
  for (const line of code.split('\n')) {
    if (line.startsWith('import ')) continue;
    const m = /^(?!const |let )(.+?);\s*\/\/ (.+?)(?: \(.*\))?$/.exec(line);
    if (!m) {
      body.push(line);
      continue;
    }
    body.push(`check(${m[1]}, ${m[2]}, ${JSON.stringify(line)});`);
    checked++;
  }
  const check = (got, want, line) => assert.deepEqual(got, want, line);
  new Function(...Object.keys(scope), 'check', body.join('\n'))(...Object.values(scope), check);
  return checked;
}

test("the README's JSON example gives the values it shows", async () => {
  const json = await import(new URL('json.js', SRC).href);
  assert.equal(runChecked(block('## JSON without losing 64-bit IDs'), json), 5);
});
