import type { DataSourceOptions } from 'typeorm';
import { Account } from '../auth/account.entity';
import { ApiKey } from '../auth/api-key.entity';
import { Session } from '../auth/session.entity';
import { User } from '../auth/user.entity';
import { Checkout } from '../work/checkout.entity';
import { Project } from '../projects/project.entity';
import { Submission } from '../submissions/submission.entity';
import { IdempotencyKey } from '../tasks/idempotency-key.entity';
import { Task } from '../tasks/task.entity';
import { WebhookAttempt } from '../webhooks/webhook-attempt.entity';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity';
import { WebhookEvent } from '../webhooks/webhook-event.entity';
import { WorkerBlock } from '../worker-blocks/worker-block.entity';
import { CoreSchema1763800000000 } from './migrations/1763800000000-core-schema';
import { Leases1763900000000 } from './migrations/1763900000000-leases';
import { Webhooks1764000000000 } from './migrations/1764000000000-webhooks';
import { ActiveCheckoutsIndex1764100000000 } from './migrations/1764100000000-active-checkouts-index';
import { StoredConsensus1764200000000 } from './migrations/1764200000000-stored-consensus';
import { LeaseCountHint1764300000000 } from './migrations/1764300000000-lease-count-hint';
import { PartialExpiryIndex1764400000000 } from './migrations/1764400000000-partial-expiry-index';
import { SubmitCountsItsLease1764500000000 } from './migrations/1764500000000-submit-counts-its-lease';
import { PendingEventIndexes1764600000000 } from './migrations/1764600000000-pending-event-indexes';
import { CompletingSubmitReadsItsTask1764700000000 } from './migrations/1764700000000-completing-submit-reads-its-task';
import { CountCheckInOneQuery1764800000000 } from './migrations/1764800000000-count-check-in-one-query';
import { EventsLockNoSharedRow1764900000000 } from './migrations/1764900000000-events-lock-no-shared-row';
import { SigningSecretRotation1765000000000 } from './migrations/1765000000000-signing-secret-rotation';
import { RelayKeysetIndex1765100000000 } from './migrations/1765100000000-relay-keyset-index';
import { IdempotencyResponseAsJson1765200000000 } from './migrations/1765200000000-idempotency-response-as-json';
import { EventRedeliveries1765300000000 } from './migrations/1765300000000-event-redeliveries';
import { ProjectRetiredLabels1765400000000 } from './migrations/1765400000000-project-retired-labels';
import { SessionsExpiryIndex1765500000000 } from './migrations/1765500000000-sessions-expiry-index';
import { OneLeasePerWorker1765600000000 } from './migrations/1765600000000-one-lease-per-worker';
import { OneFramePerTask1765700000000 } from './migrations/1765700000000-one-frame-per-task';
import { TaskFrame1765800000000 } from './migrations/1765800000000-task-frame';
import { SubmitEndsItsCancelledLease1765900000000 } from './migrations/1765900000000-submit-ends-its-cancelled-lease';
import { LeaseHintReadAfterTaskLock1766000000000 } from './migrations/1766000000000-lease-hint-read-after-task-lock';
import { ConsensusRefresh1766100000000 } from './migrations/1766100000000-consensus-refresh';
import { CheckoutProblem1766200000000 } from './migrations/1766200000000-checkout-problem';
import { CheckoutProblemIndex1766300000000 } from './migrations/1766300000000-checkout-problem-index';
import { TaskProblemReports1766400000000 } from './migrations/1766400000000-task-problem-reports';
import { ReportedTasksIndex1766500000000 } from './migrations/1766500000000-reported-tasks-index';
import { CancelledTasksIndex1766600000000 } from './migrations/1766600000000-cancelled-tasks-index';
import { FailedEventsIndex1766700000000 } from './migrations/1766700000000-failed-events-index';
import { ProjectArchivedAt1766800000000 } from './migrations/1766800000000-project-archived-at';
import { UserDeletedAt1766900000000 } from './migrations/1766900000000-user-deleted-at';
import { WorkerBlocks1767000000000 } from './migrations/1767000000000-worker-blocks';
import { BlockedWorkerLeaseGuard1767100000000 } from './migrations/1767100000000-blocked-worker-lease-guard';
import { SessionDevices1767200000000 } from './migrations/1767200000000-session-devices';
import { ConsensusRuleWriters1767300000000 } from './migrations/1767300000000-consensus-rule-writers';
import { IdempotencyKeysCreatedIndex1767400000000 } from './migrations/1767400000000-idempotency-keys-created-index';
import { StatePageIndexes1767520000000 } from './migrations/1767520000000-state-page-indexes';
import { ConsensusRule4Refresh1767600000000 } from './migrations/1767600000000-consensus-rule-4-refresh';
import { WorkListWorkerIndexes1767800000000 } from './migrations/1767800000000-work-list-worker-indexes';
import { QueryTimeoutClient } from './query-timeout-client';
import { SnakeNamingStrategy } from './snake-naming.strategy';

export const ENTITIES = [
  Account,
  User,
  Session,
  ApiKey,
  Project,
  Task,
  IdempotencyKey,
  Checkout,
  Submission,
  WebhookEndpoint,
  WebhookEvent,
  WebhookAttempt,
  WorkerBlock,
];

/** Migrations in order; the schema comes only from these, never from `synchronize`. */
export const MIGRATIONS = [
  CoreSchema1763800000000,
  Leases1763900000000,
  Webhooks1764000000000,
  ActiveCheckoutsIndex1764100000000,
  StoredConsensus1764200000000,
  LeaseCountHint1764300000000,
  PartialExpiryIndex1764400000000,
  SubmitCountsItsLease1764500000000,
  PendingEventIndexes1764600000000,
  CompletingSubmitReadsItsTask1764700000000,
  CountCheckInOneQuery1764800000000,
  EventsLockNoSharedRow1764900000000,
  SigningSecretRotation1765000000000,
  RelayKeysetIndex1765100000000,
  IdempotencyResponseAsJson1765200000000,
  EventRedeliveries1765300000000,
  ProjectRetiredLabels1765400000000,
  SessionsExpiryIndex1765500000000,
  OneLeasePerWorker1765600000000,
  OneFramePerTask1765700000000,
  TaskFrame1765800000000,
  SubmitEndsItsCancelledLease1765900000000,
  LeaseHintReadAfterTaskLock1766000000000,
  ConsensusRefresh1766100000000,
  CheckoutProblem1766200000000,
  CheckoutProblemIndex1766300000000,
  TaskProblemReports1766400000000,
  ReportedTasksIndex1766500000000,
  CancelledTasksIndex1766600000000,
  FailedEventsIndex1766700000000,
  ProjectArchivedAt1766800000000,
  UserDeletedAt1766900000000,
  WorkerBlocks1767000000000,
  BlockedWorkerLeaseGuard1767100000000,
  SessionDevices1767200000000,
  ConsensusRuleWriters1767300000000,
  IdempotencyKeysCreatedIndex1767400000000,
  StatePageIndexes1767520000000,
  ConsensusRule4Refresh1767600000000,
  WorkListWorkerIndexes1767800000000,
];

/** How each process's pool connects; see the DATABASE_* settings in config.schema.ts (their defaults are there). */
export interface PoolSettings {
  poolSize?: number;
  /** How long to wait for a new connection, or for a free one when the pool is busy (pg-pool). */
  connectTimeoutMs?: number;
  /** statement_timeout of every session; 0 sets none. Migrations lift it (run-migrations.ts). */
  statementTimeoutMs?: number;
  /**
   * How long the client waits for a statement's answer before it gives up and closes the connection
   * (query-timeout-client.ts); 0 waits for good. Above statementTimeoutMs, so that PostgreSQL's own
   * limit speaks first while it can: this one is for a server or network that stopped answering.
   */
  queryTimeoutMs?: number;
  /** idle_in_transaction_session_timeout of every session; 0 sets none. */
  idleInTransactionTimeoutMs?: number;
}

/** TCP keepalive probes begin after a connection has been idle this long, so a dead peer is noticed. */
const KEEPALIVE_IDLE_MS = 10_000;

export function dataSourceOptions(url: string, pool: number | PoolSettings = {}): DataSourceOptions {
  const {
    poolSize = 10,
    connectTimeoutMs = 10_000,
    statementTimeoutMs = 0,
    queryTimeoutMs = 0,
    idleInTransactionTimeoutMs = 0,
  } = typeof pool === 'number' ? { poolSize: pool } : pool;
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    extra: {
      Client: QueryTimeoutClient,
      max: poolSize,
      connectionTimeoutMillis: connectTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
      ...(queryTimeoutMs > 0 ? { query_timeout: queryTimeoutMs } : {}),
      // Sent with each session's startup, so they are the session's defaults (what RESET returns to).
      // JIT off: PostgreSQL compiles any statement whose estimate passes jit_above_cost. This service's
      // statements are short or paged, and the ones that pass it are reads of a whole project's tasks
      // (its figures), where compiling took ~200 ms of a 0.4 s read at a million tasks and saved nothing
      // (docs/decisions.md "Project figures at scale"). A DATABASE_URL with `options` replaces this.
      options: '-c jit=off',
      ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
      ...(idleInTransactionTimeoutMs > 0 ? { idle_in_transaction_session_timeout: idleInTransactionTimeoutMs } : {}),
    },
  };
}
