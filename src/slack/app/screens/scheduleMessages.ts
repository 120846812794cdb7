import type { Block, SlackMessage } from '../../../render/index.js';
import { escapeMrkdwn, formatWhen, mrkdwnContext, mrkdwnSection } from '../../../render/index.js';
import type { LoadedReports } from '../../../reports/index.js';
import {
  listAlertSchedules,
  listSchedules,
  type ScheduleProblem,
  type ScheduleSpec,
} from '../../../scheduler/index.js';
import type { AlertEvaluation, IncidentsRepository, Run, RunsRepository, Subscription } from '../../../store/index.js';
import { nextFires } from '../../../time/index.js';

const section = (text: string): Block => mrkdwnSection(text);
const note = (text: string): Block => mrkdwnContext(text);

/** `Mon 23 Nov 09:00` in a zone (the alert messages' format, one definition). */
export function formatInZone(at: Date, timezone: string): string {
  return formatWhen(at.toISOString(), timezone);
}

/** A schedule's timing in words: `09:00 weekdays (Europe/Berlin)` or `cron 0 9 * * 1-5 (UTC)`. */
export function timingText(spec: Pick<ScheduleSpec, 'cron' | 'at' | 'days' | 'timezone'>): string {
  if (spec.cron) return `cron \`${spec.cron}\` (${spec.timezone})`;
  const days = Array.isArray(spec.days) ? spec.days.join(', ') : (spec.days ?? 'daily');
  return `${spec.at} ${days} (${spec.timezone})`;
}

/** What an alert evaluation changed: the incidents stamped with its slot (opened or reopened, resolved). */
export interface AlertChanges {
  opened: number;
  resolved: number;
}

/** The rule id of an alert run (`alert:<report>:<rule>:<slot>`), or undefined for a digest's. */
export function alertRuleOf(run: Pick<Run, 'idempotencyKey' | 'report'>): string | undefined {
  const prefix = `alert:${run.report}:`;
  if (!run.idempotencyKey.startsWith(prefix)) return undefined;
  return run.idempotencyKey.slice(prefix.length).split(':')[0] || undefined;
}

/**
 * What the evaluation of `slot` changed, read from the rule's incidents: transitions are stamped
 * with the slot's instant. Resolved incidents are kept in bounded numbers, so old slots may count short.
 */
export function alertChanges(
  incidents: ReadonlyArray<{ openedAt: string; reopenedAt?: string; resolvedAt?: string }>,
  slot: string,
): AlertChanges {
  const at = Date.parse(slot);
  const is = (iso: string | undefined) => iso !== undefined && Date.parse(iso) === at;
  return {
    opened: incidents.filter((i) => is(i.openedAt) || is(i.reopenedAt)).length,
    resolved: incidents.filter((i) => is(i.resolvedAt)).length,
  };
}

/** A run's outcome in a few words, with an emoji a reader can scan; alert runs say what they evaluated. */
export function outcomeText(run: Run | undefined, changes?: AlertChanges): string {
  if (!run) return 'no run yet';
  const late = run.trigger === 'catch-up' ? ' (late)' : '';
  switch (run.status) {
    case 'succeeded':
      if (alertRuleOf(run) !== undefined) {
        const what = changes
          ? changes.opened + changes.resolved === 0
            ? ': nothing opened or resolved'
            : `: ${changes.opened} opened, ${changes.resolved} resolved`
          : '';
        return `:white_check_mark: evaluated${late}${what}`;
      }
      return `:white_check_mark: posted${late}`;
    case 'running':
      return ':hourglass_flowing_sand: running';
    case 'skipped':
      return `:fast_forward: skipped: ${run.error?.message ?? 'missed'}`;
    case 'failed':
      return `:x: failed (attempt ${run.attempt}): ${run.error?.message ?? 'unknown error'}`;
  }
}

export interface ScheduleLine {
  spec: ScheduleSpec;
  next?: Date;
  /** The latest finished run (posted, failed or skipped). */
  lastRun?: Run;
  /** A slot of this schedule is being delivered now. */
  running?: boolean;
  /** Alert checks: what the last run changed, and the rule's latest evaluation record. */
  changes?: AlertChanges;
  evaluation?: AlertEvaluation;
}

export interface ScheduleOverview {
  /** Digests. */
  lines: ScheduleLine[];
  /** Alert checks: one per rule that can be evaluated (`listAlertSchedules`). */
  alerts: ScheduleLine[];
  problems: ScheduleProblem[];
}

/** What the alert lines read: each rule's evaluation record and incidents. */
export type AlertRecords = Pick<IncidentsRepository, 'getEvaluation' | 'listByReportRule'>;

/**
 * What the scheduler runs, computed as it computes it (`listSchedules`), with each schedule's next
 * fire and its last run: the facts behind `/pivot schedule` and App Home.
 */
export function scheduleOverview(input: {
  reports: LoadedReports;
  subscriptions: readonly Subscription[];
  runs: Pick<RunsRepository, 'listByReport'>;
  /** The alert records, for what each check's last evaluation found. */
  incidents?: AlertRecords;
  timezone: string;
  now: Date;
}): ScheduleOverview {
  const { schedules, problems } = listSchedules(input.reports, input.subscriptions, { timezone: input.timezone });
  const lineOf = (spec: ScheduleSpec, prefix: string): ScheduleLine => {
    const runs = input.runs.listByReport(spec.report, 50).filter((r) => r.idempotencyKey.startsWith(prefix));
    const lastRun = runs.find((r) => r.status !== 'running');
    const next = nextFires(spec, input.now, 1)[0];
    return {
      spec,
      ...(next ? { next } : {}),
      ...(lastRun ? { lastRun } : {}),
      ...(runs.some((r) => r.status === 'running') ? { running: true } : {}),
    };
  };
  const lines = schedules.map((spec) => lineOf(spec, `digest:${spec.report}:${spec.channel}:`));
  // Alert checks run on the same scheduler: listed with their next evaluation and what the last found.
  const alertList = listAlertSchedules(input.reports, { timezone: input.timezone });
  const alerts = alertList.schedules.map((spec) => {
    const line = lineOf(spec, `alert:${spec.report}:${spec.rule}:`);
    const rule = spec.rule ?? '';
    const evaluation = input.incidents?.getEvaluation(spec.report, rule);
    if (evaluation) line.evaluation = evaluation;
    if (input.incidents && line.lastRun?.scheduledFor && line.lastRun.status === 'succeeded')
      line.changes = alertChanges(input.incidents.listByReportRule(spec.report, rule), line.lastRun.scheduledFor);
    return line;
  });
  // Rules that cannot be evaluated (no schedule, no channel) are shown with what cannot run.
  return { lines, alerts, problems: [...problems, ...alertList.problems] };
}

/** One alert check as mrkdwn: report / rule → channel · timing, next evaluation, last outcome and findings. */
export function alertLineText({ spec, next, lastRun, running, changes, evaluation }: ScheduleLine): string {
  const where = spec.channel.startsWith('#') ? escapeMrkdwn(spec.channel) : `<#${spec.channel}>`;
  const when = next
    ? `next evaluation ${formatInZone(next, spec.timezone)} (${next.toISOString().slice(11, 16)} UTC)`
    : 'no next evaluation';
  const found = evaluation
    ? ` · ${evaluation.evaluated} checked, ${evaluation.breaching} in breach${evaluation.skipped ? `, ${evaluation.skipped} skipped` : ''}`
    : '';
  return `• \`${escapeMrkdwn(spec.report)}\` / \`${escapeMrkdwn(spec.rule ?? '')}\` → threads in ${where} · ${timingText(spec)}\n    ${when} · last: ${outcomeText(lastRun, changes)}${lastRun?.status === 'succeeded' ? found : ''}${running ? ' · :hourglass_flowing_sand: one running now' : ''}`;
}

/** One schedule as a line of mrkdwn: report → channel · timing · source, next fire, last outcome. */
export function scheduleLineText({ spec, next, lastRun, running }: ScheduleLine): string {
  const where = spec.channel.startsWith('#') ? escapeMrkdwn(spec.channel) : `<#${spec.channel}>`;
  const source = spec.source === 'subscription' ? 'subscription' : 'report file';
  const when = next
    ? `next ${formatInZone(next, spec.timezone)} (${next.toISOString().slice(11, 16)} UTC)`
    : 'no next fire';
  return `• \`${escapeMrkdwn(spec.report)}\` → ${where} · ${timingText(spec)} · ${source}\n    ${when} · last: ${outcomeText(lastRun)}${running ? ' · :hourglass_flowing_sand: one running now' : ''}`;
}

/** What cannot run, as mrkdwn lines. */
export function problemLines(problems: readonly ScheduleProblem[]): string {
  return problems
    .map(
      (p) =>
        `• \`${escapeMrkdwn(p.report)}\`${p.channel ? ` → ${escapeMrkdwn(p.channel)}` : ''}: ${escapeMrkdwn(p.message)}`,
    )
    .join('\n');
}

/** `/pivot schedule`: every schedule, its next fire, its last run; and what cannot run. */
export function scheduleListMessage({ lines, alerts = [], problems }: ScheduleOverview): SlackMessage {
  const blocks: Block[] = [];
  // Section text is limited: split long lists over several sections.
  const pushRows = (rows: readonly string[], heading?: string) => {
    let chunk: string[] = heading ? [heading] : [];
    let size = heading?.length ?? 0;
    for (const row of rows) {
      if (size + row.length > 2800 && chunk.length > 0) {
        blocks.push(section(chunk.join('\n')));
        chunk = [];
        size = 0;
      }
      chunk.push(row);
      size += row.length + 1;
    }
    if (chunk.length > 0) blocks.push(section(chunk.join('\n')));
  };
  if (lines.length === 0) {
    blocks.push(
      section(
        'No digest is scheduled. A report posts on a schedule when its file has `schedule` and `deliver.channels`; a channel subscribes with `/pivot subscribe <report>`.',
      ),
    );
  } else {
    pushRows(lines.map(scheduleLineText), alerts.length > 0 ? `*Digests (${lines.length})*` : undefined);
  }
  if (alerts.length > 0) {
    pushRows(
      alerts.map(alertLineText),
      `:rotating_light: *Alert checks (${alerts.length})*: rules evaluated on a schedule`,
    );
  }
  if (problems.length > 0) {
    blocks.push(section(`:warning: *Not running (${problems.length})*\n${problemLines(problems)}`));
  }
  blocks.push(note('History of one report: `/pivot history <report>`.'));
  return {
    text: `${lines.length} schedule(s)${alerts.length ? `, ${alerts.length} alert check(s)` : ''}${problems.length ? `, ${problems.length} not running` : ''}`,
    blocks: blocks.slice(0, 50),
  };
}

/**
 * `/pivot history <report>`: its last runs, newest first. An alert run names its rule and says what
 * its evaluation opened and resolved (from `incidents`, when given), never "posted".
 */
export function historyMessage(
  report: { id: string; title: string },
  runs: readonly Run[],
  incidents?: Pick<IncidentsRepository, 'listByReportRule'>,
): SlackMessage {
  if (runs.length === 0) {
    return {
      text: `${report.title}: no runs yet`,
      blocks: [section(`*${escapeMrkdwn(report.title)}* (\`${escapeMrkdwn(report.id)}\`) has not run yet.`)],
    };
  }
  const rows = runs.map((run) => historyLine(run, incidents));
  return {
    text: `${report.title}: last ${runs.length} run(s)`,
    blocks: [
      section(`*${escapeMrkdwn(report.title)}*: the last ${runs.length} run(s), newest first\n${rows.join('\n')}`),
    ],
  };
}

/**
 * One run as `/pivot history` and App Home list it: slot (or "by hand"), channel, outcome (late,
 * error) and duration; an alert check names its rule and what it opened and resolved.
 */
export function historyLine(run: Run, incidents?: Pick<IncidentsRepository, 'listByReportRule'>): string {
  const slot = run.scheduledFor
    ? `slot ${run.scheduledFor.slice(0, 16).replace('T', ' ')} UTC`
    : `by hand ${run.startedAt.slice(0, 16).replace('T', ' ')} UTC`;
  const where = run.channel
    ? ` · ${run.channel.startsWith('#') ? escapeMrkdwn(run.channel) : `<#${run.channel}>`}`
    : '';
  const took = run.durationMs !== undefined ? ` · ${(run.durationMs / 1000).toFixed(1)} s` : '';
  const rule = alertRuleOf(run);
  if (rule === undefined) return `• ${slot}${where} · ${outcomeText(run)}${took}`;
  const changes =
    incidents && run.scheduledFor && run.status === 'succeeded'
      ? alertChanges(incidents.listByReportRule(run.report, rule), run.scheduledFor)
      : undefined;
  return `• ${slot} · alert check \`${escapeMrkdwn(rule)}\`${where} · ${outcomeText(run, changes)}${took}`;
}

/** The confirmation of `/pivot subscribe`: what was saved and its next fires in the subscriber's zone. */
export function subscribedMessage(input: {
  created: boolean;
  channel: string;
  report: { id: string; title: string };
  timing: string;
  fires: readonly Date[];
  userZone: string;
}): SlackMessage {
  const verb = input.created ? 'Subscribed' : 'Updated the subscription of';
  const fires = input.fires.map((f) => formatInZone(f, input.userZone)).join(' · ');
  const text = `:white_check_mark: ${verb} <#${input.channel}> to *${escapeMrkdwn(input.report.title)}* (\`${escapeMrkdwn(input.report.id)}\`), ${input.timing}.`;
  return {
    text: text.replace(/[*`]/g, ''),
    blocks: [
      section(text),
      note(
        input.fires.length > 0
          ? `Next posts, in your time zone (${input.userZone}): ${fires}. \`/pivot unsubscribe ${input.report.id}\` stops them.`
          : 'This timing never fires; change it with `/pivot subscribe` again.',
      ),
    ],
  };
}
