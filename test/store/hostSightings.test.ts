import { describe, expect, it } from 'vitest';
import { readFleetView } from '../../lib/fleet/fleetView.js';
import { ConfigError } from '../../lib/model/errors.js';
import { serviceIsUp } from '../../lib/model/liveness.js';
import { FleetSnapshot } from '../../lib/schedule/snapshot.js';
import { FleetStore } from '../../lib/store/fleetStore.js';
import type { StoredHost } from '../../lib/store/hostItems.js';
import { sightingLookbackMs } from '../../lib/store/sightingLookback.js';
import { at, hypervisorDoc, message, NOW, useStore } from './fixtures.js';

const h = useStore();

/** Nova's default `service_down_time`, as ComputeFilter reads it. */
const DOWN_TIME_S = 60;
const setMinutes = (minutes: number) => h.setNow(new Date(NOW.getTime() + minutes * 60_000));
const isUp = (stored: StoredHost | undefined) =>
  stored !== undefined && serviceIsUp(stored.state.service, h.store.now(), DOWN_TIME_S);

/** A message with one unchanged report of `host` taken at minute `minutes` (after parsing, which rejects times ahead of NOW). */
function reportAt(host: string, minutes: number) {
  const parsed = message([hypervisorDoc({ host, nodename: host, vcpus_used: 2 })]);
  return { ...parsed, hypervisors: parsed.hypervisors.map((r) => ({ ...r, reported_at: at(minutes) })) };
}

/** Reports `host`'s unchanged state at each minute from `first` to `last`, as ingest would. */
async function reportEachMinute(host: string, first: number, last: number): Promise<void> {
  for (let minute = first; minute <= last; minute++) {
    setMinutes(minute);
    await h.store.putReports(reportAt(host, minute));
  }
}

describe('host sightings', () => {
  it('keeps a host reporting an unchanged state every minute up at every minute, though its item is not rewritten', async () => {
    // Prepare
    const snapshot = new FleetSnapshot(h.store);
    const readings: string[] = [];
    // Act: 20 minutes of reports, read 30 s after each (just before the next is due)
    for (let minute = 0; minute <= 20; minute++) {
      setMinutes(minute);
      await h.store.putReports(reportAt('steady', minute));
      setMinutes(minute + 0.5);
      await snapshot.refresh();
      const listed = (await h.store.listHosts()).find((x) => x.state.host === 'steady');
      const reads = [await h.store.getHost('steady'), listed, snapshot.get('steady')];
      readings.push(reads.map((r) => (isUp(r) ? 'up' : 'DOWN')).join('/'));
    }
    // Assess: up through every reader, and the item really was skipped in between
    expect(readings).toEqual(Array(21).fill('up/up/up'));
    expect(snapshot.fleet.hosts.find((x) => x.host === 'steady')?.service.up).toBe(true);
    expect((await h.store.getHost('steady'))?.reported_at).not.toBe(at(20));
  });

  it("shows an unchanged host's newest report in the fleet view, not its stored state's", async () => {
    // Prepare: the state is written at minute 0; the reports of minutes 1–6 change nothing
    await reportEachMinute('viewed', 0, 6);
    setMinutes(6.5);
    // Act
    const view = await readFleetView(h.store);
    // Assess
    const host = view.zones.flatMap((z) => z.hosts).find((x) => x.host === 'viewed');
    expect((await h.store.getHost('viewed'))?.reported_at).toBe(at(0));
    expect([host?.status, host?.reported_at, host?.report_age_seconds]).toEqual(['up', at(6), 30]);
  });

  it('reads a host that stops reporting as down once a report interval and service_down_time have passed', async () => {
    // Prepare
    await reportEachMinute('stops', 0, 5);
    const snapshot = new FleetSnapshot(h.store);
    // Act
    setMinutes(7);
    const atLimit = await h.store.getHost('stops');
    await snapshot.refresh();
    const upAtLimit = [isUp(atLimit), isUp(snapshot.get('stops'))];
    setMinutes(7.05);
    const after = await h.store.getHost('stops');
    await snapshot.refresh();
    const upAfter = [isUp(after), isUp(snapshot.get('stops'))];
    // Assess: the last sighting (minute 5) vouches until 5 + 1 + 1, not longer
    expect(atLimit?.seen_at).toBe(at(5));
    expect(upAtLimit).toEqual([true, true]);
    expect(upAfter).toEqual([false, false]);
  });

  it('never moves a heartbeat backwards for a redelivered older sighting', async () => {
    // Prepare
    await reportEachMinute('redelivered', 0, 4);
    const snapshot = new FleetSnapshot(h.store);
    await snapshot.refresh();
    // Act: an old batch's sighting, written again later
    setMinutes(4.5);
    await h.store.putSightings([{ host: 'redelivered', nodename: 'redelivered', reported_at: at(1) }]);
    await snapshot.refresh();
    // Assess
    expect((await h.store.getHost('redelivered'))?.seen_at).toBe(at(4));
    expect(snapshot.get('redelivered')?.seen_at).toBe(at(4));
    expect(snapshot.get('redelivered')?.state.service.last_seen_up).toBe(at(4));
  });

  it('keeps the sighting held in the snapshot when a claim rewrites the item with its older report', async () => {
    // Prepare
    await reportEachMinute('claimed', 0, 3);
    const snapshot = new FleetSnapshot(h.store);
    await snapshot.refresh();
    // Act: a claim bumps the item's version; its reported_at is still minute 0
    setMinutes(3.5);
    await h.store.claimResources('claimed', 'claimed', { vcpus: 1, memory_mb: 512, disk_gb: 0 }, {});
    setMinutes(3.6);
    await snapshot.refresh();
    // Assess
    const held = snapshot.get('claimed');
    expect(held?.reported_at).toBe(at(0));
    expect(held?.claims).not.toEqual({});
    expect(held?.state.service.last_seen_up).toBe(at(3));
  });
});

describe('sighting lookback', () => {
  /** A store on the harness's tables whose readers judge liveness by `serviceDownTimeSeconds`. */
  const storeJudging = (serviceDownTimeSeconds?: number) =>
    new FleetStore({
      doc: h.local.client,
      tables: h.store.ctx.tables,
      clock: h.store.ctx.clock,
      serviceDownTimeSeconds,
    });

  it("keeps a host up 400 s after its last sighting with service_down_time = 600, and down with Nova's 60", async () => {
    // Prepare: the state is written at minute -10; the unchanged reports up to minute 0 are only sighted
    await reportEachMinute('patient', -10, 0);
    h.setNow(new Date(NOW.getTime() + 400_000));
    // Act
    const long = await storeJudging(600).getHost('patient');
    const nova = await storeJudging().getHost('patient');
    // Assess
    const now = h.store.now();
    expect(long?.seen_at).toBe(at(0));
    expect(long && serviceIsUp(long.state.service, now, 600)).toBe(true);
    expect(nova?.reported_at).toBe(at(-10));
    expect(nova && serviceIsUp(nova.state.service, now, DOWN_TIME_S)).toBe(false);
  });

  it('covers the report interval, service_down_time and a margin for ingest delay', () => {
    expect(sightingLookbackMs()).toBe(5 * 60_000);
    expect(sightingLookbackMs({ serviceDownTimeSeconds: 600 })).toBe((600 + 60 + 180) * 1000);
    expect(sightingLookbackMs({ serviceDownTimeSeconds: 600, reportIntervalSeconds: 300 })).toBe(
      (600 + 300 + 180) * 1000,
    );
  });

  it('rejects a service_down_time that is not a positive number of seconds, naming the field', () => {
    expect(() => sightingLookbackMs({ serviceDownTimeSeconds: 0 })).toThrow(ConfigError);
    expect(() => sightingLookbackMs({ reportIntervalSeconds: Number.NaN })).toThrow(
      'reportIntervalSeconds must be a finite number of seconds > 0, got NaN',
    );
  });
});
