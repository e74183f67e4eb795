// Unit tests of the web app: src/**/__tests__/**/*.spec.ts(x) only. The browser tests live in
// apps/web-e2e (their own project and config), so nothing here drives Chromium.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'web',
  rootDir: __dirname,
  // Components render into jsdom (the annotator's Konva canvas through jest-canvas-mock), as in libs/annotator.
  testEnvironment: 'jsdom',
  setupFiles: ['jest-canvas-mock'],
  // konva 10 is ESM-only: let swc compile it (and react-konva) to CommonJS with the rest.
  transformIgnorePatterns: ['/node_modules/(?!(konva|react-konva)/)'],
  moduleNameMapper: {
    ...require('../../jest.preset.js').moduleNameMapper,
    // Vite bundles the stylesheets; a test needs only that importing one works.
    '\\.css$': '<rootDir>/jest.style-stub.js',
  },
  testMatch: ['<rootDir>/src/**/__tests__/**/*.spec.ts?(x)'],
};
