import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The consensus rule's reset (migration 1765700000000) no longer undoes the current code's own writes.
 *
 * That trigger takes `consensus_rule` back to 1 on any write of a consensus that changes the threshold
 * and not the rule, to catch a process of the code before rules, which leaves the column as it finds
 * it. But the current code's writes look the same once a task's consensus is stored by the current
 * rule (every completed task's is): storing the consensus of a new threshold names
 * `consensus_rule = 3` over a 3. So after every threshold change the jobs role's refresh stored each
 * complete task's consensus only to see its rule reset, and the next export computed them all again on
 * an HTTP process (its store kept the threshold, so that one was kept): the refresh's work, which
 * exists to spare the export that, was thrown away.
 *
 * A current writer now says so in its statement (`CURRENT_RULE_WRITE` in stored-consensus.ts, a
 * transaction-local setting `crowdbox.consensus_rule` set to the rule it writes), and the trigger leaves
 * a write alone when that setting names the rule the row gets. Code of before this migration sets
 * nothing, so during a rolling deploy its writes are reset as before: at worst computed once more.
 * WHEN is still checked without calling the function.
 */
export class ConsensusRuleWriters1767300000000 implements MigrationInterface {
  name = 'ConsensusRuleWriters1767300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tasks_consensus_rule_reset ON tasks`);
    await q.query(trigger(`AND current_setting('crowdbox.consensus_rule', true) IS DISTINCT FROM NEW.consensus_rule::text`));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tasks_consensus_rule_reset ON tasks`);
    await q.query(trigger(''));
  }
}

/** The reset trigger of 1765700000000, with `more` added to its WHEN. */
function trigger(more: string): string {
  return `
    CREATE TRIGGER tasks_consensus_rule_reset BEFORE UPDATE OF consensus ON tasks FOR EACH ROW
      WHEN (NEW.consensus_rule = OLD.consensus_rule AND NEW.consensus_iou_threshold IS DISTINCT FROM OLD.consensus_iou_threshold ${more})
      EXECUTE FUNCTION tasks_consensus_rule_reset()`;
}
