import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import { ConfigError } from '../../model/errors.js';
import { parseWith } from '../../model/schema.js';

export const consulOptionsSchema = z
  .object({
    /**
     * ACL token sent as X-Consul-Token. Needs node:write on the VM's node (maintenance; it implies
     * the node:read that reading the checks needs) and, with verifyNodeName, agent:read on it.
     * docs/deploy.md has the policy.
     */
    token: z.string().min(1).optional(),
    /** Scheme and port used when an agent address gives none. Defaults: https, 8501 (Consul's TLS port). */
    scheme: z.enum(['http', 'https']).default('https'),
    port: z.number().int().min(1).max(65_535).default(8501),
    /**
     * Allow plain HTTP to agents: the ACL token then crosses the network in clear, and anyone on
     * the path can answer as the agent. Never implied; a warning is printed when it is set.
     */
    insecure: z.boolean().default(false),
    /**
     * A Consul server (or agent) whose catalog says which Consul node each VM is: the node listed
     * at one of the VM's Nova addresses. Without it Placid finds no Consul node for any VM.
     */
    catalog: z.string().min(1).optional(),
    /** PEM CA bundle for the agents' certificates, inline or as a file. */
    ca: z.string().min(1).optional(),
    caFile: z.string().min(1).optional(),
    /** PEM client certificate and key, for agents with verify_incoming. */
    cert: z.string().min(1).optional(),
    key: z.string().min(1).optional(),
    /** Accept any agent certificate; never implied. */
    skipTLSVerify: z.boolean().default(false),
    /** Limit on each request to an agent. Default 10000. */
    timeoutMs: z.number().int().positive().max(600_000).default(10_000),
    /** Check the agent's node name before acting (needs agent:read). Default true. */
    verifyNodeName: z.boolean().default(true),
  })
  .strict()
  .refine((o) => o.ca === undefined || o.caFile === undefined, {
    path: ['caFile'],
    message: 'give ca or caFile, not both',
  })
  .refine((o) => (o.cert === undefined) === (o.key === undefined), {
    path: ['key'],
    message: 'cert and key go together',
  })
  .refine((o) => o.scheme === 'https' || o.insecure, {
    path: ['scheme'],
    message: 'http sends the ACL token in clear: use https, or set insecure: true to allow it',
  });

export type ConsulOptions = z.input<typeof consulOptionsSchema>;
export type ResolvedConsulOptions = Omit<z.output<typeof consulOptionsSchema>, 'caFile'>;

/** Validates the options and reads the CA file now, so a bad path fails at startup. */
export async function resolveConsulOptions(input: unknown): Promise<ResolvedConsulOptions> {
  const { caFile, ...options } = parseWith(consulOptionsSchema, input ?? {}, 'consul options');
  if (options.insecure) {
    process.emitWarning('consul options: insecure is set: plain HTTP to Consul agents is allowed', {
      code: 'PLACID_CONSUL_INSECURE',
    });
  }
  if (caFile === undefined) return options;
  try {
    return { ...options, ca: await readFile(caFile, 'utf8') };
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'unreadable';
    throw new ConfigError(`consul options: cannot read caFile ${caFile} (${code})`);
  }
}
