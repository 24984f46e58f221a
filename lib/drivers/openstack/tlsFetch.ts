/**
 * A `fetch` for clouds whose Keystone/Nova/Placement certificates come from a private CA. The
 * global fetch cannot be given a CA per client without undici's Agent, which this project does
 * not ship; an https.Agent can (the Prometheus transport does the same). Errors mimic fetch's
 * (`TimeoutError`/`AbortError` names, the system error as `cause`), so http.ts types them alike.
 */
import { readFile } from 'node:fs/promises';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { ConfigError } from '../../model/errors.js';
import type { FetchLike } from './http.js';

export interface CloudTls {
  /** PEM text of the CA bundle to trust instead of the system's. */
  ca?: string;
  /** Accept any certificate: only when the operator explicitly set `verify: false` / `insecure`. */
  insecure?: boolean;
}

/**
 * Global fetch when nothing is customised; otherwise a fetch over agents with these settings, with
 * a `close()` for their keep-alive connections (see closeFetch).
 */
export function fetchFor(tls: CloudTls | undefined): FetchLike | undefined {
  if (!tls || (tls.ca === undefined && !tls.insecure)) return undefined;
  const http = new HttpAgent({ keepAlive: true });
  const https = new HttpsAgent({ keepAlive: true, ca: tls.ca, rejectUnauthorized: !tls.insecure });
  const fetch: FetchLike = (input, init) => exchange(new URL(String(input)), init ?? {}, http, https);
  return Object.assign(fetch, {
    close: () => {
      http.destroy();
      https.destroy();
    },
  });
}

/** Closes the connections of a fetch from fetchFor; the global fetch's pool is shared and left alone. */
export function closeFetch(fetch: FetchLike | undefined): void {
  (fetch as (FetchLike & { close?: () => void }) | undefined)?.close?.();
}

/**
 * The CA bundle from `cacert` (a file path, as in clouds.yaml, or the PEM text itself, as a
 * secret in Secrets Manager holds it) or else from `OS_CACERT`. `source` names where it came from.
 */
export async function caBundle(cacert: string | undefined, source: string): Promise<string | undefined> {
  if (cacert === undefined) return undefined;
  if (cacert.includes('-----BEGIN CERTIFICATE-----')) return cacert;
  try {
    const text = await readFile(cacert, 'utf8');
    if (!text.includes('-----BEGIN CERTIFICATE-----')) {
      throw new ConfigError(`${source}: ${cacert} holds no PEM certificate`);
    }
    return text;
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(`${source}: cannot read the CA bundle ${cacert} (${code})`);
  }
}

function exchange(url: URL, init: RequestInit, http: HttpAgent, https: HttpsAgent): Promise<Response> {
  const secure = url.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  const headers = Object.fromEntries(new Headers(init.headers).entries());
  const signal = init.signal ?? undefined;
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      // Like fetch: the abort reason (a TimeoutError) when aborted, else "fetch failed" with a cause.
      if (signal?.aborted) reject(signal.reason ?? error);
      else reject(new TypeError('fetch failed', { cause: error }));
    };
    const outgoing = send(
      url,
      { method: init.method ?? 'GET', headers, agent: secure ? https : http, signal },
      (incoming) => collect(incoming).then(resolve, fail),
    );
    outgoing.on('error', fail);
    outgoing.end(typeof init.body === 'string' ? init.body : undefined);
  });
}

async function collect(incoming: IncomingMessage): Promise<Response> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    for (const one of Array.isArray(value) ? value : [value ?? '']) headers.append(name, one);
  }
  const status = incoming.statusCode ?? 0;
  // A Response cannot carry a body with 204/304.
  const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
  return new Response(body, { status, headers });
}
