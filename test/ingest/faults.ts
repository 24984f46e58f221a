/**
 * Fault injection for the document client: wraps `send` so chosen calls fail (throttling, partial
 * UnprocessedItems, a crash) for a number of calls, and counts the conditional writes that landed.
 */
import {
  BatchWriteCommand,
  type BatchWriteCommandInput,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';

type Command = { constructor: { name: string }; input: Record<string, unknown> };
type Send = (command: Command) => Promise<unknown>;

export interface Fault {
  /** Which calls it applies to, e.g. `isCall('BatchWriteCommand')`. */
  when: (command: Command) => boolean;
  /** Calls it applies to before it stops. */
  times: number;
  act: (command: Command, send: Send) => Promise<unknown>;
}

export const isCall =
  (name: string, table?: string) =>
  (command: Command): boolean =>
    command.constructor.name === name && (table === undefined || command.input.TableName === table);

export const throttlingError = (): Error =>
  Object.assign(new Error('The level of configured provisioned throughput for the table was exceeded'), {
    name: 'ProvisionedThroughputExceededException',
    $retryable: { throttling: true },
  });

/** The call fails as DynamoDB's throttling does. */
export const throttle = async (): Promise<never> => {
  throw throttlingError();
};

/** A BatchWriteItem that writes only its first item and hands the rest back as UnprocessedItems. */
export const partialBatch = async (command: Command, send: Send): Promise<unknown> => {
  const requests = command.input.RequestItems as NonNullable<BatchWriteCommandInput['RequestItems']>;
  const [table, items] = Object.entries(requests)[0];
  await send(new BatchWriteCommand({ RequestItems: { [table]: items.slice(0, 1) } }) as unknown as Command);
  return { UnprocessedItems: items.length > 1 ? { [table]: items.slice(1) } : {} };
};

export interface Injector {
  /** Successful state writes per `table key` (UpdateItem on hosts, PutItem on instances). */
  stateWrites: Map<string, number>;
  /** Faults not used up yet. */
  remaining(): number;
  restore(): void;
}

export function injectFaults(doc: DynamoDBDocumentClient, faults: Fault[]): Injector {
  const original = doc.send.bind(doc) as unknown as Send;
  const left = faults.map((f) => f.times);
  const stateWrites = new Map<string, number>();
  // Passed to faults too, so a write that lands before a crash is counted.
  const counted: Send = async (command) => {
    const out = await original(command);
    const name = command.constructor.name;
    if (name === 'UpdateCommand' || name === 'PutCommand') {
      const key = `${command.input.TableName} ${JSON.stringify(command.input.Key ?? itemKey(command))}`;
      stateWrites.set(key, (stateWrites.get(key) ?? 0) + 1);
    }
    return out;
  };
  const send: Send = async (command) => {
    const i = faults.findIndex((f, k) => left[k] > 0 && f.when(command));
    if (i < 0) return counted(command);
    left[i]--;
    return faults[i].act(command, counted);
  };
  (doc as unknown as { send: Send }).send = send;
  return {
    stateWrites,
    remaining: () => left.reduce((s, n) => s + n, 0),
    restore: () => {
      (doc as unknown as { send: Send }).send = original;
    },
  };
}

function itemKey(command: Command): unknown {
  const item = command.input.Item as Record<string, unknown>;
  return { uuid: item.uuid };
}
