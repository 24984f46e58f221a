import { decisionJson } from '../engine/decisionJson.js';
import type { Decided } from './decide.js';
import { EXIT } from './exitCodes.js';
import { terminalSafe } from './format.js';
import type { CliIO } from './io.js';
import { formatDecision } from './textOutput.js';

/** Prints a decision (JSON or readable) to stdout and returns the exit status it implies. */
export function printDecision({ decision, spec }: Decided, json: boolean, io: CliIO): number {
  if (json) io.stdout.write(`${JSON.stringify(decisionJson(decision, spec.num_instances), null, 2)}\n`);
  else io.stdout.write(terminalSafe(formatDecision(decision, spec)));
  return decision.error ? EXIT.noValidHost : EXIT.placed;
}
