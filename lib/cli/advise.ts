/**
 * `placid schedule` for an advisory request (`advisory: true` with `candidates`): Placid's verdict
 * and weight for each candidate, printed as JSON. Over `--hosts` nothing is recorded; over `--store`
 * the decision is recorded as the schedule stage records it. Nothing is ever claimed. For people,
 * so always explained: each eliminated candidate comes with its filter and reason.
 */
import { randomUUID } from 'node:crypto';
import { createScheduler, loadPluginModules } from '../engine/registry.js';
import { defaultDataDir } from '../local/dynalite.js';
import { LocalPipeline } from '../local/pipeline.js';
import type { HostState } from '../model/hostState.js';
import { withPlacidFilters } from '../rebalance/filters/index.js';
import { type AdvisoryAnswer, adviseAmong, adviseRequest } from '../schedule/advisory.js';
import { type DecisionRequest, parseDecisionRequest } from '../schedule/request.js';
import { FleetSnapshot } from '../schedule/snapshot.js';
import { isAdvisoryDoc } from './advisoryDoc.js';
import { InputError } from './errors.js';
import { EXIT } from './exitCodes.js';
import { readConfig, readHosts } from './inputs.js';
import type { CliIO } from './io.js';

export interface AdviseArgs {
  hosts?: string;
  config?: string;
  store?: boolean;
  dataDir?: string;
  claim?: boolean;
}

/** True when the request document asks for an advisory decision. */
export { isAdvisoryDoc };

/** Prints the advisory answer for `doc`; exit 0 when a candidate passes, 1 when none does. */
export async function runAdvise(doc: unknown, source: string, args: AdviseArgs, io: CliIO): Promise<number> {
  if (args.claim) throw new InputError('an advisory request claims nothing: drop --claim or advisory: true');
  const request = parseDecisionRequest(withRequestId(doc), source);
  const answer = args.store ? await adviseFromStore(request, args) : await adviseFromHosts(request, args);
  io.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
  return answer.candidates.some((c) => c.passes) || answer.unknown.length > 0
    ? EXIT.placed
    : EXIT.noValidHost;
}

/** The id is what records the decision; a caller who gave none gets a fresh one. */
function withRequestId(doc: unknown): unknown {
  const fields = doc as Record<string, unknown>;
  return 'request_id' in fields ? doc : { ...fields, request_id: randomUUID() };
}

async function adviseFromHosts(request: DecisionRequest, args: AdviseArgs): Promise<AdvisoryAnswer> {
  if (!args.hosts) throw new InputError('give the fleet: --hosts FILE, or --store for the stored one');
  const { config, baseDir } = await readConfig(args.config);
  const scheduler = createScheduler(config, withPlacidFilters(await loadPluginModules(config, baseDir)));
  const byKey = new Map<string, HostState>();
  for (const h of await readHosts(args.hosts)) byKey.set(`${h.host}\u0000${h.nodename}`, h);
  const lookup = (host: string, nodename: string) => byKey.get(`${host}\u0000${nodename}`);
  const { answer } = await adviseAmong(
    lookup,
    request.spec,
    request.candidates!,
    scheduler,
    new Date(),
    true,
  );
  return answer;
}

async function adviseFromStore(request: DecisionRequest, args: AdviseArgs): Promise<AdvisoryAnswer> {
  if (args.hosts) throw new InputError('give either --hosts or --store, not both');
  const { config, baseDir } = await readConfig(args.config);
  const scheduler = createScheduler(config, withPlacidFilters(await loadPluginModules(config, baseDir)));
  const pipeline = await LocalPipeline.start({
    dataDir: args.dataDir ?? defaultDataDir(),
    stages: [],
    store: { serviceDownTimeSeconds: config.DEFAULT.service_down_time },
  });
  try {
    const deps = { store: pipeline.store, snapshot: new FleetSnapshot(pipeline.store), scheduler };
    return (await adviseRequest(request.spec, request.candidates!, deps, true)).answer;
  } finally {
    await pipeline.close();
  }
}
