import { Command } from '@commander-js/extra-typings';
import { addAgentCommand } from './agent.js';
import { addApproveCommand } from './approve.js';
import { addCleanupCommand } from './cleanup.js';
import { addCollectCommand } from './collect.js';
import { addDemoCommand } from './demo.js';
import { addDetectCommand } from './detect.js';
import { refuseEmptyDataDir } from './errors.js';
import { PROGRAM_EXIT_STATUS_HELP } from './exitCodes.js';
import { addFleetCommand } from './fleet.js';
import { terminalSafe } from './format.js';
import { addIngestCommand } from './ingest.js';
import type { CliIO } from './io.js';
import { addMigrateCommand } from './migrate.js';
import { addPlanCommand } from './plan.js';
import { addPlansCommand } from './plans.js';
import { addScheduleCommand } from './schedule.js';
import { addServeCommand } from './serve.js';
import { addSimulateCommand } from './simulate.js';
import { placidVersion } from './version.js';

/** Commander's messages on one line ("placid: …"), like every other error placid prints. */
export function oneLine(text: string): string {
  return text
    .replace(/^error: /, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/**
 * The `placid` command tree. Commander never exits the process (exitOverride): usage errors become
 * exceptions that main() turns into exit status 2. `done` receives a command's exit status.
 */
export function buildProgram(io: CliIO, done: (status: number) => void): Command {
  const program = new Command()
    .name('placid')
    .description('Nova-compatible VM placement that explains its decisions')
    .version(placidVersion(), '-V, --version', "print placid's version")
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(terminalSafe(`placid: ${oneLine(s)}\n`)),
    })
    .addHelpText('after', PROGRAM_EXIT_STATUS_HELP)
    // Every store command: an empty --data-dir (an unset variable) must not mean "in memory".
    .hook('preAction', (_, command) => refuseEmptyDataDir(command.opts()));
  addScheduleCommand(program, io, done);
  addDemoCommand(program, io, done);
  addIngestCommand(program, io, done);
  addFleetCommand(program, io, done);
  addCollectCommand(program, io, done);
  addPlanCommand(program, io, done);
  addMigrateCommand(program, io, done);
  addDetectCommand(program, io, done);
  addApproveCommand(program, io, done);
  addPlansCommand(program, io, done);
  addSimulateCommand(program, io, done);
  addServeCommand(program, io, done);
  addAgentCommand(program, io, done);
  addCleanupCommand(program, io, done);
  return program;
}
