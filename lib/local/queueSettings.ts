import { type Clock, systemClock } from '../model/clock.js';
import { ConfigError } from '../model/errors.js';
import { SQS_LIMITS } from '../queue/limits.js';
import type { LocalSqsQueue } from './sqsQueue.js';

export interface LocalQueueOptions {
  /** 1–80 characters: letters, digits, `-` and `_`, as SQS requires. */
  name: string;
  clock?: Clock;
  /** Seconds a received message stays invisible; a failed one comes back after it. Default 30. */
  visibilityTimeoutSeconds?: number;
  /** Move a message here when it is received again after `maxReceiveCount` receives. */
  redrive?: { deadLetterQueue: LocalSqsQueue; maxReceiveCount: number };
  region?: string;
  accountId?: string;
  senderId?: string;
  maxMessageBytes?: number;
}

/** Options with defaults applied and the queue's SQS identity derived. */
export interface QueueSettings {
  name: string;
  arn: string;
  url: string;
  region: string;
  senderId: string;
  clock: Clock;
  visibilityTimeoutMs: number;
  maxMessageBytes: number;
  redrive?: LocalQueueOptions['redrive'];
}

/** Validates options against SQS's own bounds; a bad one is a ConfigError naming the queue. */
export function resolveQueueOptions(options: LocalQueueOptions): QueueSettings {
  const { name } = options;
  const region = options.region ?? 'us-east-1';
  const accountId = options.accountId ?? '000000000000';
  const visibility = options.visibilityTimeoutSeconds ?? 30;
  const maxReceives = options.redrive?.maxReceiveCount;
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(name)) throw new ConfigError(`queue name '${name}' is not valid`);
  if (!(visibility >= 0 && visibility <= 43_200)) {
    throw new ConfigError(`queue ${name}: visibilityTimeoutSeconds must be 0..43200, got ${visibility}`);
  }
  if (
    maxReceives !== undefined &&
    !(Number.isInteger(maxReceives) && maxReceives >= 1 && maxReceives <= 1000)
  ) {
    throw new ConfigError(`queue ${name}: maxReceiveCount must be an integer 1..1000, got ${maxReceives}`);
  }
  return {
    name,
    arn: `arn:aws:sqs:${region}:${accountId}:${name}`,
    url: `https://sqs.${region}.amazonaws.com/${accountId}/${name}`,
    region,
    senderId: options.senderId ?? 'AIDAPLACIDLOCALSENDER',
    clock: options.clock ?? systemClock,
    visibilityTimeoutMs: visibility * 1000,
    maxMessageBytes: options.maxMessageBytes ?? SQS_LIMITS.messageBytes,
    redrive: options.redrive,
  };
}
