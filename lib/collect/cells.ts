/**
 * The Nova cell of each host (its report's `cell_uuid`), so the planner keeps every move inside one
 * cell: Nova refuses a live migration across cells, and would do so only after Placid drained the
 * node. Nova's compute API names no host's cell (only `nova-manage cell_v2 list_hosts` does), so
 * the operator maps them in `inventory.cells`: cell uuid → host-name patterns (full match). A host
 * two cells claim, or none while cells are configured, gets no cell and the run says so; the
 * planner then moves nothing off it (lib/rebalance/destination.ts).
 */
export interface CellResolver {
  /** The host's cell uuid; null: no cells configured, or the host is in none or two. */
  cellOf(host: string): string | null;
  /** Hosts without exactly one cell, as sentences for the run summary. */
  problems(hosts: readonly string[]): string[];
}

export function cellResolver(cells: Readonly<Record<string, readonly string[]>>): CellResolver {
  const patterns = Object.entries(cells).map(
    ([cell, hosts]) => [cell, hosts.map((h) => new RegExp(`^(?:${h})$`))] as const,
  );
  const claims = (host: string) =>
    patterns.filter(([, res]) => res.some((re) => re.test(host))).map(([c]) => c);
  return {
    cellOf: (host) => {
      const found = claims(host);
      return found.length === 1 ? found[0] : null;
    },
    problems: (hosts) => {
      if (patterns.length === 0) return [];
      return hosts.flatMap((host) => {
        const found = claims(host);
        if (found.length === 1) return [];
        return [
          found.length === 0
            ? `host ${host} is in no cell of inventory.cells: its VMs are not moved`
            : `host ${host} is in cells ${found.sort().join(', ')} of inventory.cells: its VMs are not moved`,
        ];
      });
    },
  };
}
