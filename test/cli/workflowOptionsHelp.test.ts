/** Every command that runs the local migration workflow documents its shared options with one text. */
import { describe, expect, it } from 'vitest';
import { ENDPOINTS_HELP, SETTINGS_HELP, TEMPLATE_HELP } from '../../lib/cli/workflowOptions.js';
import { runCli } from './runCli.js';

/** Help text with line wrapping undone, so a long option description reads as one string. */
const unwrapped = (text: string) => text.replace(/\s+/g, ' ');

describe('the workflow options in --help', () => {
  it.each(['detect', 'migrate', 'serve'])('placid %s --help shows the shared texts', async (command) => {
    const run = await runCli([command, '--help']);
    expect(run.status).toBe(0);
    for (const text of [ENDPOINTS_HELP, SETTINGS_HELP, TEMPLATE_HELP]) {
      expect(unwrapped(run.stdout)).toContain(unwrapped(text));
    }
  });
});
