import { configSchema } from '../config.schema';
import { ConfigError, loadConfig } from '../load-config';

const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/crowdbox';
const load = (env: Record<string, string>) => loadConfig({ DATABASE_URL, ...env }, ['node', 'main.js']);
const failure = (env: Record<string, string>): string => {
  try {
    load(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('the configuration was accepted');
};

describe('loadConfig', () => {
  it('applies the defaults to settings that are not set', () => {
    const config = load({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_POOL_SIZE).toBe(20);
    expect(config.CACHE_TTL_MS).toBe(5000);
    expect(config.WEBHOOK_EVENT_RETENTION_DAYS).toBe(30);
    expect(config.role).toBe('all');
    expect(config.TRUST_PROXY).toEqual(['loopback']);
  });

  it('refuses a setting given as empty, naming it, where it used to read a number as 0', () => {
    const message = failure({ DATABASE_POOL_SIZE: '', WEBHOOK_EVENT_RETENTION_DAYS: '  ', CACHE_TTL_MS: '' });
    expect(message).toContain('DATABASE_POOL_SIZE: is set but empty');
    expect(message).toContain('WEBHOOK_EVENT_RETENTION_DAYS: is set but empty');
    expect(message).toContain('CACHE_TTL_MS: is set but empty');
    expect(message).toContain('remove the line) to use the default');
  });

  it('refuses empty strings and booleans too, and reports an empty required setting once', () => {
    const message = failure({ DATABASE_URL: '', COOKIE_SECURE: '', REDIS_PREFIX: '' });
    expect(message.match(/DATABASE_URL/g)).toHaveLength(1);
    expect(message).toContain('DATABASE_URL: is set but empty; it is required');
    expect(message).toContain('COOKIE_SECURE: is set but empty');
    expect(message).toContain('REDIS_PREFIX: is set but empty');
  });

  it('still reports the other bad settings alongside the empty ones', () => {
    const message = failure({ PORT: '', HTTP_PROCESSES: 'many' });
    expect(message).toContain('PORT: is set but empty');
    expect(message).toMatch(/HTTP_PROCESSES: .*number/i);
  });

  it('refuses, for every setting in milliseconds, a value past what a Node timer takes (2^31 - 1 ms, else it runs after 1 ms)', () => {
    const timers = Object.keys(configSchema.shape).filter((name) => name.endsWith('_MS'));
    expect(timers).toContain('CONSENSUS_REFRESH_INTERVAL_MS');
    for (const name of timers) expect(failure({ [name]: String(2 ** 31) })).toContain(`${name}: `);
  });

  it('ignores empty variables that are not settings', () => {
    expect(load({ SOMETHING_ELSE: '' }).PORT).toBe(3000);
  });

  it('refuses DATABASE_POOL_SIZE=1, saying why', () => {
    expect(failure({ DATABASE_POOL_SIZE: '1' })).toContain('DATABASE_POOL_SIZE: must be at least 2 (a path that holds a transaction open');
    expect(load({ DATABASE_POOL_SIZE: '2' }).DATABASE_POOL_SIZE).toBe(2);
  });

  it('reads SIGNUPS_PER_ADDRESS_PER_HOUR, 20 by default, and refuses anything but a whole number from 1', () => {
    expect(load({}).SIGNUPS_PER_ADDRESS_PER_HOUR).toBe(20);
    expect(load({ SIGNUPS_PER_ADDRESS_PER_HOUR: '200' }).SIGNUPS_PER_ADDRESS_PER_HOUR).toBe(200);
    expect(load({ SIGNUPS_PER_ADDRESS_PER_HOUR: '1' }).SIGNUPS_PER_ADDRESS_PER_HOUR).toBe(1);
    for (const bad of ['0', '-5', '2.5', 'many']) expect(failure({ SIGNUPS_PER_ADDRESS_PER_HOUR: bad })).toMatch(/^ {2}SIGNUPS_PER_ADDRESS_PER_HOUR: /m);
    expect(failure({ SIGNUPS_PER_ADDRESS_PER_HOUR: '' })).toContain('SIGNUPS_PER_ADDRESS_PER_HOUR: is set but empty');
  });

  it('reads FAILED_LOGINS_PER_ADDRESS_PER_15_MINUTES, 50 by default, a whole number from 1', () => {
    expect(load({}).FAILED_LOGINS_PER_ADDRESS_PER_15_MINUTES).toBe(50);
    expect(load({ FAILED_LOGINS_PER_ADDRESS_PER_15_MINUTES: '500' }).FAILED_LOGINS_PER_ADDRESS_PER_15_MINUTES).toBe(500);
    for (const bad of ['0', '-5', '2.5', 'many']) expect(failure({ FAILED_LOGINS_PER_ADDRESS_PER_15_MINUTES: bad })).toMatch(/^ {2}FAILED_LOGINS_PER_ADDRESS_PER_15_MINUTES: /m);
  });

  it('reads PASSWORD_SCRYPT_P, 5 by default, a whole number from 1 to 16', () => {
    expect(load({}).PASSWORD_SCRYPT_P).toBe(5);
    expect(load({ PASSWORD_SCRYPT_P: '8' }).PASSWORD_SCRYPT_P).toBe(8);
    for (const bad of ['0', '17', '2.5', 'many']) expect(failure({ PASSWORD_SCRYPT_P: bad })).toMatch(/^ {2}PASSWORD_SCRYPT_P: /m);
  });

  it('bounds the database by default, and refuses a query timeout the statement timeout cannot answer before', () => {
    expect(load({})).toMatchObject({ DATABASE_STATEMENT_TIMEOUT_MS: 30_000, DATABASE_QUERY_TIMEOUT_MS: 35_000, DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: 60_000 });
    expect(failure({ DATABASE_STATEMENT_TIMEOUT_MS: '60000' })).toContain('DATABASE_QUERY_TIMEOUT_MS: must be above DATABASE_STATEMENT_TIMEOUT_MS (60000), or 0; e.g. 65000');
    expect(load({ DATABASE_STATEMENT_TIMEOUT_MS: '60000', DATABASE_QUERY_TIMEOUT_MS: '65000' }).DATABASE_QUERY_TIMEOUT_MS).toBe(65_000);
    expect(load({ DATABASE_STATEMENT_TIMEOUT_MS: '0' }).DATABASE_QUERY_TIMEOUT_MS).toBe(35_000);
    expect(load({ DATABASE_QUERY_TIMEOUT_MS: '0' }).DATABASE_QUERY_TIMEOUT_MS).toBe(0);
  });

  it('leaves the migrations\' lock timeout and tries to run-migrations.ts unless set, and refuses 0 tries', () => {
    const unset = load({});
    expect([unset.DATABASE_MIGRATION_LOCK_TIMEOUT_MS, unset.DATABASE_MIGRATION_ATTEMPTS]).toEqual([undefined, undefined]);
    expect(load({ DATABASE_MIGRATION_LOCK_TIMEOUT_MS: '0', DATABASE_MIGRATION_ATTEMPTS: '3' })).toMatchObject({ DATABASE_MIGRATION_LOCK_TIMEOUT_MS: 0, DATABASE_MIGRATION_ATTEMPTS: 3 });
    expect(failure({ DATABASE_MIGRATION_ATTEMPTS: '0' })).toContain('DATABASE_MIGRATION_ATTEMPTS:');
  });

  it('keeps 0 where 0 is written out', () => {
    expect(load({ CACHE_TTL_MS: '0' }).CACHE_TTL_MS).toBe(0);
  });

  it('reads TRUST_PROXY as true, false, or a list of addresses, CIDRs and range names', () => {
    expect(load({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(load({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(load({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,fd00::/8,::1,uniquelocal' }).TRUST_PROXY).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      'fd00::/8',
      '::1',
      'uniquelocal',
    ]);
  });

  it('refuses a malformed TRUST_PROXY at boot, naming it and the bad entries', () => {
    const message = failure({ TRUST_PROXY: '10.0.0.0/8,10.0.0.0/33,proxy.internal,,0.0.0.0/0,yes' });
    expect(message).toMatch(/^ {2}TRUST_PROXY: must be true, false, or a comma-separated list of addresses, CIDRs/m);
    expect(message).toContain('not "10.0.0.0/33", "proxy.internal", "", "0.0.0.0/0", "yes"');
    expect(message).not.toContain('"10.0.0.0/8"');
    expect(failure({ TRUST_PROXY: '10.0.0' })).toContain('not "10.0.0"');
  });

  it('refuses a hop count for TRUST_PROXY, which Fastify would ignore', () => {
    expect(failure({ TRUST_PROXY: '1' })).toContain('TRUST_PROXY: a hop count (1) is not supported');
  });
  it('reads REDIS_URL as one node, or with REDIS_CLUSTER=true as a cluster\'s nodes, and refuses what cannot be meant', () => {
    expect(load({}).REDIS_CLUSTER).toBe(false);
    const nodes = 'redis://:pw@10.0.0.1:7000, redis://:pw@10.0.0.2:7000';
    expect(load({ REDIS_URL: nodes, REDIS_CLUSTER: 'true' })).toMatchObject({ REDIS_URL: nodes, REDIS_CLUSTER: true });
    expect(failure({ REDIS_URL: nodes })).toContain("REDIS_URL: lists 2 nodes; set REDIS_CLUSTER=true if they are a Redis Cluster's");
    expect(failure({ REDIS_URL: 'redis://10.0.0.1:7000/2', REDIS_CLUSTER: 'true' })).toContain('REDIS_URL: a Redis Cluster has only database 0');
    expect(failure({ REDIS_URL: 'redis://:a@10.0.0.1:7000,rediss://:a@10.0.0.2:7000', REDIS_CLUSTER: 'true' })).toContain('share one scheme and one user and password');
    expect(failure({ REDIS_URL: 'redis://10.0.0.1:7000,http://10.0.0.2', REDIS_CLUSTER: 'true' })).toContain('REDIS_URL: must be a redis:// or rediss:// URL');
    expect(failure({ REDIS_URL: 'localhost:6379' })).toContain('REDIS_URL: must be a redis:// or rediss:// URL');
  });
});
