import { describe, expect, it } from 'vitest';
import { capped, columns, formatNumber, hostLabel } from '../../lib/cli/format.js';

describe('formatNumber', () => {
  it.each([
    [8192, '8192'],
    [0.125, '0.125'],
    [2.042890793692338, '2.0429'],
    [-0.00001, '0'],
    [1e6, '1000000'],
  ])('shows %d as %s', (n, text) => {
    // Act
    const shown = formatNumber(n);
    // Assess
    expect(shown).toBe(text);
  });
});

describe('columns', () => {
  it('pads each column to its widest cell and right-aligns the numeric ones', () => {
    // Act
    const lines = columns(
      [
        ['ComputeFilter', '12', '3'],
        ['AvailabilityZoneFilter', '3', '1'],
      ],
      [1, 2],
    );
    // Assess
    expect(lines).toEqual(['ComputeFilter           12  3', 'AvailabilityZoneFilter   3  1']);
  });
});

describe('hostLabel', () => {
  it.each([
    [{ host: 'cmp1', nodename: 'cmp1' }, 'cmp1'],
    [{ host: 'ironic', nodename: 'node-7' }, 'ironic (node node-7)'],
  ])('labels %j as %s', (h, label) => {
    // Act
    const shown = hostLabel(h);
    // Assess
    expect(shown).toBe(label);
  });
});

describe('capped', () => {
  it('keeps the first items and counts the rest', () => {
    // Act
    const result = capped([1, 2, 3, 4], 3);
    // Assess
    expect(result).toEqual({ shown: [1, 2, 3], rest: 1 });
  });
});
