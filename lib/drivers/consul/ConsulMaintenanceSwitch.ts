import http from 'node:http';
import https from 'node:https';
import Consul from 'consul';
import { ValidationError } from '../../model/errors.js';
import type { ServerIdentity } from '../openstack/schemas.js';
import { parseAgentAddress } from './agentAddress.js';
import {
  ConsulApiError,
  ConsulNodeMismatchError,
  ConsulPermissionError,
  ConsulTlsError,
  ConsulUnreachableError,
} from './errors.js';
import { type ConsulOptions, type ResolvedConsulOptions, resolveConsulOptions } from './options.js';
import type {
  CatalogNode,
  ConsulAgentRef,
  DisableOutcome,
  EnableOutcome,
  MaintenanceStatus,
  MaintenanceSwitch,
} from './types.js';

/** The check Consul registers on an agent while its node is in maintenance. */
export const NODE_MAINTENANCE_CHECK = '_node_maintenance';

/** A MaintenanceSwitch over each VM's Consul agent HTTP API, through the `consul` client. */
export class ConsulMaintenanceSwitch implements MaintenanceSwitch {
  // Private fields: logging this object must not print the ACL token or the TLS key.
  readonly #options: ResolvedConsulOptions;
  readonly #agents: { http: http.Agent; https: https.Agent };

  constructor(options: ResolvedConsulOptions) {
    this.#options = options;
    this.#agents = {
      http: new http.Agent({ keepAlive: true }),
      https: new https.Agent({
        keepAlive: true,
        ca: options.ca,
        cert: options.cert,
        key: options.key,
        rejectUnauthorized: !options.skipTLSVerify,
      }),
    };
  }

  /** Validates the options, reads any CA file, and builds the switch. */
  static async create(options: ConsulOptions = {}): Promise<ConsulMaintenanceSwitch> {
    return new ConsulMaintenanceSwitch(await resolveConsulOptions(options));
  }

  async status(target: ConsulAgentRef): Promise<MaintenanceStatus> {
    const agent = await this.verifiedAgent(target);
    return readMaintenance(agent);
  }

  async enable(target: ConsulAgentRef, reason: string): Promise<EnableOutcome> {
    if (!reason.trim()) {
      throw new ValidationError('consul maintenance', [
        { path: 'reason', message: 'must name why (e.g. the migration)' },
      ]);
    }
    const agent = await this.verifiedAgent(target);
    const current = await readMaintenance(agent);
    if (current.enabled) return { outcome: 'already-enabled', reason: current.reason ?? '' };
    await agent.run('enable maintenance', () => agent.client.agent.maintenance({ enable: true, reason }), {
      permission: 'node:write',
    });
    return { outcome: 'enabled', reason };
  }

  async disable(target: ConsulAgentRef): Promise<DisableOutcome> {
    const agent = await this.verifiedAgent(target);
    if (!(await readMaintenance(agent)).enabled) return 'already-disabled';
    await agent.run('disable maintenance', () => agent.client.agent.maintenance({ enable: false }), {
      permission: 'node:write',
    });
    return 'disabled';
  }

  /** The node and datacenter of the agent at `address` (`/v1/agent/self`; needs agent:read). */
  async agentSelf(address: string): Promise<{ node: string; datacenter: string }> {
    const agent = await this.verifiedAgent({ node: '', address }, false);
    const self = (await agent.run('read agent identity', () => agent.client.agent.self(), {
      permission: 'agent:read',
    })) as { Config?: { NodeName?: string; Datacenter?: string } } | undefined;
    return { node: String(self?.Config?.NodeName), datacenter: String(self?.Config?.Datacenter) };
  }

  /** Closes idle keep-alive connections. */
  close(): void {
    this.#agents.http.destroy();
    this.#agents.https.destroy();
  }

  /**
   * The Consul nodes the trusted catalog (options `catalog`) lists at one of the server's
   * addresses, in `datacenter` (default: the catalog agent's own); null when no catalog is set.
   */
  async catalogNodesOf(server: ServerIdentity, datacenter?: string): Promise<CatalogNode[] | null> {
    const catalog = this.#options.catalog;
    if (catalog === undefined) return null;
    const agent = this.handle(catalog, "the VMs' nodes");
    const list = () => agent.client.catalog.node.list({ dc: datacenter });
    const nodes = (await agent.run('list catalog nodes', list, { permission: 'node:read' })) as
      | Array<{ Node?: string; Address?: string; Datacenter?: string }>
      | undefined;
    const addresses = new Set(server.addresses);
    return (nodes ?? [])
      .filter((n) => n.Node && n.Address && addresses.has(n.Address))
      .map((n) => ({
        node: n.Node as string,
        address: n.Address as string,
        datacenter: n.Datacenter ?? datacenter ?? null,
      }));
  }

  /**
   * A client for the agent at `address`, refusing plain http unless `insecure` allows it; `scope`
   * names what its ACL permissions are checked on, for the errors.
   */
  private handle(address: string, scope: string): AgentHandle {
    const options = this.#options;
    const endpoint = parseAgentAddress(address, options);
    if (!endpoint.secure && !options.insecure) {
      throw new ConsulTlsError(
        'connect',
        address,
        'plain http sends the ACL token in clear; use https or set insecure: true',
      );
    }
    // papi, under the client, takes a total request timeout that the typings leave out.
    const clientOptions: ConsulClientOptions & { timeout: number } = {
      host: endpoint.host,
      port: endpoint.port,
      secure: endpoint.secure,
      defaults: options.token ? { token: options.token } : undefined,
      agent: endpoint.secure ? this.#agents.https : this.#agents.http,
      timeout: options.timeoutMs,
    };
    const client = new Consul(clientOptions);
    return {
      client,
      run: (operation, call, needs) =>
        run(operation, address, call, needs && `${needs.permission} on ${scope}${needs.fix ?? ''}`),
    };
  }

  private async verifiedAgent(target: ConsulAgentRef, verify = true): Promise<AgentHandle> {
    const options = this.#options;
    const agent = this.handle(target.address, `node ${target.node}`);
    const { client } = agent;
    if (verify && options.verifyNodeName) {
      // /v1/agent/self is the only endpoint that names the agent's node, and it needs agent:read.
      const self = (await agent.run('read agent identity', () => client.agent.self(), {
        permission: 'agent:read',
        fix: ' (grant it, or set verifyNodeName: false to skip this check)',
      })) as SelfResponse | undefined;
      const actual = self?.Config?.NodeName;
      if (actual !== target.node)
        throw new ConsulNodeMismatchError(target.address, target.node, String(actual));
    }
    return agent;
  }
}

type ConsulClientOptions = NonNullable<ConstructorParameters<typeof Consul>[0]>;

interface AgentHandle {
  client: Consul;
  /** `needs`: the ACL permission the call requires, named in the error when the token lacks it. */
  run<T>(operation: string, call: () => Promise<T>, needs?: { permission: string; fix?: string }): Promise<T>;
}

interface SelfResponse {
  Config?: { NodeName?: string };
}

async function readMaintenance(agent: AgentHandle): Promise<MaintenanceStatus> {
  const checks = await agent.run('read checks', () => agent.client.agent.checks(), {
    permission: 'node:read',
  });
  const check = (checks as Record<string, { Notes?: string } | undefined>)[NODE_MAINTENANCE_CHECK];
  return check ? { enabled: true, reason: check.Notes ?? '' } : { enabled: false, reason: null };
}

const TLS_CODES = /^(CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_(GET|VERIFY)_|ERR_TLS_|ERR_SSL_)/;

/** Runs one call, turning papi's and Node's errors into the driver's typed errors. */
async function run<T>(
  operation: string,
  address: string,
  call: () => Promise<T>,
  needed = 'the permission this call needs',
): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const e = err as {
      isResponse?: boolean;
      isTimeout?: boolean;
      statusCode?: number;
      code?: string;
      message?: string;
    };
    const detail = String(e.message ?? err);
    if (e.isResponse && e.statusCode === 403) {
      throw new ConsulPermissionError(operation, address, needed, detail, { cause: err });
    }
    if (e.isResponse && typeof e.statusCode === 'number') {
      throw new ConsulApiError(operation, address, e.statusCode, detail, { cause: err });
    }
    if (e.code && TLS_CODES.test(e.code))
      throw new ConsulTlsError(operation, address, detail, { cause: err });
    if (e.isTimeout || e.code) throw new ConsulUnreachableError(operation, address, detail, { cause: err });
    throw err;
  }
}
