import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/model/errors.js';
import { REPORT_JSON_SCHEMA_PATH, reportJsonSchema } from '../../lib/model/reportJsonSchema.js';
import { MAX_MESSAGE_BYTES, MAX_SAMPLES_PER_REPORT } from '../../lib/model/reportSchema.js';
import { parseReportMessage } from '../../lib/model/reports.js';
import { at, hypervisorDoc, instanceDoc, messageDoc, NOW } from '../store/fixtures.js';

const parse = (doc: unknown) => parseReportMessage(JSON.stringify(doc), NOW, 'test');

/** The ValidationError that `body` raises (fails the test when it raises nothing). */
function rejection(body: string): ValidationError {
  try {
    parseReportMessage(body, NOW, 'test');
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { deeper: value };
  return value;
}

describe('parseReportMessage: valid messages', () => {
  it('returns the hypervisor report with an engine HostState that carries the zone', () => {
    // Act
    const message = parse(messageDoc([hypervisorDoc()]));
    // Assess
    const [report] = message.hypervisors;
    expect(report).toMatchObject({
      host: 'cmp1',
      nodename: 'cmp1',
      availability_zone: 'az1',
      reported_at: at(-1),
    });
    expect(report.state).toMatchObject({
      host: 'cmp1',
      vcpus_total: 16,
      free_ram_mb: 32_768,
      availability_zone: 'az1',
    });
  });

  it('keeps reported_at and samples out of the HostState extras', () => {
    // Act
    const [report] = parse(messageDoc([hypervisorDoc({ rack: 'r12' })])).hypervisors;
    // Assess
    expect(report.state.extra).toEqual({ rack: 'r12' });
  });

  it('normalises timestamps with a zone offset to UTC ISO strings', () => {
    // Act
    const [report] = parse(
      messageDoc([hypervisorDoc({ reported_at: '2026-12-01T20:30:00+09:00' })]),
    ).hypervisors;
    // Assess
    expect(report.reported_at).toBe('2026-12-01T11:30:00.000Z');
  });

  it('defaults an instance nodename to its host and keeps unknown instance fields', () => {
    // Act
    const [inst] = parse(messageDoc([], [instanceDoc({ nodename: undefined, project_id: 'p1' })])).instances;
    // Assess
    expect(inst).toMatchObject({ nodename: 'cmp1', project_id: 'p1', role: 'web', shared_storage: false });
  });

  it('accepts two nodes of one host', () => {
    // Act
    const message = parse(messageDoc([hypervisorDoc({ nodename: 'n1' }), hypervisorDoc({ nodename: 'n2' })]));
    // Assess
    expect(message.hypervisors.map((h) => h.nodename)).toEqual(['n1', 'n2']);
  });

  it('accepts a timestamp exactly five minutes ahead of the receiver', () => {
    // Act
    const message = parse(messageDoc([hypervisorDoc({ reported_at: at(5) })]));
    // Assess
    expect(message.hypervisors[0].reported_at).toBe(at(5));
  });
});

describe('parseReportMessage: hostile and malformed messages', () => {
  const one = (h: Record<string, unknown>) => JSON.stringify(messageDoc([hypervisorDoc(h)]));
  const sample = (s: Record<string, unknown>) =>
    one({ samples: [{ ts: at(-1), steal_percent: 1, cpu_percent: 1, load5: 1, ...s }] });
  const inst = (i: Record<string, unknown>) => JSON.stringify(messageDoc([], [instanceDoc(i)]));

  it.each([
    ['text that is not JSON', 'steal=140', '(root)', /is not JSON/],
    ['a JSON array', '[]', '(root)', /must be a JSON object/],
    ['JSON null', 'null', '(root)', /must be a JSON object/],
    [
      'an unknown schema_version',
      JSON.stringify({ ...messageDoc([hypervisorDoc()]), schema_version: 2 }),
      'schema_version',
      /unsupported schema_version 2; this Placid reads 1/,
    ],
    [
      'a schema_version given as a string',
      JSON.stringify({ ...messageDoc([hypervisorDoc()]), schema_version: '1' }),
      'schema_version',
      /unsupported schema_version "1"/,
    ],
    [
      'no schema_version',
      JSON.stringify({ hypervisors: [hypervisorDoc()] }),
      'schema_version',
      /is required/,
    ],
    ['no reports at all', JSON.stringify(messageDoc()), '(root)', /carries no reports/],
    [
      '140 % steal',
      sample({ steal_percent: 140 }),
      'hypervisors[0].samples[0].steal_percent',
      /from 0 to 100 percent, got 140/,
    ],
    [
      'negative cpu_percent',
      sample({ cpu_percent: -1 }),
      'hypervisors[0].samples[0].cpu_percent',
      /from 0 to 100 percent, got -1/,
    ],
    [
      'negative load5',
      sample({ load5: -0.5 }),
      'hypervisors[0].samples[0].load5',
      /from 0 to 1000000 runnable tasks, got -0.5/,
    ],
    [
      'a number too large to be finite',
      sample({ load5: 'INF' }).replace('"INF"', '1e400'),
      'hypervisors[0].samples[0].load5',
      /from 0 to 1000000 runnable tasks, got null/,
    ],
    [
      'a sample time that is not ISO-8601',
      sample({ ts: 'yesterday' }),
      'hypervisors[0].samples[0].ts',
      /ISO-8601/,
    ],
    [
      'a timestamp without a zone',
      one({ reported_at: '2026-12-01T12:00:00' }),
      'hypervisors[0].reported_at',
      /with a zone/,
    ],
    [
      'a report from two hours in the future',
      one({ reported_at: at(120) }),
      'hypervisors[0].reported_at',
      /2 h ahead of the receiver's clock/,
    ],
    [
      'a sample from next year',
      sample({ ts: '2027-12-01T12:00:00Z' }),
      'hypervisors[0].samples[0].ts',
      /days ahead/,
    ],
    [
      'a migration time in the future',
      inst({ last_migrated_at: at(30) }),
      'instances[0].last_migrated_at',
      /30 min ahead/,
    ],
    [
      'a capacity given as a string',
      one({ vcpus_total: '16' }),
      'hypervisors[0].vcpus_total',
      /expected a number from 0 to 65536 vCPUs, got "16"/,
    ],
    [
      'samples given as an object',
      one({ samples: { ts: at(-1) } }),
      'hypervisors[0].samples',
      /expected array/,
    ],
    ['no host name', one({ host: undefined }), 'hypervisors[0].host', /is required/],
    ['an empty host name', one({ host: '' }), 'hypervisors[0].host', /non-empty/],
    [
      'a host name longer than 255 characters',
      one({ host: 'h'.repeat(256) }),
      'hypervisors[0].host',
      /at most 255/,
    ],
    [
      'no availability zone',
      one({ availability_zone: undefined }),
      'hypervisors[0].availability_zone',
      /is required/,
    ],
    [
      'a flavor without vcpus',
      inst({ flavor: { name: 'm1', memory_mb: 1, root_gb: 1 } }),
      'instances[0].flavor.vcpus',
      /is required \(a number from 0 to 65536 vCPUs\)/,
    ],
    [
      'an unknown server group policy',
      inst({ server_group: { name: 'g', policy: 'spread' } }),
      'instances[0].server_group.policy',
      /anti-affinity/,
    ],
    [
      'the same host twice',
      JSON.stringify(messageDoc([hypervisorDoc(), hypervisorDoc()])),
      'hypervisors[1]',
      /duplicate host\/nodename cmp1\/cmp1 \(first at hypervisors\[0\]\)/,
    ],
    [
      'the same instance twice',
      JSON.stringify(messageDoc([], [instanceDoc(), instanceDoc()])),
      'instances[1].uuid',
      /duplicate instance uuid/,
    ],
    [
      'two samples with one timestamp',
      one({ samples: [1, 2].map(() => ({ ts: at(-1), steal_percent: 1, cpu_percent: 1, load5: 1 })) }),
      'hypervisors[0].samples[1].ts',
      /duplicate sample time/,
    ],
    [
      'too many samples in one report',
      one({
        samples: Array.from({ length: MAX_SAMPLES_PER_REPORT + 1 }, (_, i) => ({
          ts: new Date(NOW.getTime() - i * 1000).toISOString(),
          steal_percent: 1,
          cpu_percent: 1,
          load5: 1,
        })),
      }),
      'hypervisors[0].samples',
      /has 721 samples; at most 720/,
    ],
    [
      'deeply nested extra fields',
      one({ junk: nested(100) }),
      `hypervisors[0].junk${'.deeper'.repeat(29)}`,
      /nested more than 32 levels/,
    ],
  ])('rejects %s, naming the field', (_case, body, path, message) => {
    // Act
    const error = rejection(body);
    // Assess
    expect(error.source).toBe('test');
    expect(error.issues).toContainEqual({
      path: path === '(root)' ? '' : path,
      message: expect.stringMatching(message),
    });
    expect(error.message).toContain(path);
  });

  it('rejects a message above the SQS size limit before parsing it', () => {
    // Prepare
    const body = one({ padding: 'x'.repeat(MAX_MESSAGE_BYTES) });
    // Act
    const error = rejection(body);
    // Assess
    expect(error.issues).toEqual([
      { path: '', message: expect.stringMatching(/at most 256 KiB \(the SQS limit\)/) },
    ]);
  });

  it('rejects a hostile 100,000-level nesting without overflowing the stack', () => {
    // Prepare
    const body = `{"schema_version":1,"hypervisors":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    // Act
    const error = rejection(body);
    // Assess
    expect(error.issues[0].message).toMatch(/nested more than 32 levels/);
  });

  it('lists every problem of a message, not only the first', () => {
    // Act
    const error = rejection(sample({ steal_percent: 140, load5: -1 }));
    // Assess
    expect(error.issues.map((i) => i.path)).toEqual([
      'hypervisors[0].samples[0].steal_percent',
      'hypervisors[0].samples[0].load5',
    ]);
  });
});

describe('report JSON Schema', () => {
  it('matches the committed schemas/report-v1.schema.json (run scripts/gen-schema.ts after changing validators)', () => {
    // Prepare
    const committed = JSON.parse(
      readFileSync(new URL(`../../${REPORT_JSON_SCHEMA_PATH}`, import.meta.url), 'utf8'),
    );
    // Act
    const generated = reportJsonSchema();
    // Assess
    expect(committed).toEqual(generated);
  });

  it('describes schema_version as the constant 1 and requires it', () => {
    // Act
    const schema = reportJsonSchema() as {
      properties: Record<string, { const?: unknown }>;
      required: string[];
    };
    // Assess
    expect(schema.properties.schema_version.const).toBe(1);
    expect(schema.required).toContain('schema_version');
  });
});
