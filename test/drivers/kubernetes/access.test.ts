import { afterEach, describe, expect, it } from 'vitest';
import { importKubernetesClient, loadKubeConfig } from '../../../lib/drivers/kubernetes/connection.js';
import { NodeNotFoundError } from '../../../lib/drivers/kubernetes/errors.js';
import { KubernetesNodeDrainer } from '../../../lib/drivers/kubernetes/KubernetesNodeDrainer.js';
import { ConfigError } from '../../../lib/model/errors.js';
import { FakeKubernetesServer } from '../../fakes/kubernetes/server.js';
import { caught, NODE, TOKEN } from './harness.js';

let server: FakeKubernetesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const moduleMissing = async (): Promise<never> => {
  throw Object.assign(new Error("Cannot find package '@kubernetes/client-node'"), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
};

describe('Kubernetes access without the official client', () => {
  it('connects with a token without loading the client', async () => {
    // Prepare
    server = await FakeKubernetesServer.start({ token: TOKEN });
    server.cluster.addNode(NODE);
    // Act
    const { access } = await loadKubeConfig(server.connection(), moduleMissing);
    // Assess
    expect(access.server).toBe(server.url);
  });

  it('asks for the token form when a kubeconfig arrives where the client was left out', async () => {
    // Act
    const error = await caught(
      loadKubeConfig({ kubeconfig: 'apiVersion: v1' }, () => importKubernetesClient(moduleMissing)),
    );
    // Assess
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain('token form');
  });

  it('passes on any other failure to load the client unchanged', async () => {
    // Prepare
    const broken = new SyntaxError('unexpected token');
    // Act
    const error = await caught(importKubernetesClient(async () => Promise.reject(broken)));
    // Assess
    expect(error).toBe(broken);
  });

  it('keeps a path prefix of the server URL, as API proxies need', async () => {
    // Prepare
    server = await FakeKubernetesServer.start({ token: TOKEN });
    const drainer = await KubernetesNodeDrainer.connect({
      ...server.connection(),
      server: `${server.url}/k8s/clusters/c1/`,
    });
    // Act
    const error = await caught(drainer.isCordoned(NODE));
    // Assess
    expect(error).toBeInstanceOf(NodeNotFoundError);
    expect(server.requests.map((r) => r.path)).toEqual([`/k8s/clusters/c1/api/v1/nodes/${NODE}`]);
  });

  it('encodes names into the path', async () => {
    // Prepare
    server = await FakeKubernetesServer.start({ token: TOKEN });
    const drainer = await KubernetesNodeDrainer.connect(server.connection());
    // Act
    await caught(drainer.isCordoned('a b/c'));
    // Assess
    expect(server.requests.map((r) => r.path)).toEqual(['/api/v1/nodes/a%20b%2Fc']);
  });
});
