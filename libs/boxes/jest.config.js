module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'boxes',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/__tests__/**/*.spec.ts?(x)'],
};
