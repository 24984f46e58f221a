/**
 * Writes the realistic fixture's HTML report and terminal summary, for looking at by eye:
 * `npx tsx test/sim/report/writeSample.ts [path]` (default /tmp/placid-sim-sample.html).
 */
import { writeFileSync } from 'node:fs';
import { renderSimulationHtml } from '../../../lib/sim/report/html.js';
import { renderSimulationText } from '../../../lib/sim/report/text.js';
import { realisticResult } from './realisticFixture.js';

const path = process.argv[2] ?? '/tmp/placid-sim-sample.html';
const result = realisticResult();
const html = renderSimulationHtml(result);
writeFileSync(path, html);
process.stdout.write(renderSimulationText(result, { color: process.stdout.isTTY }));
process.stdout.write(`\nwrote ${path} (${Math.round(html.length / 1024)} KiB)\n`);
