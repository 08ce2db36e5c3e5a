// The entry under test exports the one list of public names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PACKAGE, SRC } from './pkg.js';

test('the entry under test exports exactly the one list of public names (API_NAMES) and the error classes', async () => {
  const { API_NAMES } = await import(new URL('api.js', SRC).href);
  const entry = await import(PACKAGE);
  const errors = ['ArgumentError', 'ClockError', 'ConfigError', 'InvalidIdError', 'LeaseError', 'SequenceError', 'SnowmintError'];
  assert.deepEqual(Object.keys(entry).sort(), [...API_NAMES, ...errors].sort());
  for (const name of API_NAMES) assert.notEqual(entry[name], undefined, name);
});
