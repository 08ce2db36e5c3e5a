// snowmint/sqlite: the SQLite extension is the native addon itself (its
// entry points sqlite3_snowmint_init and sqlite3_extension_init, node/src/
// sqlite.rs), so `extensionPath` is the path of the addon this process has
// loaded (addon.js: the build from source in native/, else the platform
// package's). Loaded into SQLite in this process, the file maps to the same
// copy of the library: snowmint_next_id() mints from the process-wide
// generator nextId() mints from, and the two never collide. Without a
// native binary there is no extension to load: importing this throws.
// See docs/database.md.
import { addonPath, nativeError, platform } from './addon.js';
import { makeError } from './errors.js';

if (addonPath === null) {
  throw makeError(
    'ERR_NO_NATIVE_BINARY',
    `snowmint/sqlite needs snowmint's native binary for ${platform}, which is also its SQLite extension: ${nativeError?.message}`,
    nativeError ? { cause: nativeError } : undefined,
  );
}

/** The file to give `db.loadExtension()` (better-sqlite3, node:sqlite) or `.load` (the sqlite3 shell of this process's platform, where a Node addon cannot load: see docs/database.md). */
export const extensionPath = addonPath;
