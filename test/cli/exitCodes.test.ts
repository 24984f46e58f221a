import { describe, expect, it } from 'vitest';
import { InputError } from '../../lib/cli/errors.js';
import { exitCodeFor } from '../../lib/cli/exitCodes.js';
import { NoValidHostError, PluginError } from '../../lib/engine/errors.js';
import { WorkflowDefinitionError } from '../../lib/local/workflowDefinition.js';
import { ConfigError, RequestError, ValidationError } from '../../lib/model/errors.js';

describe('exitCodeFor', () => {
  it.each([
    ['NoValidHostError', new NoValidHostError('none'), 1],
    ['ValidationError', new ValidationError('hosts.json', [{ path: '[0].host', message: 'required' }]), 2],
    ['ConfigError', new ConfigError('bad'), 2],
    ['RequestError', new RequestError('bad'), 2],
    ['PluginError', new PluginError('JsonFilter', 'bad query'), 2],
    ['InputError', new InputError('unreadable'), 2],
    // detect and serve run the workflow too: a bad --template is bad input for them as for migrate.
    ['WorkflowDefinitionError', new WorkflowDefinitionError('t.json', 'cannot read it (ENOENT)'), 2],
    ['any other error (a bug)', new TypeError('oops'), 3],
  ])('maps %s to exit status %i', (_name, error, status) => {
    // Act
    const code = exitCodeFor(error);
    // Assess
    expect(code).toBe(status);
  });
});
