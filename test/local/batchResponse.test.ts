import { describe, expect, it } from 'vitest';
import { interpretBatchResponse } from '../../lib/local/batchResponse.js';

const batch = ['m1', 'm2', 'm3'];

describe('interpretBatchResponse', () => {
  it.each([
    ['no reply', undefined],
    ['a null reply', null],
    ['an empty object', {}],
    ['a null batchItemFailures', { batchItemFailures: null }],
    ['an empty batchItemFailures', { batchItemFailures: [] }],
  ])('counts every record as done for %s', (_name, reply) => {
    const verdict = interpretBatchResponse(batch, reply);
    expect([...verdict.failedIds]).toEqual([]);
    expect(verdict.wholeBatch).toBeUndefined();
  });

  it('fails exactly the records listed', () => {
    const verdict = interpretBatchResponse(batch, { batchItemFailures: [{ itemIdentifier: 'm2' }] });
    expect([...verdict.failedIds]).toEqual(['m2']);
    expect(verdict.wholeBatch).toBeUndefined();
  });

  it.each([
    ['a string reply', 'ok'],
    ['an array reply', [{ itemIdentifier: 'm1' }]],
    ['batchItemFailures that is not a list', { batchItemFailures: { itemIdentifier: 'm1' } }],
    ['an empty itemIdentifier', { batchItemFailures: [{ itemIdentifier: '' }] }],
    ['a null itemIdentifier', { batchItemFailures: [{ itemIdentifier: null }] }],
    ['a misspelt key', { batchItemFailures: [{ itemIdentifer: 'm1' }] }],
    ['an id from another batch', { batchItemFailures: [{ itemIdentifier: 'm9' }] }],
  ])('fails the whole batch for %s', (_name, reply) => {
    const verdict = interpretBatchResponse(batch, reply);
    expect([...verdict.failedIds]).toEqual(batch);
    expect(verdict.wholeBatch).toEqual(expect.any(String));
  });
});
