/**
 * The Node versions package.json's `engines` promises are ones every locked dependency declares
 * too, so `npm ci` on a supported Node prints no EBADENGINE.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// semver comes with npm's own tree (a dependency of several packages here); only the test uses it.
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string };
  satisfies(version: string, range: string): boolean;
};
const read = (file: string) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));

describe("package.json's engines", () => {
  const ours: string = read('package.json').engines.node;
  const lowest = ours.split('||').map((range) => semver.minVersion(range.trim()).version);

  it.each(lowest)('Node %s satisfies every locked package that declares engines.node', (version) => {
    const packages = read('package-lock.json').packages as Record<string, { engines?: { node?: string } }>;
    const refusing = Object.entries(packages)
      .filter(([path, p]) => path !== '' && typeof p.engines?.node === 'string')
      .filter(([, p]) => !semver.satisfies(version, p.engines?.node as string))
      .map(([path, p]) => `${path} (${p.engines?.node})`);
    expect(refusing).toEqual([]);
  });
});
