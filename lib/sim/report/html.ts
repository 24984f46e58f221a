/**
 * The HTML report of a simulation: one self-contained file (inline CSS, SVG drawn here, a small
 * inline script) that opens in a browser with no network. Every string from the result is escaped.
 */
import type { SimulationResult } from '../result.js';
import { escapeHtml } from './escape.js';
import { heatmapSectionHtml, seriesSectionHtml, timelineSectionHtml } from './html/charts.js';
import { decisionLogHtml } from './html/decisionLog.js';
import { SCRIPT } from './html/script.js';
import { STYLES } from './html/styles.js';
import { headerHtml, kpisHtml, violationsHtml } from './html/summary.js';
import { comparisonHtml, decisionCountsHtml, hottestHostsHtml } from './html/tables.js';
import { scenarioClock } from './time.js';

/** @example await writeFile('placid-simulation.html', renderSimulationHtml(result)) */
export function renderSimulationHtml(result: SimulationResult): string {
  const clock = scenarioClock(result.scenario.timezone);
  const body = [
    headerHtml(result, clock),
    violationsHtml(result, clock),
    kpisHtml(result),
    comparisonHtml(result),
    heatmapSectionHtml(result, clock),
    timelineSectionHtml(result, clock),
    seriesSectionHtml(result, clock),
    `<div class="cols">${decisionCountsHtml(result)}${hottestHostsHtml(result)}</div>`,
    decisionLogHtml(result, clock),
    `<footer>Placid simulation · seed ${result.scenario.seed} · times in ${escapeHtml(result.scenario.timezone)}</footer>`,
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Placid simulation: ${escapeHtml(result.scenario.name)}</title>
<style>${STYLES}</style></head>
<body><main>${body.join('\n')}</main><div id="tip" hidden></div>
<script>${SCRIPT}</script></body></html>
`;
}
