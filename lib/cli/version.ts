/** `placid --version`: the version in placid's package.json (packageRoot.ts finds it, bundled or not). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../config/packageRoot.js';

export function placidVersion(): string {
  return String(JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version);
}
