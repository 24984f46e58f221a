/**
 * The long-running `placid agent` process: the activity worker (agent.ts) over the real drivers,
 * and, when configured, the collector on its interval sending to the ingest queue. Every call goes
 * out (Step Functions, SQS, Secrets Manager over HTTPS; Nova, Kubernetes, Consul and Prometheus on
 * the operator's network); nothing listens. The first SIGTERM or SIGINT stops taking tasks and lets
 * running steps finish and report; a second one drops them (Step Functions retries them on another
 * agent after the heartbeat timeout) and exits.
 */
import { systemClock } from '../model/clock.js';
import type { MessageQueue } from '../queue/port.js';
import type { AgentStepDeps } from '../workflow/ports.js';
import { Agent, type AgentEvent } from './agent.js';
import type { TaskChannel } from './channel.js';
import type { AgentConfig } from './config.js';

export interface AgentServiceIO {
  /** One JSON document per line (journald and log shippers take it as is). */
  log(entry: Record<string, unknown>): void;
}

export interface AgentService {
  agent: Agent;
  /** Resolves when the worker and the collector have stopped. */
  done: Promise<void>;
  stop(): void;
  abandon(): void;
}

/** What the service talks to in AWS; replaced by local stand-ins in tests. */
export interface AgentServiceParts {
  /** Default: Step Functions through the SDK, in the activity's region. */
  channel?: TaskChannel;
  /** The collector's ingest queue. Default: SQS at `collect.queue_url`. */
  ingestQueue?: MessageQueue;
}

export async function startAgentService(
  config: AgentConfig,
  io: AgentServiceIO,
  parts: AgentServiceParts = {},
): Promise<AgentService> {
  const deps: AgentStepDeps = {
    settings: config.settings,
    clock: systemClock,
    ...(await drivers(config)),
    trust: config.trust,
  };
  const agent = new Agent({
    channel: parts.channel ?? (await sdkChannel(config.region)),
    activityArn: config.activityArn,
    workerName: config.workerName,
    deps,
    concurrency: config.concurrency,
    heartbeatIntervalMs: config.heartbeatIntervalMs,
    log: (event: AgentEvent) => io.log({ ...event }),
  });
  const stopCollector = new AbortController();
  io.log({
    event: 'agent-started',
    worker: config.workerName,
    activity_arn: config.activityArn,
    concurrency: config.concurrency,
    collect: config.collect
      ? { interval_ms: config.collect.intervalMs, queue_url: config.collect.queueUrl }
      : null,
  });
  const collector = config.collect
    ? collectLoop(config.collect, io, stopCollector.signal, parts.ingestQueue)
    : Promise.resolve();
  const cleaner = cleanupLoop(config, deps, agent, io, stopCollector.signal);
  return {
    agent,
    done: Promise.all([agent.run(), collector, cleaner]).then(() => io.log({ event: 'agent-stopped' })),
    stop: () => {
      stopCollector.abort();
      agent.stop();
    },
    abandon: () => {
      stopCollector.abort();
      agent.abandon();
    },
  };
}

async function sdkChannel(region: string): Promise<TaskChannel> {
  const [{ SFNClient }, { sfnChannel }] = await Promise.all([
    import('@aws-sdk/client-sfn'),
    import('./sfnChannel.js'),
  ]);
  return sfnChannel(new SFNClient({ region }));
}

async function drivers(config: AgentConfig) {
  const [{ lazyDrivers }, { secretsOf }] = await Promise.all([
    import('../workflow/drivers.js'),
    import('./secrets.js'),
  ]);
  const { provider, names } = await secretsOf(config);
  return lazyDrivers(provider, names);
}

/** At start and on its interval: undoes what Placid left drained (lib/agent/leftovers.ts). */
async function cleanupLoop(
  config: AgentConfig,
  drivers: AgentStepDeps,
  agent: Agent,
  io: AgentServiceIO,
  stop: AbortSignal,
): Promise<void> {
  const { cleanupPass } = await import('./cleanupRun.js');
  while (!stop.aborted) {
    try {
      const pass = await cleanupPass(
        config,
        { apply: true, now: Date.now(), running: agent.runningMigrations },
        drivers,
      );
      for (const undone of pass.undone) io.log({ event: 'cleanup', ...undone });
    } catch (error) {
      io.log({ event: 'cleanup-error', error: `${(error as Error).name}: ${(error as Error).message}` });
    }
    await systemClock.sleep(config.cleanup.intervalMs, stop);
  }
}

/** What `placid collect --interval --queue` does, until stopped; a failed run is logged, not fatal. */
async function collectLoop(
  settings: NonNullable<AgentConfig['collect']>,
  io: AgentServiceIO,
  stop: AbortSignal,
  queue?: MessageQueue,
): Promise<void> {
  const collect = await import('../collect/index.js');
  const sink = collect.queueSink(settings.queueUrl, queue);
  let sources: Awaited<ReturnType<typeof collect.connectSources>> | undefined;
  let config: Awaited<ReturnType<typeof collect.loadCollectConfig>> | undefined;
  try {
    while (!stop.aborted) {
      const started = Date.now();
      try {
        config ??= await collect.loadCollectConfig(settings.config);
        sources ??= await collect.connectSources(config);
        const summary = await collect.collectAndSend({ config, ...sources }, sink);
        io.log({ event: 'collect-run', status: collect.exitStatusOf(summary), summary });
      } catch (error) {
        // Reconnect next time: a secret may have been rotated or a source restarted.
        sources?.close?.();
        sources = undefined;
        io.log({ event: 'collect-error', error: `${(error as Error).name}: ${(error as Error).message}` });
      }
      await systemClock.sleep(started + settings.intervalMs - Date.now(), stop);
    }
  } finally {
    sources?.close?.();
    await sink.close();
  }
}
