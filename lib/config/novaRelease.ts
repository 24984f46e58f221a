/**
 * Which Nova release Placid decides as. Nova's `all_weighers` grew over the releases (see
 * docs/nova-differences.md), so a Nova 26 asking Placid must not be answered with weighers it has
 * never run: HypervisorVersionWeigher's default multiplier (1.0) alone reorders a mixed fleet.
 * The release comes from the request (`nova_release`, sent by the plug-in) or is pinned by the
 * operator (`[placid] nova_release`); the pin wins.
 */

/** The oldest release Placid is checked against (the oracle runs Nova 26.2.2). */
export const OLDEST_NOVA_RELEASE = 26;

/** The first release whose `all_weighers` has each weigher Nova 26 lacks (release notes). */
const WEIGHER_SINCE: Readonly<Record<string, number>> = {
  HypervisorVersionWeigher: 28,
  NumInstancesWeigher: 28,
  ImagePropertiesWeigher: 31,
};

/** The major version of a Nova version string ("26.2.2" → 26), or undefined when it is none. */
export function novaMajor(release: string): number | undefined {
  const match = /^(\d{1,3})(\.\d+)*([.-]?\w+)?$/.exec(release.trim());
  return match ? Number(match[1]) : undefined;
}

/** Whether `all_weighers` holds `weigher` in `release` (every weigher when no release is set). */
export function weigherInRelease(weigher: string, release: string | null | undefined): boolean {
  const major = release ? novaMajor(release) : undefined;
  const since = WEIGHER_SINCE[weigher];
  return major === undefined || since === undefined || major >= since;
}

/** The release a request is decided as, and a note when that is not the release it names. */
export interface ReleaseChoice {
  /** A Nova version string, or undefined for Placid's own set (every weigher it has). */
  release: string | undefined;
  note?: string;
}

/**
 * The release to decide a request as: the operator's pin, else the request's own (an older one
 * than Placid follows is decided as the oldest it follows), else Placid's own set.
 * @example chooseRelease('26.2.2', null) // { release: '26.2.2' }
 */
export function chooseRelease(requested: string | undefined, pinned: string | null): ReleaseChoice {
  if (pinned) {
    const differs = requested !== undefined && novaMajor(requested) !== novaMajor(pinned);
    const note = `decided as Nova ${pinned} ([placid] nova_release), not the request's ${requested}`;
    return differs ? { release: pinned, note } : { release: pinned };
  }
  if (requested === undefined) return { release: undefined };
  const major = novaMajor(requested);
  if (major === undefined) {
    const note = `nova_release ${JSON.stringify(requested)} is not a Nova version; decided with every weigher Placid has`;
    return { release: undefined, note };
  }
  if (major < OLDEST_NOVA_RELEASE) {
    const note = `Placid follows Nova ${OLDEST_NOVA_RELEASE} (Zed) and later; Nova ${requested} was decided as ${OLDEST_NOVA_RELEASE}`;
    return { release: String(OLDEST_NOVA_RELEASE), note };
  }
  return { release: requested };
}
