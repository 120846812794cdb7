// Turning runs into Slack posts: the explanations ("why did it move") under digests, alert parents and answers, a digest's budget pacing line, and whether a quiet digest posts.

export { editParents } from './alertParents.js';
export { type RuleThreads, ruleRange, threadUrl } from './alertThreads.js';
export type { DeliveryDeps } from './DeliveryDeps.js';
export { DIGEST_EVENT, type DigestDeps, deliverDigest, postDigestFailure } from './deliverDigest.js';
export { type RunTarget, runAndDeliver } from './deliverRun.js';
export { deliverOwedAlerts, deliverTransitions, evaluateAlertSlot } from './evaluateAlerts.js';
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
export { postView } from './postView.js';
export { postWithImage } from './postWithImage.js';
export {
  type QuietDecision,
  type QuietFacts,
  type QuietSettings,
  quietDecision,
  quietSettings,
} from './quietDigest.js';
export { type PacingDeps, reportPacing } from './reportPacing.js';
export { deliverRequested, type InQueue, type RunRequest } from './requestedRun.js';
export { type AdoptedWork, resumeJobs } from './resumeJobs.js';
