// Time: IANA zones and wall clocks, cron parsing, fire times (DST rules), durations.

export { CronSyntaxError, parseCron } from './cronExpression.js';
export { durationMs, formatDuration } from './durations.js';
export { firesBetween, nextFires, specCron, type Timing } from './fireTimes.js';
export { normalizeTimeZone, timeZoneProblem } from './timeZoneNames.js';
export {
  addWallDays,
  addWallMonths,
  canonicalTimeZone,
  isoInZone,
  isTimeZone,
  offsetAt,
  startOfWallDay,
  wallClock,
  wallToEpoch,
} from './zonedTime.js';
