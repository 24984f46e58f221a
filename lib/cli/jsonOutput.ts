/** `placid schedule --json` prints the engine's decision JSON (embedders get the same from createScheduler). */
export { type DecisionJson, decisionJson } from '../engine/decisionJson.js';
export { writeDecisionJson } from '../engine/decisionJsonText.js';
