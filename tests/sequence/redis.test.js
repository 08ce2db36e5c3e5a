// snowmint/sequence on a real Redis (started here, with an append-only file): ioredis and node-redis.
import { storeSuite } from './suite.js';
import { startRedis } from '../lease/servers.js';

const start = async () => {
  const server = await startRedis();
  return Object.assign(server, { conn: { host: '127.0.0.1', port: server.port } });
};

storeSuite({ name: 'redis', start, kinds: ['ioredis', 'node-redis'], hang: true });
