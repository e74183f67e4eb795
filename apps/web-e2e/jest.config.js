// Browser tests: one vite build and one template database per run (global setup), then each spec file
// boots its own API on a real port and its own Chromium (support/harness.ts).
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'web-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  globalSetup: '<rootDir>/support/global-setup.ts',
  globalTeardown: '<rootDir>/support/global-teardown.ts',
  maxWorkers: 2,
  testTimeout: 60000,
};
