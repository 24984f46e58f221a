/**
 * `placid simulate`: the end-to-end noisy-neighbour simulation (what `npm start` runs). A scenario
 * (the built-in default, or --scenario FILE) runs without and with Placid; the terminal summary goes
 * to stdout (or the whole result as JSON with --json) and the HTML report to a file whose path is
 * printed. Progress goes to stderr.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type Command, InvalidArgumentError } from '@commander-js/extra-typings';
import { dirProblem } from '../local/dirProblem.js';
import type { SimulationResult } from '../sim/result.js';
import { InputError } from './errors.js';
import type { CliIO } from './io.js';

export interface SimulateArgs {
  scenario?: string;
  seed?: number;
  out?: string;
  json?: boolean;
  /** False with --no-html. */
  html?: boolean;
  /** Print wall and CPU time per phase on stderr. */
  timing?: boolean;
}

export const SIMULATE_EXIT = { ok: 0, violation: 1, badScenario: 2, internalError: 3 } as const;

const SIMULATE_EXIT_HELP = `
Exit status:
  0  the simulation ran and no hard constraint was broken
  1  a hard constraint (capacity, zone, role limit, concurrency, bandwidth, blackout, cooldown)
     was broken: the summary lists each violation
  2  bad scenario or usage: the file and the field are named
  3  internal error (a bug in placid; the stack trace is printed)`;

export async function runSimulateCommand(args: SimulateArgs, io: CliIO): Promise<number> {
  const [{ loadScenario, parseScenario }, { runSimulation }, { progressReporter }] = await Promise.all([
    import('../sim/scenario.js'),
    import('../sim/simulate.js'),
    import('../sim/progress.js'),
  ]);
  const loaded = args.scenario
    ? await loadScenario(args.scenario)
    : parseScenario({}, 'the default scenario');
  const scenario = args.seed === undefined ? loaded : { ...loaded, seed: args.seed };
  const outDir = args.out ?? 'placid-report';
  // Checked before the run: a day's simulation should not end in "cannot write the report".
  if (args.html !== false) await makeOutDir(outDir);
  const progress = progressReporter(io.stderr as Parameters<typeof progressReporter>[0]);
  let output: Awaited<ReturnType<typeof runSimulation>>;
  try {
    output = await runSimulation(scenario, { onProgress: progress.update });
  } finally {
    progress.done();
  }
  const { result, timer } = output;
  const htmlPath = args.html === false ? undefined : await writeHtml(result, outDir);
  if (args.json) {
    io.stdout.write(`${JSON.stringify(result)}\n`);
    if (htmlPath) io.stderr.write(`placid simulate: HTML report ${htmlPath}\n`);
  } else {
    const { renderSimulationText } = await import('../sim/report/text.js');
    const color = Boolean((io.stdout as { isTTY?: boolean }).isTTY);
    io.stdout.write(renderSimulationText(result, { color }));
    if (htmlPath) io.stdout.write(`\nHTML report: ${htmlPath}\n`);
  }
  if (args.timing) io.stderr.write(`${timer.summary().join('\n')}\n`);
  return simulationExitStatus(result);
}

/** 1 when either run broke a hard constraint, else 0. */
export function simulationExitStatus(result: Pick<SimulationResult, 'runs'>): number {
  const broken = result.runs.placid.violations.length + result.runs.baseline.violations.length;
  return broken > 0 ? SIMULATE_EXIT.violation : SIMULATE_EXIT.ok;
}

/**
 * `placid-simulation-<scenario>-<seed>.html`: named by scenario as well as seed, so two scenarios run
 * with the same seed (the default and examples' small one both use seed 1) keep their own reports.
 * Characters a file name cannot safely hold become `-`.
 */
export function reportFileName(scenario: Pick<SimulationResult['scenario'], 'name' | 'seed'>): string {
  const name = scenario.name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '') || 'scenario';
  return `placid-simulation-${name}-${scenario.seed}.html`;
}

async function writeHtml(result: SimulationResult, dir: string): Promise<string> {
  const { renderSimulationHtml } = await import('../sim/report/html.js');
  const path = resolve(join(dir, reportFileName(result.scenario)));
  await writeFile(path, renderSimulationHtml(result));
  return path;
}

/** Creates the report directory, or says in one line why it cannot be (exit 2). */
async function makeOutDir(dir: string): Promise<void> {
  try {
    await mkdir(resolve(dir), { recursive: true });
  } catch (error) {
    const problem = dirProblem(error);
    if (!problem) throw error;
    throw new InputError(`--out ${dir}: cannot hold the HTML report: ${problem}`, { cause: error });
  }
}

function seedValue(value: string): number {
  const n = Number(value);
  if (!(Number.isInteger(n) && n >= 0 && n <= 0xffffffff)) {
    throw new InvalidArgumentError('must be a whole number from 0 to 4294967295');
  }
  return n;
}

export function addSimulateCommand(program: Command, io: CliIO, done: (status: number) => void): void {
  program
    .command('simulate')
    .description(
      'simulate a fleet with noisy neighbours for a day, without and with Placid (the real pipeline on local stand-ins), and compare',
    )
    .option(
      '--scenario <file>',
      'scenario in YAML or JSON (see examples/scenarios/); the built-in default when omitted',
    )
    .option(
      '--seed <n>',
      "override the scenario's seed (the same seed always gives the same result)",
      seedValue,
    )
    .option('--out <dir>', 'where the HTML report is written', 'placid-report')
    .option('--json', 'print the whole result as JSON instead of the summary')
    .option('--no-html', 'do not write the HTML report')
    .option('--timing', 'print where the time went (wall and CPU per phase) on stderr')
    .addHelpText('after', SIMULATE_EXIT_HELP)
    .action(async (opts) => done(await runSimulateCommand(opts, io)));
}
