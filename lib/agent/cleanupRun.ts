/** One cleanup pass over the agent config's clusters and Consul agents (the agent's, and `placid cleanup`'s). */
import type { AgentConfig } from './config.js';
import {
  clusterNames,
  findLeftovers,
  type Leftover,
  type LeftoverDrivers,
  undoLeftovers,
} from './leftovers.js';

export interface CleanupPass {
  found: Leftover[];
  undone: Array<Leftover & { outcome: string }>;
}

export async function cleanupPass(
  config: AgentConfig,
  options: { apply: boolean; now: number; maxDrainedMs?: number; running?: ReadonlySet<string> },
  drivers?: LeftoverDrivers,
): Promise<CleanupPass> {
  const [{ secretsOf }, { lazyDrivers }] = await Promise.all([
    import('./secrets.js'),
    import('../workflow/drivers.js'),
  ]);
  const { provider, names } = await secretsOf(config);
  const used = drivers ?? lazyDrivers(provider, names);
  const found = await findLeftovers(used, {
    clusters: clusterNames(await provider.loadSecret(names.kubernetes)),
    consulAgents: config.cleanup.consulAgents,
    now: options.now,
    maxDrainedMs: options.maxDrainedMs ?? config.cleanup.maxDrainedMs,
    running: options.running,
  });
  return { found, undone: options.apply ? await undoLeftovers(used, found) : [] };
}
