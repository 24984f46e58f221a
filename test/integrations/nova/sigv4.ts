/**
 * Checks an AWS Signature Version 4 the way the Function URL's IAM auth does, written from the
 * published algorithm (not from botocore), so the plug-in's signing is checked independently.
 */
import { createHash, createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

export interface SignedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Why the signature is wrong, or null when it is right for `secret` (service `lambda`). */
export function sigV4Problem(req: SignedRequest, secret: string, region: string): string | null {
  const auth = String(req.headers.authorization ?? '');
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) return `not a SigV4 Authorization header: ${auth}`;
  const [, , date, signedRegion, service, signedHeaders, signature] = m;
  if (signedRegion !== region || service !== 'lambda') return `scope ${signedRegion}/${service}`;
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  if (!amzDate.startsWith(date)) return `x-amz-date ${amzDate} is not of ${date}`;
  const names = signedHeaders.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date')) return `signed headers ${signedHeaders}`;
  const canonical = [
    req.method,
    req.path,
    '',
    ...names.map(
      (n) =>
        `${n}:${String(req.headers[n] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}`,
    ),
    '',
    signedHeaders,
    hex(req.body),
  ].join('\n');
  const scope = `${date}/${region}/lambda/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), 'lambda'), 'aws4_request');
  const expected = createHmac('sha256', key).update(toSign).digest('hex');
  return expected === signature ? null : 'signature does not match';
}
