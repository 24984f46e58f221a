import { PluginError } from './errors.js';
import type { HostFilter } from './filter.js';
import type { HostWeigher } from './weigher.js';

/** Placeholder for a plugin still being written; fails loudly rather than passing every host. */
export function pendingFilter(name: string): HostFilter<unknown> {
  return {
    name,
    check: () => {
      throw new PluginError(name, 'not implemented yet');
    },
  };
}

export function pendingWeigher(name: string, novaPath: string): HostWeigher<unknown> {
  return {
    name,
    novaPath,
    weigh: () => {
      throw new PluginError(name, 'not implemented yet');
    },
    multiplier: () => 1,
  };
}
