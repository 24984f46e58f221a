export {
  DEFAULT_PROMETHEUS_TIMEOUT_MS,
  MAX_POINTS_PER_SERIES,
  type PrometheusAuth,
  PrometheusClient,
  type PrometheusClientOptions,
  type QueryResult,
  type RangeQuery,
  type Series,
} from './client.js';
export {
  PrometheusApiError,
  PrometheusError,
  PrometheusNetworkError,
  PrometheusResponseError,
  PrometheusTimeoutError,
} from './errors.js';
export { sampleValue } from './response.js';
export { nodeTransport, type TlsOptions, type Transport, type TransportRequest } from './transport.js';
