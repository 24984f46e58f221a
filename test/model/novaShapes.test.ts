import { describe, expect, it } from 'vitest';
import { parseHostStates } from '../../lib/model/hostSchema.js';
import { hostAttribute } from '../../lib/model/hostState.js';
import { parseRequestSpec } from '../../lib/model/requestSchema.js';

/** Input shapes Nova itself produces, which Placid must take as Nova does (issue 15). */
const FLAVOR = { vcpus: 1, memory_mb: 512 };

describe('request shapes Nova sends', () => {
  it("takes requested_destination.cell as Nova's CellMapping and keeps its uuid", () => {
    // Act
    const spec = parseRequestSpec({
      flavor: FLAVOR,
      requested_destination: { cell: { uuid: 'cell-1-uuid', name: 'cell1' }, allow_cross_cell_move: true },
    });
    // Assess
    expect(spec.requested_destination?.cell).toBe('cell-1-uuid');
  });

  it('still takes the cell as a bare uuid', () => {
    const spec = parseRequestSpec({ flavor: FLAVOR, requested_destination: { cell: 'cell-2-uuid' } });
    expect(spec.requested_destination?.cell).toBe('cell-2-uuid');
  });

  it('names the field when a CellMapping has no uuid', () => {
    expect(() =>
      parseRequestSpec({ flavor: FLAVOR, requested_destination: { cell: { name: 'cell1' } } }),
    ).toThrow(/requested_destination\.cell/);
  });

  it('takes scheduler_hints: null as no hints', () => {
    expect(parseRequestSpec({ flavor: FLAVOR, scheduler_hints: null }).scheduler_hints).toEqual({});
  });

  it("takes pci_requests as Nova's None, a list, or an InstancePCIRequests object", () => {
    // Prepare
    const request = { count: 2, spec: [{ vendor_id: '8086', product_id: '1520' }], alias_name: 'nic' };
    // Act
    const none = parseRequestSpec({ flavor: FLAVOR, pci_requests: null });
    const list = parseRequestSpec({ flavor: FLAVOR, pci_requests: [request] });
    const wrapped = parseRequestSpec({ flavor: FLAVOR, pci_requests: { requests: [request] } });
    // Assess
    expect(none.pci_requests).toEqual([]);
    expect(wrapped.pci_requests).toEqual(list.pci_requests);
    expect(wrapped.pci_requests).toEqual([expect.objectContaining({ count: 2, alias_name: 'nic' })]);
  });

  it('names the field when an InstancePCIRequests object holds a bad request', () => {
    expect(() => parseRequestSpec({ flavor: FLAVOR, pci_requests: { requests: [{ count: 1 }] } })).toThrow(
      /pci_requests/,
    );
  });
});

describe('host shapes Nova holds', () => {
  it('assumes a service-less host is enabled and up, but reads its service as None like Nova', () => {
    // Act
    const [host] = parseHostStates([{ host: 'h1' }]);
    // Assess
    expect(host.service).toMatchObject({ disabled: false, up: true, assumed: true });
    expect(hostAttribute(host, 'service')).toBeNull();
  });

  it('reads a given service as it is', () => {
    const [host] = parseHostStates([{ host: 'h1', service: { disabled: true } }]);
    expect(hostAttribute(host, 'service')).toEqual({ disabled: true, up: true });
  });

  it('takes a memory-bandwidth metric with per-node values and no value', () => {
    const metric = { name: 'numa.membw.current', numa_membw_values: { '0': 40, '1': 60 } };
    const [host] = parseHostStates([{ host: 'h1', metrics: [metric] }]);
    expect(host.metrics).toEqual([metric]);
  });

  it('still refuses a metric value that is not a number, naming the field', () => {
    expect(() =>
      parseHostStates([{ host: 'h1', metrics: [{ name: 'cpu.percent', value: 'high' }] }]),
    ).toThrow(/\[0\]\.metrics\[0\]\.value/);
  });

  it('keeps nested stats dicts and still derives num_instances from a string stat', () => {
    // Act
    const [host] = parseHostStates([
      { host: 'h1', stats: { accel: { vendor: 'nvidia' }, num_instances: '3' } },
    ]);
    // Assess
    expect(host.stats.accel).toEqual({ vendor: 'nvidia' });
    expect(host.num_instances).toBe(3);
  });

  it("derives num_io_ops from the io_workload stat, as Nova's HostState does, unless given", () => {
    // Act
    const [fromStats, explicit] = parseHostStates([
      { host: 'h1', stats: { io_workload: '4' } },
      { host: 'h2', num_io_ops: 1, stats: { io_workload: '4' } },
    ]);
    // Assess
    expect(fromStats.num_io_ops).toBe(4);
    expect(explicit.num_io_ops).toBe(1);
  });
});
