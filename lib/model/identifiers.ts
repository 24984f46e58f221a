/**
 * Ids and names as zod schemas (the rules themselves are in identifierRules.ts).
 */
import * as z from 'zod';
import { ValidationError } from './errors.js';
import { identifierProblem, MAX_IDENTIFIER_LENGTH } from './identifierRules.js';

export {
  identifierProblem,
  MAX_IDENTIFIER_LENGTH,
  toWellFormed,
  wellFormedText,
} from './identifierRules.js';

/** A zod string that must be a valid id or name (see identifierProblem). */
export function identifier(options: { max?: number; allowEmpty?: boolean } = {}) {
  const max = options.max ?? MAX_IDENTIFIER_LENGTH;
  // min/max as zod checks as well, so the exported JSON Schema carries the length limits.
  return z
    .string({ error: (i) => (i.input === undefined ? 'is required' : 'expected string') })
    .min(options.allowEmpty ? 0 : 1, 'must be a non-empty string')
    .max(max, `must be at most ${max} characters`)
    .refine((value) => value.length === 0 || value.length > max || !identifierProblem(value, options), {
      error: (i) => identifierProblem(i.input as string, options),
    });
}

/**
 * Throws a ValidationError naming `field` when `value` is not a valid id (for callers outside a
 * schema, such as the CLI's plan ids).
 * @example checkIdentifier('placid approve', 'plan_id', argv[0])
 */
export function checkIdentifier(source: string, field: string, value: string, max?: number): string {
  const problem = identifierProblem(value, { max });
  if (problem) throw new ValidationError(source, [{ path: field, message: problem }]);
  return value;
}
