// Redis through ioredis or node-redis (v4+): one key per sequence holding
// the last ID handed out, advanced by one INCRBY per block (Redis refuses
// an INCRBY past 2^63-1). A flushed or empty-restarted Redis starts the key
// over: a running sequence refuses the repeated block (ERR_SEQUENCE_BACKWARDS),
// but run Redis with persistence (appendonly) as for any counter.

import { checkOptions } from '../api/checks.js';
import { counterStore, storeError } from './store.js';

/** One raw command over either client (their raw paths agree on replies). */
function commander(client) {
  if (typeof client?.call === 'function') return (...args) => client.call(...args);
  if (typeof client?.sendCommand === 'function') return (...args) => client.sendCommand(args.map(String));
  throw storeError('redisStore(client) needs an ioredis client or a connected node-redis (v4+) client');
}

/**
 * @param client an ioredis client or a node-redis (v4+) client
 * @param options.prefix the keys' prefix (default 'snowmint:sequence:')
 */
export function redisStore(client, options) {
  const o = checkOptions('redisStore options', options, ['prefix']);
  const prefix = o.prefix ?? 'snowmint:sequence:';
  if (typeof prefix !== 'string') throw storeError(`redisStore: prefix must be a string, got ${typeof prefix}`);
  const cmd = commander(client);
  return counterStore(`Redis key ${prefix}*`, {
    async ensure(name, last) {
      await cmd('SET', prefix + name, String(last), 'NX');
    },
    async advance(name, size) {
      try {
        return await cmd('INCRBY', prefix + name, String(size));
      } catch (e) {
        if (/overflow/i.test(e?.message)) return null;
        throw e;
      }
    },
    async read(name) {
      return (await cmd('GET', prefix + name)) ?? null;
    },
  });
}
