import { describe, expect, it } from 'vitest';
import { parseIni } from '../../lib/config/ini.js';
import { resolveConfig } from '../../lib/config/load.js';
import { OPTIONS } from '../../lib/config/options.js';
import { mergeOptionTables } from '../../lib/config/table.js';
import { ConfigError } from '../../lib/model/errors.js';
import { REBALANCE_OPTIONS } from '../../lib/rebalance/options.js';
import { defaultRebalanceSettings, parseRebalanceSettings } from '../../lib/rebalance/settings.js';

const TABLE = mergeOptionTables(OPTIONS, REBALANCE_OPTIONS);

function settingsFromIni(body: string) {
  const config = resolveConfig(parseIni(`[rebalance]\n${body}\n`, 'nova.conf'), 'nova.conf', TABLE);
  return parseRebalanceSettings(config.rebalance, 'nova.conf');
}

describe('[rebalance] options', () => {
  it('resolves with the engine config and keeps the issue defaults', () => {
    // Act
    const settings = defaultRebalanceSettings();
    // Assess
    expect(settings).toMatchObject({
      steal_threshold_percent: 10,
      steal_exit_threshold_percent: 5,
      load5_per_vcpu_threshold: 1,
      sustain_minutes: 10,
      host_steal_threshold_percent: 5,
      max_migrations_per_host: 1,
      mode: 'recommend',
      timezone: 'UTC',
      blackout_windows: [],
    });
  });

  it('documents every option with a help text', () => {
    // Act
    const undocumented = Object.entries(REBALANCE_OPTIONS.rebalance).filter(
      ([, spec]) => spec.help.length < 20,
    );
    // Assess
    expect(undocumented).toEqual([]);
  });

  it('parses blackout windows from an INI list in the configured time zone', () => {
    // Act
    const settings = settingsFromIni('blackout_windows = 08:30-09:30, 22:00-02:00\ntimezone = Asia/Tokyo');
    // Assess
    expect(settings.blackout_windows).toEqual([
      { text: '08:30-09:30', start: 510, end: 570 },
      { text: '22:00-02:00', start: 1320, end: 120 },
    ]);
    expect(settings.timezone).toBe('Asia/Tokyo');
  });

  it('accepts blackout windows as a JSON array', () => {
    // Prepare
    const config = resolveConfig({ rebalance: { blackout_windows: ['11:30-13:00'] } }, 'c.json', TABLE);
    // Act
    const settings = parseRebalanceSettings(config.rebalance, 'c.json');
    // Assess
    expect(settings.blackout_windows).toEqual([{ text: '11:30-13:00', start: 690, end: 780 }]);
  });

  it.each([
    [
      'a malformed window',
      'blackout_windows = 9:00-10:00',
      '[rebalance] blackout_windows = ["9:00-10:00"]: item 1: "9:00-10:00" is not HH:MM-HH:MM',
    ],
    [
      'an impossible hour',
      'blackout_windows = 08:00-09:00,25:00-26:00',
      'item 2: "25:00-26:00" starts at an impossible time',
    ],
    ['an empty window', 'blackout_windows = 10:00-10:00', 'item 1: "10:00-10:00" is empty'],
    [
      'windows covering the day',
      'blackout_windows = 00:00-12:00,12:00-00:00',
      'the windows cover the whole day',
    ],
    [
      'an unknown time zone',
      'timezone = Asia/Tokio',
      '[rebalance] timezone = "Asia/Tokio": not an IANA time zone',
    ],
    ['an unknown mode', 'mode = yolo', '[rebalance] mode = "yolo": expected one of recommend, approve, auto'],
    [
      'an exit threshold above entry',
      'steal_exit_threshold_percent = 12',
      'steal_exit_threshold_percent = 12: must not exceed steal_threshold_percent (10)',
    ],
    [
      'a load exit threshold above entry',
      'load5_per_vcpu_exit_threshold = 1.5',
      'load5_per_vcpu_exit_threshold = 1.5: must not exceed',
    ],
    [
      'a percentage above 100',
      'host_steal_threshold_percent = 150',
      'host_steal_threshold_percent = 150: must be a percentage',
    ],
    [
      'a cooldown cap below the cooldown',
      'max_cooldown_hours = 1',
      'max_cooldown_hours = 1: must be >= cooldown_hours (2)',
    ],
  ])('rejects %s, naming the option', (_case, body, message) => {
    // Act
    const act = () => settingsFromIni(body);
    // Assess
    expect(act).toThrow(ConfigError);
    expect(act).toThrow(message);
  });

  it('rejects a negative threshold through the option table, with the file and line', () => {
    // Act
    const act = () => settingsFromIni('steal_threshold_percent = -1');
    // Assess
    expect(act).toThrow('nova.conf:2: [rebalance] steal_threshold_percent = "-1": expected a number >= 0');
  });
});
