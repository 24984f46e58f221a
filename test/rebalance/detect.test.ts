import { describe, expect, it } from 'vitest';
import { detect } from '../../lib/rebalance/detect.js';
import { makeHostObservation, makeVm, minuteSamples, NOW, settingsWith } from './fixtures.js';

const SETTINGS = settingsWith();

/** Host-side samples: ten minutes of constant steal. */
function hostSamples(steal: number) {
  return minuteSamples(10, () => ({ steal, load5: 10 })).map(({ ts }) => ({
    ts,
    steal_percent: steal,
    cpu_percent: 80,
    load5: 10,
  }));
}

describe('detect: hosts', () => {
  it('finds a host contended from its VMs, weighting steal by demand so idle VMs do not dilute it', () => {
    // Prepare: a busy VM (4 vCPU × (60 + 20) % = 3.2 vCPUs, 0.8 stolen) and an idle one.
    const vms = [
      makeVm({ uuid: 'busy', reading: { steal: 20, load5: 6, cpu: 60 } }),
      makeVm({ uuid: 'idle', reading: { steal: 0, load5: 0, cpu: 0 } }),
    ];
    // Act
    const [host] = detect({ now: NOW, hosts: [makeHostObservation()], vms }, SETTINGS).hosts;
    // Assess
    expect(host).toMatchObject({
      status: 'contended',
      evidence: { source: 'vms', lossPercent: 25 },
      demandVcpus: 3.2,
      vmsWithData: 2,
    });
    expect(host.reason).toContain(
      'contended: 25.0% of demand lost, above 5.0% (VM samples: 25.0% of demand lost (0.8 of 3.2 vCPUs stolen, 2 of 2 VMs with data))',
    );
  });

  it('decides from the VMs that cover the host when the host metric disagrees, and says so', () => {
    // Prepare: the host reports a plain mean of guest steal (half of 20 %), its VMs lose 25 % of demand.
    const hosts = [makeHostObservation({ samples: hostSamples(10) })];
    const vms = [
      makeVm({ uuid: 'busy', reading: { steal: 20, load5: 6, cpu: 60 } }),
      makeVm({ uuid: 'idle', reading: { steal: 0, load5: 0, cpu: 0 } }),
    ];
    // Act
    const [host] = detect({ now: NOW, hosts, vms }, SETTINGS).hosts;
    // Assess
    expect(host).toMatchObject({ status: 'contended', evidence: { source: 'vms', lossPercent: 25 } });
    expect(host.evidence).toMatchObject({ vmLossPercent: 25, hostMetricPercent: 10, disagree: true });
    expect(host.reason).toContain('host metric 10.0% disagrees by -15.0 points, decided from the VMs');
  });

  it('says the host metric agrees when it is within two points of its VMs', () => {
    // Prepare
    const hosts = [makeHostObservation({ samples: hostSamples(24) })];
    const vms = [makeVm({ reading: { steal: 20, load5: 6, cpu: 60 } })];
    // Act
    const [host] = detect({ now: NOW, hosts, vms }, SETTINGS).hosts;
    // Assess
    expect(host).toMatchObject({ evidence: { source: 'vms', lossPercent: 25 } });
    expect(host.evidence.disagree).toBe(false);
    expect(host.reason).toContain('; host metric 24.0% agrees)');
  });

  it('uses the host metric where its VMs do not cover the host', () => {
    // Prepare: one of three VMs has data (33 % < min_coverage_percent 80).
    const hosts = [makeHostObservation({ samples: hostSamples(2) })];
    const vms = [
      makeVm({ uuid: 'a', reading: { steal: 20, load5: 6, cpu: 60 } }),
      makeVm({ uuid: 'b', samples: [] }),
      makeVm({ uuid: 'c', samples: [] }),
    ];
    // Act
    const [host] = detect({ now: NOW, hosts, vms }, SETTINGS).hosts;
    // Assess
    expect(host).toMatchObject({ status: 'ok', evidence: { source: 'host', lossPercent: 2 } });
    expect(host.reason).toBe(
      'not contended: 2.0% of demand lost, at or below 5.0% (host metric: 2.0% of demand lost; ' +
        'its VMs do not cover it (1 of 3 with data, 25.0% of their demand lost, -23.0 points from the host metric))',
    );
  });

  it('falls back to its VMs when the host samples are stale, and says why', () => {
    // Prepare
    const stale = hostSamples(2).slice(5);
    const vms = [makeVm({ reading: { steal: 20, load5: 6, cpu: 60 } })];
    // Act
    const [host] = detect(
      { now: NOW, hosts: [makeHostObservation({ samples: stale })], vms },
      SETTINGS,
    ).hosts;
    // Assess
    expect(host).toMatchObject({ status: 'contended', evidence: { source: 'vms', lossPercent: 25 } });
    expect(host.reason).toContain(
      '; host metric unused: stale: newest usable sample is 5.0 min old (limit 3 min))',
    );
  });

  it('calls a host unknown when neither it nor its VMs have usable data', () => {
    // Prepare
    const vms = [makeVm({ samples: [] })];
    // Act
    const [host] = detect({ now: NOW, hosts: [makeHostObservation()], vms }, SETTINGS).hosts;
    // Assess
    expect(host.status).toBe('unknown');
    expect(host.reason).toBe(
      'unknown: host samples stale: no usable sample (limit 3 min); none of its 1 VM(s) has usable data',
    );
  });

  it('names the highest-demand VMs whose departure relieves the host as noisy neighbours', () => {
    // Prepare: demands (60 + 30) % of 8, 4 and 2 vCPUs = 7.2, 3.6 and 1.8; 4.2 of 12.6 stolen.
    const vms = [
      makeVm({ uuid: 'small', flavor: { vcpus: 2 }, reading: { steal: 30, load5: 4, cpu: 60 } }),
      makeVm({ uuid: 'big', flavor: { vcpus: 8 }, reading: { steal: 30, load5: 4, cpu: 60 } }),
      makeVm({ uuid: 'mid', flavor: { vcpus: 4 }, reading: { steal: 30, load5: 6, cpu: 60 } }),
    ];
    // Act: 12 vCPUs, so 12.6 of demand is near saturation and the steal calibrates capacity.
    const hosts = [makeHostObservation({ vcpus_total: 12 })];
    const [host] = detect({ now: NOW, hosts, vms }, SETTINGS).hosts;
    // Assess: it delivered 12.6 - 4.2 = 8.4; it may keep 8.4 / 0.95 ≈ 8.84, so ≈ 3.76 must leave: 'big' suffices.
    expect(host.capacityVcpus).toBeCloseTo(8.4, 9);
    expect(host.excessDemandVcpus).toBeCloseTo(12.6 - 8.4 / 0.95, 9);
    expect(host.noisyNeighbours).toEqual([{ uuid: 'big', demandVcpus: 7.2, suffering: false }]);
    expect(host.victims).toEqual(['small', 'mid']);
  });

  it('names as many noisy neighbours as it takes to shed the excess demand', () => {
    // Prepare: demands 90 % of 4, 3 and 2 vCPUs = 3.6, 2.7, 1.8; 4.5 of 8.1 stolen, 3.6 delivered.
    const reading = { steal: 50, load5: 1, cpu: 40 };
    const vms = [
      makeVm({ uuid: 'two', flavor: { vcpus: 2 }, reading }),
      makeVm({ uuid: 'four', flavor: { vcpus: 4 }, reading }),
      makeVm({ uuid: 'three', flavor: { vcpus: 3 }, reading }),
    ];
    // Act: 8 vCPUs, so 8.1 of demand is near saturation and the steal calibrates capacity.
    const hosts = [makeHostObservation({ vcpus_total: 8 })];
    const [host] = detect({ now: NOW, hosts, vms }, SETTINGS).hosts;
    // Assess: 8.1 - 3.6 / 0.95 ≈ 4.31 must leave, more than the biggest VM's 3.6.
    expect(host.noisyNeighbours.map((n) => n.uuid)).toEqual(['four', 'three']);
    expect(host.reason).toContain(
      '4.3 vCPUs of demand must leave; likely noisy neighbours: four (3.6 vCPUs), three (2.7 vCPUs)',
    );
  });

  it('assesses a host that only VMs mention, with unknown zone and capacity', () => {
    // Act
    const report = detect({ now: NOW, hosts: [], vms: [makeVm({ host: 'ghost' })] }, SETTINGS);
    // Assess
    expect(report.hosts).toHaveLength(1);
    expect(report.hosts[0]).toMatchObject({ host: 'ghost', availability_zone: null, status: 'contended' });
  });
});

describe('detect: VMs across runs', () => {
  it('carries suffering through the previous run so hysteresis works', () => {
    // Prepare: steal 7 % is between the exit (5) and entry (10) thresholds.
    const vms = [
      makeVm({ uuid: 'a', reading: { steal: 7, load5: 6 } }),
      makeVm({ uuid: 'b', reading: { steal: 7, load5: 6 } }),
    ];
    // Act
    const report = detect({ now: NOW, hosts: [], vms, previouslySuffering: ['a'] }, SETTINGS);
    // Assess
    expect(report.suffering).toEqual(['a']);
    expect(report.vms.map((v) => v.status)).toEqual(['suffering', 'ok']);
  });

  it('gives every VM a reason', () => {
    // Prepare
    const vms = [
      makeVm({ uuid: 'a' }),
      makeVm({ uuid: 'b', samples: [] }),
      makeVm({ uuid: 'c', reading: { steal: 1, load5: 1 } }),
    ];
    // Act
    const report = detect({ now: NOW, hosts: [makeHostObservation()], vms }, SETTINGS);
    // Assess
    expect(report.vms.map((v) => v.reason.split(':')[0])).toEqual(['suffering', 'stale', 'not suffering']);
    expect(report.now).toBe(NOW.toISOString());
  });
});
