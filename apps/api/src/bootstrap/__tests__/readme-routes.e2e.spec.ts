import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectRegisteredRoutes } from '../../../test/registered-routes';
import { startTestApp, type TestApp } from '../../../test/test-app';

/**
 * README's "Where a request is handled" names every route of the API, one per row, with its controller
 * file and handler, so that one search for a route finds where it is handled. The table is written by
 * hand; this keeps it true as routes are added, moved or renamed.
 */

const ROOT = join(__dirname, '..', '..', '..', '..', '..');
const SRC = join(ROOT, 'apps', 'api', 'src');

/** The API's routes, the probes and metrics: not Swagger UI's files nor the web app's (their rows are prose). */
const LISTED = /^\/(api\/(v1|session|console|work)\/|healthz$|readyz$|metrics$)/;

/** A row: `| \`METHOD /path\` … | \`file.ts\` (\`handler\`)…`. */
const ROW = /^\| `(GET|POST|PUT|PATCH|DELETE) (\/[^`]*)`[^|]*\| `([^`]+\.ts)` \(`(\w+)`\)/;

const registered = collectRegisteredRoutes();

describe("README's route table", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Where a request is handled'), readme.indexOf('## API documentation'));
  const rows = section
    .split('\n')
    .map((line) => ROW.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, method, path, file, handler]) => ({ route: `${method} ${path}`, file, handler }));

  it('has a row for every route of the app, and none for a route it lacks', () => {
    const app = [...new Set(registered.filter((r) => !r.startsWith('HEAD ') && LISTED.test(r.split(' ')[1])))].sort();
    expect(app.length).toBeGreaterThan(40); // the hook saw the app's routes at all
    const table = rows.map((r) => r.route).sort();
    expect({ inAppNotInReadme: app.filter((r) => !table.includes(r)), inReadmeNotInApp: table.filter((r) => !app.includes(r)) }).toEqual({
      inAppNotInReadme: [],
      inReadmeNotInApp: [],
    });
    expect(new Set(table).size).toBe(table.length);
  });

  it("names each route's controller file and a handler that file holds", () => {
    const wrong = rows.filter(({ file, handler }) => {
      const path = join(SRC, file);
      return !existsSync(path) || !new RegExp(`\\b${handler}\\(`).test(readFileSync(path, 'utf8'));
    });
    expect(wrong).toEqual([]);
  });
});
