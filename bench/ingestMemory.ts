/**
 * What a warm ingest container keeps between invocations at a fleet size, in heap MiB: the state
 * write memos (lib/store/writeMemo.ts) holding every host and VM of the fleet, as one container
 * that saw every report would hold them, and the known-hosts cache. Filled the way the store fills
 * them (the fingerprint of each parsed report's state), then measured as the heap they retain
 * after a full garbage collection. Added to the handler's own baseline (code, SDK clients) and one
 * batch's working set, this is what must fit the function's memory (lib/infra/config.ts).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { KnownHosts } from '../lib/ingest/knownHosts.js';
import { parseReportMessage } from '../lib/model/reports.js';
import { nodeKey } from '../lib/store/hostItems.js';
import { HOST_MEMO_SIZE, StateWriteMemo, stateFingerprint } from '../lib/store/writeMemo.js';
import { mib } from './stats.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap retained by a full set of memos and known hosts for the reports in `bodies`. */
export function warmContainerHeap(bodies: readonly string[], now: Date) {
  const retained: { instances: StateWriteMemo; hosts: StateWriteMemo; known: KnownHosts }[] = [];
  gc();
  const before = process.memoryUsage().heapUsed;
  const instances = new StateWriteMemo(15 * 60_000);
  const hosts = new StateWriteMemo(15 * 60_000, HOST_MEMO_SIZE);
  const known = new KnownHosts(async () => true);
  let vms = 0;
  for (const body of bodies) {
    const message = parseReportMessage(body, now, 'memory bench');
    for (const r of message.hypervisors) {
      const state = { availability_zone: r.availability_zone, state: r.state };
      hosts.wrote(nodeKey(r.host, r.nodename), stateFingerprint(state), r.reported_at, now.getTime());
    }
    known.remember(message.hypervisors);
    for (const { samples: _s, ...state } of message.instances) {
      instances.wrote(state.uuid, stateFingerprint(state), state.reported_at, now.getTime());
      vms++;
    }
  }
  retained.push({ instances, hosts, known });
  gc();
  const after = process.memoryUsage().heapUsed;
  retained.length = 0;
  return { instance_memo_entries: vms, memo_and_known_hosts_heap_mib: mib(after - before) };
}
