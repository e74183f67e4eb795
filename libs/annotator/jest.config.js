module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'annotator',
  rootDir: __dirname,
  // The Konva component and its tests arrive with issue 5.
  passWithNoTests: true,
  testMatch: ['<rootDir>/src/**/__tests__/**/*.spec.ts?(x)'],
};
