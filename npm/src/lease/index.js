// snowmint/lease: worker-ID leases, so that no two live generators share a
// worker ID (a Snowflake is unique only under that condition).
//   localLease()          one host: lock files the kernel frees when a process dies
//   redisLease(client)    many hosts: Redis (ioredis or node-redis)
//   etcdLease(client)     many hosts: etcd (etcd3)
//   zookeeperLease(client) many hosts: ZooKeeper (node-zookeeper-client)
//   workerIdFromHostname / workerIdFromEnv   Kubernetes: a fixed worker ID per pod
// Give a lease to a generator: configure({ lease }) or new Snowflake({ lease }).
export { Lease } from './lease.js';
export { localLease, defaultLeaseDir } from './local.js';
export { redisLease } from './redis.js';
export { etcdLease } from './etcd.js';
export { zookeeperLease } from './zookeeper.js';
export { workerIdFromHostname, workerIdFromEnv } from './k8s.js';
export { LeaseError } from '../errors.js';
