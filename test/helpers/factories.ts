import { defaultConfig, type SchedulerConfig } from '../../lib/config/options.js';
import type { EngineContext } from '../../lib/engine/context.js';
import { Fleet } from '../../lib/engine/fleet.js';
import { type HostStateInput, hostStateInput, toHostState } from '../../lib/model/hostSchema.js';
import type { HostState } from '../../lib/model/hostState.js';
import { parseRequestSpec, type RequestSpecInput } from '../../lib/model/requestSchema.js';
import type { RequestSpec } from '../../lib/model/requestSpec.js';

/** A host state like Nova's FakeHostState: defaults everywhere, overrides as given. */
export function makeHost(input: Partial<HostStateInput> & { host?: string } = {}): HostState {
  return toHostState(hostStateInput.parse({ host: 'host1', nodename: 'node1', ...input }));
}

/** A request spec with a small flavor unless overridden. */
export function makeSpec(input: Partial<RequestSpecInput> = {}): RequestSpec {
  return parseRequestSpec({ flavor: { name: 'm1.small', vcpus: 1, memory_mb: 512, root_gb: 1 }, ...input });
}

/** A config with Nova's defaults, then `patch` applied group by group. */
export function makeConfig(
  patch: { [G in keyof SchedulerConfig]?: Partial<SchedulerConfig[G]> } = {},
): SchedulerConfig {
  const config = defaultConfig();
  for (const [group, values] of Object.entries(patch))
    Object.assign((config as Record<string, object>)[group], values);
  return config;
}

/** The context a filter or weigher receives, for unit tests. */
export function makeContext(
  config: SchedulerConfig = makeConfig(),
  hosts: HostState[] = [],
  index = 0,
  now = new Date('2026-12-01T12:00:00Z'),
): EngineContext {
  return { config, now, index, fleet: Fleet.from(hosts) };
}
