import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decisionJson } from '../../lib/engine/decisionJson.js';
import { writeDecisionJson } from '../../lib/engine/decisionJsonText.js';
import type { ScheduleDecision } from '../../lib/engine/explain.js';
import { defineFilter, PASS, reject } from '../../lib/engine/filter.js';
import { seededRandom } from '../../lib/engine/random.js';
import { createScheduler } from '../../lib/engine/registry.js';
import type { HostState } from '../../lib/model/hostState.js';
import { makeConfig, makeHost, makeSpec } from '../helpers/factories.js';

/**
 * writeDecisionJson is `JSON.stringify(decisionJson(...), null, 2)` in UTF-8 pieces: the same bytes
 * for engine decisions (eliminations visited, weights ranked) and decisions built elsewhere, with
 * names that need escaping or several bytes, and every piece whole characters.
 */

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The pieces as text, each decoded on its own (a piece cut inside a character throws). */
function written(decision: ScheduleDecision, numInstances: number): { text: string; pieces: number } {
  const pieces: string[] = [];
  writeDecisionJson(decision, numInstances, (chunk) => pieces.push(decoder.decode(chunk)));
  return { text: pieces.join(''), pieces: pieces.length };
}

const expected = (decision: ScheduleDecision, numInstances: number) =>
  JSON.stringify(decisionJson(decision, numInstances), null, 2);

/** Names with quotes, backslashes, accents, CJK and astral characters (never control characters). */
const nameChars = fc.constantFrom('a', 'b', '7', '-', '"', '\\', 'é', '数', '😀', ' ');
const hostName = fc.array(nameChars, { minLength: 1, maxLength: 8 }).map((cs) => cs.join(''));

/** Rejects a third of the hosts, each in words of its own that quote its names. */
const NAMED = reject<undefined>((host) => `${host.host} is not wanted here:\n\t"${host.nodename}"`);
const NamedFilter = defineFilter<undefined>({
  name: 'NamedFilter',
  check: (host) => (host.num_instances % 3 === 0 ? NAMED : PASS),
});

/** Every host's size: an 8 GB flavor fits about seven in eight of them (free RAM varies). */
const CAPACITY = {
  total_usable_ram_mb: 65536,
  vcpus_total: 32,
  total_usable_disk_gb: 400,
  free_disk_mb: 409_600,
};

/** Hosts named `name` + position in two zones, a tenth disabled, with varied free RAM and load. */
function fleetOf(names: readonly string[], seed: number): HostState[] {
  const rnd = seededRandom(seed);
  const pick = (n: number) => Math.floor(rnd() * n);
  return names.map((name, i) => {
    const host = `${name}${i}`;
    const zone = pick(2) === 0 ? 'az1' : 'az2';
    const aggregates = [{ name: `zone-${zone}`, metadata: { availability_zone: zone } }];
    const service = { disabled: rnd() < 0.1, up: true };
    const nodename = pick(2) === 0 ? host : `node ${host}`;
    const load = { free_ram_mb: pick(65536), num_instances: pick(30) };
    return makeHost({ host, nodename, ...CAPACITY, ...load, service, aggregates });
  });
}

async function engineDecision(
  hosts: HostState[],
  numInstances: number,
  zone: string,
): Promise<ScheduleDecision> {
  const config = makeConfig({
    filter_scheduler: {
      enabled_filters: ['ComputeFilter', 'NamedFilter'],
      weight_classes: ['nova.scheduler.weights.all_weighers'],
    },
  });
  const spec = makeSpec({
    flavor: { name: 'f', vcpus: 4, memory_mb: 8192, root_gb: 10 },
    num_instances: numInstances,
    availability_zone: zone,
  });
  return createScheduler(config, { filters: [NamedFilter] }).schedule(hosts, spec, {
    explain: true,
    random: seededRandom(1),
  });
}

describe('writeDecisionJson', () => {
  it('writes the bytes of the pretty-printed decisionJson for explained engine decisions', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostName, { minLength: 0, maxLength: 60 }),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom('az1', 'az2', 'az9'),
        fc.nat(100),
        async (names, instances, zone, seed) => {
          // Prepare
          const decision = await engineDecision(fleetOf(names, seed), instances, zone);
          // Act
          const { text } = written(decision, instances);
          // Assess
          expect(text).toBe(expected(decision, instances));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('cuts a large decision into pieces of whole characters', async () => {
    // Prepare: 3,000 hosts with long names in three-byte and four-byte characters (1.5 MB of rows).
    const names = Array.from({ length: 3000 }, (_, i) =>
      i % 2 === 0 ? '数据中心'.repeat(12) : '😀é'.repeat(16),
    );
    const decision = await engineDecision(fleetOf(names, 5), 2, 'az1');
    // Act
    const { text, pieces } = written(decision, 2);
    // Assess
    expect(pieces).toBeGreaterThan(20);
    expect(decision.rankedWeights?.()?.length).toBeGreaterThan(0);
    expect(new Set(decision.eliminated().map((e) => e.filter)).size).toBeGreaterThan(2);
    expect(text).toBe(expected(decision, 2));
  });

  it('writes decisions built elsewhere (no visitors) the same way, errors and odd weights included', () => {
    // Prepare
    const a = makeHost({ host: 'a"1', nodename: 'a"1' });
    const b = makeHost({ host: 'b\\2', nodename: 'n😀2' });
    const decision: ScheduleDecision = {
      request_id: 'r',
      placements: [{ instance_uuid: 'u', host: a, alternates: [b] }],
      weighed: [
        { host: a, weight: 1.5e-7, breakdown: [] },
        { host: b, weight: Number.NaN, breakdown: [] },
      ],
      filter_counts: [],
      eliminated: () => [
        // A control character and a lone surrogate: JSON.stringify escapes both.
        { host: 'c\u0001', nodename: 'n\ud800', filter: 'F', reason: 'why\u0001 "not"', instance_index: 1 },
        { host: 'd', nodename: 'é', filter: 'F', reason: 'why "not"', instance_index: 0 },
        // Longer than a piece: written on its own.
        { host: 'e', nodename: 'e', filter: 'F', reason: 'x'.repeat(70_000), instance_index: 0 },
      ],
      error: { type: 'NoValidHost', message: `no host\tfits ${'é'.repeat(30_000)}` },
    };
    for (const instances of [1, 2]) {
      // Act
      const { text } = written(decision, instances);
      // Assess
      expect(text).toBe(expected(decision, instances));
    }
  });

  it('writes empty lists as JSON.stringify does', () => {
    // Prepare
    const decision: ScheduleDecision = {
      request_id: 'r',
      placements: [],
      weighed: null,
      filter_counts: [],
      eliminated: () => [],
      error: null,
    };
    // Act
    const { text } = written(decision, 1);
    // Assess
    expect(text).toBe(expected(decision, 1));
    expect(text).toContain('"weighed": [],');
  });
});
