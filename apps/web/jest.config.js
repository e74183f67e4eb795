// Unit tests of the web app: src/**/__tests__/**/*.spec.ts(x) only. The browser tests live in
// apps/web-e2e (their own project and config), so nothing here drives Chromium.
module.exports = {
  ...require('../../jest.preset.js'),
  // Components render into jsdom (the annotator's Konva canvas too), as in libs/annotator.
  ...require('../../jest.konva.js'),
  displayName: 'web',
  rootDir: __dirname,
  moduleNameMapper: {
    ...require('../../jest.preset.js').moduleNameMapper,
    // Vite bundles the stylesheets; a test needs only that importing one works.
    '\\.css$': '<rootDir>/jest.style-stub.js',
  },
  testMatch: ['<rootDir>/src/**/__tests__/**/*.spec.ts?(x)'],
};
