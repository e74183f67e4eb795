// Shared Jest settings: swc with decorator metadata (Nest and TypeORM need it) and the @crowdbox/* paths.
const path = require('node:path');

const root = __dirname;

module.exports = {
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true, tsx: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper: {
    '^@crowdbox/contracts$': path.join(root, 'libs/contracts/src/index.ts'),
    '^@crowdbox/boxes$': path.join(root, 'libs/boxes/src/index.ts'),
    '^@crowdbox/annotator$': path.join(root, 'libs/annotator/src/index.ts'),
  },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'jsx', 'json'],
  testEnvironment: 'node',
  // Jest's report, plus a brief one of each failure that `npm test` prints again at its end.
  reporters: ['default', path.join(root, 'scripts/jest-failure-log.cjs')],
};
