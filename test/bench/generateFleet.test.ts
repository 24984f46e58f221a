import { describe, expect, it } from 'vitest';
import { generateFleet } from '../../bench/generateFleet.js';
import { detect } from '../../lib/rebalance/detect.js';
import { hostObservation, parseFleetDocument } from '../../lib/rebalance/fleetInput.js';
import { settingsWith } from '../rebalance/fixtures.js';
import { fleetDocument } from '../rebalance/planFixtures.js';

describe('generateFleet', () => {
  const shape = { hosts: 20, vms: 300, seed: 5, contendedShare: 0.2 };

  it('gives the same fleet for the same seed, another for another seed', () => {
    // Act
    const a = generateFleet(shape);
    const b = generateFleet(shape);
    const c = generateFleet({ ...shape, seed: 6 });
    // Assess
    expect(JSON.stringify(fleetDocument(b))).toBe(JSON.stringify(fleetDocument(a)));
    expect(JSON.stringify(fleetDocument(c))).not.toBe(JSON.stringify(fleetDocument(a)));
  });

  it('spreads hosts over the zones and makes a share of them contended, with suffering VMs', () => {
    // Prepare
    const fleet = generateFleet(shape);
    // Act
    const report = detect(
      { now: fleet.now, hosts: fleet.hypervisors.map(hostObservation), vms: fleet.instances },
      settingsWith(),
    );
    // Assess
    expect(new Set(fleet.hypervisors.map((h) => h.availability_zone))).toEqual(new Set(['az1', 'az2']));
    expect(fleet.instances).toHaveLength(300);
    const contended = report.hosts.filter((h) => h.status === 'contended');
    expect(contended.length).toBeGreaterThan(0);
    expect(report.suffering.length).toBeGreaterThanOrEqual(contended.length);
    expect(report.hosts.filter((h) => h.status === 'ok').length).toBeGreaterThan(contended.length);
  });

  it('writes a document `placid plan --fleet` accepts', () => {
    // Prepare
    const doc = JSON.parse(JSON.stringify(fleetDocument(generateFleet({ hosts: 4, vms: 20 }))));
    // Act
    const fleet = parseFleetDocument(doc, 'generated.json');
    // Assess
    expect(fleet.instances).toHaveLength(20);
  });
});
