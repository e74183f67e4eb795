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
