/**
 * Packs reports into report messages within the SQS size limit. A host travels with its instances:
 * the ingest stage rejects an instance whose node is neither stored nor in the same message, and
 * SQS does not keep messages in order. A host whose instances fill more than one message is
 * repeated in each, without samples (the repeat is stored as `stale`, harmlessly).
 */
import { MAX_MESSAGE_BYTES, REPORT_SCHEMA_VERSION } from '../model/reportSchema.js';

export type Report = Record<string, unknown>;

export interface NodeGroup {
  host: Report;
  instances: Report[];
}

const HEAD = `{"schema_version":${REPORT_SCHEMA_VERSION},"hypervisors":[`;
const MIDDLE = '],"instances":[';
const TAIL = ']}';
const ENVELOPE = Buffer.byteLength(HEAD + MIDDLE + TAIL);

class Draft {
  hypervisors: string[] = [];
  instances: string[] = [];
  bytes = ENVELOPE;

  fits(extra: number, maxBytes: number): boolean {
    return this.bytes + extra <= maxBytes;
  }

  add(list: 'hypervisors' | 'instances', json: string): void {
    this[list].push(json);
    this.bytes += Buffer.byteLength(json) + (this[list].length > 1 ? 1 : 0);
  }

  get empty(): boolean {
    return this.hypervisors.length + this.instances.length === 0;
  }

  body(): string {
    return HEAD + this.hypervisors.join(',') + MIDDLE + this.instances.join(',') + TAIL;
  }
}

export function packMessages(groups: readonly NodeGroup[], maxBytes: number = MAX_MESSAGE_BYTES): string[] {
  const bodies: string[] = [];
  let draft = new Draft();
  const flush = () => {
    if (!draft.empty) bodies.push(draft.body());
    draft = new Draft();
  };
  for (const group of groups) {
    const host = JSON.stringify(group.host);
    const instances = group.instances.map((i) => JSON.stringify(i));
    const groupBytes = [host, ...instances].reduce((n, j) => n + Buffer.byteLength(j) + 1, 0);
    if (!draft.fits(groupBytes, maxBytes)) flush();
    if (draft.fits(groupBytes, maxBytes)) {
      draft.add('hypervisors', host);
      for (const i of instances) draft.add('instances', i);
      continue;
    }
    // Too big for one message: spread the instances, the host (without samples) repeated in each.
    const stub = JSON.stringify({ ...group.host, samples: [], gaps: undefined });
    draft.add('hypervisors', host);
    for (const i of instances) {
      if (!draft.fits(Buffer.byteLength(i) + 1, maxBytes)) {
        flush();
        draft.add('hypervisors', stub);
      }
      draft.add('instances', i);
    }
  }
  flush();
  return bodies;
}
