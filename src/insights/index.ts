// Slack-free decisions about a run: explaining a report's moved KPIs or an incident, what an incident's messages say, whether a quiet digest posts, a digest's pacing line.

export { alertMessageInput, type MessageContext } from './alertMessageInput.js';
export { type EntityFilter, type EntityRefusal, entityFilter } from './entityFilter.js';
export { type ExplanationSkip, explainIncident, ruleComparison } from './explainIncident.js';
export {
  DEFAULT_EXPLAIN_THRESHOLD,
  dimensionLabel,
  type ExplainBounds,
  type ExplainDeps,
  type ExplainedReport,
  type ExplainTarget,
  explainMoved,
  explainReport,
  explainSettings,
  movedHeadline,
  movedPast,
  REQUEST_DEADLINE_MS,
  REQUEST_QUERY_BUDGET,
} from './explainReport.js';
export { explanationWords, segmentName, type WordsOptions } from './explanationWords.js';
export {
  type QuietDecision,
  type QuietFacts,
  type QuietSettings,
  quietDecision,
  quietSettings,
} from './quietDigest.js';
export { type PacingDeps, reportPacing } from './reportPacing.js';
