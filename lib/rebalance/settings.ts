/**
 * Checks the resolved `[rebalance]` values beyond what an OptionSpec can say (upper bounds,
 * choices, exit below entry, blackout syntax, time zone) and returns typed settings. Every error
 * names the option, the value and what was expected.
 */
import { defaultsFor } from '../config/table.js';
import { ConfigError } from '../model/errors.js';
import { type BlackoutWindow, coversWholeDay, isValidTimeZone, parseBlackoutWindow } from './blackout.js';
import {
  REBALANCE_MODES,
  REBALANCE_OPTIONS,
  type RebalanceMode,
  type RebalanceOptionValues,
} from './options.js';

/** Validated `[rebalance]` settings: option names kept, windows parsed, mode narrowed. */
export type RebalanceSettings = Omit<RebalanceOptionValues, 'blackout_windows' | 'mode'> & {
  mode: RebalanceMode;
  blackout_windows: BlackoutWindow[];
};

const PERCENT_OPTIONS = [
  'steal_threshold_percent',
  'steal_exit_threshold_percent',
  'host_steal_threshold_percent',
  'min_coverage_percent',
  'min_benefit_percent',
] as const;

/**
 * Validates resolved values; `source` names the config file in errors.
 * @throws ConfigError naming the option, e.g. `nova.conf: [rebalance] timezone = "Asia/Tokio": …`
 * @example parseRebalanceSettings(resolveConfig(doc, path, TABLE).rebalance, path)
 */
export function parseRebalanceSettings(values: RebalanceOptionValues, source: string): RebalanceSettings {
  const fail = (option: string, value: unknown, problem: string): never => {
    throw new ConfigError(`${source}: [rebalance] ${option} = ${JSON.stringify(value)}: ${problem}`);
  };
  for (const option of PERCENT_OPTIONS) {
    if (values[option] > 100) fail(option, values[option], 'must be a percentage between 0 and 100');
  }
  if (values.steal_exit_threshold_percent > values.steal_threshold_percent) {
    fail(
      'steal_exit_threshold_percent',
      values.steal_exit_threshold_percent,
      `must not exceed steal_threshold_percent (${values.steal_threshold_percent}); the exit threshold is the lower one`,
    );
  }
  if (values.load5_per_vcpu_exit_threshold > values.load5_per_vcpu_threshold) {
    fail(
      'load5_per_vcpu_exit_threshold',
      values.load5_per_vcpu_exit_threshold,
      `must not exceed load5_per_vcpu_threshold (${values.load5_per_vcpu_threshold})`,
    );
  }
  if (values.max_cooldown_hours < values.cooldown_hours) {
    fail(
      'max_cooldown_hours',
      values.max_cooldown_hours,
      `must be >= cooldown_hours (${values.cooldown_hours})`,
    );
  }
  if (!(REBALANCE_MODES as readonly string[]).includes(values.mode)) {
    fail('mode', values.mode, `expected one of ${REBALANCE_MODES.join(', ')}`);
  }
  if (!isValidTimeZone(values.timezone)) {
    fail('timezone', values.timezone, 'not an IANA time zone this runtime knows (e.g. UTC, Asia/Tokyo)');
  }
  return {
    ...values,
    mode: values.mode as RebalanceMode,
    blackout_windows: parseWindows(values.blackout_windows, fail),
  };
}

function parseWindows(
  texts: readonly string[],
  fail: (option: string, value: unknown, problem: string) => never,
): BlackoutWindow[] {
  const windows = texts.map((text, i) => {
    const parsed = parseBlackoutWindow(text);
    return typeof parsed === 'string' ? fail('blackout_windows', texts, `item ${i + 1}: ${parsed}`) : parsed;
  });
  if (windows.length > 0 && coversWholeDay(windows)) {
    fail('blackout_windows', texts, 'the windows cover the whole day; no migration could ever start');
  }
  return windows;
}

/** The default settings (validated), for tests and callers without a config file. */
export function defaultRebalanceSettings(): RebalanceSettings {
  return parseRebalanceSettings(defaultsFor(REBALANCE_OPTIONS).rebalance, 'defaults');
}
