import type { Elimination, HostWeight, ScheduleDecision } from '../engine/explain.js';
import type { FilterCount } from '../engine/filterHandler.js';
import type { RequestSpec } from '../model/requestSpec.js';
import { capped, columns, formatNumber, hostLabel, indent, plural } from './format.js';

/** How many weighed hosts, and eliminated hosts per filter, the readable output shows. */
export const TOP_WEIGHED = 5;
export const ELIMINATED_PER_FILTER = 10;
const SEE_ALL = '(--json lists them all)';

/** The decision for people: outcome, per-filter counts, top weighed hosts with their weigher breakdown, eliminations. */
export function formatDecision(decision: ScheduleDecision, spec: RequestSpec): string {
  const multi = spec.num_instances > 1;
  const sections = [
    [requestLine(spec), ...outcome(decision)],
    filterTable(decision.filter_counts, multi),
    weighedHosts(decision.weighed ?? [], multi),
    eliminatedHosts(decision.eliminated(), multi),
  ];
  return `${sections.map((lines) => lines.join('\n')).join('\n\n')}\n`;
}

function requestLine(spec: RequestSpec): string {
  const f = spec.flavor;
  const disk = f.root_gb + f.ephemeral_gb;
  const where = [
    spec.availability_zone ? `availability zone ${spec.availability_zone}` : '',
    spec.instance_group
      ? ['server group', spec.instance_group.name, `(${spec.instance_group.policy})`]
          .filter(Boolean)
          .join(' ')
      : '',
  ].filter(Boolean);
  const size = `${f.vcpus} vCPU, ${f.memory_mb} MB RAM, ${disk} GB disk`;
  return `Request ${spec.request_id}: ${spec.num_instances} × ${f.name} (${size})${where.map((w) => `, ${w}`).join('')}`;
}

function outcome(decision: ScheduleDecision): string[] {
  if (decision.error) return [`Result: ${decision.error.type}: ${decision.error.message}`];
  const alternates = (hosts: { host: string; nodename: string }[]) =>
    hosts.length > 0 ? hosts.map(hostLabel).join(', ') : 'none';
  if (decision.placements.length === 1) {
    const [p] = decision.placements;
    return [`Placed on: ${hostLabel(p.host)}`, `Alternates: ${alternates(p.alternates)}`];
  }
  return [
    `Placed ${plural(decision.placements.length, 'instance')}:`,
    ...indent(
      columns(
        decision.placements.map((p, i) => [
          `#${i}`,
          hostLabel(p.host),
          `alternates: ${alternates(p.alternates)}`,
        ]),
      ),
      '  ',
    ),
  ];
}

function filterTable(counts: readonly FilterCount[], multi: boolean): string[] {
  if (counts.length === 0) return ['Filters: none ran (no filters enabled, or forced hosts skip them)'];
  const rows = counts.map((c) => [
    ...(multi ? [`#${c.instance_index}`] : []),
    c.filter,
    String(c.start),
    '→',
    String(c.end),
    c.end < c.start ? `(-${c.start - c.end})` : '',
  ]);
  const right = multi ? [2, 4] : [1, 3];
  return ['Filters (hosts in → out):', ...indent(columns(rows, right), '  ')];
}

function weighedHosts(weighed: readonly HostWeight[], multi: boolean): string[] {
  if (weighed.length === 0) return ['Weighed: no host passed every filter'];
  const forWhom = multi ? ' for instance #0' : '';
  const head = `Weighed hosts (${plural(weighed.length, 'host')} passed every filter${forWhom}; best first):`;
  const { shown, rest } = capped(weighed, TOP_WEIGHED);
  // One table for every shown host, so the columns line up from host to host.
  const parts = columns(shown.flatMap(breakdownRows));
  const lines = [head];
  let row = 0;
  shown.forEach((w, i) => {
    lines.push(`  ${i + 1}. ${hostLabel(w.host)}  weight ${formatNumber(w.weight)}`);
    lines.push(...indent(parts.slice(row, row + w.breakdown.length), '       '));
    row += w.breakdown.length;
  });
  if (weighed.length === 1) lines.push('     (a single host is not weighed)');
  if (rest > 0) lines.push(`  … and ${plural(rest, 'more host')} ${SEE_ALL}`);
  return lines;
}

/** Each weigher's part of a host's weight: raw → normalised × multiplier = contribution. */
function breakdownRows(w: HostWeight): string[][] {
  return w.breakdown.map((p) => [
    p.weigher,
    `raw ${formatNumber(p.raw)}`,
    `normalised ${formatNumber(p.normalized)}`,
    `× ${formatNumber(p.multiplier)}`,
    `= ${formatNumber(p.normalized * p.multiplier)}`,
  ]);
}

function eliminatedHosts(eliminated: readonly Elimination[], multi: boolean): string[] {
  if (eliminated.length === 0) return ['Eliminated: none'];
  const byFilter = new Map<string, Elimination[]>();
  for (const e of eliminated) {
    const group = byFilter.get(e.filter);
    if (group) group.push(e);
    else byFilter.set(e.filter, [e]);
  }
  const lines = [`Eliminated (${plural(eliminated.length, 'host')}):`];
  for (const [filter, hosts] of byFilter) {
    const { shown, rest } = capped(hosts, ELIMINATED_PER_FILTER);
    lines.push(`  ${filter} (${hosts.length}):`);
    const rows = shown.map((e) => [...(multi ? [`#${e.instance_index}`] : []), hostLabel(e), e.reason]);
    lines.push(...indent(columns(rows), '    '));
    if (rest > 0) lines.push(`    … and ${plural(rest, 'more host')} ${SEE_ALL}`);
  }
  return lines;
}
