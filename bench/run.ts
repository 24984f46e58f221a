/** `npm run bench`: every benchmark, results merged into bench/results.json. */
import '../bin/nodeRuntime.js';
import { benchAdvisory } from './advisory.js';
import { benchAdvisoryDetect } from './advisoryDetect.js';
import { benchBundles } from './bundle.js';
import { benchIngest } from './ingest.js';
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
  ingest: benchIngest,
  schedule: benchSchedule,
  plan: benchPlan,
  advisory: benchAdvisory,
  'advisory-detect': benchAdvisoryDetect,
  scale: benchScale,
  simulation: benchSimulation,
};
for (const [name, run] of Object.entries(suites)) {
  if (only && only !== name) continue;
  process.stdout.write(`== ${name}\n`);
  writeSection(name, await run());
}
process.stdout.write('results written to bench/results.json\n');
