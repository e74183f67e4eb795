module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'api',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/__tests__/**/*.spec.ts'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  // API tests boot a whole server each; two cores run two files at a time well.
  maxWorkers: 2,
  testTimeout: 30000,
};
