/** Lambda entry: the schedule stage's Function URL. Settings are validated here, at module load. */
import { createUrlHandler } from './endpoint.js';
import { urlStageFromEnv } from './stage.js';

export const handler = createUrlHandler(await urlStageFromEnv());
