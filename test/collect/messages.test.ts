import { describe, expect, it } from 'vitest';
import { type NodeGroup, packMessages } from '../../lib/collect/messages.js';
import { parseReportMessage } from '../../lib/model/reports.js';

const AT = '2026-12-01T12:00:00.000Z';
const NOW = new Date('2026-12-01T12:01:00Z');

function group(host: string, instances: number, padding = 0): NodeGroup {
  return {
    host: {
      host,
      availability_zone: 'az1',
      reported_at: AT,
      samples: [{ ts: AT, steal_percent: 1, cpu_percent: 2, load5: 3 }],
      gaps: [{ from: AT, to: AT, reason: 'no_data', metrics: [] }],
    },
    instances: Array.from({ length: instances }, (_, i) => ({
      uuid: `${host}-vm-${i}`,
      name: 'x'.repeat(padding),
      host,
      availability_zone: 'az1',
      flavor: { name: 'm1', vcpus: 1, memory_mb: 1, root_gb: 1 },
      reported_at: AT,
    })),
  };
}

describe('packMessages', () => {
  it('puts small groups together in one valid message', () => {
    const bodies = packMessages([group('cmp-1', 2), group('cmp-2', 1)]);
    expect(bodies).toHaveLength(1);
    const message = parseReportMessage(bodies[0], NOW);
    expect([message.hypervisors.length, message.instances.length]).toEqual([2, 3]);
  });

  it('starts a new message rather than splitting a group that fits in one', () => {
    const bodies = packMessages([group('cmp-1', 3, 200), group('cmp-2', 3, 200)], 2_000);
    const hosts = bodies.map((b) => parseReportMessage(b, NOW).hypervisors.map((h) => h.host));
    expect(hosts).toEqual([['cmp-1'], ['cmp-2']]);
  });

  it("spreads a host's instances over several messages, each with the host, the repeats without samples", () => {
    // Prepare: 20 instances of ~250 bytes do not fit in 2,000 bytes.
    const bodies = packMessages([group('cmp-1', 20, 200)], 2_000);
    // Act
    const messages = bodies.map((b) => parseReportMessage(b, NOW));
    // Assess
    expect(bodies.length).toBeGreaterThan(1);
    expect(bodies.every((b) => Buffer.byteLength(b) <= 2_000)).toBe(true);
    expect(messages.every((m) => m.hypervisors.length === 1 && m.hypervisors[0].host === 'cmp-1')).toBe(true);
    expect(
      messages.slice(1).every((m) => m.hypervisors[0].samples.length === 0 && !m.hypervisors[0].gaps),
    ).toBe(true);
    const uuids = messages.flatMap((m) => m.instances.map((i) => i.uuid));
    expect(uuids).toEqual(Array.from({ length: 20 }, (_, i) => `cmp-1-vm-${i}`));
  });

  it('builds nothing from nothing', () => {
    expect(packMessages([])).toEqual([]);
  });
});
