/**
 * oslo's version helpers as ImagePropertiesFilter uses them: hypervisor versions as Nova stores
 * them (an integer) turned into text, and `img_hv_requested_version` predicates over that text.
 */

/** A check of a hypervisor version string, e.g. '6.0.0'. */
export type VersionPredicate = (version: string) => boolean;

/** oslo's convert_version_to_str: 6000000 -> '6.0.0', 5000 -> '5.0' (base-1000 groups). */
export function hypervisorVersionText(version: number): string {
  const parts: number[] = [];
  for (let n = version; n > 0; n = Math.floor(n / 1000)) parts.unshift(n % 1000);
  return parts.join('.');
}

const COMPARISONS: Readonly<Record<string, (c: number) => boolean>> = {
  '<': (c) => c < 0,
  '<=': (c) => c <= 0,
  '==': (c) => c === 0,
  '!=': (c) => c !== 0,
  '>=': (c) => c >= 0,
  '>': (c) => c > 0,
};

/**
 * oslo's VersionPredicate: comma-separated comparisons, all of which must hold, between versions
 * ordered like Python package versions (PEP 440), so '==6.2' holds for 6.2.0. Undefined if malformed.
 */
export function parseVersionPredicate(text: string): VersionPredicate | undefined {
  const checks: { holds: (c: number) => boolean; version: PackageVersion }[] = [];
  for (const part of text.split(',')) {
    const m = /^\s*(<=|>=|<|>|!=|==)\s*(\S+)\s*$/.exec(part);
    const version = m ? parseVersion(m[2]) : undefined;
    if (!m || !version) return undefined;
    checks.push({ holds: COMPARISONS[m[1]], version });
  }
  return (versionText) => {
    const v = parseVersion(versionText);
    return v !== undefined && checks.every((c) => c.holds(compareVersions(v, c.version)));
  };
}

/** A PEP 440 version reduced to its sort key parts. */
interface PackageVersion {
  epoch: number;
  release: number[];
  /** [rank of a/b/rc, number]; Infinity / -Infinity rank for "none" per PEP 440 ordering. */
  pre: [number, number];
  post: number;
  dev: number;
  local: (number | string)[] | null;
}

const PEP440 =
  /^v?(?:(\d+)!)?(\d+(?:\.\d+)*)(?:[-_.]?(alpha|beta|preview|pre|rc|a|b|c)[-_.]?(\d+)?)?(?:-(\d+)|[-_.]?(post|rev|r)[-_.]?(\d+)?)?(?:[-_.]?(dev)[-_.]?(\d+)?)?(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?$/i;
const PRE_RANK: Readonly<Record<string, number>> = {
  a: 0,
  alpha: 0,
  b: 1,
  beta: 1,
  c: 2,
  rc: 2,
  pre: 2,
  preview: 2,
};

function parseVersion(text: string): PackageVersion | undefined {
  const m = PEP440.exec(text.trim());
  if (!m) return undefined;
  const num = (s: string | undefined) => (s ? Number(s) : 0);
  const hasPost = m[5] !== undefined || m[6] !== undefined;
  const hasDev = m[8] !== undefined;
  const release = m[2].split('.').map(Number);
  while (release.length > 1 && release[release.length - 1] === 0) release.pop();
  return {
    epoch: num(m[1]),
    release,
    // A dev release without pre or post sorts before every pre-release of that version.
    pre: m[3] ? [PRE_RANK[m[3].toLowerCase()], num(m[4])] : [!hasPost && hasDev ? -Infinity : Infinity, 0],
    post: hasPost ? num(m[5] ?? m[7]) : -Infinity,
    dev: hasDev ? num(m[9]) : Infinity,
    local: m[10] ? m[10].split(/[-_.]/).map((s) => (/^\d+$/.test(s) ? Number(s) : s.toLowerCase())) : null,
  };
}

function compareVersions(a: PackageVersion, b: PackageVersion): number {
  return (
    a.epoch - b.epoch ||
    compareSeq(a.release, b.release, 0) ||
    compareSeq(a.pre, b.pre, 0) ||
    cmp(a.post, b.post) ||
    cmp(a.dev, b.dev) ||
    compareLocal(a.local, b.local)
  );
}

function cmp(a: number | string, b: number | string): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

/** Element-wise, the shorter sequence padded with `pad` (releases have their trailing zeros trimmed). */
function compareSeq(a: readonly number[], b: readonly number[], pad: number): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const c = cmp(a[i] ?? pad, b[i] ?? pad);
    if (c) return c;
  }
  return 0;
}

/** No local label sorts first; numeric segments sort after alphanumeric ones. */
function compareLocal(a: PackageVersion['local'], b: PackageVersion['local']): number {
  if (!a || !b) return a ? 1 : b ? -1 : 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (typeof x !== typeof y) return typeof x === 'number' ? 1 : -1;
    const c = cmp(x, y);
    if (c) return c;
  }
  return a.length - b.length;
}
