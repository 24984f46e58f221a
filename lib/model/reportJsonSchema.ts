/** The JSON Schema of report messages, generated from the zod validators (never edited by hand). */
import * as z from 'zod';
import { reportMessageInput } from './reportSchema.js';

/** Where the committed schema lives, relative to the package root. */
export const REPORT_JSON_SCHEMA_PATH = 'schemas/report-v1.schema.json';

/**
 * The input side of the validators as JSON Schema 2020-12: what an agent may send. Checks that need
 * the whole message or a clock (duplicates, clock skew, size and nesting caps) are not expressible
 * here; the descriptions say so.
 */
export function reportJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(reportMessageInput, { io: 'input', target: 'draft-2020-12' }),
    $id: 'urn:placid:schema:report:v1',
    $comment:
      'Generated from lib/model/reportSchema.ts by scripts/gen-schema.ts. Also enforced on receipt: at most 256 KiB, ' +
      'nesting at most 32 levels, no duplicate host/nodename or instance uuid, no duplicate sample ts in a report, ' +
      'no timestamp more than 5 minutes ahead of the receiver clock.',
  };
}

/** The schema file's exact text. */
export function renderReportJsonSchema(): string {
  return `${JSON.stringify(reportJsonSchema(), null, 2)}\n`;
}
