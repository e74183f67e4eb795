import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(__dirname, '../migrations');

/**
 * Migrations that break the rules below, each with why that was harmless. Most ran on the first days,
 * before any database held data, so the tables they met were empty or small; they are kept as written,
 * since a migration that has run anywhere is history, not code to tidy. A new migration joins this list
 * only with a reason as good as these.
 */
const EXEMPT: Record<string, string> = {
  '1763900000000-leases.ts': 'the first day: checks and ix_tasks_open on an empty tasks table',
  '1764000000000-webhooks.ts': 'creates webhook_events; foreign keys on a tasks table of the first day',
  '1764100000000-active-checkouts-index.ts': 'the first day: checkouts empty',
  '1764200000000-stored-consensus.ts': 'the first days: VALIDATE in the transaction that added the column',
  '1764300000000-lease-count-hint.ts': 'the first days: VALIDATE in the transaction that added the columns',
  '1764400000000-partial-expiry-index.ts': 'the first days: checkouts small',
  '1764600000000-pending-event-indexes.ts': 'the first days: webhook_events small',
  '1765200000000-idempotency-response-as-json.ts': 'rewrites idempotency_keys after deleting all but a day of records',
  '1766100000000-consensus-refresh.ts': 'an index on projects, one row per project: built in milliseconds',
};

/** The SQL text of a migration's up(), as written (template literals and strings alike), upper-cased. */
function upSql(source: string): string {
  const up = source.slice(source.indexOf('async up('), source.indexOf('async down(') >= 0 ? source.indexOf('async down(') : undefined);
  return up.replace(/\s+/g, ' ').toUpperCase();
}

/** Tables the migration creates itself: rules about locking a busy table do not apply to them. */
function createdTables(sql: string): Set<string> {
  return new Set([...sql.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?"?(\w+)"?/g)].map((m) => m[1]));
}

/** What in a migration's up() would lock a large, busy table for the length of a scan or a rewrite. */
function lockingSteps(source: string): string[] {
  const sql = upSql(source);
  const own = createdTables(sql);
  const outsideTransaction = /TRANSACTION = FALSE/.test(source.toUpperCase());
  const problems: string[] = [];
  for (const m of sql.matchAll(/CREATE (?:UNIQUE )?INDEX (CONCURRENTLY )?(?:IF NOT EXISTS )?"?\w+"? ON (?:ONLY )?"?(\w+)"?/g)) {
    const [, concurrently, table] = m;
    if (own.has(table)) continue;
    if (!concurrently) problems.push(`CREATE INDEX on ${table} without CONCURRENTLY (writes to it wait for the whole build)`);
    else if (!outsideTransaction) problems.push(`CREATE INDEX CONCURRENTLY on ${table} needs transaction = false`);
  }
  for (const m of sql.matchAll(/ALTER TABLE (?:ONLY )?"?(\w+)"? ADD CONSTRAINT "?\w+"? (CHECK|FOREIGN KEY)(.*?)(?:`|;|$)/g)) {
    const [, table, kind, rest] = m;
    if (own.has(table)) continue;
    if (!/NOT VALID/.test(rest)) problems.push(`ADD CONSTRAINT ${kind} on ${table} without NOT VALID (the check scans the table under ACCESS EXCLUSIVE)`);
  }
  if (/VALIDATE CONSTRAINT/.test(sql) && !outsideTransaction && (sql.match(/ALTER TABLE/g) ?? []).length > 1) {
    problems.push('VALIDATE CONSTRAINT in a transaction with another ALTER TABLE (its ACCESS EXCLUSIVE lock is held through the scan)');
  }
  if (/ALTER COLUMN "?\w+"? SET NOT NULL/.test(sql)) problems.push('SET NOT NULL (scans under ACCESS EXCLUSIVE; use a NOT VALID check, then VALIDATE)');
  if (/ALTER COLUMN "?\w+"? (?:SET DATA )?TYPE/.test(sql)) problems.push('ALTER COLUMN TYPE (rewrites the table under ACCESS EXCLUSIVE)');
  for (const m of sql.matchAll(/ADD COLUMN (?:IF NOT EXISTS )?"?\w+"? [^,`]*?DEFAULT ([^,`]*)/g)) {
    if (/\(|NOW|CURRENT_|RANDOM|UUID/.test(m[1])) problems.push(`ADD COLUMN with a volatile DEFAULT ${m[1].trim()} (rewrites the table)`);
  }
  return problems;
}

/**
 * docs/running.md, "Migrations on a live database": a migration runs while the API serves, so it must
 * not hold a lock that stops reads or writes of a large table for the length of a scan or a rewrite.
 */
describe('migrations on a live database', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.ts')).sort();

  it.each(files.filter((f) => !(f in EXEMPT)))('%s takes no lock that waits on a scan or a rewrite', (file) => {
    expect(lockingSteps(readFileSync(join(DIR, file), 'utf8'))).toEqual([]);
  });

  it('lists only migrations that exist and break a rule', () => {
    for (const file of Object.keys(EXEMPT)) {
      expect({ file, problems: lockingSteps(readFileSync(join(DIR, file), 'utf8')).length > 0 }).toEqual({ file, problems: true });
    }
  });

  it('finds each kind of step it forbids', () => {
    const migration = (up: string, transaction = '') => `class M { ${transaction} async up(q) { await q.query(\`${up}\`); } async down(q) {} }`;
    expect(lockingSteps(migration('CREATE INDEX ix_a ON tasks (a)'))).toEqual([expect.stringContaining('without CONCURRENTLY')]);
    expect(lockingSteps(migration('CREATE INDEX CONCURRENTLY ix_a ON tasks (a)'))).toEqual([expect.stringContaining('transaction = false')]);
    expect(lockingSteps(migration('CREATE INDEX CONCURRENTLY ix_a ON tasks (a)', 'transaction = false as const;'))).toEqual([]);
    expect(lockingSteps(migration('CREATE TABLE notes (a int); CREATE INDEX ix_n ON notes (a)'))).toEqual([]);
    expect(lockingSteps(migration('ALTER TABLE tasks ADD CONSTRAINT ck_a CHECK (a > 0)'))).toEqual([expect.stringContaining('NOT VALID')]);
    expect(lockingSteps(migration('ALTER TABLE tasks ADD CONSTRAINT ck_a CHECK (a > 0) NOT VALID'))).toEqual([]);
    expect(lockingSteps(migration('ALTER TABLE tasks ADD COLUMN a int; ALTER TABLE tasks VALIDATE CONSTRAINT ck_a'))).toEqual([
      expect.stringContaining('VALIDATE CONSTRAINT'),
    ]);
    expect(lockingSteps(migration('ALTER TABLE tasks VALIDATE CONSTRAINT ck_a'))).toEqual([]);
    expect(lockingSteps(migration('ALTER TABLE tasks ALTER COLUMN a SET NOT NULL'))).toEqual([expect.stringContaining('SET NOT NULL')]);
    expect(lockingSteps(migration('ALTER TABLE tasks ALTER COLUMN a TYPE bigint'))).toEqual([expect.stringContaining('TYPE')]);
    expect(lockingSteps(migration('ALTER TABLE tasks ADD COLUMN b timestamptz NOT NULL DEFAULT now()'))).toEqual([expect.stringContaining('volatile')]);
    expect(lockingSteps(migration('ALTER TABLE tasks ADD COLUMN b integer NOT NULL DEFAULT 0'))).toEqual([]);
  });
});
