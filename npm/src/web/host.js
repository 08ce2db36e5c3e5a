// The browser's host of the API (api.js createApi, api/snowflakes.js): what
// a page, tab or worker has instead of the Node entry's environment and
// lock files. Used by the browser entry, and by `snowmint/wasm` everywhere.
import { makeError } from '../errors.js';

/**
 * No worker ID configured: a browser has nothing to lease one from, and a
 * default of 0 would be shared by every page, tab and worker that mints
 * (duplicates, silently). So the default generator refuses to start.
 */
function defaultLease() {
  throw makeError(
    'ERR_NO_WORKER_ID',
    'no worker ID configured: a Snowflake is unique only while no two generators share a worker ID, and every page, tab and worker minting without one would use worker ID 0. Give each its own with configure({ workerId }) (assigned by your server), or use ulid() or uuidv7(), which need no worker ID.',
  );
}

/** The Snowflake API (web/snowflake.js), once a page built it. */
export const built = { snowflakes: null };

/**
 * Date.now() bounds how long a batch of IDs is handed out: in Chromium it
 * costs a fifth of performance.now(), which would otherwise dominate ulid().
 * The default generator is the Snowflake module's, one per instance, that
 * is per page, worker or worker thread: decode() reads its layout.
 */
export const browserHost = { now: Date.now, defaultLease, defaultDecoder: () => built.snowflakes?.defaultDecoder() };
