// A Jest reporter that writes each failed test, briefly, to one file that `npm test` prints again at the
// very end of its output. Jest's own report of a failure sits in the middle of a long run (the API tests come
// before the browser tests), and a CI page that keeps only the end of the log would otherwise show which
// project failed but never which test or why.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const FILE = process.env.CROWDBOX_TEST_FAILURES ?? path.join(ROOT, 'tmp', 'test-failures.log');
const MESSAGE_LINES = 12;
const ANSI = /\x1b\[[0-9;]*m/g;
// Stack frames of Jest, Node or a library say nothing about which line of ours failed.
const FOREIGN_FRAME = /^\s*at .*(node_modules|node:internal|<anonymous>)/;

/** The first lines of a failure message that say what went wrong and where: no colours, blanks or foreign frames. */
function brief(message) {
  return message
    .replace(ANSI, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '' && !FOREIGN_FRAME.test(line))
    .slice(0, MESSAGE_LINES)
    .map((line) => `    ${line}`)
    .join('\n');
}

class FailureLogReporter {
  onRunComplete(contexts, results) {
    // A file that did not run has no display name of its own; each project runs Jest on its own.
    const runProject = [...contexts][0]?.config.displayName?.name ?? 'jest';
    const entries = [];
    for (const file of results.testResults) {
      const where = path.relative(ROOT, file.testFilePath);
      const project = file.displayName?.name ?? runProject;
      if (file.testExecError) entries.push(`${project}: ${where}: the file did not run\n${brief(file.testExecError.message ?? String(file.testExecError))}`);
      for (const test of file.testResults) {
        if (test.status !== 'failed') continue;
        entries.push(`${project}: ${where}: ${test.fullName}\n${brief(test.failureMessages.join('\n'))}`);
      }
    }
    if (entries.length === 0) return;
    fs.mkdirSync(path.dirname(FILE), { recursive: true });
    fs.appendFileSync(FILE, `${entries.join('\n')}\n`);
  }
}

module.exports = FailureLogReporter;
