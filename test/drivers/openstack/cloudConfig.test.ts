import { describe, expect, it } from 'vitest';
import { parseCloudCredentials } from '../../../lib/drivers/openstack/cloudConfig.js';
import { ValidationError } from '../../../lib/model/errors.js';

const AUTH_URL = 'https://keystone.example:5000/v3';

describe('parseCloudCredentials', () => {
  it('reads password auth with names and domains', () => {
    const credentials = parseCloudCredentials(
      {
        region_name: 'RegionOne',
        interface: 'internal',
        auth: {
          auth_url: AUTH_URL,
          username: 'placid',
          password: 'pw-1234',
          user_domain_name: 'Default',
          project_name: 'ops',
          project_domain_id: 'default',
        },
      },
      'test',
    );
    expect(credentials).toEqual({
      authUrl: AUTH_URL,
      region: 'RegionOne',
      interface: 'internal',
      auth: {
        method: 'password',
        user: { name: 'placid', domain: { name: 'Default' } },
        password: 'pw-1234',
        project: { name: 'ops', domain: { id: 'default' } },
      },
    });
  });

  it('reads an application credential by id', () => {
    const credentials = parseCloudCredentials(
      {
        auth_type: 'v3applicationcredential',
        auth: {
          auth_url: AUTH_URL,
          application_credential_id: 'ac1',
          application_credential_secret: 's3cret',
        },
      },
      'test',
    );
    expect(credentials.auth).toEqual({
      method: 'application_credential',
      credential: { id: 'ac1' },
      secret: 's3cret',
    });
  });

  it('reads an application credential by name and user, inferring the method from the secret', () => {
    const credentials = parseCloudCredentials(
      {
        auth: {
          auth_url: AUTH_URL,
          application_credential_name: 'placid',
          application_credential_secret: 's3cret',
          user_id: 'u1',
        },
      },
      'test',
    );
    expect(credentials.auth).toEqual({
      method: 'application_credential',
      credential: { name: 'placid', user: { id: 'u1' } },
      secret: 's3cret',
    });
  });

  it.each([
    ['no auth_url', { auth: { username: 'u' } }, 'auth.auth_url'],
    ['no password', { auth: { auth_url: AUTH_URL, user_id: 'u', project_id: 'p' } }, 'auth.password'],
    ['no project', { auth: { auth_url: AUTH_URL, user_id: 'u', password: 'pw-1234' } }, 'auth.project_id'],
    [
      'a username without a domain',
      { auth: { auth_url: AUTH_URL, username: 'u', password: 'pw-1234', project_id: 'p' } },
      'auth.user_domain_name',
    ],
    [
      'an application credential without a secret',
      { auth_type: 'v3applicationcredential', auth: { auth_url: AUTH_URL, application_credential_id: 'a' } },
      'auth.application_credential_secret',
    ],
    ['an unknown interface', { interface: 'private', auth: { auth_url: AUTH_URL } }, 'interface'],
  ])('names the field for %s', (_name, value, field) => {
    const error = (() => {
      try {
        parseCloudCredentials(value, 'secret openstack');
      } catch (e) {
        return e as ValidationError;
      }
      throw new Error('expected a ValidationError');
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues.map((i) => i.path)).toContain(field);
  });

  it('never quotes a value in its error', () => {
    expect(() =>
      parseCloudCredentials({ auth: { auth_url: 'not a url with pw-9876', password: 'pw-9876' } }, 'test'),
    ).toThrow(expect.objectContaining({ message: expect.not.stringContaining('pw-9876') }));
  });
});
