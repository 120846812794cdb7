/**
 * Pure builders for the informational answers of `/pivot`: help, the report list, one report's
 * details, a job's status, open incidents, subscription confirmations. Ephemeral: only the asker sees them.
 */
import { type Block, escapeMrkdwn, mrkdwnContext, mrkdwnSection, type SlackMessage } from '../../../render/index.js';
import type { FieldSpec, LoadedReport, LoadedReports, ReportSchedule } from '../../../reports/index.js';
import { listAlertSchedules, listSchedules } from '../../../scheduler/index.js';
import type { AsyncJob, Subscription } from '../../../store/index.js';
import { timingText } from './scheduleMessages.js';

const section = (text: string): Block => mrkdwnSection(text);
const note = (text: string): Block => mrkdwnContext(text);
const message = (text: string, blocks: Block[]): SlackMessage => ({ text, blocks });

/** `/pivot help`: examples in the words people use, then the exact language and the commands. */
export function helpMessage(options: { sandbox: boolean; timezone: string }): SlackMessage {
  const lines = [
    '*Ask in your own words*',
    '• `/pivot cpi by country yesterday`',
    '• `/pivot top 5 campaigns by spend last 7 days`',
    '• `/pivot spend and installs for US and Brazil last week WoW`',
    '• `/pivot roas by exchange L30D on ios`',
    '• `/pivot daily installs for app 101 this month` · `/pivot spend campaign 1001 yesterday vs last week`',
    'The first line of every answer says how I understood you, in the exact names (`installsCpi by countryCode, yesterday (UTC)`): type those to be precise.',
    '*The exact language*',
    '• `/pivot installs(attrTouch=CLICK) as clickInstalls, spend by campaign, date:daily last 14 days where countryCode in (US,BR) top 10 by spend`',
    '• `/pivot impressions clicks ctr by siteBundle last 7 days having impressions > 10000 csv` (add `async` for big ones)',
    '*Why did it move*: `/pivot why installs yesterday vs same day last week` · `/pivot why cpi by country last 7 days` (drivers by country, source, campaign…; mix vs rate for ratios). Answers with a comparison have an *Explain* button; digests say why their headline KPIs moved.',
    '*Vocabulary*: `/pivot help metrics` · `/pivot help dimensions` · `/pivot help ranges`',
    '*Ask again in the thread*: reply under any answer, digest or alert (`only iOS`, `by source instead`, `last 30 days`, `top 5`, `as csv`, `why?`); the answer comes in the thread and its first line is the whole refined query. Or ask me in a DM, or `@pivotbot <question>` in a channel.',
    '*With clicks*: `/pivot` alone (or `/pivot new`) opens the query builder; every answer has *Schedule this* (admins) to post it on a schedule.',
    '*Named reports*',
    '• `/pivot list` · `/pivot show <report>` · `/pivot run <report> [range]`',
    '*Jobs, postbacks, alerts*',
    '• `/pivot status <job id>` · `/pivot postbacks app:<id> keys:<k1,k2> [range]` · `/pivot alerts` (open incidents; each rule’s last 30 days: opened, acknowledged, resolved by themselves within a day, median time open) · `/pivot backtest <report> [rule]` (when its rules would have fired over the last 30 days) · *Watch this* under an answer saves an alert rule on it, one row of it or its total, previewed over the last 30 days (yours, its incidents in your DM; an admin’s in a channel posts there; its Remove button in `/pivot alerts` or `/pivot unwatch <name>` removes it)',
    '*Digests* (admins)',
    '• `/pivot subscribe <report> [#channel] [at HH:MM | cron "0 9 * * 1-5"] [tz Europe/Berlin]` (invite me to the channel first: `/invite @pivotbot`) · `/pivot unsubscribe <report> [#channel]`',
    '• `/pivot schedule` (every schedule, its next post and last outcome) · `/pivot history <report>` (its last runs)',
  ];
  const blocks = [section(lines.join('\n'))];
  const context = [
    `Ranges: yesterday, today, last 7 days (L7D), this week (WTD), last week, this month (MTD), last month, this quarter (QTD), 2026-11-01..2026-11-08. Default time zone: ${options.timezone}.`,
  ];
  if (options.sandbox) {
    context.push(
      ':test_tube: Running on the *embedded sandbox*: synthetic data, no Reporting Service account configured.',
    );
  }
  blocks.push(note(context.join('\n')));
  return message(
    'pivotbot help: /pivot <question> | help metrics | list | show | run | status | postbacks | alerts | backtest | subscribe | schedule | history',
    blocks,
  );
}

/** A schedule in words: `09:00 weekdays (Europe/Berlin)`, `cron 0 9 * * 1-5 (UTC)`. */
export function scheduleText(schedule: ReportSchedule | undefined, fallbackZone: string): string {
  if (!schedule) return 'not scheduled';
  const zone = schedule.timezone ?? fallbackZone;
  if (schedule.cron) return `cron \`${schedule.cron}\` (${zone})`;
  const days = Array.isArray(schedule.days) ? schedule.days.join(', ') : (schedule.days ?? 'daily');
  return `${schedule.at} ${days} (${zone})`;
}

/** `/pivot list`. */
export function listMessage(loaded: LoadedReports, timezone: string): SlackMessage {
  if (loaded.reports.length === 0 && loaded.broken.length === 0) {
    return message('No reports yet.', [
      section('No report definitions yet: an admin adds them as YAML files in pivotbot’s reports folder.'),
    ]);
  }
  const lines = loaded.reports.map(
    (r) =>
      `• \`${r.id}\` — *${escapeMrkdwn(r.definition.title)}* · ${scheduleText(r.definition.schedule, timezone)} · ${r.definition.mode}`,
  );
  const blocks: Block[] = [section(`*${loaded.reports.length} report(s)*\n${lines.join('\n')}`)];
  if (loaded.broken.length > 0) {
    blocks.push(
      note(
        `:warning: ${loaded.broken.length} definition(s) have problems: ${loaded.broken.map((b) => `\`${b}\``).join(', ')}. An admin can run \`pivotbot validate\`.`,
      ),
    );
  }
  blocks.push(note('Run one with `/pivot run <report> [range]`; details with `/pivot show <report>`.'));
  return message(`${loaded.reports.length} reports`, blocks);
}

/** `/pivot show <report>`. */
export function showMessage(
  report: LoadedReport,
  subscriptions: readonly Subscription[],
  timezone: string,
): SlackMessage {
  const d = report.definition;
  const names = (fields: readonly FieldSpec[]) =>
    fields.map((f) => (typeof f === 'string' ? f : (f.as ?? f.name))).join(', ');
  const range = typeof d.query.range === 'string' ? d.query.range : `${d.query.range.from}..${d.query.range.to}`;
  const lines = [
    `*${escapeMrkdwn(d.title)}* (\`${report.id}\`)${d.owner ? ` · owner ${escapeMrkdwn(d.owner)}` : ''}`,
    d.description ? escapeMrkdwn(d.description) : undefined,
    d.query.metrics.length > 0 ? `*Metrics:* ${escapeMrkdwn(names(d.query.metrics))}` : undefined,
    d.query.dimensions.length > 0 ? `*By:* ${escapeMrkdwn(names(d.query.dimensions))}` : undefined,
    `*Range:* ${escapeMrkdwn(range)} · *Mode:* ${d.mode} · *Compare:* ${d.present.compare ?? 'none'}`,
    `*Schedule:* ${scheduleText(d.schedule, timezone)}${d.deliver?.channels.length ? ` → ${d.deliver.channels.join(', ')}` : ''}`,
    `*Alerts:* ${d.alerts.length === 0 ? 'none' : d.alerts.map((a) => `\`${escapeMrkdwn(a.name ?? 'rule')}\``).join(', ')}`,
    `*Subscribed channels:*${subscriptions.length === 0 ? ' none' : subscriptionLines(report, subscriptions, timezone)}`,
  ].filter((line): line is string => line !== undefined);
  return message(`${d.title} (${report.id})`, [section(lines.join('\n')), note(`Run it: \`/pivot run ${report.id}\``)]);
}

/**
 * Each subscription's channel and timing, one a line, as the scheduler runs it (`listSchedules`)
 * and `/pivot schedule` prints it: its own `at` or `cron` (or the older `schedule`) in its zone,
 * else the report's schedule; a watch, its rule's check; a timing that cannot run, why.
 */
function subscriptionLines(report: LoadedReport, subscriptions: readonly Subscription[], timezone: string): string {
  const reports = { reports: [report], broken: [] };
  const { schedules, problems } = listSchedules(reports, subscriptions, { timezone });
  const checks = listAlertSchedules(reports, { timezone }).schedules;
  const timing = (s: Subscription): string => {
    if (s.watch !== undefined) {
      const check = checks[0];
      return check ? `watch, checked ${timingText(check)}` : 'watch';
    }
    const spec = schedules.find((x) => x.subscriptionId === s.id);
    if (spec) return `${(s.cron ?? s.schedule ?? s.at) ? '' : 'on the report’s schedule, '}${timingText(spec)}`;
    const problem = problems.find((p) => p.subscriptionId === s.id);
    return `not running: ${escapeMrkdwn(problem?.message ?? 'its timing cannot run')}`;
  };
  return subscriptions.map((s) => `\n• <#${s.channel}> · ${timing(s)}`).join('');
}

/** `/pivot status <job>`. */
export function statusMessage(job: AsyncJob | undefined, jobId: string, liveStatus?: string): SlackMessage {
  if (!job && !liveStatus) {
    return message(`No job ${jobId}`, [
      section(`I know no job \`${escapeMrkdwn(jobId)}\`. Job ids appear in the progress message of an async run.`),
    ]);
  }
  const title = typeof job?.request.title === 'string' ? job.request.title : 'Report job';
  const lines = [
    `*${escapeMrkdwn(title)}* · job \`${escapeMrkdwn(jobId)}\``,
    `Service status: *${liveStatus ?? 'unknown'}*${job ? ` · delivery: *${job.status}* · asked by <@${job.requester}> in <#${job.channel}>` : ''}`,
    job?.startedAt ? `Started ${job.startedAt}${job.finishedAt ? `, finished ${job.finishedAt}` : ''}` : undefined,
    job?.resultFile ? `Result: \`${escapeMrkdwn(job.resultFile)}\` (in the job's thread)` : undefined,
    job?.error ? `Error: ${escapeMrkdwn(job.error.message)}` : undefined,
  ].filter((l): l is string => l !== undefined);
  return message(`Job ${jobId}: ${liveStatus ?? job?.status}`, [section(lines.join('\n'))]);
}

/** A short ephemeral confirmation or refusal. */
export function noticeMessage(text: string): SlackMessage {
  return message(text.replace(/[*`]/g, ''), [section(text)]);
}
