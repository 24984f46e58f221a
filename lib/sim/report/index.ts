/** The two views of a SimulationResult: the terminal summary and the self-contained HTML report. */
export { renderSimulationHtml } from './html.js';
export { renderSimulationText } from './text.js';
