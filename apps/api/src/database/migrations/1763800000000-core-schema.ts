import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The core schema of DESIGN.md §2. Invariants are constraints here, not checks in the app:
 * slot accounting on tasks, one checkout and one submission per (task, worker), one submission per checkout.
 */
export class CoreSchema1763800000000 implements MigrationInterface {
  name = 'CoreSchema1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE accounts (
        id uuid NOT NULL,
        name text NOT NULL,
        webhook_signing_secret text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_accounts PRIMARY KEY (id)
      )`);
    await q.query(`
      CREATE TABLE users (
        id uuid NOT NULL,
        account_id uuid NOT NULL,
        email text NOT NULL,
        name text NOT NULL,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_users PRIMARY KEY (id),
        CONSTRAINT uq_users_email UNIQUE (email),
        CONSTRAINT uq_users_account UNIQUE (account_id),
        CONSTRAINT fk_users_account FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE
      )`);
    await q.query(`
      CREATE TABLE sessions (
        id uuid NOT NULL,
        user_id uuid NOT NULL,
        token_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        CONSTRAINT pk_sessions PRIMARY KEY (id),
        CONSTRAINT uq_sessions_token_hash UNIQUE (token_hash),
        CONSTRAINT fk_sessions_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX ix_sessions_user ON sessions (user_id)`);
    await q.query(`
      CREATE TABLE api_keys (
        id uuid NOT NULL,
        account_id uuid NOT NULL,
        mode text NOT NULL,
        prefix text NOT NULL,
        secret_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz,
        last_used_at timestamptz,
        CONSTRAINT pk_api_keys PRIMARY KEY (id),
        CONSTRAINT uq_api_keys_secret_hash UNIQUE (secret_hash),
        CONSTRAINT ck_api_keys_mode CHECK ("mode" IN ('test', 'live')),
        CONSTRAINT fk_api_keys_account FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX ix_api_keys_account ON api_keys (account_id)`);
    await q.query(`
      CREATE TABLE projects (
        id uuid NOT NULL,
        account_id uuid NOT NULL,
        name text NOT NULL,
        display_name text NOT NULL,
        display_short_description text NOT NULL,
        template text NOT NULL,
        variables jsonb NOT NULL DEFAULT '{}'::jsonb,
        labels jsonb NOT NULL DEFAULT '[]'::jsonb,
        image_variable text NOT NULL DEFAULT 'image_url',
        default_required_submissions integer NOT NULL,
        default_reward integer NOT NULL,
        allowed_completion_time_seconds integer NOT NULL,
        consensus_iou_threshold real NOT NULL DEFAULT 0.5,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_projects PRIMARY KEY (id),
        CONSTRAINT ck_projects_required_submissions CHECK ("default_required_submissions" BETWEEN 1 AND 100),
        CONSTRAINT ck_projects_reward CHECK ("default_reward" BETWEEN 0 AND 100000),
        CONSTRAINT ck_projects_completion_time CHECK ("allowed_completion_time_seconds" BETWEEN 30 AND 86400),
        CONSTRAINT ck_projects_iou_threshold CHECK ("consensus_iou_threshold" > 0 AND "consensus_iou_threshold" <= 1),
        CONSTRAINT fk_projects_account FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX ix_projects_account ON projects (account_id, created_at)`);
    await q.query(`
      CREATE TABLE tasks (
        id uuid NOT NULL,
        project_id uuid NOT NULL,
        prompt text NOT NULL,
        substitutions jsonb NOT NULL DEFAULT '{}'::jsonb,
        external_image_url text,
        reward integer NOT NULL,
        required_submissions integer NOT NULL,
        allowed_completion_time_seconds integer NOT NULL,
        submission_count integer NOT NULL DEFAULT 0,
        active_checkout_count integer NOT NULL DEFAULT 0,
        callback_url text,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        cancelled_at timestamptz,
        CONSTRAINT pk_tasks PRIMARY KEY (id),
        CONSTRAINT ck_tasks_required_submissions CHECK ("required_submissions" BETWEEN 1 AND 100),
        CONSTRAINT ck_tasks_reward CHECK ("reward" BETWEEN 0 AND 100000),
        CONSTRAINT ck_tasks_completion_time CHECK ("allowed_completion_time_seconds" BETWEEN 30 AND 86400),
        CONSTRAINT ck_tasks_slots CHECK ("submission_count" >= 0 AND "active_checkout_count" >= 0 AND "submission_count" + "active_checkout_count" <= "required_submissions"),
        CONSTRAINT fk_tasks_project FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX ix_tasks_project_created ON tasks (project_id, created_at)`);
    await q.query(`CREATE INDEX ix_tasks_project_completed ON tasks (project_id, completed_at)`);
    await q.query(`
      CREATE TABLE idempotency_keys (
        account_id uuid NOT NULL,
        key text NOT NULL,
        request_hash text NOT NULL,
        response_status integer NOT NULL,
        response_body jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_idempotency_keys PRIMARY KEY (account_id, key),
        CONSTRAINT fk_idempotency_keys_account FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE
      )`);
    await q.query(`
      CREATE TABLE checkouts (
        id uuid NOT NULL,
        task_id uuid NOT NULL,
        worker_id uuid NOT NULL,
        checked_out_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        state text NOT NULL DEFAULT 'active',
        ended_at timestamptz,
        CONSTRAINT pk_checkouts PRIMARY KEY (id),
        CONSTRAINT uq_checkouts_task_worker UNIQUE (task_id, worker_id),
        CONSTRAINT ck_checkouts_state CHECK ("state" IN ('active', 'submitted', 'released', 'expired', 'cancelled')),
        CONSTRAINT fk_checkouts_task FOREIGN KEY (task_id) REFERENCES tasks (id) ON DELETE CASCADE,
        CONSTRAINT fk_checkouts_worker FOREIGN KEY (worker_id) REFERENCES users (id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX ix_checkouts_worker_state ON checkouts (worker_id, state)`);
    await q.query(`CREATE INDEX ix_checkouts_active_expiry ON checkouts (state, expires_at)`);
    await q.query(`
      CREATE TABLE submissions (
        id uuid NOT NULL,
        checkout_id uuid NOT NULL,
        task_id uuid NOT NULL,
        worker_id uuid NOT NULL,
        boxes jsonb NOT NULL,
        image_width integer NOT NULL,
        image_height integer NOT NULL,
        reward integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_submissions PRIMARY KEY (id),
        CONSTRAINT uq_submissions_checkout UNIQUE (checkout_id),
        CONSTRAINT uq_submissions_task_worker UNIQUE (task_id, worker_id),
        CONSTRAINT fk_submissions_checkout FOREIGN KEY (checkout_id) REFERENCES checkouts (id) ON DELETE CASCADE,
        CONSTRAINT fk_submissions_task FOREIGN KEY (task_id) REFERENCES tasks (id) ON DELETE CASCADE,
        CONSTRAINT fk_submissions_worker FOREIGN KEY (worker_id) REFERENCES users (id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX ix_submissions_worker ON submissions (worker_id, created_at)`);
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid NOT NULL,
        account_id uuid NOT NULL,
        url text NOT NULL,
        state text NOT NULL DEFAULT 'pending',
        challenge_token text,
        confirmed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_webhook_endpoints PRIMARY KEY (id),
        CONSTRAINT uq_webhook_endpoints_account_url UNIQUE (account_id, url),
        CONSTRAINT ck_webhook_endpoints_state CHECK ("state" IN ('pending', 'confirmed', 'failed')),
        CONSTRAINT fk_webhook_endpoints_account FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE
      )`);
    await q.query(`
      CREATE TABLE webhook_events (
        id uuid NOT NULL,
        account_id uuid NOT NULL,
        endpoint_id uuid,
        type text NOT NULL,
        payload jsonb NOT NULL,
        state text NOT NULL DEFAULT 'pending',
        attempt_count integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        enqueued_at timestamptz,
        delivered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_webhook_events PRIMARY KEY (id),
        CONSTRAINT ck_webhook_events_state CHECK ("state" IN ('pending', 'delivered', 'failed')),
        CONSTRAINT fk_webhook_events_account FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE,
        CONSTRAINT fk_webhook_events_endpoint FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints (id) ON DELETE SET NULL
      )`);
    await q.query(`CREATE INDEX ix_webhook_events_state_next ON webhook_events (state, next_attempt_at)`);
    await q.query(`CREATE INDEX ix_webhook_events_account_created ON webhook_events (account_id, created_at)`);
    await q.query(`
      CREATE TABLE webhook_attempts (
        id uuid NOT NULL,
        event_id uuid NOT NULL,
        attempted_at timestamptz NOT NULL DEFAULT now(),
        status_code integer,
        duration_ms integer NOT NULL,
        error text,
        response_excerpt text,
        CONSTRAINT pk_webhook_attempts PRIMARY KEY (id),
        CONSTRAINT fk_webhook_attempts_event FOREIGN KEY (event_id) REFERENCES webhook_events (id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX ix_webhook_attempts_event ON webhook_attempts (event_id, attempted_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'webhook_attempts',
      'webhook_events',
      'webhook_endpoints',
      'submissions',
      'checkouts',
      'idempotency_keys',
      'tasks',
      'projects',
      'api_keys',
      'sessions',
      'users',
      'accounts',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
