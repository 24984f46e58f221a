export { IniValues, parseIni } from './ini.js';
export { type ConfigDocument, loadConfig, parseJsonConfig, resolveConfig } from './load.js';
export { chooseRelease, novaMajor, type ReleaseChoice, weigherInRelease } from './novaRelease.js';
export {
  DEFAULT_ENABLED_FILTERS,
  defaultConfig,
  OPTIONS,
  type OptionSpec,
  type SchedulerConfig,
} from './options.js';
export { didYouMean, nearest } from './suggest.js';
export { type ConfigOf, defaultsFor, mergeOptionTables, type OptionTable } from './table.js';
