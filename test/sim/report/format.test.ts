import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCount,
  formatElapsed,
  formatMbps,
  formatMinutes,
  formatPercent,
} from '../../../lib/sim/report/format.js';

describe('report number formats', () => {
  it.each([
    [formatCount, 1_234_567, '1,234,567'],
    [formatCount, 12.6, '13'],
    [formatPercent, 12.345, '12.3%'],
    [formatPercent, 0, '0.0%'],
    [formatMbps, 850, '850 Mbit/s'],
    [formatMbps, 12_400, '12.4 Gbit/s'],
    [formatBytes, 8 * 2 ** 30, '8.0 GiB'],
    [formatBytes, 512 * 2 ** 20, '512 MiB'],
    [formatMinutes, 45, '45 min'],
    [formatMinutes, 90, '1 h 30 min'],
    [formatMinutes, 1440, '24 h'],
    [formatMinutes, 3 * 1440 + 150, '3 d 2 h 30 min'],
    [formatElapsed, 4_250, '4.3 s'],
    [formatElapsed, 97_400, '1 m 37 s'],
  ])('%o(%d) reads %s', (format, value, expected) => {
    expect(format(value)).toBe(expected);
  });
});
