import { didYouMean, PivotbotError, suggest } from '../core/index.js';
import type { LoadedReport, LoadedReports, ReportSchedule } from '../reports/index.js';
import type { Subscription } from '../store/index.js';
import { durationMs, normalizeTimeZone, specCron, timeZoneProblem } from '../time/index.js';
import {
  DEFAULT_CATCH_UP_MS,
  DEFAULT_RETRY,
  type ScheduleList,
  type ScheduleProblem,
  type ScheduleSpec,
} from './ScheduleSpec.js';

export interface ScheduleDefaults {
  /** `PIVOTBOT_TIMEZONE`, for schedules and reports that name no zone. */
  timezone: string;
}

type Timing = Pick<ScheduleSpec, 'cron' | 'at' | 'days'>;

/**
 * Every schedule to run: one per (report with `schedule` and `deliver.channels`, channel), and one
 * per subscription, with its own time or else its report's. A schedule's zone is its own, else
 * its report's (`schedule.timezone`, then `query.timezone`), else `defaults.timezone`. What cannot
 * run (a broken report file, a subscription to a report that is gone or has no schedule, a bad
 * cron or zone) comes back as a problem to show, never silently dropped.
 *
 * @example listSchedules(await loadReports(dir, { now }), store.subscriptions.list(), { timezone: config.timezone })
 * // { schedules: [{ id: 'report:daily-kpi:#ua:09:00 weekdays@America/Sao_Paulo', … }], problems: [] }
 */
export function listSchedules(
  reports: Pick<LoadedReports, 'reports' | 'broken'>,
  subscriptions: readonly Subscription[],
  defaults: ScheduleDefaults,
): ScheduleList {
  const schedules: ScheduleSpec[] = [];
  const problems: ScheduleProblem[] = [];
  const byId = new Map(reports.reports.map((r) => [r.id, r]));

  for (const id of reports.broken) {
    problems.push({
      source: 'report',
      report: id,
      message: 'the report file has errors, so its schedules are paused until it is fixed (see pivotbot validate)',
    });
  }

  for (const report of reports.reports) {
    const schedule = report.definition.schedule;
    if (!schedule) continue;
    for (const channel of report.definition.deliver?.channels ?? []) {
      const built = build(report, schedule, ownTiming(schedule), reportZone(report, defaults), {
        source: 'report',
        report: report.id,
        channel,
      });
      if ('message' in built) problems.push(built);
      else schedules.push(built);
    }
  }

  for (const subscription of subscriptions) {
    // A watch is an alert rule (listAlertSchedules evaluates it), never a digest.
    if (subscription.watch !== undefined) continue;
    const where = {
      source: 'subscription' as const,
      report: subscription.report,
      channel: subscription.channel,
      subscriptionId: subscription.id,
    };
    const report = byId.get(subscription.report);
    if (!report) {
      if (reports.broken.includes(subscription.report)) continue; // reported once above
      const suggestions = suggest(subscription.report, byId.keys());
      problems.push({ ...where, message: `there is no report "${subscription.report}".${didYouMean(suggestions)}` });
      continue;
    }
    const cron = subscription.cron ?? subscription.schedule;
    const own: Timing | undefined = cron ? { cron } : subscription.at ? { at: subscription.at } : undefined;
    const schedule = report.definition.schedule;
    const timing = own ?? (schedule ? ownTiming(schedule) : undefined);
    if (!timing) {
      problems.push({
        ...where,
        message: `report "${report.id}" has no schedule and the subscription names no time; subscribe again with "at HH:MM" or "cron …"`,
      });
      continue;
    }
    const zone = subscription.timezone ?? reportZone(report, defaults);
    const built = build(report, schedule, timing, zone, where);
    if ('message' in built) problems.push(built);
    else schedules.push(built);
  }
  return { schedules, problems };
}

/**
 * One schedule per alert rule: its own `check` (cron, zone: the check's, else the report's), else
 * its report's schedule. Threads go to the report's `deliver.channels` (the spec's channel is the
 * first). A rule with neither a check nor a report schedule, or a report with no channel to open
 * threads in, is a problem ("not evaluated"), never silently skipped.
 *
 * @example listAlertSchedules(await loadReports(dir, { now }), { timezone: 'UTC' })
 * // { schedules: [{ kind: 'alert', id: 'alert:daily-kpi:cpi-too-high:09:00 weekdays@America/Sao_Paulo', … }], problems: [] }
 */
export function listAlertSchedules(reports: Pick<LoadedReports, 'reports'>, defaults: ScheduleDefaults): ScheduleList {
  const schedules: ScheduleSpec[] = [];
  const problems: ScheduleProblem[] = [];
  for (const report of reports.reports) {
    const schedule = report.definition.schedule;
    const channel = report.definition.deliver?.channels?.[0];
    for (const rule of report.definition.alerts ?? []) {
      const where = { source: 'report' as const, report: report.id, rule: rule.id };
      if (channel === undefined) {
        problems.push({
          ...where,
          message: `alert ${rule.id} is not evaluated: the report has no deliver.channels to open its threads in`,
        });
        continue;
      }
      const timing: Timing | undefined = rule.check
        ? { cron: rule.check.cron }
        : schedule
          ? ownTiming(schedule)
          : undefined;
      if (!timing) {
        problems.push({
          ...where,
          message: `alert ${rule.id} is not evaluated: no schedule (give the report a schedule, or the rule a check: { cron })`,
        });
        continue;
      }
      const zone = rule.check?.timezone ?? reportZone(report, defaults);
      const built = build(report, schedule, timing, zone, { ...where, channel });
      if ('message' in built)
        problems.push({ ...built, message: `alert ${rule.id} is not evaluated: ${built.message}` });
      else schedules.push(built);
    }
  }
  return { schedules, problems };
}

function ownTiming(schedule: ReportSchedule): Timing {
  if (schedule.cron !== undefined) return { cron: schedule.cron };
  return { at: schedule.at ?? '', ...(schedule.days === undefined ? {} : { days: schedule.days }) };
}

function reportZone(report: LoadedReport, defaults: ScheduleDefaults): string {
  return report.definition.schedule?.timezone ?? report.definition.query.timezone ?? defaults.timezone;
}

function build(
  report: LoadedReport,
  schedule: ReportSchedule | undefined,
  timing: Timing,
  zone: string,
  where: Omit<ScheduleProblem, 'message'>,
): ScheduleSpec | ScheduleProblem {
  const timezone = normalizeTimeZone(zone);
  if (timezone === undefined) return { ...where, message: timeZoneProblem(zone)?.message ?? `bad zone "${zone}"` };
  try {
    specCron(timing);
  } catch (error) {
    if (error instanceof PivotbotError) return { ...where, message: error.message };
    throw error;
  }
  const days = Array.isArray(timing.days) ? timing.days.join(',') : (timing.days ?? 'daily');
  const text = timing.cron ?? `${timing.at} ${days}`;
  const id =
    where.rule !== undefined
      ? `alert:${report.id}:${where.rule}:${text}@${timezone}`
      : where.source === 'subscription'
        ? `subscription:${where.subscriptionId}:${text}@${timezone}`
        : `report:${report.id}:${where.channel}:${text}@${timezone}`;
  return {
    ...(where.rule !== undefined ? { kind: 'alert' as const, rule: where.rule } : {}),
    id,
    report: report.id,
    channel: where.channel ?? '',
    source: where.source,
    ...(where.subscriptionId === undefined ? {} : { subscriptionId: where.subscriptionId }),
    timezone,
    ...timing,
    catchUp: !schedule ? DEFAULT_CATCH_UP_MS : schedule.catchUp === 'none' ? null : durationMs(schedule.catchUp),
    retry: schedule
      ? { attempts: schedule.retry.attempts, backoffMs: durationMs(schedule.retry.backoff) }
      : { ...DEFAULT_RETRY },
    ...(schedule?.waitForData
      ? {
          waitForData: {
            metric: schedule.waitForData.metric,
            minShare: schedule.waitForData.minShare,
            waitMs: durationMs(schedule.waitForData.wait),
          },
        }
      : {}),
  };
}
