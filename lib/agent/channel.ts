/**
 * The agent's side of Step Functions activities: the four calls it makes, as a port. The real one
 * is the AWS SDK (sfnChannel.ts); locally lib/local/activities.ts serves the same calls in process,
 * so the simulation and the workflow tests run the agent's own code.
 */

export interface ActivityTask {
  taskToken: string;
  /** The task's input, JSON: `{step, state}`. */
  input: string;
}

export interface TaskChannel {
  /** Long-polls for a task; undefined when none came within the poll (about a minute on AWS). */
  getActivityTask(
    activityArn: string,
    workerName: string,
    signal?: AbortSignal,
  ): Promise<ActivityTask | undefined>;
  sendTaskSuccess(taskToken: string, output: string): Promise<void>;
  sendTaskFailure(taskToken: string, error: string, cause: string): Promise<void>;
  sendTaskHeartbeat(taskToken: string): Promise<void>;
}

/**
 * The task is no longer this agent's: it timed out (heartbeat or task timeout, and may already run
 * on another agent), the execution ended, or the token is unknown. Nothing to report any more.
 */
export class TaskGoneError extends Error {
  override name = 'TaskGoneError';
}

/** Step Functions' limits on what a failure may carry. */
export const MAX_ERROR_CHARS = 256;
export const MAX_CAUSE_CHARS = 32_768;
