import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exampleInputs } from '../../lib/cli/demo.js';
import { loadConfig } from '../../lib/config/load.js';
import { packageRoot } from '../../lib/config/packageRoot.js';
import { resolveFilters, resolveWeighers } from '../../lib/engine/registry.js';
import { parseHostStates } from '../../lib/model/hostSchema.js';
import { parseRequestSpec } from '../../lib/model/requestSchema.js';
import { runCli } from './runCli.js';

const examples = exampleInputs();
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('packageRoot', () => {
  it.each([
    ['the bundle', 'dist/placid.cjs'],
    ['the source', 'lib/config/packageRoot.ts'],
  ])('finds the package from %s, not from the working directory', (_name, file) => {
    // Prepare
    const root = packageRoot();
    // Act
    const found = packageRoot(pathToFileURL(join(root, file)).href);
    // Assess
    expect(found).toBe(root);
    expect(readJson(join(found, 'package.json')).name).toBe('placid');
  });
});

describe('the demo examples', () => {
  it('hold a valid fleet over several availability zones with one disabled host', () => {
    // Act
    const hosts = parseHostStates(readJson(examples.hosts), examples.hosts);
    // Assess
    const zones = new Set(
      hosts.flatMap((h) => h.aggregates.map((a) => a.metadata.availability_zone).filter(Boolean)),
    );
    expect(hosts.length).toBeGreaterThanOrEqual(10);
    expect(zones.size).toBeGreaterThanOrEqual(2);
    expect(hosts.filter((h) => h.service.disabled)).toHaveLength(1);
    expect(hosts.some((h) => h.aggregates.some((a) => 'compute_variant' in a.metadata))).toBe(true);
  });

  it('hold a valid request', () => {
    // Act
    const spec = parseRequestSpec(readJson(examples.request), examples.request);
    // Assess
    expect(spec.availability_zone).toBe('az1');
  });

  it('configure the filters the demo shows, all of them known', async () => {
    // Act
    const config = await loadConfig(examples.config);
    // Assess
    expect(resolveFilters(config).map((f) => f.name)).toEqual([
      'AvailabilityZoneFilter',
      'ComputeFilter',
      'AggregateInstanceExtraSpecsFilter',
      'ComputeCapabilitiesFilter',
      'ImagePropertiesFilter',
      'ServerGroupAntiAffinityFilter',
      'ServerGroupAffinityFilter',
    ]);
    expect(resolveWeighers(config).map((w) => w.name)).toEqual([
      'RAMWeigher',
      'CPUWeigher',
      'DiskWeigher',
      'IoOpsWeigher',
    ]);
    expect(config.extra.database).toHaveProperty('connection');
  });
});

describe('placid demo', () => {
  it('explains a placement over the sample fleet', async () => {
    // Act
    const run = await runCli(['demo']);
    // Assess
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Placed on: cmp-az1-05\n');
    expect(run.stdout).toMatch(/ServerGroupAntiAffinityFilter\s+4\s+→\s+3\s+\(-1\)/);
    expect(run.stdout).toMatch(/ImagePropertiesFilter \(1\):\n\s+cmp-az1-06/);
  });

  it('prints the same decision as JSON with --json', async () => {
    // Act
    const run = await runCli(['demo', '--json']);
    // Assess
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).selected).toEqual([{ host: 'cmp-az1-05', nodename: 'cmp-az1-05' }]);
  });
});
