/** One differential case: the same hosts, request and config go to Placid and to Nova. */
export interface OracleCase {
  id: number;
  /** Host documents in Placid's input format (lib/model/hostSchema.ts). */
  hosts: Record<string, unknown>[];
  /** A request document in Placid's input format (lib/model/requestSchema.ts). */
  request: Record<string, unknown>;
  /** nova.conf overrides by group, applied with CONF.set_override on Nova's side. */
  config: Record<string, Record<string, unknown>>;
  filters: string[];
  weighers: string[];
}

/** A filter's answer for one host: pass, fail, or `error:<Name>` where the code raises. */
export type Verdict = boolean | string;
