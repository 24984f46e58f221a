import { describe, expect, it } from 'vitest';
import {
  REPORT_INTERVAL_SECONDS,
  serviceIsUp,
  withReportHeartbeat,
  withSighting,
} from '../../lib/model/liveness.js';

const REPORTED = '2026-12-01T12:00:00.000Z';
const secondsAfter = (seconds: number) => new Date(Date.parse(REPORTED) + seconds * 1000);
const fromReport = withReportHeartbeat({ disabled: false, up: true }, REPORTED);

describe('liveness of a host known from its reports', () => {
  it('stays up while the next report is due plus service_down_time, so a fleet reporting every minute never flaps', () => {
    // Act / Assess: Nova's 60 s window, counted from when the next report was due
    expect(serviceIsUp(fromReport, secondsAfter(REPORT_INTERVAL_SECONDS + 5), 60)).toBe(true);
    expect(serviceIsUp(fromReport, secondsAfter(REPORT_INTERVAL_SECONDS + 60), 60)).toBe(true);
  });

  it('is down once no report came for service_down_time after the next was due', () => {
    expect(serviceIsUp(fromReport, secondsAfter(REPORT_INTERVAL_SECONDS + 61), 60)).toBe(false);
  });

  it("keeps Nova's own earlier heartbeat from the report, with the same allowance", () => {
    // Prepare: Nova last heard from the service 30 s before the collector reported it
    const service = withReportHeartbeat(
      { disabled: false, up: true, last_seen_up: '2026-12-01T11:59:30.000Z' },
      REPORTED,
    );
    // Assess
    expect(service.last_seen_up).toBe('2026-12-01T11:59:30.000Z');
    expect(serviceIsUp(service, secondsAfter(REPORT_INTERVAL_SECONDS + 25), 60)).toBe(true);
    expect(serviceIsUp(service, secondsAfter(REPORT_INTERVAL_SECONDS + 35), 60)).toBe(false);
  });

  it('counts a heartbeat given directly (not from a report) exactly as Nova does', () => {
    const service = { disabled: false, up: true, last_seen_up: REPORTED };
    expect(serviceIsUp(service, secondsAfter(60), 60)).toBe(true);
    expect(serviceIsUp(service, secondsAfter(61), 60)).toBe(false);
  });

  it('keeps a service reported down as down, whatever the time', () => {
    const service = withReportHeartbeat({ disabled: false, up: false }, REPORTED);
    expect(serviceIsUp(service, secondsAfter(1), 60)).toBe(false);
  });
});

describe('a later sighting of an unchanged report', () => {
  const later = secondsAfter(600).toISOString();

  it('moves the heartbeat to the sighting, so the host stays up after its written report went stale', () => {
    // Act
    const seen = withSighting(fromReport, REPORTED, later);
    // Assess
    expect(seen.last_seen_up).toBe(later);
    expect(serviceIsUp(fromReport, secondsAfter(630), 60)).toBe(false);
    expect(serviceIsUp(seen, secondsAfter(630), 60)).toBe(true);
  });

  it('never moves the heartbeat backwards', () => {
    const seen = withSighting(fromReport, REPORTED, later);
    expect(withSighting(seen, later, REPORTED)).toBe(seen);
  });

  it("changes neither a service reported down nor Nova's own heartbeat carried by the report", () => {
    // Prepare
    const down = withReportHeartbeat({ disabled: false, up: false }, REPORTED);
    const novaBeat = withReportHeartbeat(
      { disabled: false, up: true, last_seen_up: secondsAfter(-30).toISOString() },
      REPORTED,
    );
    // Act / Assess
    expect(withSighting(down, REPORTED, later)).toBe(down);
    expect(withSighting(novaBeat, REPORTED, later)).toBe(novaBeat);
  });
});
