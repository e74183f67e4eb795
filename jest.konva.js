// Jest settings for code that renders Konva (libs/annotator and the web app): jsdom with
// jest-canvas-mock standing in for the 2D context, and konva 10, which is ESM-only, compiled by swc to
// CommonJS with the rest (and react-konva).
module.exports = {
  testEnvironment: 'jsdom',
  setupFiles: ['jest-canvas-mock'],
  transformIgnorePatterns: ['/node_modules/(?!(konva|react-konva)/)'],
};
