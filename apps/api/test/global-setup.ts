import { createTemplateDatabase } from './test-database';

/** Once per `jest` run: migrate the template database that every API test file copies. */
export default async function globalSetup(): Promise<void> {
  await createTemplateDatabase();
}
