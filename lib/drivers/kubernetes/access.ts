/**
 * How the driver reaches one API server. A token connection needs nothing but Node's own http(s);
 * a kubeconfig is interpreted by the official client's KubeConfig (every auth method it knows),
 * which is loaded only for that form: the Lambda bundles leave the client out (lib/infra).
 */
import http from 'node:http';
import https from 'node:https';

export interface ClusterAccess {
  /** The API server URL, e.g. `https://10.0.0.1:6443` (a path prefix, as proxies use, is kept). */
  readonly server: string;
  /**
   * TLS settings, agent and Authorization for one request. Asked before every request, so that
   * credentials which expire (a kubeconfig's exec plugin or OIDC token) are renewed in time.
   */
  requestOptions(): Promise<https.RequestOptions>;
  /** Closes the keep-alive connections it holds (a kubeconfig's agents are the client library's). */
  close?(): void;
}

export interface TokenAccessOptions {
  server: string;
  token: string;
  /** PEM bundle to trust; the system roots when absent. */
  ca?: string;
  skipTLSVerify: boolean;
}

/** A bearer token over one keep-alive agent: the TLS settings live in the agent, the token in a header. */
export function tokenAccess(options: TokenAccessOptions): ClusterAccess {
  const agent = options.server.startsWith('http:')
    ? new http.Agent({ keepAlive: true })
    : new https.Agent({ keepAlive: true, ca: options.ca, rejectUnauthorized: !options.skipTLSVerify });
  const requestOptions: https.RequestOptions = {
    agent,
    headers: { Authorization: `Bearer ${options.token}` },
  };
  return {
    server: options.server,
    requestOptions: async () => requestOptions,
    close: () => agent.destroy(),
  };
}

/** The part of the official KubeConfig this driver uses (a structural type: no runtime import). */
export interface KubeConfigLike {
  getCurrentCluster(): { server: string } | null;
  applyToHTTPSOptions(options: https.RequestOptions): Promise<void>;
}

/** Whatever the kubeconfig's current context says: CA, client certificate, token, exec plugin, proxy… */
export function kubeConfigAccess(kubeConfig: KubeConfigLike, server: string): ClusterAccess {
  return {
    server,
    requestOptions: async () => {
      const options: https.RequestOptions = {};
      await kubeConfig.applyToHTTPSOptions(options);
      return options;
    },
  };
}
