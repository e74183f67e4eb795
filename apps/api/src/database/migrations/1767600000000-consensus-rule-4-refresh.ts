import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CONSENSUS_RULE is 4 (submissions/stored-consensus.ts: a merged or scaled box keeps at least 1 px, and a
 * frame's own boxes are clamped to it). Every consensus stored by rule 3 no longer holds, so, as migration
 * 1766100000000 says of a migration that raises the rule, every project is marked for the jobs role's
 * consensus refresh: it stores them again by the new rule in the background, instead of the next export
 * of each project computing all of its tasks on an HTTP process. A cache fill only: readers compute
 * whatever does not hold either way. No schema change.
 */
export class ConsensusRule4Refresh1767600000000 implements MigrationInterface {
  name = 'ConsensusRule4Refresh1767600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE projects SET consensus_refresh_pending = true WHERE NOT consensus_refresh_pending`);
  }

  async down(): Promise<void> {
    // The marks only ask for work that readers would do anyway: nothing to undo.
  }
}
