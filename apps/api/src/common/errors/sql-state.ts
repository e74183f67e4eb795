/** PostgreSQL's own codes the API retries or translates into the contract's errors. */
export const PG_SQLSTATE = {
  uniqueViolation: '23505',
  deadlockDetected: '40P01',
} as const;

/** A database error's SQLSTATE (pg puts it on `code`, and TypeORM's QueryFailedError keeps it). */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The constraint a database error names (a unique violation's, say). */
export function sqlConstraint(error: unknown): string | undefined {
  const constraint = (error as { constraint?: unknown } | null)?.constraint;
  return typeof constraint === 'string' ? constraint : undefined;
}
