import { describe, expect, it } from 'vitest';
import type { SchedulerConfig } from '../../lib/config/options.js';
import { PluginError } from '../../lib/engine/errors.js';
import { type HostFilter, PASS, PASS_ALL, rejectionMessage } from '../../lib/engine/filter.js';
import { ComputeFilter } from '../../lib/engine/filters/ComputeFilter.js';
import { Scheduler } from '../../lib/engine/scheduler.js';
import { RAMWeigher } from '../../lib/engine/weighers/RAMWeigher.js';
import { ConfigError } from '../../lib/model/errors.js';
import type { HostState } from '../../lib/model/hostState.js';
import type { RequestSpec } from '../../lib/model/requestSpec.js';
import {
  ComputeVariantFilter,
  computeVariantFilter,
  type InstanceMetadataSource,
  novaMetadataSource,
  type VariantRequest,
} from '../../lib/plugins/computeVariant/index.js';
import { makeConfig, makeContext, makeHost, makeSpec } from '../helpers/factories.js';

/** A host whose aggregates carry the given metadata (one aggregate per entry). */
function host(name: string, ...aggregates: Record<string, string>[]): HostState {
  return makeHost({
    host: name,
    nodename: name,
    aggregates: aggregates.map((metadata, i) => ({ name: `${name}-agg${i + 1}`, hosts: [name], metadata })),
  });
}

const FLEET = [
  host('gen2', { compute_variant: 'gen2' }),
  host('gen3', { compute_variant: 'gen3' }),
  host('both', { compute_variant: 'gen2, gen3' }),
  host('plain', { other: 'x' }),
  host('bare'),
];

/** A metadata source that counts its calls. */
function countingSource(metadata: Record<string, string> = { compute_variant: 'gen3' }) {
  const calls: { instance: string; request: string }[] = [];
  const source: InstanceMetadataSource = {
    get: async (instance, request) => {
      calls.push({ instance, request });
      return metadata;
    },
  };
  return { source, calls };
}

/** Hosts that pass, or PASS_ALL when prepare says every host passes. */
async function run(
  filter: HostFilter<VariantRequest>,
  spec: RequestSpec,
  hosts: HostState[] = FLEET,
  config: SchedulerConfig = makeConfig(),
): Promise<string[] | typeof PASS_ALL> {
  const ctx = makeContext(config, hosts);
  const state = await filter.prepare!(spec, ctx);
  if (state === PASS_ALL) return PASS_ALL;
  return hosts.filter((h) => filter.check(h, spec, state, ctx) === PASS).map((h) => h.host);
}

describe('ComputeVariantFilter: which variant the request asks for', () => {
  it.each([
    ['a hint', { scheduler_hints: { compute_variant: 'gen2' } }, ['gen2', 'both']],
    [
      'instance metadata when there is no hint',
      { instance_metadata: { compute_variant: 'gen3' } },
      ['gen3', 'both'],
    ],
    [
      'the hint over instance metadata',
      { scheduler_hints: { compute_variant: 'gen2' }, instance_metadata: { compute_variant: 'gen3' } },
      ['gen2', 'both'],
    ],
    [
      'instance metadata when the hint is blank',
      { scheduler_hints: { compute_variant: ' ' }, instance_metadata: { compute_variant: 'gen3' } },
      ['gen3', 'both'],
    ],
    [
      'any of a hint list',
      { scheduler_hints: { compute_variant: ['gen2', 'gen3'] } },
      ['gen2', 'gen3', 'both'],
    ],
    [
      'any of comma-separated values',
      { instance_metadata: { compute_variant: 'gen3,gen2' } },
      ['gen2', 'gen3', 'both'],
    ],
    ['a variant no host has', { scheduler_hints: { compute_variant: 'gen4' } }, []],
  ])('follows %s', async (_case, request, expected) => {
    // Act
    const passed = await run(ComputeVariantFilter, makeSpec(request));
    // Assess
    expect(passed).toEqual(expected);
  });

  it.each([
    ['no hint and no metadata', {}],
    [
      'an empty hint and empty metadata',
      { scheduler_hints: { compute_variant: '' }, instance_metadata: { compute_variant: '' } },
    ],
    [
      'only other hints and metadata keys',
      { scheduler_hints: { group: 'g' }, instance_metadata: { role: 'db' } },
    ],
  ])('passes every host (PASS_ALL) for %s', async (_case, request) => {
    expect(await run(ComputeVariantFilter, makeSpec(request))).toBe(PASS_ALL);
  });
});

describe("ComputeVariantFilter: a host's variant", () => {
  it.each([
    ['a comma-separated list, spaces trimmed', [{ compute_variant: 'gen1 , gen2' }], 'gen2', true],
    ['the first of a comma-separated list', [{ compute_variant: 'gen1,gen2' }], 'gen1', true],
    [
      'the values of several aggregates',
      [{ compute_variant: 'gen1' }, { compute_variant: 'gen2' }],
      'gen2',
      true,
    ],
    ['a different variant', [{ compute_variant: 'gen1' }], 'gen2', false],
    ['a value that only contains the request', [{ compute_variant: 'gen20' }], 'gen2', false],
    ['no variant at all', [{ availability_zone: 'az1' }], 'gen2', false],
  ])('matches %s', async (_case, aggregates, asked, passes) => {
    // Prepare
    const h = host('h', ...aggregates);
    // Act
    const passed = await run(
      ComputeVariantFilter,
      makeSpec({ scheduler_hints: { compute_variant: asked } }),
      [h],
    );
    // Assess
    expect(passed).toEqual(passes ? ['h'] : []);
  });
});

describe('ComputeVariantFilter: options', () => {
  it('reads the aggregate key, hint and metadata key from [compute_variant]', async () => {
    // Prepare
    const config = makeConfig({
      compute_variant: { aggregate_key: 'hw', hint: 'hw_hint', metadata_key: 'hw_md' },
    });
    const hosts = [host('x', { hw: 'x1' }), host('y', { compute_variant: 'x1' })];
    // Act
    const byHint = await run(
      ComputeVariantFilter,
      makeSpec({ scheduler_hints: { hw_hint: 'x1' } }),
      hosts,
      config,
    );
    const byMetadata = await run(
      ComputeVariantFilter,
      makeSpec({ instance_metadata: { hw_md: 'x1' } }),
      hosts,
      config,
    );
    const defaultHint = await run(
      ComputeVariantFilter,
      makeSpec({ scheduler_hints: { compute_variant: 'x1' } }),
      hosts,
      config,
    );
    // Assess
    expect([byHint, byMetadata, defaultHint]).toEqual([['x'], ['x'], PASS_ALL]);
  });

  it('prefers factory options over [compute_variant]', async () => {
    // Prepare
    const filter = computeVariantFilter({ aggregateKey: 'vendor', hint: 'vendor' });
    const config = makeConfig({ compute_variant: { aggregate_key: 'hw', hint: 'hw' } });
    const hosts = [host('v', { vendor: 'acme' }), host('w', { hw: 'acme' })];
    // Act
    const passed = await run(
      filter,
      makeSpec({ scheduler_hints: { vendor: 'acme', hw: 'acme' } }),
      hosts,
      config,
    );
    // Assess
    expect(passed).toEqual(['v']);
  });

  it.each([
    ['an empty aggregate key', { aggregateKey: ' ' }, /aggregateKey must be a non-empty string/],
    ['a zero cache size', { cacheSize: 0 }, /cacheSize must be an integer >= 1, got 0/],
    ['a fractional cache size', { cacheSize: 2.5 }, /cacheSize must be an integer >= 1, got 2.5/],
  ])('rejects %s when the filter is built', (_case, options, message) => {
    expect(() => computeVariantFilter(options)).toThrow(message);
  });

  it('rejects an empty [compute_variant] hint with a ConfigError naming the option', async () => {
    // Prepare
    const config = makeConfig({ compute_variant: { hint: '' } });
    // Act
    const prepared = run(ComputeVariantFilter, makeSpec(), FLEET, config);
    // Assess
    await expect(prepared).rejects.toThrow(ConfigError);
    await expect(prepared).rejects.toThrow('[compute_variant] hint must not be empty');
  });
});

describe('ComputeVariantFilter: explanations', () => {
  it.each([
    [
      host('h', { compute_variant: 'gen2' }),
      'host variant is gen2 (aggregate h-agg1), request asks for gen3 (hint compute_variant)',
    ],
    [
      host('h', { compute_variant: 'gen1' }, { compute_variant: 'gen2,gen2b' }),
      'host variant is gen1, gen2, gen2b (aggregates h-agg1, h-agg2), request asks for gen3 (hint compute_variant)',
    ],
    [
      host('h', { az: 'az1' }),
      'host has no variant (no aggregate sets compute_variant), request asks for gen3 (hint compute_variant)',
    ],
    [
      host('h', { compute_variant: '' }),
      'host has no variant (compute_variant is empty in h-agg1), request asks for gen3 (hint compute_variant)',
    ],
  ])('explains why %# failed', async (h, sentence) => {
    // Prepare
    const spec = makeSpec({ scheduler_hints: { compute_variant: 'gen3' } });
    const ctx = makeContext(makeConfig(), [h]);
    const state = (await ComputeVariantFilter.prepare!(spec, ctx)) as VariantRequest;
    // Act
    const why = rejectionMessage(ComputeVariantFilter, h, spec, state, ctx);
    // Assess
    expect(why).toBe(sentence);
  });

  it('names instance metadata as the source when the variant came from there', async () => {
    const spec = makeSpec({ instance_metadata: { compute_variant: 'gen3' } });
    const ctx = makeContext();
    const state = (await ComputeVariantFilter.prepare!(spec, ctx)) as VariantRequest;
    expect(rejectionMessage(ComputeVariantFilter, FLEET[0], spec, state, ctx)).toBe(
      'host variant is gen2 (aggregate gen2-agg1), request asks for gen3 (instance metadata compute_variant)',
    );
  });
});

describe('ComputeVariantFilter: instance metadata lookups', () => {
  const noHint = (requestId: string, instance = `${requestId}-vm`) =>
    makeSpec({ request_id: requestId, instance_uuid: instance });

  it('looks the metadata up once per request, however many hosts there are', async () => {
    // Prepare
    const { source, calls } = countingSource();
    const hosts = Array.from({ length: 500 }, (_, i) =>
      host(`h${i}`, { compute_variant: i % 2 ? 'gen3' : 'gen2' }),
    );
    // Act
    const passed = await run(computeVariantFilter({ source }), noHint('req-a', 'vm-1'), hosts);
    // Assess
    expect(passed).toHaveLength(250);
    expect(calls).toEqual([{ instance: 'vm-1', request: 'req-a' }]);
  });

  it('looks the metadata up once for every instance of one request', async () => {
    // Prepare
    const { source, calls } = countingSource();
    const filter = computeVariantFilter({ source });
    // Act: what the engine does for each instance of a multi-create
    for (const [index, uuid] of ['vm-1', 'vm-2', 'vm-3'].entries()) {
      const spec = makeSpec({ request_id: 'req-multi', instance_uuid: uuid });
      await filter.prepare!(spec, makeContext(makeConfig(), FLEET, index));
    }
    // Assess
    expect(calls).toHaveLength(1);
  });

  it('looks up again for a different request', async () => {
    const { source, calls } = countingSource();
    const filter = computeVariantFilter({ source });
    await run(filter, noHint('req-a'));
    await run(filter, noHint('req-b'));
    expect(calls.map((c) => c.request)).toEqual(['req-a', 'req-b']);
  });

  it('does not look up when a hint names the variant', async () => {
    const { source, calls } = countingSource();
    await run(
      computeVariantFilter({ source }),
      makeSpec({ instance_uuid: 'vm', scheduler_hints: { compute_variant: 'gen2' } }),
    );
    expect(calls).toEqual([]);
  });

  it('does not look up for a request with no instance yet, and passes every host', async () => {
    const { source, calls } = countingSource();
    const passed = await run(computeVariantFilter({ source }), makeSpec({ request_id: 'req-new' }));
    expect([passed, calls.length]).toEqual([PASS_ALL, 0]);
  });

  it('shares one pending lookup between concurrent prepares of a request', async () => {
    // Prepare
    const { source, calls } = countingSource();
    const filter = computeVariantFilter({ source });
    // Act
    await Promise.all([run(filter, noHint('req-c')), run(filter, noHint('req-c'))]);
    // Assess
    expect(calls).toHaveLength(1);
  });

  it('evicts the least recently used request when the cache is full', async () => {
    // Prepare
    const { source, calls } = countingSource();
    const filter = computeVariantFilter({ source, cacheSize: 2 });
    // Act: a, b, a (refreshes a), c (evicts b), a (cached), b (looked up again)
    for (const id of ['a', 'b', 'a', 'c', 'a', 'b']) await run(filter, noHint(id));
    // Assess
    expect(calls.map((c) => c.request)).toEqual(['a', 'b', 'c', 'b']);
  });

  it('takes the cache size from [compute_variant] cache_size', async () => {
    const { source, calls } = countingSource();
    const filter = computeVariantFilter({ source });
    const config = makeConfig({ compute_variant: { cache_size: 1 } });
    for (const id of ['a', 'b', 'a']) await run(filter, noHint(id), FLEET, config);
    expect(calls.map((c) => c.request)).toEqual(['a', 'b', 'a']);
  });

  it('reports a failed lookup as a PluginError naming the instance and request, and does not cache it', async () => {
    // Prepare
    let failures = 1;
    const source: InstanceMetadataSource = {
      get: async () => {
        if (failures-- > 0) throw new Error('503 Service Unavailable');
        return { compute_variant: 'gen3' };
      },
    };
    const filter = computeVariantFilter({ source });
    // Act
    const first = run(filter, noHint('req-f', 'vm-f'));
    // Assess
    await expect(first).rejects.toThrow(PluginError);
    await expect(first).rejects.toThrow(
      'ComputeVariantFilter: could not read the metadata of instance vm-f (request req-f): 503 Service Unavailable',
    );
    expect(await run(filter, noHint('req-f', 'vm-f'))).toEqual(['gen3', 'both']);
  });

  it('rejects a metadata value that is not a string', async () => {
    const source: InstanceMetadataSource = {
      get: async () => ({ compute_variant: 3 }) as unknown as Record<string, string>,
    };
    await expect(run(computeVariantFilter({ source }), noHint('req-n'))).rejects.toThrow(
      'instance metadata compute_variant is number, expected a string',
    );
  });

  it('keeps nothing between requests when reading the request itself', async () => {
    // Prepare: two requests that share an id but not their metadata
    const first = makeSpec({ request_id: 'same', instance_metadata: { compute_variant: 'gen2' } });
    const second = makeSpec({ request_id: 'same', instance_metadata: { compute_variant: 'gen3' } });
    // Act
    const answers = [await run(ComputeVariantFilter, first), await run(ComputeVariantFilter, second)];
    // Assess
    expect(answers).toEqual([
      ['gen2', 'both'],
      ['gen3', 'both'],
    ]);
  });
});

describe('novaMetadataSource', () => {
  it("unwraps Nova's metadata response and passes the server id and request id", async () => {
    // Prepare
    const asked: string[][] = [];
    const source = novaMetadataSource(async (serverId, requestId) => {
      asked.push([serverId, requestId]);
      return { metadata: { compute_variant: 'gen3', owner: 'qa' } };
    });
    // Act
    const metadata = await source.get('vm-1', 'req-1', makeSpec());
    // Assess
    expect(metadata).toEqual({ compute_variant: 'gen3', owner: 'qa' });
    expect(asked).toEqual([['vm-1', 'req-1']]);
  });

  it.each([
    [
      'a body without metadata',
      { server: {} },
      /GET \/servers\/vm-1\/metadata returned no "metadata" object/,
    ],
    ['a metadata list', { metadata: [] }, /returned no "metadata" object/],
    [
      'a non-string value',
      { metadata: { compute_variant: 2 } },
      /value of "compute_variant" is number, expected a string/,
    ],
  ])('rejects %s', async (_case, body, message) => {
    const source = novaMetadataSource(async () => body as never);
    await expect(source.get('vm-1', 'req-1', makeSpec())).rejects.toThrow(message);
  });
});

describe('ComputeVariantFilter in the Scheduler', () => {
  const config = makeConfig({ placid: { placement_prefilter: false } });
  const fleet = () => [
    makeHost({
      host: 'old-big',
      nodename: 'old-big',
      free_ram_mb: 16384,
      aggregates: [{ name: 'old', hosts: ['old-big'], metadata: { compute_variant: 'gen2' } }],
    }),
    makeHost({
      host: 'new-small',
      nodename: 'new-small',
      free_ram_mb: 2048,
      aggregates: [{ name: 'new', hosts: ['new-small'], metadata: { compute_variant: 'gen3' } }],
    }),
    makeHost({
      host: 'new-mid',
      nodename: 'new-mid',
      free_ram_mb: 4096,
      aggregates: [{ name: 'new', hosts: ['new-mid'], metadata: { compute_variant: 'gen3' } }],
    }),
  ];

  it('places on the requested variant even when another host weighs more, and explains the rest', async () => {
    // Prepare
    const scheduler = new Scheduler(
      config,
      [ComputeFilter, ComputeVariantFilter as HostFilter<unknown>],
      [RAMWeigher],
    );
    // Act
    const d = await scheduler.schedule(fleet(), makeSpec({ scheduler_hints: { compute_variant: 'gen3' } }), {
      explain: true,
    });
    // Assess
    expect(d.placements.map((p) => p.host.host)).toEqual(['new-mid']);
    expect(d.eliminated()).toEqual([
      expect.objectContaining({
        host: 'old-big',
        filter: 'ComputeVariantFilter',
        reason: 'host variant is gen2 (aggregate old), request asks for gen3 (hint compute_variant)',
      }),
    ]);
  });

  it('leaves placement to the weighers when no variant is requested', async () => {
    const scheduler = new Scheduler(config, [ComputeVariantFilter as HostFilter<unknown>], [RAMWeigher]);
    const d = await scheduler.schedule(fleet(), makeSpec());
    expect(d.placements.map((p) => p.host.host)).toEqual(['old-big']);
  });

  it('costs one metadata lookup for a multi-create and its reschedule', async () => {
    // Prepare
    const { source, calls } = countingSource();
    const filter = computeVariantFilter({ source }) as HostFilter<unknown>;
    const scheduler = new Scheduler(config, [filter], [RAMWeigher]);
    const spec = () =>
      makeSpec({
        request_id: 'req-boot',
        instance_uuids: ['vm-1', 'vm-2', 'vm-3'],
        flavor: { name: 'm1.mid', vcpus: 1, memory_mb: 1536 },
      });
    // Act
    const boot = await scheduler.schedule(fleet(), spec());
    const retry = await scheduler.schedule(fleet(), spec());
    // Assess
    expect(boot.placements.map((p) => p.host.host)).toEqual(['new-mid', 'new-mid', 'new-small']);
    expect(retry.error).toBeNull();
    // Once per request: later instances start from the first instance's survivors.
    expect(boot.filter_counts.map((c) => [c.filter, c.instance_index])).toEqual([
      ['ComputeVariantFilter', 0],
    ]);
    expect(calls).toEqual([{ instance: 'vm-1', request: 'req-boot' }]);
  });

  it('fails with NoValidHost when no host has the requested variant', async () => {
    const scheduler = new Scheduler(config, [ComputeVariantFilter as HostFilter<unknown>], [RAMWeigher]);
    const d = await scheduler.schedule(fleet(), makeSpec({ instance_metadata: { compute_variant: 'gen9' } }));
    expect(d.error?.type).toBe('NoValidHost');
  });
});
