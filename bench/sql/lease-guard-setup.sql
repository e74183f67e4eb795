-- The checkout insert guard's own cost (docs/performance.md, "The insert guard's block check").
-- On a copy of a migrated database (e.g. CREATE DATABASE guardbench TEMPLATE crowdbox_test_template_…):
--   psql -d guardbench -f bench/sql/lease-guard-setup.sql
--   then, alternating the versions of checkouts_guard_insert to compare (CREATE OR REPLACE FUNCTION …),
--   psql -d guardbench -f bench/sql/lease-guard-run.sql   (\timing: the INSERT's time / 4,000 per lease)
-- One project, 4,000 tasks and 4,000 workers, so each lease passes every check of the guard.
INSERT INTO accounts (id, name, webhook_signing_secret) VALUES ('00000000-0000-0000-0000-000000000001', 'a', 'x');
INSERT INTO projects (id, account_id, name, display_name, display_short_description, template, default_required_submissions, default_reward, allowed_completion_time_seconds)
VALUES ('00000000-0000-0000-0000-0000000000aa', '00000000-0000-0000-0000-000000000001', 'p', 'p', 'p', 't', 1, 1, 600);
INSERT INTO accounts (id, name, webhook_signing_secret) SELECT ('00000000-0000-0000-0001-' || lpad(i::text, 12, '0'))::uuid, 'w', 'x' FROM generate_series(1, 4000) i;
INSERT INTO users (id, account_id, email, name, password_hash) SELECT ('00000000-0000-0000-0001-' || lpad(i::text, 12, '0'))::uuid, ('00000000-0000-0000-0001-' || lpad(i::text, 12, '0'))::uuid, 'w' || i || '@x', 'w', 'h' FROM generate_series(1, 4000) i;
INSERT INTO tasks (id, project_id, prompt, reward, required_submissions, allowed_completion_time_seconds)
SELECT ('00000000-0000-0000-0002-' || lpad(i::text, 12, '0'))::uuid, '00000000-0000-0000-0000-0000000000aa', 'p', 1, 5, 600 FROM generate_series(1, 4000) i;
