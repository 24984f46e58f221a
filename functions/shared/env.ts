import type * as z from 'zod';
import { ConfigError } from '../../lib/model/errors.js';

/**
 * Parses a Lambda's environment once at cold start.
 * @throws ConfigError naming every bad variable, prefixed with `label`.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv, label: string): z.output<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${String(i.path[0])} ${i.message}`);
  throw new ConfigError(`${label}: ${problems.join('; ')}`);
}
