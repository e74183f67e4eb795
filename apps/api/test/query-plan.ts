import type { DataSource } from 'typeorm';

interface PlanNode {
  'Relation Name'?: string;
  'Index Name'?: string;
  'Node Type': string;
  Plans?: PlanNode[];
}

const scansOf = (node: PlanNode, table: string): string[] => [
  ...(node['Relation Name'] === table ? [node['Index Name'] ?? node['Node Type']] : []),
  ...(node.Plans ?? []).flatMap((child) => scansOf(child, table)),
];

/**
 * How the planner would read `table` for this statement: each scan's index name, or its node type
 * ("Seq Scan"). For tests that a query reads a few rows through an index rather than walking a table;
 * ANALYZE the table first, so the plan is the one its size would get.
 */
export async function tableReads(db: DataSource, sql: string, params: unknown[], table: string): Promise<string[]> {
  const [{ 'QUERY PLAN': plan }] = await db.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  return scansOf(plan[0].Plan, table);
}

interface AnalyzedNode extends PlanNode {
  'Actual Loops'?: number;
  Plans?: AnalyzedNode[];
}

const loopsOf = (node: AnalyzedNode, counts: (node: AnalyzedNode) => boolean): number =>
  (counts(node) ? (node['Actual Loops'] ?? 0) : 0) + (node.Plans ?? []).reduce((sum, child) => sum + loopsOf(child, counts), 0);

/** Runs the statement with EXPLAIN ANALYZE in a transaction rolled back (a write changes nothing) and sums the loops of the nodes `counts` picks. */
async function analyzedLoops(db: DataSource, sql: string, params: unknown[], counts: (node: AnalyzedNode) => boolean): Promise<number> {
  const runner = db.createQueryRunner();
  try {
    await runner.startTransaction();
    const [{ 'QUERY PLAN': plan }] = await runner.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
    return loopsOf(plan[0].Plan, counts);
  } finally {
    await runner.rollbackTransaction();
    await runner.release();
  }
}

/**
 * How many times this statement, run for real, scanned `index`: a probe per driving row of a nested loop,
 * so a test can tell a statement that probes a few rows from one that probes a whole table's worth.
 */
export function indexScans(db: DataSource, sql: string, params: unknown[], index: string): Promise<number> {
  return analyzedLoops(db, sql, params, (node) => node['Index Name'] === index);
}

/** How many times this statement, run for real, read `table` by any path (indexScans, for whichever index the planner picks). */
export function tableScans(db: DataSource, sql: string, params: unknown[], table: string): Promise<number> {
  return analyzedLoops(db, sql, params, (node) => node['Relation Name'] === table);
}
