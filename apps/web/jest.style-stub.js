// What `import './x.css'` gives a unit test (see jest.config.js): nothing.
module.exports = {};
