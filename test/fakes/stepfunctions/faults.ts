/**
 * The errors the fake answers with, named as Step Functions names them: the SDK turns `__type`
 * into the thrown error's `name`, which callers branch on (`ExecutionAlreadyExists`,
 * `TaskTimedOut`). Every one of them is an HTTP 400 in the service's API reference.
 */

export type FaultType =
  | 'SerializationException'
  | 'UnknownOperationException'
  | 'ValidationException'
  | 'InvalidArn'
  | 'InvalidName'
  | 'InvalidToken'
  | 'InvalidOutput'
  | 'InvalidExecutionInput'
  | 'ActivityDoesNotExist'
  | 'StateMachineDoesNotExist'
  | 'ExecutionDoesNotExist'
  | 'ExecutionAlreadyExists'
  | 'TaskDoesNotExist'
  | 'TaskTimedOut';

export class SfnFault extends Error {
  readonly status = 400;
  constructor(
    readonly type: FaultType,
    message: string,
  ) {
    super(message);
    this.name = type;
  }
}

/** A request body: the JSON object the SDK sends. */
export type Body = Record<string, unknown>;

/** The string member `field`, or ValidationException (what the service answers for a missing member). */
export function required(body: Body, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '') {
    throw new SfnFault(
      'ValidationException',
      `1 validation error detected: Value at '${field}' failed to satisfy constraint: Member must not be null`,
    );
  }
  return value;
}

export function optional(body: Body, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new SfnFault('SerializationException', `${field} must be a string`);
  return value;
}

const ARN =
  /^arn:aws[a-z-]*:states:[a-z0-9-]+:\d{12}:(activity|stateMachine|execution):([^:]+)(?::([^:]+))?$/;

/** The resource name in a Step Functions ARN of `kind`, or InvalidArn. */
export function arnName(arn: string, kind: 'activity' | 'stateMachine' | 'execution'): string {
  const match = ARN.exec(arn);
  const wellFormed = match && match[1] === kind && (kind === 'execution') === (match[3] !== undefined);
  if (!match || !wellFormed)
    throw new SfnFault('InvalidArn', `Invalid Arn: 'Resource type not valid in this context: ${arn}'`);
  return match[3] ?? match[2];
}

// What an execution name may not contain: whitespace, brackets, wildcards, these specials, controls.
const NOT_IN_NAME = /[\s<>{}[\]?*"#%\\^|~`$&,;:/]/;
const isControl = (c: string) => {
  const code = c.codePointAt(0) ?? 0;
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f);
};

export function checkName(name: string): string {
  if (name.length < 1 || name.length > 80 || NOT_IN_NAME.test(name) || [...name].some(isControl)) {
    throw new SfnFault('InvalidName', `Invalid Name: '${name}'`);
  }
  return name;
}
