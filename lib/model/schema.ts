import * as z from 'zod';
import { type Compiled, compileSchema, MISS } from './compiledSchema.js';
import { ValidationError } from './errors.js';
import { formatPath } from './path.js';
import { pyStr } from './pyStr.js';

/** Each schema's compiled parser, made when the schema is first used (a schema never changes). */
const compiled = new WeakMap<z.ZodType, Compiled>();

/**
 * Parses `input` with `schema`, turning zod's issues into a ValidationError that names `source`.
 * The compiled form of the schema (compiledSchema.ts) answers valid input; zod words the rest.
 */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, source: string): z.output<S> {
  const fast = compiledParser(schema)(input);
  if (fast !== MISS) return fast as z.output<S>;
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(
    source,
    result.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message })),
  );
}

/**
 * The compiled parser of `schema`: zod's output for valid input, MISS for anything else (parseWith
 * then has zod word the problems). For a caller that parses an array's elements one by one.
 */
export function compiledParser(schema: z.ZodType): Compiled {
  let parse = compiled.get(schema);
  if (parse === undefined) {
    parse = compileSchema(schema);
    compiled.set(schema, parse);
  }
  return parse;
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
