/**
 * `placid agent --check` and `--preflight`. The check reads every file the config names (the
 * credentials file, the collector's config) and says what is missing or wrong; the preflight then
 * makes one harmless call over each connection the agent will use (the activity, the ingest
 * queue, Keystone, each Kubernetes cluster, a Consul agent) and gives one verdict per line, so a
 * deployment is proven before the first migration depends on it.
 */
import type { AgentConfig } from './config.js';

export interface ProbeResult {
  check: string;
  ok: boolean;
  detail: string;
}

/** What the preflight calls in AWS; replaced by local stand-ins in tests. */
export interface PreflightParts {
  /** DescribeActivity; resolves with the activity's name. Default: Step Functions through the SDK. */
  describeActivity?: (arn: string) => Promise<string>;
  /** GetQueueAttributes; resolves with a short description. Default: SQS through the SDK. */
  queueAttributes?: (url: string) => Promise<string>;
  /** A Consul agent to ask `/v1/agent/self` (host, host:port or URL); skipped when absent. */
  consulAgent?: string;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Problems with the files the config names; empty when every one is there and valid. */
export async function checkAgentFiles(config: AgentConfig): Promise<string[]> {
  const problems: string[] = [];
  if (config.credentials.source === 'file') {
    const { fileSecrets } = await import('../drivers/credentials.js');
    const secrets = fileSecrets(config.credentials.path);
    for (const name of ['openstack', 'kubernetes', 'consul']) {
      await secrets.loadSecret(name).catch((error) => problems.push(`credentials: ${message(error)}`));
    }
  }
  if (config.collect) {
    const { loadCollectConfig } = await import('../collect/index.js');
    await loadCollectConfig(config.collect.config).catch((error) =>
      problems.push(`collect.config: ${message(error)}`),
    );
  }
  return problems;
}

/** One verdict per connection the agent makes, in the order it makes them. */
export async function preflight(config: AgentConfig, parts: PreflightParts = {}): Promise<ProbeResult[]> {
  const verdicts: ProbeResult[] = [];
  const probe = async (check: string, call: () => Promise<string>) => {
    try {
      verdicts.push({ check, ok: true, detail: await call() });
    } catch (error) {
      verdicts.push({ check, ok: false, detail: message(error) });
    }
  };
  await probe('activity', async () => {
    const describe = parts.describeActivity ?? (await sdkDescribeActivity(config.region));
    return `${await describe(config.activityArn)} can be polled`;
  });
  const collect = config.collect;
  if (collect) {
    await probe('ingest queue', async () => {
      const attributes = parts.queueAttributes ?? (await sdkQueueAttributes(config.region));
      return attributes(collect.queueUrl);
    });
  }
  const { secretsOf } = await import('./secrets.js');
  const secrets = await secretsOf(config);
  const { probeKeystone, probeKubernetes, probeConsul } = await import('./probes.js');
  await probe('keystone', () => probeKeystone(secrets));
  for (const [cluster, call] of await probeKubernetes(secrets).catch((error) => [
    ['kubernetes', () => Promise.reject(error)] as const,
  ])) {
    await probe(cluster === 'kubernetes' ? cluster : `kubernetes ${cluster}`, call);
  }
  const consulAgent = parts.consulAgent;
  if (consulAgent) await probe('consul', () => probeConsul(secrets, consulAgent));
  else verdicts.push({ check: 'consul', ok: true, detail: 'skipped: no --consul-agent given' });
  return verdicts;
}

async function sdkDescribeActivity(region: string) {
  const { SFNClient, DescribeActivityCommand } = await import('@aws-sdk/client-sfn');
  const client = new SFNClient({ region });
  return async (activityArn: string) =>
    String((await client.send(new DescribeActivityCommand({ activityArn }))).name);
}

async function sdkQueueAttributes(region: string) {
  const { SQSClient, GetQueueAttributesCommand } = await import('@aws-sdk/client-sqs');
  const client = new SQSClient({ region });
  return async (QueueUrl: string) => {
    const out = await client.send(
      new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['ApproximateNumberOfMessages'] }),
    );
    return `reachable (${out.Attributes?.ApproximateNumberOfMessages ?? '?'} messages waiting)`;
  };
}
