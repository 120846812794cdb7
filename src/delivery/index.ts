// Turning runs into Slack posts; for now the explanations ("why did it move") under digests, alert parents and answers.

export { entityWhere, explainIncident, ruleComparison } from './explainIncident.js';
export {
  DEFAULT_EXPLAIN_THRESHOLD,
  dimensionLabel,
  type ExplainDeps,
  type ExplainedReport,
  type ExplainTarget,
  explainMoved,
  explainReport,
  explainSettings,
  movedPast,
} from './explainReport.js';
export { becauseLines, type PostExplanationDeps, postExplanation } from './postExplanation.js';
