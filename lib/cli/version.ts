/**
 * `placid --version`: the version in placid's package.json, found by walking up from this module
 * (lib/cli/ in the repository, dist/ or dist/chunks/ in the bundle and the installed package).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function placidVersion(from: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(from));
  for (let depth = 0; depth < 4; depth++, dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (manifest.name === 'placid') return String(manifest.version);
    } catch {
      // no package.json here: look one folder up
    }
  }
  return 'unknown';
}
