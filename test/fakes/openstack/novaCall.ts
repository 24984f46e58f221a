/** What a fake Nova route handler gets, and the 404 every per-server route shares. */
import { type FakeReply, novaFault } from './http.js';
import type { FakeCloudState, FakeServer } from './state.js';

export interface NovaCall {
  state: FakeCloudState;
  params: string[];
  query: URLSearchParams;
  body: unknown;
  /** Minor version of the requested `2.x` microversion. */
  minor: number;
  /** Hosts a migration may target; empty means any. */
  knownHosts: ReadonlySet<string>;
}

/** Runs `then` with the server named in the path, or answers 404 like Nova. */
export function withServer(call: NovaCall, then: (server: FakeServer) => FakeReply): FakeReply {
  const server = call.state.servers.get(call.params[0]);
  return server ? then(server) : novaFault(404, `Instance ${call.params[0]} could not be found.`);
}
