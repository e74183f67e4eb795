import { RequestMethod } from '@nestjs/common';
import { CONTROLLER_WATERMARK, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
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

/** The routes Nest's decorators give `handler` of the controller class in `file`: `METHOD /path` each. */
function routesOf(file: string, handler: string): string[] {
  // The controller module the README row names (already loaded by the app).
  const exported: Record<string, unknown> = require(join(SRC, file));
  const controllers = Object.values(exported).filter((value): value is new () => object => typeof value === 'function' && Reflect.getMetadata(CONTROLLER_WATERMARK, value));
  return controllers.flatMap((controller) => {
    const method = (controller.prototype as Record<string, unknown>)[handler];
    if (typeof method !== 'function') return [];
    const verb = RequestMethod[Reflect.getMetadata(METHOD_METADATA, method) as RequestMethod];
    const prefixes = [Reflect.getMetadata(PATH_METADATA, controller) as string | string[]].flat();
    const paths = [Reflect.getMetadata(PATH_METADATA, method) as string | string[]].flat();
    return prefixes.flatMap((prefix) => paths.map((path) => `${verb} /${[prefix, path].filter((part) => part && part !== '/').join('/')}`));
  });
}

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

  it("names each route's controller file and the handler that serves it there", () => {
    const wrong = rows.filter(({ route, file, handler }) => !existsSync(join(SRC, file)) || !routesOf(file, handler).includes(route));
    expect(wrong).toEqual([]);
  });
});
