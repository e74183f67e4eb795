import { redisUrls } from '../redis/redis-client';
import { configSchema, type AppConfig, type AppRole } from './config.schema';

/** Thrown at boot when a setting is missing or wrong; the message names every bad setting. */
export class ConfigError extends Error {}

/** Reads and validates the environment once. Nothing else in the server reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv): AppConfig {
  const { present, empty } = withoutEmptySettings(env);
  const parsed = configSchema.safeParse(present);
  const lines = empty.map((name) => `  ${name}: ${emptyAdvice(name)}`);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = issue.path.join('.') || '(env)';
      // An empty required setting is reported once, as empty rather than missing.
      if (!empty.includes(name)) lines.push(`  ${name}: ${issue.message}`);
    }
  }
  if (parsed.success) lines.push(...redisUrlProblems(parsed.data).map((problem) => `  REDIS_URL: ${problem}`));
  if (parsed.success) lines.push(...queryTimeoutProblems(parsed.data).map((problem) => `  DATABASE_QUERY_TIMEOUT_MS: ${problem}`));
  if (!parsed.success || lines.length > 0) throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  return { ...parsed.data, role: roleFrom(argv) };
}

/**
 * A setting given as `NAME=` (or blanks) is an error, not a value: z.coerce.number() reads "" as 0,
 * which for CACHE_TTL_MS or WEBHOOK_EVENT_RETENTION_DAYS means "off" or "for good", and reading it as
 * "unset" instead would guess at what was meant. The process stops and names it.
 */
function withoutEmptySettings(env: NodeJS.ProcessEnv): { present: NodeJS.ProcessEnv; empty: string[] } {
  const present: NodeJS.ProcessEnv = { ...env };
  const empty: string[] = [];
  for (const name of Object.keys(configSchema.shape)) {
    const value = env[name];
    if (value !== undefined && value.trim() === '') {
      empty.push(name);
      delete present[name];
    }
  }
  return { present, empty };
}

function emptyAdvice(name: string): string {
  const setting = configSchema.shape[name as keyof typeof configSchema.shape];
  return setting.safeParse(undefined).success
    ? 'is set but empty; give it a value, or unset it (remove the line) to use the default'
    : 'is set but empty; it is required';
}

function roleFrom(argv: string[]): AppRole {
  const flag = argv.find((arg) => arg.startsWith('--role='));
  const role = flag?.slice('--role='.length) ?? 'all';
  if (role !== 'all' && role !== 'http' && role !== 'jobs') {
    throw new ConfigError(`Invalid configuration:\n  --role: must be all, http or jobs (got "${role}")`);
  }
  return role;
}

/**
 * What REDIS_URL cannot mean given REDIS_CLUSTER. A cluster client takes the first URL's credentials and
 * TLS for every node, so the URLs must agree on them, and a cluster has only database 0.
 */
function redisUrlProblems(config: Pick<AppConfig, 'REDIS_URL' | 'REDIS_CLUSTER'>): string[] {
  const urls = redisUrls(config.REDIS_URL).map((url) => new URL(url));
  if (!config.REDIS_CLUSTER) {
    return urls.length > 1 ? [`lists ${urls.length} nodes; set REDIS_CLUSTER=true if they are a Redis Cluster's (one node takes one URL)`] : [];
  }
  const problems: string[] = [];
  if (urls.some((url) => url.pathname.length > 1 && url.pathname !== '/0')) problems.push('a Redis Cluster has only database 0; remove the /<db> path');
  const access = (url: URL) => `${url.protocol}//${url.username}:${url.password}`;
  if (urls.some((url) => access(url) !== access(urls[0]))) problems.push("a Redis Cluster's nodes share one scheme and one user and password; give every URL the same");
  return problems;
}

/**
 * The client's limit must leave PostgreSQL's room to answer: at or below statement_timeout, the client
 * would give up on (and close the connection of) a statement the server is still allowed to run.
 */
function queryTimeoutProblems(config: Pick<AppConfig, 'DATABASE_QUERY_TIMEOUT_MS' | 'DATABASE_STATEMENT_TIMEOUT_MS'>): string[] {
  const query = config.DATABASE_QUERY_TIMEOUT_MS;
  const statement = config.DATABASE_STATEMENT_TIMEOUT_MS;
  if (query === 0 || statement === 0 || query > statement) return [];
  return [`must be above DATABASE_STATEMENT_TIMEOUT_MS (${statement}), or 0; e.g. ${statement + 5_000}`];
}
