import type { Decided } from './decide.js';
import { EXIT } from './exitCodes.js';
import { terminalSafe } from './format.js';
import type { CliIO } from './io.js';
import { writeDecisionJson } from './jsonOutput.js';
import { formatDecision } from './textOutput.js';

/** Prints a decision (JSON or readable) to stdout and returns the exit status it implies. */
export function printDecision({ decision, spec }: Decided, json: boolean, io: CliIO): number {
  if (json) {
    // In UTF-8 pieces as it is built: over 20k hosts the text is 3.8 MB.
    writeDecisionJson(decision, spec.num_instances, (chunk) => io.stdout.write(chunk));
    io.stdout.write('\n');
  } else io.stdout.write(terminalSafe(formatDecision(decision, spec)));
  return decision.error ? EXIT.noValidHost : EXIT.placed;
}
