/**
 * Seeded randomness for the simulation. Each concern (fleet layout, VM noise, noisy neighbours,
 * migration failures) draws from its own stream derived from the scenario seed and a name, so the
 * run with Placid and the run without it see exactly the same load whatever Placid does: moving a
 * VM or failing a migration never shifts the numbers another concern draws.
 */
import { createHash } from 'node:crypto';
import { seededRandom } from '../engine/random.js';

export type Random = () => number;

/** An independent stream for `name` under `seed`. */
export function stream(seed: number, name: string): Random {
  return seededRandom(seedFor(seed, name));
}

/** A 32-bit seed for `name` under `seed` (for components that take a seed, not a stream). */
export function seedFor(seed: number, name: string): number {
  return createHash('sha256').update(`${seed}/${name}`).digest().readUInt32LE(0);
}

/** A standard normal draw (Box-Muller). */
export function gaussian(random: Random): number {
  const u = Math.max(Number.EPSILON, random());
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** An item picked with probability proportional to its weight. */
export function weighted<T>(random: Random, items: readonly T[], weight: (item: T) => number): T {
  const total = items.reduce((n, item) => n + weight(item), 0);
  let roll = random() * total;
  for (const item of items) {
    roll -= weight(item);
    if (roll < 0) return item;
  }
  return items[items.length - 1];
}

/** A shuffled copy (Fisher-Yates). */
export function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
