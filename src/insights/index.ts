// Slack-free decisions about a run: explaining a report's moved KPIs or an incident, what an incident's messages say, whether a quiet digest posts, a digest's pacing line.

export { alertMessageInput, type MessageContext } from './alertMessageInput.js';
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
export {
  type QuietDecision,
  type QuietFacts,
  type QuietSettings,
  quietDecision,
  quietSettings,
} from './quietDigest.js';
export { type PacingDeps, reportPacing } from './reportPacing.js';
