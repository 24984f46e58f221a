import { describe, expect, it } from 'vitest';
import { defineFilter, PASS, type Rejection, reject, rejectionMessage } from '../../lib/engine/filter.js';
import { Fleet } from '../../lib/engine/fleet.js';
import { createScheduler } from '../../lib/engine/registry.js';
import type { HostState } from '../../lib/model/hostState.js';
import { makeConfig, makeContext, makeHost, makeSpec } from '../helpers/factories.js';

/**
 * A filter answers once per host: PASS, or a rejection built once per filter whose words are
 * rendered from the host only when someone reads them.
 */

/** A filter that keeps hosts with fewer than `limit` instances and counts its calls and renders. */
function countingFilter(limit: number) {
  const seen = { checks: 0, renders: 0 };
  const TOO_BUSY: Rejection<undefined> = reject((host) => {
    seen.renders++;
    return `${host.host} runs ${host.num_instances} instances (limit ${limit})`;
  });
  const filter = defineFilter({
    name: 'Busy',
    check: (host) => {
      seen.checks++;
      return host.num_instances < limit ? PASS : TOO_BUSY;
    },
  });
  return { filter, seen, TOO_BUSY };
}

const HOSTS: HostState[] = Array.from({ length: 40 }, (_, i) =>
  makeHost({ host: `h${i}`, nodename: `n${i}`, num_instances: i % 10 }),
);

function schedulerWith(filter: ReturnType<typeof countingFilter>['filter']) {
  const config = makeConfig({
    placid: { placement_prefilter: false },
    filter_scheduler: { enabled_filters: ['Busy'], weight_classes: ['RAMWeigher'] },
  });
  return createScheduler(config, { filters: [filter] });
}

describe('the filter contract', () => {
  it('returns the same preallocated rejection for every host it removes', () => {
    // Prepare
    const { filter, TOO_BUSY } = countingFilter(5);
    const ctx = makeContext();
    // Act
    const verdicts = HOSTS.slice(0, 10).map((h) => filter.check(h, makeSpec(), undefined, ctx));
    // Assess
    expect(verdicts.slice(0, 5)).toEqual([PASS, PASS, PASS, PASS, PASS]);
    for (const v of verdicts.slice(5)) expect(v).toBe(TOO_BUSY);
  });

  it('renders no words in an unexplained decision, and checks each host once', async () => {
    // Prepare
    const { filter, seen } = countingFilter(5);
    // Act
    const decision = await schedulerWith(filter).schedule(Fleet.from(HOSTS), makeSpec(), { explain: false });
    // Assess
    expect(decision.error).toBeNull();
    expect(decision.filter_counts).toEqual([{ filter: 'Busy', start: 40, end: 20, instance_index: 0 }]);
    expect(seen).toEqual({ checks: 40, renders: 0 });
  });

  it('renders the words only for the eliminated hosts an explained decision is asked to show', async () => {
    // Prepare
    const { filter, seen } = countingFilter(5);
    const decision = await schedulerWith(filter).schedule(Fleet.from(HOSTS), makeSpec(), { explain: true });
    const rendersBefore = seen.renders;
    // Act
    const firstTwo = decision.eliminated(2);
    // Assess
    expect(rendersBefore).toBe(0);
    expect(firstTwo.map((e) => e.reason)).toEqual([
      'h5 runs 5 instances (limit 5)',
      'h6 runs 6 instances (limit 5)',
    ]);
    expect(seen.renders).toBe(2);
  });

  it('gives a plain note for a host a plug-in rejects with something that is not a rejection', () => {
    // Prepare: a JavaScript plug-in answering false
    const filter = defineFilter({ name: 'Loose', check: () => false as unknown as typeof PASS });
    // Act
    const message = rejectionMessage(filter, HOSTS[0], makeSpec(), undefined, makeContext());
    // Assess
    expect(message).toBe('rejected by Loose');
  });

  it('has no message for a host that passes', () => {
    const { filter } = countingFilter(5);
    expect(rejectionMessage(filter, HOSTS[0], makeSpec(), undefined, makeContext())).toBeNull();
  });
});
