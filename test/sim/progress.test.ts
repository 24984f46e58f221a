import { describe, expect, it } from 'vitest';
import { progressReporter } from '../../lib/sim/progress.js';

/** Drives a reporter through a 1,440-minute run that takes 100 ms of wall time per simulated minute. */
function run(isTTY: boolean): string {
  let out = '';
  let t = 0;
  const reporter = progressReporter({ write: (s: string) => (out += s), isTTY, columns: 120 }, () => t);
  for (let minute = 1; minute <= 1440; minute++) {
    t += 100;
    reporter.update({ run: 'baseline', minute, minutes: 1440 });
  }
  reporter.done();
  return out;
}

describe('simulation progress', () => {
  it('writes a line every few seconds of wall time (far more often than every 144 simulated minutes), each with the time left', () => {
    const lines = run(false).trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(10 + 1);
    expect(lines[0]).toBe('placid simulate: without Placid: 21/1440 simulated minutes, about 2 min left');
    expect(lines.at(-1)).toBe('placid simulate: without Placid: 1440/1440 simulated minutes, done');
  });

  it('redraws one line in place on a terminal, with the time left', () => {
    const out = run(true);
    expect(out).not.toContain('\n');
    expect(out).toContain('1/1440 min, estimating the time left');
    expect(out).toMatch(/720\/1440 min, about 72 s left/);
  });
});
