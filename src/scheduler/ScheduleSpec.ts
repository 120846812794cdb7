/**
 * One schedule: a report posted to one channel on a cron (or `at` + `days`) in an IANA zone, or
 * (`kind: 'alert'`) one alert rule evaluated on its own `check` or its report's schedule.
 */
export interface ScheduleSpec {
  /** `digest` when absent: digests and alert evaluations share the scheduler, its claims and catch-up. */
  kind?: 'digest' | 'alert';
  /** The rule id, for `kind: 'alert'`. */
  rule?: string;
  /**
   * Stable identity of the schedule's bookkeeping (its last fire): source, report, channel and the
   * timing as written, so an edited time is a new schedule that does not post its past.
   */
  id: string;
  report: string;
  /** Digests: where they are posted. Alerts: the first channel of the report (threads go to each). */
  channel: string;
  source: 'report' | 'subscription';
  /** Set when `source` is `subscription`. */
  subscriptionId?: string;
  /** IANA zone the cron is read in. */
  timezone: string;
  /** 5 fields, or 6 with a leading seconds field. Either `cron` or `at` is set. */
  cron?: string;
  /** `HH:MM`, with `days` (default daily). */
  at?: string;
  days?: 'daily' | 'weekdays' | 'weekends' | readonly Day[];
  /** How late a missed slot may still be posted (ms); `null` skips every missed slot. */
  catchUp: number | null;
  retry: RetryPolicy;
  waitForData?: WaitForData;
}

export type Day = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

export interface RetryPolicy {
  /** Tries per slot, the first included. */
  attempts: number;
  backoffMs: number;
}

export interface WaitForData {
  metric: string;
  /** Post once the range's value reaches this share of the same weekday a week earlier. */
  minShare: number;
  /** Longest wait before posting anyway, marked "data may be incomplete". */
  waitMs: number;
}

export const DEFAULT_CATCH_UP_MS = 6 * 3_600_000;
export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, backoffMs: 2 * 60_000 };

/** A schedule that cannot run (a subscription to an unscheduled report, a bad cron or zone). */
export interface ScheduleProblem {
  source: 'report' | 'subscription';
  report: string;
  /** Set for an alert rule that cannot be evaluated. */
  rule?: string;
  channel?: string;
  subscriptionId?: string;
  message: string;
}

/** What the scheduler runs, and what it cannot run and must say so. */
export interface ScheduleList {
  schedules: ScheduleSpec[];
  problems: ScheduleProblem[];
}
