/** Lambda entry: the schedule stage's SQS consumer. Settings are validated here, at module load. */
import { createQueueHandler } from './consumer.js';
import { queueStageFromEnv } from './stage.js';

export const handler = createQueueHandler(await queueStageFromEnv());
