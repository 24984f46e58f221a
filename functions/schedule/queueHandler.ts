/** Lambda entry: the schedule stage's SQS consumer, set up on first use (functions/shared/coldStart.ts). */
import { lazily } from '../shared/coldStart.js';
import { createQueueHandler } from './consumer.js';
import { queueStageFromEnv } from './stage.js';

export const handler = createQueueHandler(lazily(() => queueStageFromEnv()));
