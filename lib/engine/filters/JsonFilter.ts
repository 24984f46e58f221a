import { RequestError } from '../../model/errors.js';
import { type HostState, hostAttribute } from '../../model/hostState.js';
import { schedulerHint } from '../../model/requestSpec.js';
import { defineFilter, PASS, PASS_ALL, reject } from '../filter.js';
import {
  isPyDict,
  PyIPAddress,
  PythonError,
  pyCompare,
  pyEquals,
  pyTruthy,
  pythonRepr,
  UnorderableError,
} from '../pyValues.js';

/** A compiled node: its value for a host; undefined stands for Python's None (the argument is dropped). */
type Evaluator = (host: HostState) => unknown;

interface State {
  query: string;
  evaluate: Evaluator;
  /** The `$variables` the query reads, for explanations. */
  variables: Map<string, Evaluator>;
}

const QUERY_UNMET = reject<State>((host, _spec, state) => {
  const values = [...state.variables].map(
    ([name, resolve]) => `${name}=${pythonRepr(evaluate(host, state, resolve))}`,
  );
  const seen = values.length > 0 ? ` (with ${values.join(', ')})` : '';
  return `host ${host.host} does not satisfy the JsonFilter query ${state.query}${seen}`;
});

/**
 * Nova's JsonFilter: the scheduler hint `query` is a JSON expression such as
 * `["and", [">=", "$free_ram_mb", 1024], ["in", "$hypervisor_type", "QEMU", "kvm"]]` evaluated per
 * host with Python semantics. `$name.key` reads a host attribute then dict keys; a variable that
 * resolves to nothing is dropped from its operator's arguments, not treated as false.
 */
export const JsonFilter = defineFilter<State>({
  name: 'JsonFilter',
  prepare: (spec) => {
    const query = schedulerHint(spec, 'query');
    if (!query || query.length === 0) return PASS_ALL;
    if (Array.isArray(query)) {
      throw new RequestError(`scheduler hint 'query' must be one JSON string, got ${query.length} values`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(query);
    } catch (err) {
      throw new RequestError(`JsonFilter query ${query} is not valid JSON: ${(err as Error).message}`);
    }
    if (!pyTruthy(parsed)) return PASS_ALL; // an empty expression is true for every host
    if (!Array.isArray(parsed)) {
      throw new RequestError(
        `JsonFilter query ${query} must be a JSON list such as [">=", "$free_ram_mb", 1024]`,
      );
    }
    const variables = new Map<string, Evaluator>();
    return { query, evaluate: compileNode(parsed, query, variables), variables };
  },
  check: (host, _spec, state) => {
    const result = evaluate(host, state);
    return (Array.isArray(result) ? result.some(pyTruthy) : pyTruthy(result)) ? PASS : QUERY_UNMET;
  },
});

function evaluate(host: HostState, state: State, evaluator: Evaluator = state.evaluate): unknown {
  try {
    return evaluator(host);
  } catch (err) {
    if (!(err instanceof PythonError)) throw err;
    throw new RequestError(
      `JsonFilter query ${state.query} cannot be evaluated on host ${host.host}: ${err.message}${statsHint(err)}`,
    );
  }
}

/** Comparing a string with a number is the usual mistake: the query forgot that stats are strings. */
function statsHint(err: PythonError): string {
  const withString =
    err instanceof UnorderableError && (typeof err.left === 'string' || typeof err.right === 'string');
  return withString ? '; note that host stats values are strings' : '';
}

/** An operator over its arguments' values (arguments that are None dropped, as in Nova). */
type Operator = (args: readonly unknown[]) => unknown;

/** First argument against each of the others; fewer than two arguments is false. All are compared, as in Nova. */
function eachAgainstFirst(test: (a: unknown, b: unknown) => boolean): Operator {
  return (args) => {
    let ok = args.length >= 2;
    for (let i = 1; i < args.length; i++) if (!test(args[0], args[i])) ok = false;
    return ok;
  };
}

const ordered = (op: string, holds: (c: number) => boolean) =>
  eachAgainstFirst((a, b) => holds(pyCompare(a, b, op)));

const OPERATORS: ReadonlyMap<string, Operator> = new Map<string, Operator>([
  ['=', eachAgainstFirst(pyEquals)],
  ['<', ordered('<', (c) => c < 0)],
  ['>', ordered('>', (c) => c > 0)],
  ['<=', ordered('<=', (c) => c <= 0)],
  ['>=', ordered('>=', (c) => c >= 0)],
  ['in', (args) => args.slice(1).some((x) => pyEquals(args[0], x))],
  ['not', (args) => args.map((a) => !pyTruthy(a))], // a list, and [] is false
  ['or', (args) => args.some(pyTruthy)],
  ['and', (args) => args.every(pyTruthy)],
]);

function compileNode(node: unknown[], query: string, variables: Map<string, Evaluator>): Evaluator {
  if (node.length === 0) return () => true;
  const op = typeof node[0] === 'string' ? OPERATORS.get(node[0]) : undefined;
  if (!op) {
    throw new RequestError(
      `JsonFilter query ${query} uses unknown operator ${JSON.stringify(node[0])}; known: ${[...OPERATORS.keys()].join(' ')}`,
    );
  }
  const args = node.slice(1).map((a) => compileArg(a, query, variables));
  return (host) => op(args.map((arg) => arg(host)).filter((v) => v !== undefined));
}

function compileArg(arg: unknown, query: string, variables: Map<string, Evaluator>): Evaluator {
  if (Array.isArray(arg)) return compileNode(arg, query, variables);
  if (arg === null || arg === '') return () => undefined;
  if (typeof arg !== 'string' || !arg.startsWith('$')) return () => arg;
  const resolve = variable(arg);
  variables.set(arg, resolve);
  return resolve;
}

/** `$a.b.c`: host attribute `a`, then `.get('b')`, `.get('c')`; None at any step drops the argument. */
function variable(name: string): Evaluator {
  const [first, ...keys] = name.slice(1).split('.');
  return (host) => {
    let value: unknown =
      first === 'host_ip' && host.host_ip ? new PyIPAddress(host.host_ip) : hostAttribute(host, first);
    for (let i = 0; i < keys.length && value != null; i++) {
      if (!isPyDict(value))
        throw new PythonError(`${name}: ${pythonRepr(value)} has no key '${keys[i]}' (not a dictionary)`);
      value = Object.hasOwn(value, keys[i]) ? value[keys[i]] : undefined;
    }
    return value ?? undefined;
  };
}
