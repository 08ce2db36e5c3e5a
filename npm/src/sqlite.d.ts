// snowmint/sqlite: the path of snowmint's SQLite extension (the native
// addon itself). See docs/database.md.

/**
 * The file to load into SQLite in this Node process:
 * `db.loadExtension(extensionPath)` (better-sqlite3, or node:sqlite with
 * `allowExtension: true`). Its SQL functions mint from the process-wide
 * generator `nextId()` mints from. Importing `snowmint/sqlite` throws
 * `ERR_NO_NATIVE_BINARY` where no native binary loaded.
 */
export declare const extensionPath: string;
