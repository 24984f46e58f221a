import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadKubeConfig } from '../../../lib/drivers/kubernetes/connection.js';
import { KubernetesApiError } from '../../../lib/drivers/kubernetes/errors.js';
import { KubernetesNodeDrainer } from '../../../lib/drivers/kubernetes/KubernetesNodeDrainer.js';
import { ConfigError, ValidationError } from '../../../lib/model/errors.js';
import { FakeKubernetesServer } from '../../fakes/kubernetes/server.js';
import { caught, NODE, TOKEN } from './harness.js';
import { TEST_CA_CERT, TEST_SERVER_CERT, TEST_SERVER_KEY } from './tlsFixture.js';

let server: FakeKubernetesServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  server = undefined;
  dir = undefined;
});

async function startTls(): Promise<FakeKubernetesServer> {
  server = await FakeKubernetesServer.start({
    token: TOKEN,
    tls: { cert: TEST_SERVER_CERT, key: TEST_SERVER_KEY },
  });
  server.cluster.addNode(NODE);
  return server;
}

function kubeconfig(serverUrl: string, cluster: Record<string, unknown> = {}): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'current-context: other',
    'clusters:',
    `- name: prod`,
    `  cluster:`,
    `    server: ${serverUrl}`,
    ...Object.entries(cluster).map(([k, v]) => `    ${k}: ${v}`),
    'users:',
    '- name: placid',
    '  user:',
    `    token: ${TOKEN}`,
    'contexts:',
    '- name: prod',
    '  context: { cluster: prod, user: placid }',
    '- name: other',
    '  context: { cluster: missing, user: placid }',
  ].join('\n');
}

describe('Kubernetes connection with token, server and CA', () => {
  it('trusts an HTTPS API server signed by the configured CA', async () => {
    const tls = await startTls();
    const drainer = await KubernetesNodeDrainer.connect({ server: tls.url, token: TOKEN, ca: TEST_CA_CERT });
    expect(await drainer.isCordoned(NODE)).toBe(false);
  });

  it('reads the CA from caFile', async () => {
    const tls = await startTls();
    dir = await mkdtemp(join(tmpdir(), 'placid-k8s-'));
    await writeFile(join(dir, 'ca.crt'), TEST_CA_CERT);
    const drainer = await KubernetesNodeDrainer.connect({
      server: tls.url,
      token: TOKEN,
      caFile: join(dir, 'ca.crt'),
    });
    expect(await drainer.isCordoned(NODE)).toBe(false);
  });

  it('refuses an HTTPS server whose CA it was not given, without retrying', async () => {
    const tls = await startTls();
    const drainer = await KubernetesNodeDrainer.connect({ server: tls.url, token: TOKEN });
    const error = (await caught(drainer.isCordoned(NODE))) as KubernetesApiError;
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect(error.retryable).toBe(false);
  });

  it('accepts any certificate when skipTLSVerify is set explicitly', async () => {
    const tls = await startTls();
    const drainer = await KubernetesNodeDrainer.connect({
      server: tls.url,
      token: TOKEN,
      skipTLSVerify: true,
    });
    expect(await drainer.isCordoned(NODE)).toBe(false);
  });

  it('refuses plain HTTP unless skipTLSVerify is set', async () => {
    const error = await caught(loadKubeConfig({ server: 'http://127.0.0.1:6443', token: TOKEN }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain('plain HTTP');
  });

  it.each([
    [{ server: 'not a url', token: TOKEN }, 'server'],
    [{ server: 'https://k8s:6443', token: '' }, 'token'],
    [{ server: 'https://k8s:6443', token: TOKEN, insecure: true }, 'insecure'],
    [{ server: 'https://k8s:6443', token: TOKEN, ca: 'x', caFile: '/x' }, 'not both'],
  ])('rejects %j, naming %s', async (input, field) => {
    const error = await caught(loadKubeConfig(input));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain(field);
  });

  it('never quotes the token in a validation error', async () => {
    const error = await caught(loadKubeConfig({ server: 'ftp://k8s', token: 'very-secret-token' }));
    expect(error.message).not.toContain('very-secret-token');
  });
});

describe('Kubernetes connection with a kubeconfig', () => {
  it('uses the named context of kubeconfig content', async () => {
    const tls = await startTls();
    const text = kubeconfig(tls.url, {
      'certificate-authority-data': Buffer.from(TEST_CA_CERT).toString('base64'),
    });
    const drainer = await KubernetesNodeDrainer.connect({ kubeconfig: text, context: 'prod' });
    expect(await drainer.cordon(NODE)).toBe('cordoned');
  });

  it('reads a kubeconfig file and its CA path relative to the file', async () => {
    const tls = await startTls();
    dir = await mkdtemp(join(tmpdir(), 'placid-k8s-'));
    await writeFile(join(dir, 'ca.crt'), TEST_CA_CERT);
    await writeFile(join(dir, 'config'), kubeconfig(tls.url, { 'certificate-authority': 'ca.crt' }));
    const drainer = await KubernetesNodeDrainer.connect({
      kubeconfigPath: join(dir, 'config'),
      context: 'prod',
    });
    expect(await drainer.isCordoned(NODE)).toBe(false);
  });

  it('names the known contexts when the context is unknown', async () => {
    const error = await caught(
      loadKubeConfig({ kubeconfig: kubeconfig('https://k8s:6443'), context: 'staging' }),
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain('staging');
    expect(error.message).toContain('prod, other');
  });

  it('says when the current context names no cluster', async () => {
    const error = await caught(loadKubeConfig({ kubeconfig: kubeconfig('https://k8s:6443') }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain('names no cluster');
  });

  it('reports an invalid kubeconfig without quoting it', async () => {
    const broken = `users:\n- name: u\n  user:\n    token: very-secret-token\n   bad: [indent`;
    const error = await caught(loadKubeConfig({ kubeconfig: broken }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).not.toContain('very-secret-token');
  });

  it('reports a missing kubeconfig file with its path', async () => {
    const error = await caught(loadKubeConfig({ kubeconfigPath: '/nonexistent/kubeconfig' }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain('/nonexistent/kubeconfig (ENOENT)');
  });

  it('wants exactly one of kubeconfig and kubeconfigPath', async () => {
    const error = await caught(loadKubeConfig({ kubeconfig: 'x', kubeconfigPath: '/x' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain('exactly one');
  });
});
