/** `npm run bench`: every benchmark, results merged into bench/results.json. */
import '../bin/nodeRuntime.js';
import { benchAdvisory } from './advisory.js';
import { benchAdvisoryDetect } from './advisoryDetect.js';
import { benchBundles } from './bundle.js';
import { benchCliInPlacement } from './cliStart.js';
import { benchEngine } from './engine.js';
import { benchIngest } from './ingest.js';
import { benchIngestRounds } from './ingestRounds.js';
import { benchNovaPlugin } from './novaPlugin.js';
import { benchPlacement } from './placement.js';
import { benchPlan } from './plan.js';
import { benchScale } from './scale.js';
import { benchSchedule } from './schedule.js';
import { benchSimulation } from './simulation.js';
import { writeSection } from './stats.js';

const only = process.argv[2];
const suites: Record<string, () => Promise<unknown>> = {
  bundles: benchBundles,
  placement: benchPlacement,
  engine: benchEngine,
  ingest: benchIngest,
  ingest_rounds: benchIngestRounds,
  schedule: benchSchedule,
  plan: benchPlan,
  advisory: benchAdvisory,
  'advisory-detect': benchAdvisoryDetect,
  'nova-plugin': benchNovaPlugin,
  scale: benchScale,
  simulation: benchSimulation,
  // Only when named (`npm run bench cli`): the placement section's `cli` part, without the rest.
  cli: benchCliInPlacement,
};
/** Suites that write into another's section. */
const SECTION_OF: Record<string, string> = { cli: 'placement' };
for (const [name, run] of Object.entries(suites)) {
  if (only ? only !== name : name in SECTION_OF) continue;
  process.stdout.write(`== ${name}\n`);
  writeSection(SECTION_OF[name] ?? name, await run());
}
process.stdout.write('results written to bench/results.json\n');
