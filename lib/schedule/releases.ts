/**
 * A scheduler per Nova release an advisory request names (`nova_release`), each built on first use
 * from the operator's config with that release's weighers (lib/config/novaRelease.ts). A handful
 * of releases at most are ever in use, so they are kept.
 */
import { chooseRelease, novaMajor } from '../config/novaRelease.js';
import type { SchedulerConfig } from '../config/options.js';
import { createScheduler, type Plugins } from '../engine/registry.js';
import type { Scheduler } from '../engine/scheduler.js';

/** The scheduler for a request's `nova_release`, and a note when it decides as another release. */
export type ReleaseSchedulers = (requested: string | undefined) => { scheduler: Scheduler; note?: string };

/**
 * @example const forRelease = releaseSchedulers(config, plugins); forRelease('26.2.2').scheduler
 */
export function releaseSchedulers(config: SchedulerConfig, plugins: Plugins = {}): ReleaseSchedulers {
  const built = new Map<string, Scheduler>();
  return (requested) => {
    const { release, note } = chooseRelease(requested, config.placid.nova_release);
    const k = release === undefined ? '' : String(novaMajor(release));
    let scheduler = built.get(k);
    if (!scheduler) {
      scheduler = createScheduler(
        { ...config, placid: { ...config.placid, nova_release: release ?? null } },
        plugins,
      );
      built.set(k, scheduler);
    }
    return note ? { scheduler, note } : { scheduler };
  };
}
