// Global setup runs outside Jest's module mapper, so it imports only this file: the test database
// helpers, which need no @crowdbox/* path.
export { createTemplateDatabase } from '../../../api/test/test-database';
