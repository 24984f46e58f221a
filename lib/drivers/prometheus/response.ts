/**
 * The Prometheus HTTP API's answer to /api/v1/query and /api/v1/query_range, validated, with the
 * sample values (sent as strings: "1.5", "NaN", "+Inf") turned into numbers.
 */
import * as z from 'zod';
import { PrometheusApiError, PrometheusResponseError } from './errors.js';

/** One series: its labels and its points in time order (`t` in epoch ms). */
export interface Series {
  labels: Record<string, string>;
  points: { t: number; v: number }[];
}

export interface QueryResult {
  series: Series[];
  /** Prometheus's warnings (and infos): e.g. a partial answer from a federated or remote store. */
  warnings: string[];
}

const point = z.tuple([z.number(), z.string()]);
const labels = z.record(z.string(), z.string());

const envelope = z.object({
  status: z.enum(['success', 'error']),
  data: z.unknown().optional(),
  errorType: z.string().optional(),
  error: z.string().optional(),
  warnings: z.array(z.string()).optional(),
  infos: z.array(z.string()).optional(),
});

const data = z.discriminatedUnion('resultType', [
  z.object({
    resultType: z.literal('matrix'),
    result: z.array(z.object({ metric: labels, values: z.array(point).default([]) })),
  }),
  z.object({ resultType: z.literal('vector'), result: z.array(z.object({ metric: labels, value: point })) }),
  z.object({ resultType: z.literal('scalar'), result: point }),
  z.object({ resultType: z.literal('string'), result: point }),
]);

const MAX_DETAIL_CHARS = 400;

/** Parses a response body of any status; throws the API's own error for `status: error` or a non-2xx. */
export function parseQueryResponse(
  path: string,
  status: number,
  text: string,
  retryAfterMs?: number,
  /** Blanks secrets out of the server's error text; runs before the text is shortened. */
  redact: (text: string) => string = (text) => text,
): QueryResult {
  let doc: z.output<typeof envelope> | undefined;
  try {
    const parsed = envelope.safeParse(JSON.parse(text));
    if (parsed.success) doc = parsed.data;
  } catch {
    // Not JSON: a proxy's error page, say. Handled below.
  }
  if (status < 200 || status >= 300 || doc?.status === 'error') {
    const detail = doc?.error ?? (text.replace(/\s+/g, ' ').trim() || `HTTP ${status}`);
    throw new PrometheusApiError(
      path,
      status,
      doc?.errorType ?? 'http',
      truncate(redact(detail)),
      retryAfterMs,
    );
  }
  if (!doc) throw new PrometheusResponseError(path, 'not a Prometheus API document');
  const result = data.safeParse(doc.data);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new PrometheusResponseError(path, `${issue.path.join('.') || 'data'}: ${issue.message}`);
  }
  return { series: toSeries(result.data), warnings: [...(doc.warnings ?? []), ...(doc.infos ?? [])] };
}

function toSeries(d: z.output<typeof data>): Series[] {
  switch (d.resultType) {
    case 'matrix':
      return d.result.map((s) => ({ labels: s.metric, points: s.values.map(toPoint) }));
    case 'vector':
      return d.result.map((s) => ({ labels: s.metric, points: [toPoint(s.value)] }));
    default:
      return [{ labels: {}, points: [toPoint(d.result)] }];
  }
}

function toPoint([seconds, value]: [number, string]): { t: number; v: number } {
  return { t: Math.round(seconds * 1000), v: sampleValue(value) };
}

/** Prometheus spells infinities `+Inf` / `-Inf`, which Number() does not read. */
export function sampleValue(text: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  return Number(text);
}

function truncate(text: string): string {
  return text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS)}…` : text;
}
