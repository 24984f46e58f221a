import { describe, expect, it } from 'vitest';
import { parseIni } from '../../lib/config/ini.js';
import { resolveConfig } from '../../lib/config/load.js';
import { allocationRatio, ratioConfigWarnings } from '../../lib/engine/ratios.js';
import { ConfigError } from '../../lib/model/errors.js';
import { makeConfig, makeHost } from '../helpers/factories.js';

const fromIni = (text: string) => resolveConfig(parseIni(text, 'nova.conf'), 'nova.conf');

describe('[DEFAULT] *_allocation_ratio, as Nova reads them', () => {
  it.each(['cpu', 'ram', 'disk'])(
    'reads %s_allocation_ratio = 0.0 as unset (the pre-Stein default)',
    (kind) => {
      // Act
      const config = fromIni(`[DEFAULT]\n${kind}_allocation_ratio = 0.0\n`);
      // Assess
      expect(config.DEFAULT[`${kind}_allocation_ratio` as 'cpu_allocation_ratio']).toBeNull();
      const host = makeHost({
        cpu_allocation_ratio: null,
        ram_allocation_ratio: null,
        disk_allocation_ratio: null,
      });
      expect(allocationRatio(host, kind as 'cpu', config)).toBe(kind === 'cpu' ? 4 : 1);
    },
  );

  it.each(['cpu_allocation_ratio = -1', 'ram_allocation_ratio = -0.5', 'initial_disk_allocation_ratio = -2'])(
    'refuses a negative ratio (oslo min 0): %s',
    (line) => {
      expect(() => fromIni(`[DEFAULT]\n${line}\n`)).toThrow(ConfigError);
      expect(() => fromIni(`[DEFAULT]\n${line}\n`)).toThrow(
        /\[DEFAULT\] \w+_allocation_ratio = "-[\d.]+": expected a number >= 0/,
      );
    },
  );

  it("lets a host's reported ratio win; the config only fills in for hosts that report none", () => {
    // Prepare
    const config = makeConfig({ DEFAULT: { cpu_allocation_ratio: 16 } });
    const reporting = makeHost({ host: 'a', cpu_allocation_ratio: 4 });
    const silent = makeHost({ host: 'b', cpu_allocation_ratio: null });
    // Act / Assess
    expect(allocationRatio(reporting, 'cpu', config)).toBe(4);
    expect(allocationRatio(silent, 'cpu', config)).toBe(16);
  });

  it('warns, naming the option, when the config differs from ratios hosts report', () => {
    // Prepare
    const config = makeConfig({ DEFAULT: { cpu_allocation_ratio: 16, ram_allocation_ratio: 1.5 } });
    const hosts = [
      makeHost({ host: 'a', cpu_allocation_ratio: 4, ram_allocation_ratio: 1.5 }),
      makeHost({ host: 'b', cpu_allocation_ratio: 4, ram_allocation_ratio: 1.5 }),
      makeHost({ host: 'c', cpu_allocation_ratio: null, ram_allocation_ratio: null }),
    ];
    // Act
    const warnings = ratioConfigWarnings(hosts, config);
    // Assess
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('[DEFAULT] cpu_allocation_ratio = 16');
    expect(warnings[0]).toContain('2 host(s)');
    expect(warnings[0]).toContain('a reports 4');
  });

  it('does not warn when the config sets no ratio', () => {
    expect(ratioConfigWarnings([makeHost({ cpu_allocation_ratio: 4 })], makeConfig())).toEqual([]);
  });
});
