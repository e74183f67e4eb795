// The floor for add_task: Fastify 5 + pg, one POST route that parses the same JSON body and does the
// same single-row INSERT into `tasks` (same columns), answering 201 with a small JSON. No auth, no
// validation, no transaction, no logging: whatever the real API costs above this is its own overhead.
//
// Env: DATABASE_URL, PORT, DATABASE_POOL_SIZE (default 20, the API's default), HOST (127.0.0.1).
// Routes: POST /api/v1/projects/add_task   {"task":{"project_uuid":"…","substitutions":{…}}}
//         POST /api/v1/projects/add_tasks  {"project_uuid":"…","tasks":[…]}  (the same unnest INSERT as the API)
//         GET  /readyz
//         POST /diag/{tx,redis,unnest,prep,tx-redis,tx-redis-unnest,redis-prep}/api/v1/projects/add_task
//              diagnostic variants (only with REDIS_URL), see below
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';
import pg from 'pg';

const PROMPT = '<p>Draw a box around every car in <b>the picture</b>.</p>';
const REWARD = 25;
const REQUIRED_SUBMISSIONS = 3;
const COMPLETION_SECONDS = 600;

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
});

const app = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024 });

app.get('/readyz', async () => {
  await pool.query('SELECT 1');
  return { data: { ok: true } };
});

const INSERT_ONE = `INSERT INTO tasks (id, project_id, prompt, substitutions, external_image_url, reward, required_submissions,
                                     allowed_completion_time_seconds, callback_url)
                  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;

// The statement the API uses for any number of tasks (apps/api/src/tasks/tasks.service.ts insertTasks).
const INSERT_UNNEST = `INSERT INTO tasks (id, project_id, prompt, substitutions, external_image_url, reward, required_submissions,
                                        allowed_completion_time_seconds, callback_url)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::jsonb[], $5::text[], $6::int[], $7::int[], $8::int[], $9::text[])`;

function insertOne(db, task, unnest = false, prepared = false) {
  const id = randomUUID();
  const params = [
    id,
    task.project_uuid,
    PROMPT,
    JSON.stringify(task.substitutions ?? {}),
    task.external_image_url ?? null,
    REWARD,
    REQUIRED_SUBMISSIONS,
    COMPLETION_SECONDS,
    task.callback_url ?? null,
  ];
  if (unnest) return db.query(INSERT_UNNEST, params.map((p) => [p])).then(() => id);
  // prepared: a named statement, parsed and planned once per connection instead of on every request.
  if (prepared) return db.query({ name: 'bench_insert_task', text: INSERT_ONE, values: params }).then(() => id);
  return db.query(INSERT_ONE, params).then(() => id);
}

app.post('/api/v1/projects/add_task', async (request, reply) => {
  const id = await insertOne(pool, request.body.task);
  reply.code(201);
  return { data: { id } };
});

// Diagnostic variants (`npm run bench -- --diagnose`): the floor plus parts of what the real add_task
// does besides the framework (transaction, rate-limit round trip, unnest statement), to see what each
// costs. Only when REDIS_URL is set.
if (process.env.REDIS_URL) {
  const { default: Redis } = await import('ioredis');
  const redis = new Redis(process.env.REDIS_URL, { lazyConnect: false });
  // One EVALSHA per request, like rate-limiter-flexible's RateLimiterRedis.consume().
  redis.defineCommand('benchIncr', {
    numberOfKeys: 1,
    lua: `local c = redis.call('incrby', KEYS[1], ARGV[1]) if tonumber(c) == tonumber(ARGV[1]) then redis.call('expire', KEYS[1], ARGV[2]) end return {c, redis.call('pttl', KEYS[1])}`,
  });
  const limit = () => redis.benchIncr('cbbench:baseline-rate', '1', '1');
  const inTransaction = async (task, unnest, prepared) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const id = await insertOne(client, task, unnest, prepared);
      await client.query('COMMIT');
      return id;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  };
  // Any combination of: tx = BEGIN/INSERT/COMMIT on one pooled client (TypeORM's db.transaction),
  // redis = one EVALSHA first (the rate limit), unnest = the API's unnest INSERT instead of VALUES,
  // prep = the VALUES INSERT as a named (prepared) statement.
  const variant = (name) => {
    const [tx, rl, unnest, prep] = ['tx', 'redis', 'unnest', 'prep'].map((part) => name.split('-').includes(part));
    return async (task) => {
      if (rl) await limit();
      return tx ? inTransaction(task, unnest, prep) : insertOne(pool, task, unnest, prep);
    };
  };
  const variants = Object.fromEntries(
    ['tx', 'redis', 'unnest', 'prep', 'tx-redis', 'tx-redis-unnest', 'redis-prep'].map((n) => [n, variant(n)]),
  );
  for (const [name, run] of Object.entries(variants)) {
    app.post(`/diag/${name}/api/v1/projects/add_task`, async (request, reply) => {
      const id = await run(request.body.task);
      reply.code(201);
      return { data: { id } };
    });
  }
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
}

app.post('/api/v1/projects/add_tasks', async (request, reply) => {
  const { project_uuid: projectUuid, tasks } = request.body;
  const ids = tasks.map(() => randomUUID());
  await pool.query(
    `INSERT INTO tasks (id, project_id, prompt, substitutions, external_image_url, reward, required_submissions,
                        allowed_completion_time_seconds, callback_url)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::jsonb[], $5::text[], $6::int[], $7::int[], $8::int[], $9::text[])`,
    [
      ids,
      tasks.map((t) => t.project_uuid ?? projectUuid),
      tasks.map(() => PROMPT),
      tasks.map((t) => JSON.stringify(t.substitutions ?? {})),
      tasks.map((t) => t.external_image_url ?? null),
      tasks.map(() => REWARD),
      tasks.map(() => REQUIRED_SUBMISSIONS),
      tasks.map(() => COMPLETION_SECONDS),
      tasks.map((t) => t.callback_url ?? null),
    ],
  );
  reply.code(201);
  return { data: ids.map((id) => ({ id })) };
});

const close = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.once('SIGTERM', close);
process.once('SIGINT', close);

await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 3100) });
