/**
 * `placid agent --config FILE`: the long-running worker inside the operator's network. It runs the
 * migration workflow's on-premises steps (Recheck, Drain, LiveMigrate, Poll, Verify, Undrain,
 * Rollback) as tasks of the stack's Step Functions activity, and the collector on its interval.
 * `--check` validates the config and exits.
 */
import type { Command } from '@commander-js/extra-typings';
import type { AgentService } from '../agent/service.js';
import { ConfigError } from '../model/errors.js';
import { terminalSafe } from './format.js';
import type { CliIO } from './io.js';

export const AGENT_CONFIG_HELP = `
Configuration (YAML or JSON; relative paths are relative to the file):
  activity_arn      required: the stack output AgentActivityArn
  region            default: the activity's region
  worker_name       shown in the execution history (default: host name:pid)
  concurrency       steps run at once, one long poll each (default 4)
  heartbeat_interval_seconds
                    between heartbeats of a running step, 1-29 (default 20; the state machine
                    gives a step to another agent after 60 s without one)
  credentials       where the driver credentials come from:
                      {source: secrets-manager, nova: placid/nova, kubernetes: placid/kubernetes,
                       consul: placid/consul}   (the default; secret names as in the stack)
                      {source: file, path: endpoints.json}   (openstack/kubernetes/consul keys)
  workflow_settings the stack's placid:workflowSettings object (drain_timeout_seconds, drain_force,
                    poll_interval_seconds, on_deadline, ...): keep the two equal
  collect           optional: run the collector on its schedule and send to the ingest queue
                      {config: collect.yaml, interval: 60s, queue_url: <IngestQueueUrl output>}
  trust             where a VM's node and Consul agent may be found (docs/trust-model.md):
                      {kubernetes: {clusters: [...], node_names: [regex, ...]},
                       consul: {datacenters: [...]}, server_metadata: false}
                    server metadata is tenant-writable: leave server_metadata off unless every
                    project is trusted
  cleanup           undoing drains Placid left behind (docs/agent.md):
                      {max_drained: 2h, interval: 5m, consul_agents: [address, ...]}

AWS credentials come from the SDK's standard chain: IAM Roles Anywhere (a credential_process
profile), AWS_PROFILE, AWS_ACCESS_KEY_ID/..., or an instance or pod role. Attach the stack output
AgentPolicyArn, or use the stack's agent role (…AgentRoleArn…, with
placid:agentTrustAnchorArn and placid:agentCertificateSubjects). Outbound HTTPS only: states, sqs and secretsmanager endpoints
in AWS; Keystone/Nova, Kubernetes API, Consul agents and Prometheus inside the network.

Signals: SIGTERM or SIGINT stops taking steps and lets running ones finish and report; a second
one drops them (another agent takes them after the heartbeat timeout) and exits.
Logs: one JSON object per line on stdout.

--check reads the config and every file it names (the credentials file, the collector's config).
--preflight also makes one harmless call over each connection the agent uses and prints one
verdict per line: the activity (DescribeActivity), the ingest queue (GetQueueAttributes), Keystone
(a token), each Kubernetes cluster (the node list), a Consul agent (/v1/agent/self, --consul-agent).

Exit status:
  0  stopped by a signal after running steps finished (--check, --preflight: all is well)
  1  --preflight: a connection failed (its line says which and why)
  2  configuration error: the config or a file it names is missing or invalid
  3  internal error`;

export interface AgentArgs {
  config: string;
  check?: boolean;
  preflight?: boolean;
  consulAgent?: string;
}

export async function runAgentCommand(args: AgentArgs, io: CliIO): Promise<number> {
  const [{ loadAgentConfig }, { checkAgentFiles, preflight }] = await Promise.all([
    import('../agent/config.js'),
    import('../agent/preflight.js'),
  ]);
  const config = await loadAgentConfig(args.config);
  if (args.check || args.preflight) {
    const problems = await checkAgentFiles(config);
    if (problems.length > 0) throw new ConfigError(`${args.config}: ${problems.join('; ')}`);
  }
  if (args.preflight) {
    const verdicts = await preflight(config, { consulAgent: args.consulAgent });
    for (const v of verdicts)
      io.stdout.write(
        terminalSafe(`${v.ok ? 'ok  ' : 'FAIL'}  ${v.check}: ${v.detail.replace(/\s+/g, ' ')}\n`),
      );
    return verdicts.every((v) => v.ok) ? 0 : 1;
  }
  if (args.check) {
    // The collector's own config too: a missing or bad collect.yaml fails the check, not the service.
    if (config.collect)
      await (await import('../collect/loadConfig.js')).loadCollectConfig(config.collect.config);
    io.stdout.write(
      `${JSON.stringify({ ok: true, activity_arn: config.activityArn, worker: config.workerName, collect: Boolean(config.collect) })}\n`,
    );
    return 0;
  }
  const { startAgentService } = await import('../agent/service.js');
  // Hooked before the service starts: it prints agent-started, and a SIGTERM right after that line
  // must reach this handler rather than Node's default (death by the signal, no exit status).
  let signals = 0;
  let service: AgentService | undefined;
  const actOnSignals = (s: AgentService) => {
    if (signals === 1) s.stop();
    else if (signals > 1) s.abandon();
  };
  const onSignal = () => {
    signals++;
    if (service) actOnSignals(service);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  try {
    service = await startAgentService(config, {
      log: (entry) => io.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`),
    });
    // Signals that came while it was starting.
    actOnSignals(service);
    await service.done;
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
  return 0;
}

export function addAgentCommand(program: Command, io: CliIO, done: (status: number) => void): void {
  program
    .command('agent')
    .description(
      "run the migration workflow's on-premises steps (and the collector) inside the operator's network; outbound only",
    )
    .requiredOption('--config <file>', 'the agent config (YAML or JSON; see below)')
    .option('--check', 'validate the config and the files it names, and exit')
    .option('--preflight', 'also try each connection the agent makes, one verdict per line, and exit')
    .option('--consul-agent <address>', '--preflight: the Consul agent to ask (host, host:port or URL)')
    .addHelpText('after', AGENT_CONFIG_HELP)
    .action(async (opts) => done(await runAgentCommand(opts, io)));
}
