module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'annotator',
  rootDir: __dirname,
  // The component tests render Konva into jsdom; jest-canvas-mock stands in for the 2D context.
  testEnvironment: 'jsdom',
  setupFiles: ['jest-canvas-mock'],
  // konva 10 is ESM-only: let swc compile it (and react-konva) to CommonJS with the rest.
  transformIgnorePatterns: ['/node_modules/(?!(konva|react-konva)/)'],
  testMatch: ['<rootDir>/src/**/__tests__/**/*.spec.ts?(x)'],
};
