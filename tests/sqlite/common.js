// What the SQLite tests share: the extension's two files, the JS API
// (native, and the wasm build), the comparison of decode records and errors.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export { sm, vectors } from '../node/pkg.js';
export const wasm = await import('../../npm/entries/browser.js');
wasm.configure({ workerId: 1 });

/** The standalone extension (scripts/build.d/22-sqlite.sh), for the sqlite3 shell. */
export const STANDALONE = fileURLToPath(new URL(`../../target/sqlite/snowmint.${process.platform === 'darwin' ? 'dylib' : 'so'}`, import.meta.url));
if (!existsSync(STANDALONE)) throw new Error(`${STANDALONE} is not built: run scripts/build.d/22-sqlite.sh`);

export const PRESETS = ['twitter', 'discord', 'instagram', 'sonyflake', 'mastodon'];

/** A JS decode record as snowmint_decode() gives it (bigints as strings, the date as its ISO text). */
export function plain(record) {
  const out = {};
  for (const [k, v] of Object.entries(record)) out[k] = typeof v === 'bigint' ? String(v) : v;
  if (record.timestamp !== undefined) out.date = record.date.toISOString();
  return out;
}

/** The code and message a JS call throws, as SQLite's error message reads. */
export function jsError(fn) {
  try {
    fn();
  } catch (e) {
    return `${e.code}: ${e.message}`;
  }
  throw new Error('the JS call did not throw');
}

/** The message a call throws (asserting that it throws). */
export function errorOf(fn) {
  try {
    fn();
  } catch (e) {
    return e.message;
  }
  throw new Error('the call did not throw');
}
