// Scheduled digests and alert evaluations: what is due and which missed slots are caught up (pure planner), run keys, retries, and the drivers (this process, or the replicas' queue) that claim and run slots through one attemptSlot.

export type { QueuedDelivery, QueuedSlot, SlotQueue } from '../store/index.js';
export {
  ALERTS_WAIT_MS,
  createScheduler,
  type GiveUp,
  type Scheduler,
  type SchedulerDeps,
  type ScheduleStatus,
  type SlotResult,
  type SlotRun,
} from './createScheduler.js';
export { DATA_CHECK_EVERY_MS, type DataWaitDecision, dataWaitAction } from './dataWaitAction.js';
export { listAlertSchedules, listSchedules, type ScheduleDefaults } from './listSchedules.js';
export { type CatchUpOptions, type CatchUpPlan, ON_TIME_MS, planCatchUp } from './planCatchUp.js';
export { nextWakeAt, scheduleAction, vanishedSchedules } from './planSchedules.js';
export { type RetryDecision, retryAction } from './retryAction.js';
export {
  alertRunKey,
  explainRunKey,
  parseAlertRunKey,
  parseRunKey,
  runKey,
  specRunKey,
  specRunKeyPrefix,
} from './runKey.js';
export {
  type Day,
  DEFAULT_CATCH_UP_MS,
  DEFAULT_RETRY,
  type RetryPolicy,
  type ScheduleList,
  type ScheduleProblem,
  type ScheduleSpec,
  type WaitForData,
} from './ScheduleSpec.js';
export { createSlotPool, type SlotPool } from './slotPool.js';
