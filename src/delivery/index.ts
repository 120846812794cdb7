// Turning decisions into Slack posts and running slot steps: digests, run-and-deliver, async job progress and resume, interrupted runs, alert threads and the alert slot runner, explanations posted under digests, alert parents and answers.

export { editParents } from './alertParents.js';
export { type RuleThreads, ruleRange, threadUrl } from './alertThreads.js';
export type { DeliveryDeps } from './DeliveryDeps.js';
export { type DigestDeps, deliverDigest } from './deliverDigest.js';
export { deliverOwedAlerts } from './deliverOwedAlerts.js';
export { runAndDeliver } from './deliverRun.js';
export { deliverTransitions } from './deliverTransitions.js';
export { type DigestContent, digestContent } from './digestContent.js';
export { failureNoticeRecipients, postDigestFailure } from './digestFailure.js';
export { evaluateAlertSlot } from './evaluateAlertSlot.js';
export { becauseLines, type PostExplanationDeps, postExplanation } from './postExplanation.js';
export { postView } from './postView.js';
export { postWithImage } from './postWithImage.js';
export type { RunTarget } from './RunTarget.js';
export { deliverRequested, type InQueue, type RunRequest } from './requestedRun.js';
export { type AdoptedWork, resumeJobs } from './resumeJobs.js';
