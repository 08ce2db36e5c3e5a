// The napi-rs addon (node/) for this platform, built into native/: the
// backend of the Node entry and the OS file locks of snowmint/lease.
import { createRequire } from 'node:module';
import { makeError } from './errors.js';

const require = createRequire(import.meta.url);

/** The addon for this platform: native/snowmint.<platform>-<arch>[-<libc>].node. */
function loadAddon() {
  const base = `${process.platform}-${process.arch}`;
  const tried = [];
  for (const name of [`${base}-gnu`, `${base}-musl`, base]) {
    try {
      return require(`../native/snowmint.${name}.node`);
    } catch (e) {
      if (e.code !== 'MODULE_NOT_FOUND' && !/invalid ELF|cannot open shared object|GLIBC|musl/.test(e.message)) throw e;
      tried.push(`snowmint.${name}.node (${e.message.split('\n')[0]})`);
    }
  }
  throw makeError(
    'ERR_NO_NATIVE_BINARY',
    `snowmint has no native binary for ${base} (tried ${tried.join(', ')}), so it runs on its wasm build, where worker-ID leases are not available: set SNOWMINT_WORKER_ID or configure({ workerId }), or build from source (scripts/build.sh).`,
  );
}

/** Why no addon loaded (the Node entry then runs on the wasm build), or null. */
export let nativeError = null;

/** The addon; without one, an object whose every use throws `nativeError` (file-lock leases need the addon). */
export const addon = (() => {
  try {
    return loadAddon();
  } catch (e) {
    if (e.code !== 'ERR_NO_NATIVE_BINARY') throw e;
    nativeError = e;
    return new Proxy(
      {},
      {
        get: () => {
          throw e;
        },
      },
    );
  }
})();
