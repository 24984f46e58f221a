/** Writes schemas/report-v1.schema.json from the zod validators: `npx tsx scripts/gen-schema.ts`. */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPORT_JSON_SCHEMA_PATH, renderReportJsonSchema } from '../lib/model/reportJsonSchema.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, REPORT_JSON_SCHEMA_PATH);
writeFileSync(target, renderReportJsonSchema());
// Format like every other committed file so `npm run lint` stays clean; the test compares parsed JSON.
execFileSync(join(root, 'node_modules/.bin/biome'), ['format', '--write', target], { stdio: 'ignore' });
process.stdout.write(`wrote ${REPORT_JSON_SCHEMA_PATH}\n`);
