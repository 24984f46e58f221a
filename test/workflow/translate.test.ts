import { describe, expect, it } from 'vitest';
import {
  ConsulApiError,
  ConsulNodeMismatchError,
  ConsulUnreachableError,
} from '../../lib/drivers/consul/errors.js';
import {
  DrainTimeoutError,
  EvictionBlockedError,
  KubernetesApiError,
  UnmanagedPodsError,
} from '../../lib/drivers/kubernetes/errors.js';
import {
  NovaConflictError,
  OpenStackBadRequestError,
  OpenStackTimeoutError,
  OpenStackUnavailableError,
} from '../../lib/drivers/openstack/errors.js';
import { BatchWriteError } from '../../lib/store/errors.js';
import { LeaseBusyError, type WorkflowError } from '../../lib/workflow/errors.js';
import { translate } from '../../lib/workflow/translate.js';

const site = { service: 'compute' as const, method: 'POST', path: '/servers/x/action' };
const pod = { namespace: 'default', name: 'db-0' };
const throttled = Object.assign(new Error('slow down'), { name: 'ThrottlingException' });

describe('translate', () => {
  it.each([
    ['Nova 503', new OpenStackUnavailableError(site, 503, 'busy'), 'NovaUnavailableError', true],
    ['a Nova timeout', new OpenStackTimeoutError(site, 100), 'NovaUnavailableError', true],
    ['Nova 409', new NovaConflictError(site, 409, 'task_state migrating'), 'ServerBusyError', true],
    ['Nova 400', new OpenStackBadRequestError(site, 400, 'bad host'), 'NovaRequestError', false],
    ['a Kubernetes 503', new KubernetesApiError('cordon', 503, 'down'), 'KubernetesUnavailableError', true],
    ['a Kubernetes 403', new KubernetesApiError('cordon', 403, 'forbidden'), 'DrainRefusedError', false],
    [
      'a PDB that kept blocking',
      new EvictionBlockedError('n', [{ pod, attempts: 3, reason: 'pdb' }], 1),
      'DrainBlockedError',
      false,
    ],
    ['pods that did not go', new DrainTimeoutError('n', [pod], 1), 'DrainBlockedError', false],
    ['unmanaged pods', new UnmanagedPodsError('n', [pod]), 'DrainRefusedError', false],
    [
      'an unreachable Consul agent',
      new ConsulUnreachableError('enable', 'a', 'refused'),
      'ConsulUnavailableError',
      true,
    ],
    ['a Consul 500', new ConsulApiError('enable', 'a', 500, 'boom'), 'ConsulUnavailableError', true],
    [
      'the wrong Consul node',
      new ConsulNodeMismatchError('a', 'web-1', 'web-2'),
      'ConsulRefusedError',
      false,
    ],
    ['DynamoDB throttling', throttled, 'StoreUnavailableError', true],
    ['unprocessed batch items', new BatchWriteError('left', 3), 'StoreUnavailableError', true],
  ])('turns %s into %s', (_what, error, name, retryable) => {
    const translated = translate('doing it', error) as WorkflowError;
    expect([translated.name, translated.retryable, translated.cause]).toEqual([name, retryable, error]);
    expect(translated.message).toMatch(/^doing it: /);
  });

  it('passes the workflow’s own errors through unchanged', () => {
    const own = new LeaseBusyError('busy');
    expect(translate('x', own)).toBe(own);
  });

  it('leaves an unknown error alone, for the catch-all to roll back', () => {
    const bug = new TypeError('undefined is not a function');
    expect(translate('x', bug)).toBe(bug);
  });
});
