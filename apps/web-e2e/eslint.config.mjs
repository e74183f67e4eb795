// The browser tests boot the real API in-process through its own test helpers (apps/api/test), which
// the workspace rule forbids elsewhere: web and api never import each other. Only support/server/ may
// reach into apps/api; everything else here follows the root rules.
import root from '../../eslint.config.mjs';

export default [
  ...root,
  {
    files: ['apps/web-e2e/support/server/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
];
