module.exports = {
  ...require('../../jest.preset.js'),
  ...require('../../jest.konva.js'),
  displayName: 'annotator',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/__tests__/**/*.spec.ts?(x)'],
};
