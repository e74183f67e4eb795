import { configSchema, type AppConfig, type AppRole } from './config.schema';

/** Thrown at boot when a setting is missing or wrong; the message names every bad setting. */
export class ConfigError extends Error {}

/** Reads and validates the environment once. Nothing else in the server reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv): AppConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return { ...parsed.data, role: roleFrom(argv) };
}

function roleFrom(argv: string[]): AppRole {
  const flag = argv.find((arg) => arg.startsWith('--role='));
  const role = flag?.slice('--role='.length) ?? 'all';
  if (role !== 'all' && role !== 'http' && role !== 'jobs') {
    throw new ConfigError(`Invalid configuration:\n  --role: must be all, http or jobs (got "${role}")`);
  }
  return role;
}
