// The README's "Validation, bytes and UUIDs from names" example, run line by
// line: every `expression; // value` must give that value (the value is read
// as JavaScript; `Uint8Array(N) [..]` as console.log prints it).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { sm } from './pkg.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

test('the README example of validation, bytes and UUIDs from names gives the values it shows', () => {
  const section = README.split('### Validation, bytes and UUIDs from names')[1];
  const block = section.split('```js\n')[1].split('```')[0];
  const names = Object.keys(sm);
  const evaluate = (js) => new Function(...names, `return (${js});`)(...names.map((n) => sm[n]));
  let checked = 0;
  for (const line of block.split('\n')) {
    const m = /^(.+?);\s*\/\/ (.+?)(?: \(.*\))?$/.exec(line);
    if (!m) continue;
    const expected = m[2].replace(/^Uint8Array\(\d+\) (\[.*\])$/, 'new Uint8Array($1)');
    assert.deepEqual(evaluate(m[1]), evaluate(expected), line);
    checked++;
  }
  assert.equal(checked, 16);
});
