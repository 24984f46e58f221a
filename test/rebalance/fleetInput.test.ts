import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/model/errors.js';
import { parseFleetDocument } from '../../lib/rebalance/fleetInput.js';

const NOW = '2026-12-01T12:00:00Z';
const host = { host: 'cmp1', availability_zone: 'az1', vcpus_total: 16 };
const vm = {
  uuid: 'vm-1',
  name: 'web-1',
  host: 'cmp1',
  availability_zone: 'az1',
  flavor: { name: 'm1.medium', vcpus: 4, memory_mb: 8192, root_gb: 40 },
  samples: [{ ts: NOW, steal_percent: 20, load5: 6, cpu_percent: 60 }],
};

const parse = (doc: unknown) => parseFleetDocument(doc, 'fleet.json');
const messageOf = (doc: unknown) => {
  try {
    parse(doc);
    return 'no error';
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as Error).message;
  }
};

describe('parseFleetDocument', () => {
  it('reads hypervisors and instances as ingest reports, reported_at defaulting to now', () => {
    // Act
    const fleet = parse({ now: NOW, hypervisors: [host], instances: [vm] });
    // Assess
    expect(fleet.now.toISOString()).toBe('2026-12-01T12:00:00.000Z');
    expect(fleet.hypervisors[0]).toMatchObject({
      host: 'cmp1',
      availability_zone: 'az1',
      reported_at: '2026-12-01T12:00:00.000Z',
    });
    expect(fleet.hypervisors[0].state.vcpus_total).toBe(16);
    expect(fleet.instances[0]).toMatchObject({
      uuid: 'vm-1',
      shared_storage: false,
      role: null,
      nodename: 'cmp1',
    });
    expect(fleet.history).toEqual([]);
  });

  it('reads past migrations for cooldown and ping-pong', () => {
    // Prepare
    const migrations = [
      { instance_uuid: 'vm-1', source_host: 'cmp2', dest_host: 'cmp1', at: '2026-12-01T10:00:00Z' },
    ];
    // Act
    const fleet = parse({ now: NOW, hypervisors: [host], instances: [vm], migrations });
    // Assess
    expect(fleet.history).toEqual([{ ...migrations[0], at: '2026-12-01T10:00:00.000Z' }]);
  });

  it.each([
    [
      'a document that is not an object',
      [],
      'fleet.json: (root): must be a JSON object with now, hypervisors and instances',
    ],
    ['a missing now', { hypervisors: [host] }, 'fleet.json: now: is required'],
    [
      'a now without a zone',
      { now: '2026-12-01T12:00:00' },
      'fleet.json: now: must be an ISO-8601 timestamp',
    ],
    ['an unknown field', { now: NOW, hypervisor: [] }, 'fleet.json: hypervisor: unknown field'],
    [
      'hypervisors that are not a list',
      { now: NOW, hypervisors: {} },
      'fleet.json: hypervisors: must be an array',
    ],
    [
      'a host without its zone',
      { now: NOW, hypervisors: [{ host: 'cmp1' }] },
      'fleet.json: hypervisors[0].availability_zone:',
    ],
    [
      'steal above 100 %',
      { now: NOW, instances: [{ ...vm, samples: [{ ...vm.samples[0], steal_percent: 140 }] }] },
      'instances[0].samples[0].steal_percent: must be a number from 0 to 100 percent, got 140',
    ],
    [
      'a sample from the future',
      { now: NOW, instances: [{ ...vm, samples: [{ ...vm.samples[0], ts: '2026-12-01T13:00:00Z' }] }] },
      'instances[0].samples[0].ts: 2026-12-01T13:00:00.000Z is 1 h ahead',
    ],
    [
      'a migration without a time',
      {
        now: NOW,
        hypervisors: [host],
        migrations: [{ instance_uuid: 'a', source_host: 'b', dest_host: 'c' }],
      },
      'fleet.json: migrations[0].at:',
    ],
  ])('rejects %s, naming the file and the field', (_case, doc, message) => {
    // Act
    const text = messageOf(doc);
    // Assess
    expect(text).toContain(message);
  });
});
