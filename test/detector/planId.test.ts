/** Plan ids an operator types are checked with the rules every id shares (identifierRules.ts). */
import { describe, expect, it } from 'vitest';
import { checkPlanId, InvalidPlanIdError, MAX_PLAN_ID_CHARS } from '../../lib/detector/errors.js';

describe('checkPlanId', () => {
  it.each([
    ['an empty id', '', 'plan id must not be empty;'],
    [
      'an id over 128 characters',
      'p'.repeat(129),
      'plan id is 129 characters long; at most 128 are allowed;',
    ],
    [
      'a control character',
      'plan-1\u001b]0;x',
      'plan id contains a control character (U+001B at 6): "plan-1\uFFFD]0;x";',
    ],
    ['a lone surrogate', 'plan-\ud800', 'plan id is not well-formed Unicode (a lone surrogate U+D800 at 5)'],
  ])('refuses %s in the shared wording, naming the plan id', (_what, planId, text) => {
    let thrown: unknown;
    try {
      checkPlanId(planId);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidPlanIdError);
    expect((thrown as InvalidPlanIdError).message).toContain(text);
    expect((thrown as InvalidPlanIdError).planId).toBe(planId);
  });

  it('accepts an id of exactly 128 characters and the ids Placid makes', () => {
    expect(() => checkPlanId('p'.repeat(MAX_PLAN_ID_CHARS))).not.toThrow();
    expect(() => checkPlanId('plan-3f2a0000000000000000')).not.toThrow();
  });
});
