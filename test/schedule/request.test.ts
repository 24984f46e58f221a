import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/model/errors.js';
import { parseScheduleRequest } from '../../lib/schedule/request.js';

const flavor = { name: 'm1.small', vcpus: 1, memory_mb: 512 };

function issuesOf(run: () => unknown): { path: string; message: string }[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.issues;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('parseScheduleRequest', () => {
  it('accepts a request spec with its request id', () => {
    // Act
    const spec = parseScheduleRequest({ request_id: 'r-1', flavor });
    // Assess
    expect(spec).toMatchObject({ request_id: 'r-1', num_instances: 1, flavor: { memory_mb: 512 } });
  });

  it.each([
    ['missing', { flavor }, 'is required'],
    ['empty', { request_id: '', flavor }, 'must be a non-empty string'],
    ['too long', { request_id: 'x'.repeat(256), flavor }, 'must be at most 255 characters'],
    ['split by CRLF', { request_id: 'r-1\r\nx-admin: yes', flavor }, 'control character (U+000D at 3)'],
    ['a lone surrogate', { request_id: 'r-\ud800', flavor }, 'lone surrogate U+D800 at 2'],
    ['a NUL', { request_id: 'r\u0000', flavor }, 'control character (U+0000 at 1)'],
  ])('rejects a request id that is %s', (_case, doc, message) => {
    // Act
    const issues = issuesOf(() => parseScheduleRequest(doc));
    // Assess
    expect(issues).toEqual([{ path: 'request_id', message: expect.stringContaining(message) }]);
  });

  it("lists a missing request id together with the spec's own problems", () => {
    // Act
    const issues = issuesOf(() => parseScheduleRequest({ flavor: { vcpus: -1, memory_mb: 512 } }));
    // Assess
    expect(issues.map((i) => i.path)).toEqual(['request_id', 'flavor.vcpus']);
  });
});
