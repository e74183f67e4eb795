import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/load-config';
import { createApp } from './bootstrap/create-app';

/** `node main.js [--role=all|http|jobs]`: one binary; HTTP nodes and job workers scale separately. */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  if (config.role !== 'jobs') {
    await app.listen({ host: config.HOST, port: config.PORT });
  }
}

main().catch((error: unknown) => {
  // Configuration errors are for people: print the message, not a stack.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
