import { openLocalStore } from '../../lib/local/localStore.js';
import { parseReportMessage } from '../../lib/model/reports.js';
import { hypervisorDoc, instanceDoc, messageDoc } from '../store/fixtures.js';
import { tempFiles } from './runCli.js';

/** A local store (in a fresh temp dir) holding cmp1 and cmp2 and VM `vm` on cmp1, reported just now. */
export async function storeWithVm(vm: string, prefix = 'placid-migrate-'): Promise<string> {
  const dir = tempFiles(prefix).dir;
  const now = new Date();
  const ts = now.toISOString();
  const doc = messageDoc(
    [
      hypervisorDoc({ host: 'cmp1', nodename: 'cmp1', reported_at: ts, samples: [] }),
      hypervisorDoc({ host: 'cmp2', nodename: 'cmp2', reported_at: ts, samples: [] }),
    ],
    [
      instanceDoc({
        uuid: vm,
        reported_at: ts,
        samples: [{ ts, steal_percent: 14, load5: 2, cpu_percent: 70 }],
      }),
    ],
  );
  const local = await openLocalStore({ dataDir: dir });
  try {
    await local.store.putReports(parseReportMessage(JSON.stringify(doc), now, 'test'));
  } finally {
    await local.close();
  }
  return dir;
}
