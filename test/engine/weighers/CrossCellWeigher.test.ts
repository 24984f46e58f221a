import { describe, expect, it } from 'vitest';
import { CrossCellWeigher } from '../../../lib/engine/weighers/CrossCellWeigher.js';
import type { RequestSpecInput } from '../../../lib/model/requestSchema.js';
import { makeSpec } from '../../helpers/factories.js';
import { finalWeights, hostsWith, rawWeights } from './weigh.js';

const crossCellMove = makeSpec({ requested_destination: { cell: 'cell-a', allow_cross_cell_move: true } });
const hosts = () => hostsWith([{ cell_uuid: 'cell-a' }, { cell_uuid: 'cell-b' }, { cell_uuid: null }]);

describe('CrossCellWeigher', () => {
  it.each<[string, RequestSpecInput['requested_destination']]>([
    ['no requested destination', null],
    ['a cell without allow_cross_cell_move', { cell: 'cell-a' }],
    ['allow_cross_cell_move = false', { cell: 'cell-a', allow_cross_cell_move: false }],
    ['allow_cross_cell_move without a cell', { host: 'h0', allow_cross_cell_move: true }],
    ['an empty cell', { cell: '', allow_cross_cell_move: true }],
  ])('is skipped for a request with %s', (_case, destination) => {
    // Prepare
    const spec = makeSpec({ requested_destination: destination });
    // Act
    const raw = rawWeights(CrossCellWeigher, hosts(), spec);
    // Assess
    expect(raw).toBe('ALL_ZERO');
  });

  it('weighs 1 in the requested cell and -1 in any other', () => {
    expect(rawWeights(CrossCellWeigher, hosts(), crossCellMove)).toEqual([1, -1, -1]);
  });

  it('keeps the move in its cell by the default 1000000 (min-max gives 1 and 0)', () => {
    expect(finalWeights(CrossCellWeigher, hosts(), crossCellMove)).toEqual([1_000_000, 0, 0]);
  });
});
