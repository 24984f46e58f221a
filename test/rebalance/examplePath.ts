import { join } from 'node:path';
import { packageRoot } from '../../lib/config/packageRoot.js';

/** A file of the shipped examples/ folder. */
export function examplePath(name: string): string {
  return join(packageRoot(), 'examples', name);
}
