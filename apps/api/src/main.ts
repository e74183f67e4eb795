import 'reflect-metadata';
import cluster from 'node:cluster';
import { ConfigError, loadConfig } from './config/load-config';
import { superviseHttpProcesses } from './bootstrap/http-processes';
import { armShutdownDeadline } from './bootstrap/shutdown-deadline';

/**
 * `node main.js [--role=all|http|jobs]`: one binary; HTTP nodes and job workers scale separately. With
 * HTTP_PROCESSES > 1 this process only supervises that many copies of itself (bootstrap/http-processes.ts).
 * `node main.js --migrate` runs the pending migrations and exits (database/migrate-command.ts).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (process.argv.includes('--migrate')) {
    const { migrateAndExit } = await import('./database/migrate-command');
    await migrateAndExit(config);
    return;
  }
  if (config.role !== 'jobs' && config.HTTP_PROCESSES > 1 && cluster.isPrimary) {
    superviseHttpProcesses(config.HTTP_PROCESSES, { shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });
    return;
  }
  armShutdownDeadline(config.SHUTDOWN_TIMEOUT_MS);
  // Loaded here, not at the top: the supervisor never builds a server and need not load one.
  const { createApp } = await import('./bootstrap/create-app');
  const app = await createApp(config);
  if (config.role !== 'jobs') {
    await app.listen({ host: config.HOST, port: config.PORT });
  } else if (config.JOBS_HTTP_PORT !== undefined) {
    // A jobs process serves no API; this answers only /healthz, /readyz and /metrics (bootstrap/jobs-listener.ts).
    const { listenForJobs } = await import('./bootstrap/jobs-listener');
    await listenForJobs(app, config, config.JOBS_HTTP_PORT);
  }
}

main().catch((error: unknown) => {
  // Configuration errors are for people: print the message, not a stack.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
