import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONSENSUS_RULE } from '../stored-consensus';

describe('the export bench', () => {
  // Its fixture writes stored consensus as the API would; with an older rule every export of the bench
  // computed every task again, and measured that instead (it said 3 after the rule became 4).
  it('stores its fixture consensus by the rule the API uses', () => {
    const bench = readFileSync(join(__dirname, '../../../../../bench/export.bench.mjs'), 'utf8');
    expect(Number(/^const CONSENSUS_RULE = (\d+);$/m.exec(bench)?.[1])).toBe(CONSENSUS_RULE);
  });
});
