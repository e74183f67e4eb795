import ipaddr from 'ipaddr.js';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * Range names Fastify's trustProxy (@fastify/proxy-addr) expands: loopback (127.0.0.0/8, ::1), linklocal
 * (169.254.0.0/16, fe80::/10), uniquelocal (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7).
 */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One entry of a TRUST_PROXY list: a range name, an address, or an address with a prefix length (CIDR). */
function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  if (rest.length > 0) return false;
  const bits = ipaddr.IPv4.isValidFourPartDecimal(address) ? 32 : address.includes(':') && ipaddr.IPv6.isValid(address) ? 128 : 0;
  if (bits === 0) return false;
  // proxy-addr refuses a zero-length prefix too: "trust everyone" is spelt true.
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= bits);
}

/**
 * TRUST_PROXY as Fastify's trustProxy takes it: true, false, or a list. A hop count is refused rather
 * than passed on: Fastify 5 ignores one (it cannot tell a proxy from a client that sends the header
 * itself), so TRUST_PROXY=1 would silently believe nobody.
 */
const trustProxy = z
  .string()
  .default('loopback')
  .transform((value, ctx): boolean | string[] => {
    const given = value.trim();
    if (given === 'true') return true;
    if (given === 'false') return false;
    if (/^\d+$/.test(given)) {
      ctx.addIssue({
        code: 'custom',
        message: `a hop count (${given}) is not supported: Fastify ignores it, as it cannot tell a proxy from a client; list the proxies' addresses or CIDRs instead (e.g. 10.0.0.0/8)`,
      });
      return z.NEVER;
    }
    const entries = given.split(',').map((entry) => entry.trim());
    const bad = entries.filter((entry) => !isProxyEntry(entry));
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be true, false, or a comma-separated list of addresses, CIDRs (10.0.0.0/8) and the names loopback, linklocal, uniquelocal; not ${bad.map((entry) => JSON.stringify(entry)).join(', ')}`,
      });
      return z.NEVER;
    }
    return entries;
  });

/** Every setting the server reads, validated once at boot (see loadConfig). */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /**
   * Processes serving HTTP on this host, sharing PORT (node:cluster): one per core the API may use.
   * 1 (the default): this process serves. Each runs the given role and has its own DATABASE_POOL_SIZE.
   */
  HTTP_PROCESSES: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * `--role=jobs` only: the port (on HOST) of the jobs process's own small listener, which answers GET
   * /healthz, /readyz and /metrics and nothing else (bootstrap/jobs-listener.ts). Unset: no listener.
   */
  JOBS_HTTP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  PUBLIC_URL: z.string().url().optional(),
  /**
   * Peers whose X-Forwarded-For, -Host and -Proto are believed (request.ip, request.host): by default
   * a proxy on this host only (docs/decisions.md, "Forwarded headers are believed from loopback only").
   */
  TRUST_PROXY: trustProxy,
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  /**
   * Connections per process. At least 2: with one, any path that runs a statement while it holds a
   * transaction open (the migrations did, at boot) would wait for itself for good.
   */
  DATABASE_POOL_SIZE: z.coerce
    .number()
    .int()
    .min(2, 'must be at least 2 (a path that holds a transaction open while it runs another statement would wait for itself)')
    .max(200)
    .default(20),
  /**
   * How long a query waits for a connection: a new one to PostgreSQL, or a free one of the pool when all
   * are busy. Past it the query fails ("timeout exceeded when trying to connect") instead of waiting.
   */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /**
   * statement_timeout of the pool's sessions; 0 sets none. Every statement of ours is short (keyset pages,
   * batches of 1,000), so 30 s only stops a runaway query or a long lock wait. Migrations run without it.
   */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(30_000),
  /**
   * How long the client waits for a statement's answer before it closes the connection and the request
   * fails (503): for a server or network that stopped answering. 0 waits for good. Must be above
   * DATABASE_STATEMENT_TIMEOUT_MS, so that PostgreSQL's own limit answers first while it can.
   */
  DATABASE_QUERY_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(35_000),
  /** idle_in_transaction_session_timeout of the pool's sessions: ends a transaction left open (a bug); 0 sets none. */
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  MIGRATE_ON_BOOT: bool.default(true),
  /**
   * lock_timeout of each migration that runs in a transaction, so an ALTER TABLE queued behind a long
   * reader gives up instead of holding up every query on the table; it is tried again after a pause.
   * 0 waits for good. Unset: 5000 (database/run-migrations.ts).
   */
  DATABASE_MIGRATION_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).optional(),
  /** Tries of a migration that keeps giving up on its locks before the boot fails. Unset: 10. */
  DATABASE_MIGRATION_ATTEMPTS: z.coerce.number().int().min(1).max(1000).optional(),
  /** One redis:// or rediss:// URL; with REDIS_CLUSTER, one or more of a cluster's nodes, separated by commas. */
  REDIS_URL: z
    .string()
    .refine(
      (value) => value.split(',').every((url) => /^rediss?:\/\/[^\s]+$/.test(url.trim()) && URL.canParse(url.trim())),
      'must be a redis:// or rediss:// URL (with REDIS_CLUSTER=true, one or more separated by commas)',
    )
    .default('redis://127.0.0.1:6379'),
  /**
   * Whether REDIS_URL is a Redis Cluster: the app then uses a cluster client, and BullMQ's prefix
   * becomes a hash tag (`{cb:bull}`) so each queue's keys share a slot (docs/scaling.md).
   */
  REDIS_CLUSTER: bool.default(false),
  /** Prefix of every Redis key and BullMQ queue; tests give each file its own. */
  REDIS_PREFIX: z.string().min(1).default('cb'),
  /**
   * How long a command of the shared client (rate limits, log-in limits, adding jobs) may wait for Redis
   * before it fails and its caller falls back (limits in memory, jobs left to the sweep and the relay).
   */
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(500),
  /**
   * How long GET /readyz waits for PostgreSQL (503 past it) and Redis (reported `no answer within …`, still
   * 200), and GET /metrics for each of its reads (that source's figures are left out past it).
   */
  READYZ_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Requests per API key per window on /api/v1. */
  RATE_LIMIT_REQUESTS: z.coerce.number().int().min(1).default(100),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(1),
  /** Tokens a process takes from a key's shared bucket per Redis call; default 5 % of the limit, 1..100. */
  RATE_LIMIT_BLOCK: z.coerce.number().int().min(1).max(100).optional(),
  /**
   * Requests per account per window on /api/v1, shared by its keys (live keys one budget, test keys
   * another); unset, RATE_LIMIT_REQUESTS: more keys add no budget (auth/rate-limit.service.ts).
   */
  RATE_LIMIT_ACCOUNT_REQUESTS: z.coerce.number().int().min(1).optional(),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * Requests per signed-in user per window on /api/work and /api/console (auth/session-rate-limit.ts):
   * far above what the worker app and the console send, while a script looping on one session meets it.
   */
  SESSION_RATE_LIMIT_REQUESTS: z.coerce.number().int().min(1).default(600),
  SESSION_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  /**
   * Accounts one client address (an IPv6 one's /64) may create per hour (auth/signup-throttle.ts); raise
   * it where a larger group signs up from behind one address, e.g. a classroom onboarding its annotators.
   */
  SIGNUPS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(20),
  /**
   * Wrong passwords one client address (an IPv6 one's /64) may send per 15 minutes, whatever the emails
   * (auth/login-throttle.ts): one address spraying a password across many emails, each guess a scrypt hash.
   */
  FAILED_LOGINS_PER_ADDRESS_PER_15_MINUTES: z.coerce.number().int().min(1).default(50),
  /**
   * API-key secrets no cache knows that one client address (an IPv6 one's /64) may have looked up per
   * minute and find unknown (auth/secret-lookup-throttle.ts); past it its look-ups answer 429 unasked.
   * Session tokens are counted the same, apart, against the same number.
   */
  FAILED_API_KEYS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(100),
  /**
   * scrypt's p for new password hashes (N = 2^14, r = 8; auth/password.util.ts): 5 makes OWASP's listed
   * equivalent of its minimum. A log-in hashes an older, cheaper hash again. Tests use 1 for speed.
   */
  PASSWORD_SCRYPT_P: z.coerce.number().int().min(1).max(16).default(5),
  COOKIE_SECURE: bool.optional(),
  /** How long an authenticated API key or project stays in the in-process cache. */
  CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  WEB_DIST_DIR: z.string().optional(),
  /** Serves GET /metrics to `Authorization: Bearer <token>`; unset, /metrics is off. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: bool.default(false),
  /** Delays before each retry of a webhook (API.md §2), in seconds; tests shorten them. */
  WEBHOOK_RETRY_SCHEDULE_SECONDS: z
    .string()
    .regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, 'must be a comma-separated list of seconds')
    .default('5,30,120,600,1800,3600,10800,21600,43200,86400')
    .transform((list) => list.split(',').map(Number)),
  /** Longest Retry-After honoured from a receiver. */
  WEBHOOK_RETRY_AFTER_MAX_SECONDS: z.coerce.number().min(0).default(3600),
  // Every setting that feeds a timer has a maximum: Node runs a setTimeout or setInterval of more than
  // 2^31 - 1 ms (24.8 days) after 1 ms, so a huge value meant to say "hardly ever" said "at once".
  WEBHOOK_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(3000),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(10_000),
  /** Parallel deliveries per jobs process. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(200),
  /** Requests in flight to one receiver per jobs process; deliveries beyond wait without their timeout running. */
  WEBHOOK_RECEIVER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
  /** How long a delivery waits for a busy receiver's turn before it goes back to the queue unsent. */
  WEBHOOK_RECEIVER_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(2000),
  /** Parallel address confirmations (challenges) per jobs process; each may hold its slot for WEBHOOK_TIMEOUT_MS. */
  WEBHOOK_CHALLENGE_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(50),
  /** Challenges of one account in flight per jobs process; the account's others go back to the queue unsent. */
  WEBHOOK_CHALLENGE_ACCOUNT_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(10),
  /** How often the outbox relay looks for events and challenges that have no live job. */
  WEBHOOK_RELAY_INTERVAL_MS: z.coerce.number().int().min(10).max(3_600_000).default(5000),
  /** How overdue an event must be before the relay assumes its job is lost. */
  WEBHOOK_RELAY_GRACE_MS: z.coerce.number().int().min(0).max(86_400_000).default(30_000),
  /** Days a delivered or failed event and its attempts stay in the delivery log; 0 keeps them for good. */
  WEBHOOK_EVENT_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  /**
   * How often the jobs role looks for projects whose stored consensus may no longer hold (their IoU
   * threshold changed) and computes it again in the background; 0 turns the refresh off (exports then
   * compute what does not hold, as they always can).
   */
  CONSENSUS_REFRESH_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(10_000),
  /**
   * How long a lease lives, at most, before its checkout-expiry job is added (half its allowed time when
   * that is shorter); leases that end sooner never touch Redis. 0 adds every job at checkout.
   */
  CHECKOUT_EXPIRY_JOB_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  /**
   * After SIGTERM or SIGINT, how long the process may take to finish its requests and close its
   * connections before it gives up and exits with code 1 (bootstrap/shutdown-deadline.ts).
   */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  /**
   * After SIGTERM or SIGINT, how long an HTTP process goes on serving with /readyz answering 503 before it
   * stops taking connections (health/shutdown-drain.ts): the time a load balancer takes to see it leave.
   * 0, the default, stops at once. Counted within SHUTDOWN_TIMEOUT_MS.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(0),
});

export type AppConfig = z.output<typeof configSchema> & { role: AppRole };

export type AppRole = 'all' | 'http' | 'jobs';
