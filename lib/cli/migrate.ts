/**
 * `placid migrate --instance UUID --to HOST`: one live migration through the same state machine the
 * cloud runs (the definition the build emits from the CDK stack), locally. Drivers are simulated over
 * the VM's stored report unless `--endpoints FILE` names real Nova/Kubernetes/Consul credentials.
 * Leases and the migration record live in the local store. `--dry-run` takes the leases, runs the
 * re-check and gives the leases back.
 */
import { existsSync } from 'node:fs';
import { type Command, InvalidArgumentError } from '@commander-js/extra-typings';
import type { LocalMigration } from '../local/localMigration.js';
import type { WorkflowRun } from '../local/workflowRunner.js';
import { InputError } from './errors.js';
import { terminalSafe } from './format.js';
import { DATA_DIR_HELP } from './ingest.js';
import type { CliIO } from './io.js';
import { ENDPOINTS_HELP, SETTINGS_HELP, TEMPLATE_HELP, type WorkflowFiles } from './workflowOptions.js';

export interface MigrateArgs extends WorkflowFiles {
  instance: string;
  to: string;
  dryRun?: boolean;
  dataDir?: string;
  seed?: number;
  failureRate?: number;
  skipPlacementCheck?: boolean;
  json?: boolean;
}

export const MIGRATE_EXIT = { migrated: 0, deferred: 1, badInput: 2, internalError: 3, failed: 4 } as const;

const MIGRATE_EXIT_HELP = `
Exit status:
  0  migrated (with --dry-run: leases free and the re-check passed)
  1  deferred: the VM is locked, a slot is busy, a blackout window is open, the VM moved, or the
     destination no longer fits (nothing was changed)
  2  bad input: unknown instance, no store at --data-dir, unreadable --endpoints/--settings/--template
  3  internal error
  4  the migration failed and was rolled back (node undrained, leases released, failure recorded)`;

export async function runMigrateCommand(args: MigrateArgs, io: CliIO): Promise<number> {
  if (args.dataDir && !existsSync(args.dataDir)) {
    throw new InputError(`no local fleet store at ${args.dataDir}: run \`placid ingest FILE\` first`);
  }
  const { openLocalMigration } = await import('../local/localMigration.js');
  const context = await openLocalMigration(args);
  try {
    if (args.dryRun) return await dryRun(context, args, io);
    const [{ runWorkflow }, { workflowDefinition }] = await Promise.all([
      import('../local/workflowRunner.js'),
      import('../local/workflowDefinition.js'),
    ]);
    // A missing or bad definition is a WorkflowDefinitionError: exit status 2, as for detect and serve.
    const definition = workflowDefinition(args.template);
    const run = await runWorkflow({
      deps: context.deps,
      input: context.migration,
      executionName: context.migration.migration_id,
      instant: context.simulated,
      beforeStep: context.beforeStep,
      definition,
    });
    return report(run, context, args, io);
  } finally {
    await context.close();
  }
}

async function dryRun(context: LocalMigration, args: MigrateArgs, io: CliIO): Promise<number> {
  const { acquireLeases } = await import('../workflow/steps/acquireLeases.js');
  const { checkPlan } = await import('../workflow/steps/checkPlan.js');
  const { recheck } = await import('../workflow/steps/recheck.js');
  const { releaseLeases } = await import('../workflow/steps/releaseLeases.js');
  const state = {
    migration: context.migration,
    execution_started_at: new Date(context.deps.clock.now()).toISOString(),
  };
  try {
    const leases = await acquireLeases(state, context.deps);
    try {
      const planCheck = await checkPlan({ ...state, leases }, context.deps);
      const checked = await recheck({ ...state, leases, plan_check: planCheck }, context.deps);
      write(
        io,
        args,
        { dry_run: true, ok: true, leases: leases.names, recheck: checked },
        () =>
          `dry run: ${describe(context)} could start now (leases ${leases.names.length}, re-check passed)\n`,
      );
      return MIGRATE_EXIT.migrated;
    } finally {
      await releaseLeases({ ...state, leases }, context.deps);
    }
  } catch (error) {
    const name = (error as Error).name;
    const { isDeferral } = await import('../workflow/errors.js');
    if (!isDeferral(name)) throw error;
    write(
      io,
      args,
      { dry_run: true, ok: false, error: name, cause: (error as Error).message },
      () => `dry run: ${describe(context)} would be deferred: ${(error as Error).message}\n`,
    );
    return MIGRATE_EXIT.deferred;
  }
}

function report(run: WorkflowRun, context: LocalMigration, args: MigrateArgs, io: CliIO): number {
  const deferred = run.status === 'SUCCEEDED' && run.output?.rollback !== undefined;
  write(io, args, run, () => {
    if (run.status === 'FAILED') return `failed: ${describe(context)}: ${run.error}: ${run.cause}\n`;
    if (deferred) {
      const failure = run.output?.failure;
      return `deferred: ${describe(context)}: ${failure?.Error}: ${failure?.Cause}\n`;
    }
    const outcome = run.output?.outcome as { duration_seconds?: number; bytes?: number } | undefined;
    const gib = ((outcome?.bytes ?? 0) / 2 ** 30).toFixed(1);
    const clock = context.simulated ? ' (simulated time)' : '';
    return `migrated: ${describe(context)} in ${outcome?.duration_seconds ?? '?'} s${clock}, ${gib} GiB\n`;
  });
  if (run.status === 'FAILED') return MIGRATE_EXIT.failed;
  return deferred ? MIGRATE_EXIT.deferred : MIGRATE_EXIT.migrated;
}

function describe(context: LocalMigration): string {
  const m = context.migration;
  return `${m.instance_uuid} ${m.source_host} -> ${m.dest_host}`;
}

function write(io: CliIO, args: MigrateArgs, json: unknown, text: () => string): void {
  io.stdout.write(args.json ? `${JSON.stringify(json, null, 2)}\n` : terminalSafe(text()));
}

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

function rate(value: string): number {
  const n = Number(value);
  if (!(Number.isFinite(n) && n >= 0 && n <= 1))
    throw new InvalidArgumentError('must be a number from 0 to 1');
  return n;
}

export function addMigrateCommand(program: Command, io: CliIO, done: (status: number) => void): void {
  program
    .command('migrate')
    .description('live-migrate one instance through the migration workflow, locally')
    .requiredOption('--instance <uuid>', 'the instance to move (its report must be in the local store)')
    .requiredOption('--to <host>', 'the destination compute host')
    .option('--dry-run', 'take the leases and run the re-check only, then give the leases back')
    .option('--data-dir <dir>', `the local store (default: ${DATA_DIR_HELP})`)
    .option('--endpoints <file>', ENDPOINTS_HELP)
    .option('--settings <file>', SETTINGS_HELP)
    .option('--template <file>', TEMPLATE_HELP)
    .option('--seed <n>', 'simulation: seed of the failure draws (default 1)', wholeNumber)
    .option(
      '--failure-rate <r>',
      'simulation: share of Nova calls and migrations that fail (default 0)',
      rate,
    )
    .option('--skip-placement-check', 'do not re-check the destination against the stored fleet')
    .option('--json', 'print the execution result as JSON')
    .addHelpText('after', MIGRATE_EXIT_HELP)
    .action(async (opts) => done(await runMigrateCommand(opts, io)));
}
