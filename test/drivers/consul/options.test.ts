import { describe, expect, it } from 'vitest';
import { parseAgentAddress } from '../../../lib/drivers/consul/agentAddress.js';
import {
  ConsulApiError,
  ConsulNodeMismatchError,
  ConsulTlsError,
  ConsulUnreachableError,
} from '../../../lib/drivers/consul/errors.js';
import { resolveConsulOptions } from '../../../lib/drivers/consul/options.js';
import { ConfigError, ValidationError } from '../../../lib/model/errors.js';
import { caught } from './harness.js';

const defaults = { scheme: 'http', port: 8500 } as const;

describe('parseAgentAddress', () => {
  it.each([
    ['10.0.0.11', { secure: false, host: '10.0.0.11', port: 8500 }],
    ['10.0.0.11:18500', { secure: false, host: '10.0.0.11', port: 18500 }],
    ['consul.vm.example', { secure: false, host: 'consul.vm.example', port: 8500 }],
    ['[fe80::1]:8501', { secure: false, host: '[fe80::1]', port: 8501 }],
    ['fe80::1', { secure: false, host: '[fe80::1]', port: 8500 }],
    ['https://10.0.0.11:8501', { secure: true, host: '10.0.0.11', port: 8501 }],
    ['http://10.0.0.11', { secure: false, host: '10.0.0.11', port: 8500 }],
  ])('reads %s', (address, expected) => {
    expect(parseAgentAddress(address, defaults)).toEqual(expected);
  });

  it.each([
    ['', 'is empty'],
    ['ftp://10.0.0.11', 'must use http or https'],
    ['http://10.0.0.11/v1', 'must not carry a path'],
    ['10.0.0.11:notaport', 'is not a host'],
  ])('rejects %j: %s', (address, why) => {
    const error = (() => {
      try {
        parseAgentAddress(address, defaults);
      } catch (e) {
        return e as Error;
      }
      throw new Error('expected a failure');
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain(why);
  });
});

describe('resolveConsulOptions', () => {
  it('fills in the defaults', async () => {
    const options = await resolveConsulOptions({});
    expect(options).toMatchObject({
      scheme: 'https',
      port: 8501,
      insecure: false,
      skipTLSVerify: false,
      timeoutMs: 10_000,
      verifyNodeName: true,
    });
  });

  it.each([
    [{ cert: 'PEM' }, 'key'],
    [{ ca: 'PEM', caFile: '/ca.pem' }, 'caFile'],
    [{ port: 70_000 }, 'port'],
    [{ tokn: 'x' }, 'tokn'],
    [{ scheme: 'http' }, 'insecure: true'],
  ])('rejects %j, naming %s', async (input, field) => {
    const error = await caught(resolveConsulOptions(input));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain(field);
  });

  it('reports an unreadable caFile with its path', async () => {
    const error = await caught(resolveConsulOptions({ caFile: '/nonexistent/ca.pem' }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain('/nonexistent/ca.pem (ENOENT)');
  });
});

describe('Consul driver errors', () => {
  // Step Functions matches Retry/Catch on `name`, so each must be stable and distinct.
  it.each([
    [new ConsulUnreachableError('read checks', 'a', 'x'), 'ConsulUnreachableError', true],
    [new ConsulApiError('read checks', 'a', 503, 'x'), 'ConsulApiError', true],
    [new ConsulApiError('read checks', 'a', 429, 'x'), 'ConsulApiError', true],
    [new ConsulApiError('read checks', 'a', 403, 'x'), 'ConsulApiError', false],
    [new ConsulTlsError('read checks', 'a', 'x'), 'ConsulTlsError', false],
    [new ConsulNodeMismatchError('a', 'web-1', 'db-7'), 'ConsulNodeMismatchError', false],
  ])('%s is named %s with retryable=%s', (error, name, retryable) => {
    expect(error.name).toBe(name);
    expect(error.retryable).toBe(retryable);
  });
});
