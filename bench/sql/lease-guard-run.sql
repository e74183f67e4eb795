-- 4,000 leases through the insert guard, rolled back; see lease-guard-setup.sql.
\timing on
BEGIN;
INSERT INTO checkouts (id, task_id, worker_id, expires_at)
SELECT gen_random_uuid(), ('00000000-0000-0000-0002-' || lpad(i::text, 12, '0'))::uuid, ('00000000-0000-0000-0001-' || lpad(i::text, 12, '0'))::uuid, now() + interval '10 minutes'
FROM generate_series(1, 4000) i;
ROLLBACK;
