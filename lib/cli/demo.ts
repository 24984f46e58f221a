import { join } from 'node:path';
import type { Command } from '@commander-js/extra-typings';
import { packageRoot } from '../config/packageRoot.js';
import { EXIT_STATUS_HELP } from './exitCodes.js';
import type { CliIO } from './io.js';

/** The sample fleet, request and nova.conf shipped in examples/. */
export function exampleInputs(root = packageRoot()) {
  const dir = join(root, 'examples');
  return {
    dir,
    hosts: join(dir, 'hosts.json'),
    request: join(dir, 'request.json'),
    config: join(dir, 'nova.conf'),
  };
}

/** `placid demo`: an explained placement over the bundled sample fleet. */
export async function runDemo(args: { json?: boolean }, io: CliIO): Promise<number> {
  const inputs = exampleInputs();
  const [{ decide }, { printDecision }] = await Promise.all([import('./decide.js'), import('./report.js')]);
  const decided = await decide(inputs);
  if (!args.json) {
    io.stdout.write(
      `Demo: placing ${inputs.request}\n  on the ${decided.hosts.length} hosts of ${inputs.hosts}\n` +
        `  with ${inputs.config}\n  (try: placid schedule --hosts … --request … --config …)\n\n`,
    );
  }
  const status = printDecision(decided, args.json ?? false, io);
  return status;
}

export function addDemoCommand(program: Command, io: CliIO, done: (status: number) => void): void {
  program
    .command('demo')
    .description(
      'explain a placement over the sample fleet in examples/ (hosts.json, request.json, nova.conf)',
    )
    .option('--json', 'print the decision as JSON instead')
    .addHelpText('after', EXIT_STATUS_HELP)
    .action(async (opts) => done(await runDemo(opts, io)));
}
