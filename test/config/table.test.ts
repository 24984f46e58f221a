import { describe, expect, it } from 'vitest';
import { parseIni } from '../../lib/config/ini.js';
import { resolveConfig } from '../../lib/config/load.js';
import { OPTIONS, type SchedulerConfig } from '../../lib/config/options.js';
import { mergeOptionTables } from '../../lib/config/table.js';

const REBALANCE = {
  rebalance: {
    steal_threshold: {
      type: 'float',
      default: 10,
      min: 0,
      help: 'Steal percentage that counts as contention',
    },
    dry_run: { type: 'bool', default: true, help: 'Plan without migrating' },
  },
} as const;

describe('mergeOptionTables', () => {
  it('lets a later group be resolved with its defaults and values', () => {
    // Prepare
    const table = mergeOptionTables(OPTIONS, REBALANCE);
    const doc = parseIni('[rebalance]\nsteal_threshold = 12.5\n', 'nova.conf');
    // Act
    const config = resolveConfig(doc, 'nova.conf', table);
    // Assess
    expect(config.rebalance).toEqual({ steal_threshold: 12.5, dry_run: true });
    expect(config.filter_scheduler.host_subset_size).toBe(1);
  });

  it('gives a configuration usable wherever a SchedulerConfig is', () => {
    // Prepare
    const table = mergeOptionTables(OPTIONS, REBALANCE);
    // Act
    const config: SchedulerConfig = resolveConfig(
      { filter_scheduler: { host_subset_size: 4 } },
      'c.json',
      table,
    );
    // Assess
    expect(config.filter_scheduler.host_subset_size).toBe(4);
  });

  it('checks options of a later group like any other', () => {
    // Prepare
    const table = mergeOptionTables(OPTIONS, REBALANCE);
    const doc = parseIni('[rebalance]\nsteal_treshold = 12\n', 'nova.conf');
    // Act
    const act = () => resolveConfig(doc, 'nova.conf', table);
    // Assess
    expect(act).toThrow('[rebalance] unknown option steal_treshold (did you mean steal_threshold?)');
  });

  it('treats a group as foreign when the table does not register it', () => {
    // Act
    const config = resolveConfig(parseIni('[rebalance]\nsteal_threshold = 12\n', 'nova.conf'), 'nova.conf');
    // Assess
    expect(config.extra.rebalance).toEqual({ steal_threshold: '12' });
  });

  it('adds options to an existing group', () => {
    // Prepare
    const table = mergeOptionTables(OPTIONS, {
      placid: { trace: { type: 'bool', default: false, help: 'x' } },
    } as const);
    // Act
    const config = resolveConfig({ placid: { trace: 'yes' } }, 'c.json', table);
    // Assess
    expect(config.placid.trace).toBe(true);
    expect(config.placid.placement_prefilter).toBe(true);
  });

  it('refuses to register an option twice', () => {
    // Act
    const act = () =>
      mergeOptionTables(OPTIONS, { placid: { seed: { type: 'int', default: 1, help: 'x' } } } as const);
    // Assess
    expect(act).toThrow('option [placid] seed is registered twice');
  });
});
