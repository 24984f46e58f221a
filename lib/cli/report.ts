import type { Decided } from './decide.js';
import { EXIT } from './exitCodes.js';
import { terminalSafe } from './format.js';
import type { CliIO } from './io.js';
import { decisionJson } from './jsonOutput.js';
import { formatDecision } from './textOutput.js';

/** Prints a decision (JSON or readable) to stdout and returns the exit status it implies. */
export function printDecision({ decision, spec }: Decided, json: boolean, io: CliIO): number {
  io.stdout.write(
    json
      ? `${JSON.stringify(decisionJson(decision, spec.num_instances), null, 2)}\n`
      : terminalSafe(formatDecision(decision, spec)),
  );
  return decision.error ? EXIT.noValidHost : EXIT.placed;
}
