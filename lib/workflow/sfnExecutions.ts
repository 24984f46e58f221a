/** The Step Functions SDK behind the starter's `Executions` port. */
import { ListExecutionsCommand, type SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { Executions } from './starter.js';

const PAGE_LIMIT = 1000;

export function sfnExecutions(client: Pick<SFNClient, 'send'>, stateMachineArn: string): Executions {
  return {
    async start(name, input) {
      try {
        await client.send(new StartExecutionCommand({ stateMachineArn, name, input }));
        return 'started';
      } catch (error) {
        // Same name as an earlier start of this migration: it is running or has run.
        if ((error as { name?: string }).name === 'ExecutionAlreadyExists') return 'exists';
        throw error;
      }
    },
    async countRunning(limit) {
      let count = 0;
      let nextToken: string | undefined;
      do {
        const page = await client.send(
          new ListExecutionsCommand({
            stateMachineArn,
            statusFilter: 'RUNNING',
            maxResults: Math.min(PAGE_LIMIT, Math.max(1, limit - count)),
            nextToken,
          }),
        );
        count += page.executions?.length ?? 0;
        nextToken = page.nextToken;
      } while (nextToken && count < limit);
      return count;
    },
  };
}
