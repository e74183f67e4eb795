// `node -r ./apps/api/test/swc-register.js apps/api/src/main.ts`: runs the server from its TypeScript
// sources with the same swc settings as Jest (jest.preset.js), for tests that need the real process
// (main.ts, HTTP_PROCESSES) rather than createApp in the test's own process. The @crowdbox/* paths come
// from tsconfig.base.json through tsconfig-paths.
const path = require('node:path');
const { transformSync } = require('@swc/core');
const tsconfigPaths = require('tsconfig-paths');

const root = path.join(__dirname, '../../..');
tsconfigPaths.register({ baseUrl: root, paths: require(path.join(root, 'tsconfig.base.json')).compilerOptions.paths });

const options = require(path.join(root, 'jest.preset.js')).transform['^.+\\.(t|j)sx?$'][1];

require.extensions['.ts'] = (module, filename) => {
  const source = require('node:fs').readFileSync(filename, 'utf8');
  const { code } = transformSync(source, { ...options, filename, sourceMaps: 'inline' });
  module._compile(code, filename);
};
