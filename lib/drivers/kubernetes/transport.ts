import http from 'node:http';
import https from 'node:https';

/** TLS settings for one API server. */
export interface TlsSettings {
  /** PEM bundle of the CA(s) that signed the server certificate; system roots when absent. */
  ca?: string;
  /** PEM client certificate and key, for kubeconfigs that authenticate by certificate. */
  cert?: string;
  key?: string;
  /** Accept any server certificate. Only ever set from explicit configuration. */
  skipTLSVerify?: boolean;
  /** Name to verify the certificate against when it differs from the URL's host. */
  serverName?: string;
}

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** No response: refused, reset, TLS failure or timeout. The message never carries request headers. */
export class TransportFailure extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TransportFailure';
  }
}

/**
 * A keep-alive HTTP(S) client for one server. Node 20's global fetch cannot take a CA, a client
 * certificate or skip verification without the undici package, so this uses node:https directly.
 */
export class HttpTransport {
  private readonly agent: http.Agent;

  constructor(
    private readonly baseUrl: URL,
    tls: TlsSettings,
    private readonly timeoutMs: number,
  ) {
    this.agent =
      baseUrl.protocol === 'https:'
        ? new https.Agent({
            keepAlive: true,
            ca: tls.ca,
            cert: tls.cert,
            key: tls.key,
            servername: tls.serverName,
            rejectUnauthorized: tls.skipTLSVerify !== true,
          })
        : new http.Agent({ keepAlive: true });
  }

  /** Sends one request; resolves with any HTTP status, rejects with TransportFailure when none came. */
  request(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<HttpResponse> {
    const url = new URL(path, this.baseUrl);
    const lib = url.protocol === 'https:' ? https : http;
    const sent =
      body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) };
    return new Promise((resolve, reject) => {
      let timedOut = false;
      const fail = (err: Error) => {
        clearTimeout(timer);
        if (timedOut)
          reject(new TransportFailure(`no response from ${url.host} within ${this.timeoutMs} ms`, true));
        else reject(new TransportFailure(`cannot reach ${url.host}: ${err.message}`, false, { cause: err }));
      };
      const req = lib.request(url, { method, headers: sent, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', fail);
        res.on('end', () => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
      });
      // A total deadline, not an idle one: a server that trickles bytes must not hold a step forever.
      const timer = setTimeout(() => {
        timedOut = true;
        req.destroy();
        fail(new Error('timed out'));
      }, this.timeoutMs);
      req.on('error', fail);
      req.end(body);
    });
  }

  /** Closes idle keep-alive sockets. */
  close(): void {
    this.agent.destroy();
  }
}
