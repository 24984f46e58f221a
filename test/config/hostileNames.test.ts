/**
 * Config loaders with hostile group and option names: every loader either reads the name as an
 * ordinary one or refuses it with a ConfigError, and nothing ever reaches Object.prototype.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCollectConfig } from '../../lib/collect/loadConfig.js';
import { parseIni } from '../../lib/config/ini.js';
import { parseJsonConfig, resolveConfig } from '../../lib/config/load.js';
import { defaultConfig } from '../../lib/config/options.js';
import { ConfigError, ValidationError } from '../../lib/model/errors.js';
import { parseScenario } from '../../lib/sim/scenario.js';

const PROTO_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'isPrototypeOf',
];
const name = fc.oneof(fc.constantFrom(...PROTO_NAMES), fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/));
const group = fc.oneof(name, fc.constantFrom('DEFAULT', 'filter_scheduler', 'workarounds', 'scheduler'));
const objectKeysBefore = Object.getOwnPropertyNames(Object.prototype).sort();

afterEach(() => {
  // A failure here means a loader wrote onto Object.prototype; clean up so other tests are not poisoned.
  for (const key of Object.getOwnPropertyNames(Object.prototype)) {
    if (!objectKeysBefore.includes(key)) delete (Object.prototype as Record<string, unknown>)[key];
  }
});

/** Runs `load`; a ConfigError / ValidationError is a fine answer, anything else thrown is a bug. */
function refusedOrRead(load: () => unknown): void {
  try {
    load();
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof ValidationError)) throw error;
  }
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(objectKeysBefore);
  expect(({} as Record<string, unknown>).same_host).toBeUndefined();
}

describe('config loaders with hostile names', () => {
  it('INI: [__proto__] same_host = x is an ordinary group, not a prototype write', () => {
    // Act
    const config = resolveConfig(parseIni('[__proto__]\nsame_host = x\n', 'nova.conf'), 'nova.conf');
    // Assess
    expect(({} as Record<string, unknown>).same_host).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(config.extra, '__proto__')?.value).toEqual({ same_host: 'x' });
  });

  it.each(['toString', 'constructor', '__proto__'])(
    'INI: %s = x under [DEFAULT] is a plain option',
    (key) => {
      // Act
      const config = resolveConfig(parseIni(`[DEFAULT]\n${key} = x\n`, 'nova.conf'), 'nova.conf');
      // Assess
      expect(Object.getOwnPropertyDescriptor(config.extra.DEFAULT, key)?.value).toBe('x');
      expect(config.filter_scheduler).toEqual(defaultConfig().filter_scheduler);
    },
  );

  it('INI: [constructor] with any option is an ordinary foreign group', () => {
    const config = resolveConfig(parseIni('[constructor]\nfoo = 1\n', 'nova.conf'), 'nova.conf');
    expect(config.extra.constructor).toEqual({ foo: '1' });
  });

  it('INI and JSON: any group/option names are read or refused, nothing else', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(group, name, fc.constantFrom('x', '1', '')), { maxLength: 6 }),
        (entries) => {
          const ini = entries.map(([g, k, v]) => `[${g}]\n${k} = ${v}\n`).join('');
          refusedOrRead(() => resolveConfig(parseIni(ini, 'nova.conf'), 'nova.conf'));
          const json = `{${entries.map(([g, k, v]) => `${JSON.stringify(g)}: {${JSON.stringify(k)}: ${JSON.stringify(v)}}`).join(',')}}`;
          refusedOrRead(() => resolveConfig(parseJsonConfig(json, 'c.json'), 'c.json'));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('YAML: collector and scenario configs with hostile keys are read or refused, nothing else', () => {
    fc.assert(
      fc.property(name, name, (outer, inner) => {
        const yaml = `prometheus:\n  url: http://127.0.0.1:9090\n  ${inner}: 1\n${outer}:\n  ${inner}: x\n`;
        refusedOrRead(() => parseCollectConfig(yaml, 'collect.yaml'));
        refusedOrRead(() => parseScenario({ [outer]: { [inner]: 1 }, name: 's' }, 'scenario.yaml'));
      }),
      { numRuns: 60 },
    );
  });
});
