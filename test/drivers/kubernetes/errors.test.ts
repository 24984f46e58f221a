import { describe, expect, it } from 'vitest';
import {
  DrainTimeoutError,
  EvictionBlockedError,
  KubernetesApiError,
  NodeNotFoundError,
  UnmanagedPodsError,
} from '../../../lib/drivers/kubernetes/errors.js';

const pod = { namespace: 'default', name: 'web-0' };

describe('Kubernetes driver errors', () => {
  // Step Functions matches Retry/Catch on `name`, so each must be stable and distinct.
  it.each([
    [new KubernetesApiError('get node n', 503, 'x'), 'KubernetesApiError', true],
    [new KubernetesApiError('get node n', undefined, 'x', { retryable: false }), 'KubernetesApiError', false],
    [new NodeNotFoundError('n'), 'NodeNotFoundError', false],
    [new UnmanagedPodsError('n', [pod]), 'UnmanagedPodsError', false],
    [
      new EvictionBlockedError('n', [{ pod, attempts: 3, reason: 'budget' }], 1000),
      'EvictionBlockedError',
      false,
    ],
    [new DrainTimeoutError('n', [pod], 1000), 'DrainTimeoutError', false],
  ])('%s is named %s with retryable=%s', (error, name, retryable) => {
    expect(error.name).toBe(name);
    expect(error.retryable).toBe(retryable);
  });
});
