/**
 * A fake Prometheus for unit tests: an in-process HTTP server on 127.0.0.1 answering the two
 * endpoints the collector's client calls, `/api/v1/query` and `/api/v1/query_range` (POST form or
 * GET), from series the test defines as functions of time, evaluated at every step from start to
 * end as Prometheus evaluates a range query. It has no PromQL engine: a query is answered by its
 * exact text, and an unknown one is `bad_data` (as a parse error is). What PromQL computes from raw
 * counters (rate, resets) is the one integration test's (test/collect/realPrometheus.test.ts,
 * Debian's real Prometheus); every other collector test runs without the binary.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSeries {
  labels: Record<string, string>;
  /** The value at `t` (Unix seconds), or undefined where the series has no point. */
  at(t: number): number | undefined;
}

/** What each query (by its exact PromQL text) returns. */
export type FakeQueries = ReadonlyMap<string, readonly FakeSeries[]>;

export interface FakePrometheusRequest {
  path: string;
  params: Record<string, string>;
}

export interface FakePrometheus {
  url: string;
  requests: FakePrometheusRequest[];
  close(): Promise<void>;
}

/** Prometheus's own limit on points per series in a range query. */
const MAX_POINTS = 11_000;

class BadData extends Error {}

export async function startFakePrometheus(queries: FakeQueries): Promise<FakePrometheus> {
  const requests: FakePrometheusRequest[] = [];
  const server = createServer((request, response) => {
    void answer(request, response, queries, requests);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function answer(
  request: IncomingMessage,
  response: ServerResponse,
  queries: FakeQueries,
  requests: FakePrometheusRequest[],
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://fake');
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const params = Object.fromEntries([
    ...url.searchParams,
    ...new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
  ]);
  requests.push({ path: url.pathname, params });
  try {
    if (url.pathname === '/api/v1/query') return send(response, 200, instant(params, queries));
    if (url.pathname === '/api/v1/query_range') return send(response, 200, range(params, queries));
    send(response, 404, { status: 'error', errorType: 'not_found', error: `no endpoint ${url.pathname}` });
  } catch (error) {
    if (!(error instanceof BadData)) throw error;
    send(response, 400, { status: 'error', errorType: 'bad_data', error: error.message });
  }
}

function instant(params: Record<string, string>, queries: FakeQueries) {
  const series = seriesOf(params, queries);
  const t = params.time === undefined ? Date.now() / 1000 : time(params.time, 'time');
  const result = series.flatMap((s) => {
    const v = s.at(t);
    return v === undefined ? [] : [{ metric: s.labels, value: [t, String(v)] }];
  });
  return { status: 'success', data: { resultType: 'vector', result } };
}

function range(params: Record<string, string>, queries: FakeQueries) {
  const series = seriesOf(params, queries);
  const start = time(params.start, 'start');
  const end = time(params.end, 'end');
  const step = Number(params.step);
  if (!(step > 0))
    throw new BadData(
      `invalid parameter "step": zero or negative query resolution step widths are not accepted`,
    );
  if (end < start) throw new BadData('end timestamp must not be before start time');
  if ((end - start) / step > MAX_POINTS) {
    throw new BadData(`exceeded maximum resolution of ${MAX_POINTS} points per timeseries`);
  }
  const steps: number[] = [];
  for (let t = start; t <= end + 1e-9; t += step) steps.push(Math.round(t * 1000) / 1000);
  const result = series.flatMap((s) => {
    const values = steps.flatMap((t) => {
      const v = s.at(t);
      return v === undefined ? [] : [[t, String(v)]];
    });
    return values.length === 0 ? [] : [{ metric: s.labels, values }];
  });
  return { status: 'success', data: { resultType: 'matrix', result } };
}

function seriesOf(params: Record<string, string>, queries: FakeQueries): readonly FakeSeries[] {
  const query = params.query;
  if (!query)
    throw new BadData(
      'invalid parameter "query": unknown position: parse error: no expression found in input',
    );
  const series = queries.get(query);
  if (!series) throw new BadData(`invalid parameter "query": the fake knows no query ${query}`);
  return series;
}

function time(value: string | undefined, name: string): number {
  const t = Number(value);
  if (value === undefined || !Number.isFinite(t)) {
    throw new BadData(`invalid parameter "${name}": cannot parse "${value}" to a valid timestamp`);
  }
  return t;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** A series with the same value at every step. */
export const constant = (labels: Record<string, string>, value: number): FakeSeries => ({
  labels,
  at: () => value,
});
