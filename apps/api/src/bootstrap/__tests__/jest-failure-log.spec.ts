import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../../../..');
const { reporters } = require(join(ROOT, 'jest.preset.js')) as { reporters: unknown[] };

/** Runs Jest with the preset's reporters on `files` in a fresh directory; what the failure log holds after. */
function failureLogOf(files: Record<string, string>): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'jest-failure-log-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const config = { rootDir: dir, testMatch: ['<rootDir>/*.spec.js'], reporters, displayName: 'fixture' };
    const log = join(dir, 'failures.log');
    spawnSync(process.execPath, [join(ROOT, 'node_modules/jest/bin/jest.js'), '--config', JSON.stringify(config)], {
      cwd: dir,
      env: { ...process.env, CROWDBOX_TEST_FAILURES: log },
      encoding: 'utf8',
    });
    try {
      return readFileSync(log, 'utf8');
    } catch {
      return undefined;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("npm test's failure log (printed again at the end of a run)", () => {
  it('names each failed test with its project and file, and the first lines of its failure, without foreign frames', () => {
    const log = failureLogOf({
      'passes.spec.js': "it('passes', () => expect(1).toBe(1));",
      'fails.spec.js': "describe('sums', () => { it('adds one and one', () => expect(1 + 1).toBe(3)); });",
    });
    const lines = (log ?? '').trimEnd().split('\n');
    expect(lines[0]).toMatch(/^fixture: \S*\/fails\.spec\.js: sums adds one and one$/);
    expect(lines).toContain('    Expected: 3');
    expect(lines.some((line) => /fails\.spec\.js:1:/.test(line))).toBe(true);
    expect(lines.some((line) => line.includes('node_modules'))).toBe(false);
    expect(log).not.toMatch(/passes/);
  });

  it('names a file that could not run', () => {
    expect(failureLogOf({ 'broken.spec.js': 'this is not javascript' })).toMatch(/^fixture: \S*\/broken\.spec\.js: the file did not run\n {4}\S/);
  });

  it('writes nothing when every test passes', () => {
    expect(failureLogOf({ 'passes.spec.js': "it('passes', () => expect(1).toBe(1));" })).toBeUndefined();
  });
});
