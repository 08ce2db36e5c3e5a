// snowmint/lease: worker-ID leases (Node only). See docs/lease.md.
import { LayoutOptions, LeaseError, Preset, TestClock } from '../../index.js';

export { LeaseError };

/** The clock deadlines are computed on: the generator's (a TestClock in tests), or a function returning Unix ms. */
export type LeaseClock = TestClock | (() => number);

export interface LeaseOptions {
  /** Only these worker IDs (default: 0..1023). */
  workerIds?: { min?: number; max?: number };
  /** Default: the core's monotonic clock, the one the default generator reads. */
  clock?: LeaseClock;
}

export interface StoreLeaseOptions extends LeaseOptions {
  /** The layout of the generator the lease is for: the lease hands out its whole worker field (Instagram 8192, Sonyflake 65536 IDs), or `workerIds` within it. Default 'twitter' (1024). */
  preset?: Preset;
  layout?: LayoutOptions;
  /** Lifetime of a claim without renewal (default 10000). */
  ttlMs?: number;
  /** Renewal period (default ttlMs / 3). */
  renewMs?: number;
  /** The generator stops this long before the TTL runs out (default ttlMs / 5). */
  marginMs?: number;
  /** How far the holder's clock may be from the server's (Redis, ZooKeeper) or its live peers' mean (default 1000). */
  maxSkewMs?: number;
  /** Beyond maxSkewMs: 'warn' (default: a 'skew' event, or a process warning when nothing listens) or 'refuse' (a new lease is not granted; a held one throws ClockError ERR_CLOCK_SKEW from every mint until the clock is back within). */
  onSkew?: 'warn' | 'refuse';
}

export interface TtlLeaseOptions extends StoreLeaseOptions {
  /** Namespace of the keys (default 'snowmint'). */
  prefix?: string;
}

export interface ZookeeperLeaseOptions extends StoreLeaseOptions {
  /** The znode under which the lease keeps worker/, hwm/ and data (default '/snowmint'). */
  path?: string;
}

/**
 * A leased worker ID. Give it to a generator: `configure({ lease })` or
 * `new Snowflake({ lease })`. A generator on a lease that is lost or not
 * renewed in time throws LeaseError `ERR_LEASE_EXPIRED` instead of minting,
 * until the lease is re-acquired (automatically, maybe on another worker ID).
 */
export declare class Lease {
  readonly workerId: number;
  /** The high-water bound recorded for this worker ID when claimed: its first ID lies after it. */
  readonly resumeAfterMs: number;
  readonly epoch: number;
  readonly state: 'held' | 'pending' | 'lost' | 'released';
  readonly size: number;
  readonly kind: 'local' | 'redis' | 'etcd' | 'zookeeper';
  /** Records the exact high-water mark and frees the worker ID; synchronous for local leases. */
  release(): Promise<void> | void;
  // A Node EventEmitter at run time; typed here without @types/node, so that
  // the root entry's types (which name Lease) check in browser-only projects.
  on(event: 'acquired', listener: (info: { workerId: number }) => void): this;
  on(event: 'lost', listener: (error: LeaseError) => void): this;
  on(event: 'renewFailed', listener: (error: Error) => void): this;
  on(event: 'skew', listener: (info: SkewInfo) => void): this;
  once(event: 'acquired', listener: (info: { workerId: number }) => void): this;
  once(event: 'lost', listener: (error: LeaseError) => void): this;
  once(event: 'renewFailed', listener: (error: Error) => void): this;
  once(event: 'skew', listener: (info: SkewInfo) => void): this;
  off(event: 'acquired' | 'lost' | 'renewFailed' | 'skew', listener: (...args: any[]) => void): this;
}

/**
 * One host: a lock file per worker ID in `dir` (an absolute path; created with
 * mode 0700, else it must be a real directory of the current user that no one
 * else can write: LeaseError `ERR_LEASE_DIR_UNSAFE`), freed by the kernel when
 * the holder dies. A lock file deleted under its holder makes one call throw
 * `ERR_LEASE_LOST` while the lease claims again.
 */
export declare function localLease(options?: LocalLeaseOptions): Lease;

export interface LocalLeaseOptions extends LeaseOptions {
  /** The lease directory, an absolute path (default: SNOWMINT_LEASE_DIR, else defaultLeaseDir()). */
  dir?: string;
  /** Claim among the whole worker field of this preset or layout (8,192 IDs for 'instagram', 65,536 for 'sonyflake'). */
  layout?: string | { workerBits: number };
  /**
   * How far (ms) the lease's clock may be from the host's (the kernel's time of its lock-file writes) or from
   * the mean of its live peers' reports, checked at the claim and at every write of the bound (default 1000;
   * Infinity: no check).
   */
  maxSkewMs?: number;
  /** Beyond maxSkewMs: 'refuse' (default: ClockError ERR_CLOCK_SKEW) or 'warn' (a 'skew' event). */
  onSkew?: 'refuse' | 'warn';
  /**
   * This host's lease directory is enough (one replica, or a directory every replica shares), as
   * SNOWMINT_LEASE=local says: no ConfigError ERR_NO_WORKER_ID on a platform that runs replicas of one
   * image (Kubernetes, ECS, Lambda, Cloud Run, Heroku...; docs/deploy.md), no warning in a container.
   */
  trustLocal?: boolean;
}

/**
 * What a skew check measured (the 'skew' event; the same fields on a ClockError
 * ERR_CLOCK_SKEW). Redis, etcd and ZooKeeper leases emit that ClockError itself.
 */
export interface SkewInfo {
  workerId: number;
  /** The lease's clock minus the reference's (ms): positive when ahead. */
  skewMs: number;
  /**
   * 'host': the host's clock (local leases); 'server': the store's clock (Redis TIME,
   * ZooKeeper's znode mtime); 'peers': the mean of `peers` live peers' last reports.
   */
  against: 'host' | 'server' | 'peers';
  peers: number;
  maxSkewMs: number;
  /** Store leases: how far off the measurement may be (half a round trip; for etcd peers, half the age their reports may reach more: their renewMs plus their round trips, or the longest gap between their last reports). */
  errMs?: number;
}
/** The default lease directory: `snowmint-leases-<user>` under the OS temp dir. */
export declare function defaultLeaseDir(): string;
/** Many hosts: Redis, through an ioredis client or a connected node-redis client. */
export declare function redisLease(client: unknown, options?: TtlLeaseOptions): Promise<Lease>;
/** Many hosts: etcd, through an `Etcd3` client (npm etcd3). */
export declare function etcdLease(client: unknown, options?: TtlLeaseOptions): Promise<Lease>;
/**
 * Many hosts: ZooKeeper, through a node-zookeeper-client `Client` (a lease on
 * it ends with its session), or a function returning a new unconnected Client
 * (the lease connects it, opens a new session after an expiry, closes it at release).
 */
export declare function zookeeperLease(client: unknown, options?: ZookeeperLeaseOptions): Promise<Lease>;
/** Kubernetes StatefulSet: the pod ordinal of `name-N` (plus offset). */
export declare function workerIdFromHostname(options?: { hostname?: string; offset?: number; max?: number }): number;
/** A worker ID from an environment variable. */
export declare function workerIdFromEnv(name: string, options?: { max?: number }): number;
