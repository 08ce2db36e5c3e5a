// Opens a store of one kind on a test server, with the client settings that
// make a down server an error instead of an endless wait (no offline queue,
// short connect timeouts). Used by the tests and by the minter processes.

import { postgresStore, mysqlStore, sqliteStore, redisStore } from '../../npm/src/sequence/index.js';

/** kind -> ({ host, port, path }) => { store, close } */
export const OPENERS = {
  async pg(conn, opts) {
    const pg = (await import('pg')).default;
    const pool = new pg.Pool({ ...conn, user: 'postgres', database: 'postgres', max: 2, connectionTimeoutMillis: 2000 });
    pool.on('error', () => {});
    return { store: postgresStore(pool, opts), close: () => pool.end() };
  },
  async 'pg-client'(conn, opts) {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ ...conn, user: 'postgres', database: 'postgres' });
    client.on('error', () => {});
    await client.connect();
    return { store: postgresStore(client, opts), close: () => client.end() };
  },
  async 'pg-sequence'(conn) {
    return OPENERS.pg(conn, { mode: 'sequence' });
  },
  async 'postgres.js'(conn, opts) {
    const postgres = (await import('postgres')).default;
    const sql = postgres({ ...conn, username: 'postgres', database: 'postgres', max: 2, connect_timeout: 2, onnotice: () => {} });
    return { store: postgresStore(sql, opts), close: () => sql.end({ timeout: 1 }) };
  },
  async mysql(conn, opts) {
    const mysql = (await import('mysql2/promise')).default;
    const pool = mysql.createPool({ ...conn, user: 'root', database: 'snowmint', connectionLimit: 2, connectTimeout: 2000 });
    pool.on?.('error', () => {});
    return { store: mysqlStore(pool, opts), close: () => pool.end() };
  },
  async sqlite(conn, opts) {
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(conn.path, { timeout: conn.timeout ?? 10_000 });
    db.pragma('journal_mode = WAL');
    return { store: sqliteStore(db, opts), close: async () => db.close(), db };
  },
  async ioredis(conn, opts) {
    const { Redis } = await import('ioredis');
    const client = new Redis({ ...conn, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
    client.on('error', () => {});
    await client.connect();
    return { store: redisStore(client, opts), close: async () => client.disconnect() };
  },
  async 'node-redis'(conn, opts) {
    const { createClient } = await import('redis');
    const client = createClient({ socket: { ...conn, reconnectStrategy: () => 50, connectTimeout: 2000 }, disableOfflineQueue: true });
    client.on('error', () => {});
    await client.connect();
    return { store: redisStore(client, opts), close: () => client.destroy() };
  },
};

export function openStore(kind, conn, opts) {
  return OPENERS[kind](conn, opts);
}
