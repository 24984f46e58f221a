/** Plumbing shared by the fake OpenStack APIs: request bodies in, JSON replies out. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface FakeReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const NOVA_FAULT_NAMES: Record<number, string> = {
  400: 'badRequest',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'itemNotFound',
  406: 'notAcceptable',
  409: 'conflictingRequest',
  429: 'overLimit',
  503: 'serviceUnavailable',
};

/** Nova's error body: `{<faultName>: {code, message}}`. */
export function novaFault(status: number, message: string): FakeReply {
  const name = NOVA_FAULT_NAMES[status] ?? 'computeFault';
  return { status, body: { [name]: { code: status, message } } };
}

/** Keystone's error body: `{error: {code, title, message}}`. */
export function keystoneFault(status: number, message: string): FakeReply {
  return { status, body: { error: { code: status, title: 'Error', message } } };
}

export async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return Symbol.for('invalid-json');
  }
}

export function writeReply(
  response: ServerResponse,
  reply: FakeReply,
  extraHeaders: Record<string, string>,
): void {
  const payload = reply.body === undefined ? '' : JSON.stringify(reply.body);
  response.writeHead(reply.status, {
    ...extraHeaders,
    ...reply.headers,
    ...(payload === '' ? {} : { 'Content-Type': 'application/json' }),
    'Content-Length': Buffer.byteLength(payload),
  });
  response.end(payload);
}
