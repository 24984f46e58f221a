/** Lambda entry: the schedule stage's Function URL, set up on first use (functions/shared/coldStart.ts). */
import { lazily } from '../shared/coldStart.js';
import { createUrlHandler } from './endpoint.js';
import { urlStageFromEnv } from './stage.js';

export const handler = createUrlHandler(lazily(() => urlStageFromEnv()));
