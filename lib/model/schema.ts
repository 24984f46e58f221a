import * as z from 'zod';
import { ValidationError } from './errors.js';
import { formatPath } from './path.js';
import { pyStr } from './pyStr.js';

/** Parses `input` with `schema`, turning zod's issues into a ValidationError that names `source`. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, source: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(
    source,
    result.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message })),
  );
}

/** Values that Nova keeps as strings; numbers and booleans are accepted and stringified like Python's str(). */
export const novaString = z.union([z.string(), z.number(), z.boolean()]).transform((v) => pyStr(v));

/** A regular expression's source text; refused when it does not compile. */
export const regexText = z.string().refine(
  (text) => {
    try {
      new RegExp(text);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'must be a valid regular expression' },
);
