/**
 * A zod schema compiled once into plain closures, for the inputs that come by the thousand (a
 * 20k-host file, a report message): zod's own parse allocates a result object and an issue list
 * per value and runs each check as its own call, which at 20k hosts with NUMA topology was most of
 * `placid schedule`. The closures read the schema's own definition (shapes, bounds, defaults,
 * transforms, refinements), so the schema stays the one statement of every rule.
 *
 * A compiled parser answers only "valid, and this is zod's output" or MISS; on MISS the caller asks
 * zod itself, which decides and words every problem. Node types the compiler does not know are
 * handed to zod whole, so an unfamiliar schema is slower, never different.
 */
import type * as z from 'zod';

export const MISS: unique symbol = Symbol('miss');
export type Compiled = (input: unknown) => unknown;

/** Zod's definition of a schema node: what the compiler reads (zod keeps it on `_zod.def`). */
interface Def {
  type: string;
  checks?: Check[];
  shape?: Record<string, Node>;
  catchall?: Node;
  element?: Node;
  items?: Node[];
  rest?: Node | null;
  keyType?: Node;
  valueType?: Node;
  options?: Node[];
  inclusive?: boolean;
  discriminator?: string;
  innerType?: Node;
  defaultValue?: unknown;
  in?: Node;
  out?: Node;
  values?: unknown[];
  entries?: Record<string, unknown>;
  coerce?: boolean;
  mode?: string;
  transform?: (value: unknown, payload: Payload) => unknown;
}
interface Node {
  _zod: { def: Def; traits: Set<string>; optin?: string; optout?: string };
  safeParse(input: unknown): { success: boolean; data?: unknown };
}
interface Check {
  _zod: {
    def: Record<string, unknown> & { check?: string; when?: (p: Payload) => boolean };
    check(payload: Payload): unknown;
  };
}
interface Payload {
  value: unknown;
  issues: unknown[];
}

/** The compiled form of `schema` (compile once, call per input). */
export function compileSchema(schema: z.ZodType): Compiled {
  return compile(schema as unknown as Node);
}

function compile(node: Node): Compiled {
  const def = node._zod.def;
  // A format schema (z.iso.datetime(), z.int()) is its own first check, as zod runs it.
  const checks = node._zod.traits.has('$ZodCheck')
    ? [node as unknown as Check, ...(def.checks ?? [])]
    : def.checks;
  const own = leafOf(def, checks ?? []) ?? withChecks(checks ?? [], typeOf(node, def));
  return own ?? byZod(node);
}

/**
 * A string, number or boolean whose checks are all plain (bounds, lengths, `.refine(fn)`), as one
 * generated function with the bounds written in: a function of its own per node, so V8 sees one
 * kind of value at each of its comparisons and calls (closures from one factory share that
 * feedback, and a check shared by every number of a schema is slow for all of them).
 */
function leafOf(def: Def, checks: Check[]): Compiled | undefined {
  const base = {
    string: "typeof v === 'string'",
    number: 'typeof v === "number" && Number.isFinite(v)',
    boolean: "typeof v === 'boolean'",
  }[def.type];
  if (base === undefined || def.coerce) return undefined;
  const tests = [base];
  const fns: unknown[] = [];
  for (const c of checks) {
    const d = c._zod.def;
    const value = String(d.value);
    // A bound that is not a finite number (a date's, a bigint's) is left to the general path.
    if ((d.check === 'greater_than' || d.check === 'less_than') && !Number.isFinite(d.value))
      return undefined;
    if (d.check === 'greater_than') tests.push(`v ${d.inclusive ? '>=' : '>'} ${value}`);
    else if (d.check === 'less_than') tests.push(`v ${d.inclusive ? '<=' : '<'} ${value}`);
    else if (d.check === 'number_format' && d.format === 'safeint') tests.push('Number.isSafeInteger(v)');
    else if (d.check === 'min_length') tests.push(`v.length >= ${Number(d.minimum)}`);
    else if (d.check === 'max_length') tests.push(`v.length <= ${Number(d.maximum)}`);
    else if (d.check === 'custom' && typeof d.fn === 'function' && d.when === undefined) {
      tests.push(`(ok = fns[${fns.length}](v)) && !(ok instanceof Promise)`);
      fns.push(d.fn);
    } else return undefined;
  }
  return new Function('fns', 'MISS', `return (v) => { let ok; return ${tests.join(' && ')} ? v : MISS; };`)(
    fns,
    MISS,
  );
}

/** The node's own type test and conversion, or undefined to leave the node to zod. */
function typeOf(node: Node, def: Def): Compiled | undefined {
  switch (def.type) {
    case 'string':
      return def.coerce ? undefined : (v) => (typeof v === 'string' ? v : MISS);
    case 'number':
      return def.coerce ? undefined : (v) => (typeof v === 'number' && Number.isFinite(v) ? v : MISS);
    case 'boolean':
      return def.coerce ? undefined : (v) => (typeof v === 'boolean' ? v : MISS);
    case 'unknown':
    case 'any':
      return (v) => v;
    case 'null':
      return (v) => (v === null ? v : MISS);
    case 'literal':
      return (v) => (def.values!.includes(v) ? v : MISS);
    case 'enum': {
      const values = Object.values(def.entries!);
      return (v) => (values.includes(v) ? v : MISS);
    }
    case 'optional': {
      if (def.innerType!._zod.optin === 'optional') return undefined;
      const inner = compile(def.innerType!);
      return (v) => (v === undefined ? v : inner(v));
    }
    case 'nullable': {
      const inner = compile(def.innerType!);
      return (v) => (v === null ? v : inner(v));
    }
    case 'default': {
      const inner = compile(def.innerType!);
      // defaultValue is a getter that hands out a fresh copy of an object (a primitive is itself),
      // unless the default is a function that returns one value every time (a frozen empty list).
      const sample = def.defaultValue;
      const fresh = sample !== null && typeof sample === 'object' && sample !== def.defaultValue;
      const fallback = fresh ? () => def.defaultValue : () => sample;
      return (v) => {
        if (v === undefined) return fallback();
        const out = inner(v);
        return out === undefined ? fallback() : out;
      };
    }
    case 'pipe': {
      const first = compile(def.in!);
      const then = compile(def.out!);
      return (v) => {
        const mid = first(v);
        return mid === MISS ? MISS : then(mid);
      };
    }
    case 'transform': {
      const transform = def.transform!;
      // A transform that takes no context (most) cannot add an issue: no payload to build for it.
      if (transform.length < 2)
        return (v) => {
          const out = (transform as (v: unknown) => unknown)(v);
          return out instanceof Promise ? MISS : out;
        };
      return (v) => {
        const payload: Payload = { value: v, issues: [] };
        const out = transform(v, payload);
        return payload.issues.length > 0 || out instanceof Promise ? MISS : out;
      };
    }
    case 'array':
      return arrayOf(compile(def.element!));
    case 'tuple':
      return def.rest ? undefined : tupleOf(def.items!.map(compile));
    case 'record':
      return def.keyType!._zod.def.type === 'string' && !def.mode
        ? recordOf(compile(def.keyType!), compile(def.valueType!))
        : undefined;
    case 'union':
      return def.inclusive === false || def.discriminator !== undefined
        ? undefined
        : unionOf(def.options!.map(compile));
    case 'object':
      return objectOf(def, node);
    default:
      return undefined;
  }
}

/** A node zod must run itself: same answer, at zod's speed. */
function byZod(node: Node): Compiled {
  return (v) => {
    const r = node.safeParse(v);
    return r.success ? r.data : MISS;
  };
}

/** An array, generated per node as leafOf's functions are; see mapped for what it returns. */
function arrayOf(element: Compiled): Compiled {
  return new Function(
    'element',
    'MISS',
    `return (v) => {
      if (!Array.isArray(v)) return MISS;
      let out;
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        const e = element(x);
        if (e === MISS) return MISS;
        if (out !== undefined) out[i] = e;
        else if (e !== x) { out = v.slice(0, i); out[i] = e; }
      }
      return out ?? v;
    };`,
  )(element, MISS);
}

function tupleOf(items: Compiled[]): Compiled {
  return (v) => (Array.isArray(v) && v.length === items.length ? mapped(v, items) : MISS);
}

/**
 * The array of each item's parse; the input array itself when every element comes out unchanged
 * (numbers, strings), so a NUMA cell's CPU lists are not copied only to be collected.
 */
function mapped(v: unknown[], items: Compiled[]): unknown {
  let out: unknown[] | undefined;
  for (let i = 0; i < v.length; i++) {
    const e = items[i](v[i]);
    if (e === MISS) return MISS;
    if (out !== undefined) out[i] = e;
    else if (e !== v[i]) {
      out = v.slice(0, i);
      out[i] = e;
    }
  }
  return out ?? v;
}

function recordOf(key: Compiled, value: Compiled): Compiled {
  return (v) => {
    if (!isPlainObject(v)) return MISS;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      const outKey = k === '__proto__' ? MISS : key(k);
      if (outKey === MISS || outKey === '__proto__') return MISS;
      const parsed = value(v[k]);
      if (parsed === MISS) return MISS;
      out[outKey as string] = parsed;
    }
    return out;
  };
}

function unionOf(options: Compiled[]): Compiled {
  return (v) => {
    for (const option of options) {
      const out = option(v);
      if (out !== MISS) return out;
    }
    return MISS;
  };
}

/**
 * An object as zod builds it: the shape's keys in shape order, then (loose) the unknown ones. The
 * function is generated, as zod's own objects are, so each key is a literal property access.
 */
function objectOf(def: Def, node: Node): Compiled | undefined {
  const catchall = def.catchall?._zod.def.type;
  if (catchall !== undefined && catchall !== 'unknown') return undefined;
  const keys = Object.keys(def.shape!);
  if (keys.includes('__proto__')) return byZod(node);
  const parsers = keys.map((key) => compile(def.shape![key]));
  const body = keys.map((key, i) => {
    const { optin, optout } = def.shape![key]._zod;
    const k = JSON.stringify(key);
    // As zod: an absent optional key stays absent, an absent required one is an error, and an
    // undefined result is kept only for a present key or a default that may be undefined.
    const absent =
      optin === 'optional' && optout === 'optional' ? '' : optin === undefined ? 'return MISS;' : null;
    const keepUndefined = optin === 'defaulted' && optout !== 'optional';
    const store = `x = p${i}(x); if (x === MISS) return MISS;
      ${keepUndefined ? '' : `if (x !== undefined || ${k} in v)`} out[${k}] = x;`;
    return absent === null
      ? `x = v[${k}]; ${store}`
      : `x = v[${k}]; if (x === undefined && !(${k} in v)) { ${absent} } else { ${store} }`;
  });
  const rest =
    catchall === undefined
      ? ''
      : 'for (const k in v) if (!known.has(k)) { if (k === "__proto__") return MISS; out[k] = v[k]; }';
  const build = new Function(
    'p',
    'MISS',
    'isPlainObject',
    'known',
    `${keys.map((_, i) => `const p${i} = p[${i}];`).join(' ')}
    return (v) => { if (!isPlainObject(v)) return MISS; const out = {}; let x;
      ${body.join('\n')}
      ${rest}
      return out; };`,
  );
  return build(parsers, MISS, isPlainObject, new Set(keys));
}

/** `type` followed by the node's checks: bounds and lengths inline, any other check as zod runs it. */
function withChecks(checks: Check[], type: Compiled | undefined): Compiled | undefined {
  if (type === undefined || checks.length === 0) return type;
  const range = rangeOf(checks);
  const rest = checks.filter((c) => !inRange(c)).map((c) => inlineCheck(c) ?? zodCheck(c));
  const test = (v: unknown) =>
    typeof v !== 'number'
      ? true
      : v >= range.min && v <= range.max && v !== range.notMin && (!range.int || Number.isSafeInteger(v));
  return (v) => {
    let out = type(v);
    if (out === MISS || !test(out)) return MISS;
    for (let i = 0; i < rest.length && out !== MISS; i++) out = rest[i](out);
    return out;
  };
}

const inRange = (c: Check) =>
  c._zod.def.check === 'greater_than' ||
  c._zod.def.check === 'less_than' ||
  (c._zod.def.check === 'number_format' && c._zod.def.format === 'safeint');

/** A number's bounds from its checks (an exclusive minimum such as `.positive()` as `notMin`). */
function rangeOf(checks: Check[]) {
  const range = { min: -Infinity, max: Infinity, notMin: Number.NaN, int: false };
  for (const c of checks) {
    const d = c._zod.def;
    const value = d.value as number;
    if (d.check === 'number_format' && d.format === 'safeint') range.int = true;
    else if (d.check === 'greater_than' && value >= range.min) {
      range.min = value;
      range.notMin = d.inclusive ? Number.NaN : value;
    } else if (d.check === 'less_than' && !d.inclusive) return { ...range, max: Number.NaN };
    else if (d.check === 'less_than') range.max = Math.min(range.max, value);
  }
  return range;
}

/** Zod's own run of one check: the value it leaves, or MISS when the check raised an issue. */
function zodCheck(check: Check): Compiled {
  return (value) => {
    const payload: Payload = { value, issues: [] };
    const when = check._zod.def.when;
    if (when && !when(payload)) return value;
    const r = check._zod.check(payload);
    return payload.issues.length > 0 || r instanceof Promise ? MISS : payload.value;
  };
}

/** Lengths and plain refinements (`.refine(fn)`) as direct calls. */
function inlineCheck(check: Check): Compiled | undefined {
  const d = check._zod.def;
  if (d.check === 'min_length') {
    const min = d.minimum as number;
    return (v) => ((v as { length: number }).length >= min ? v : MISS);
  }
  if (d.check === 'max_length') {
    const max = d.maximum as number;
    return (v) => ((v as { length: number }).length <= max ? v : MISS);
  }
  if (d.check === 'custom' && typeof d.fn === 'function' && d.when === undefined) {
    const fn = d.fn as (v: unknown) => unknown;
    return (v) => {
      const ok = fn(v);
      return ok && !(ok instanceof Promise) ? v : MISS;
    };
  }
  return undefined;
}

/** What JSON.parse makes of an object (zod decides anything else). */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
