/**
 * The alert part of `pivotbot demo`: every rule of the example reports evaluated once against the
 * sandbox (as the scheduler would at this instant), each incident that opens shown as its Slack
 * thread, and the `/pivot alerts` summary. The parent is the real evaluation's; the reminder and
 * resolution in its thread are a simulation of what later evaluations post, and say so.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AlertCondition,
  type AlertTransition,
  durationMs,
  runRuleEvaluation,
  TREND_DAYS,
  type TrendShape,
} from '../alerts/index.js';
import { type Logger, toError } from '../core/index.js';
import { alertMessageInput, type MessageContext } from '../insights/index.js';
import {
  alertChartSpec,
  alertParentMessage,
  alertReplyMessage,
  type ChartImage,
  type ChartRenderer,
  chartLimits,
  type PacingChartDay,
  type PreviewEntry,
  pacingChartSpec,
  type SlackMessage,
  trendLimits,
} from '../render/index.js';
import type { ReportingClient } from '../reporting/index.js';
import type { LoadedReport } from '../reports/index.js';
import { alertsOverview } from '../slack/app/index.js';
import type { AlertEvaluation, AlertIncident } from '../store/index.js';

export interface DemoAlertsResult {
  entries: PreviewEntry[];
  /** Rules evaluated, incidents opened, rules that could not be evaluated (with why). */
  evaluated: number;
  opened: number;
  failed: Array<{ id: string; reason: string }>;
  files: string[];
}

const SIMULATED = '_Simulated in the demo: what a later evaluation posts in this thread._';

/**
 * Evaluates every rule and builds the preview entries: one thread per opened incident, then the
 * alerts summary.
 *
 * @example const alerts = await demoAlerts(loaded.reports, { client, now, outDir: 'out', logger, renderer });
 */
export async function demoAlerts(
  reports: readonly LoadedReport[],
  deps: { client: ReportingClient; now: Date; outDir: string; logger: Logger; renderer: ChartRenderer },
): Promise<DemoAlertsResult> {
  const out: DemoAlertsResult = { entries: [], evaluated: 0, opened: 0, failed: [], files: [] };
  const evaluations: AlertEvaluation[] = [];
  const open: AlertIncident[] = [];
  for (const report of reports) {
    for (const rule of report.definition.alerts ?? []) {
      const id = `${report.id}--${rule.id}`;
      try {
        const result = await runRuleEvaluation({
          report,
          rule,
          pivot: (request) => deps.client.pivot(request),
          state: { incidents: [] },
          now: deps.now,
          channel: report.definition.deliver?.channels?.[0] ?? 'demo',
          // As the bot does: a threshold or change incident's chart shows the entity's recent days.
          trendDays: TREND_DAYS,
        });
        out.evaluated++;
        evaluations.push(result.evaluation.nextState.evaluation);
        for (const t of result.evaluation.transitions) {
          if (t.kind !== 'open') continue;
          out.opened++;
          open.push(t.incident);
          const ctx: MessageContext = {
            rule,
            reportId: report.id,
            reportTitle: report.definition.title,
            timezone: result.timezone,
            rangeLabel: result.rangeLabel,
            now: deps.now,
            ...(report.definition.owners ? { owners: report.definition.owners } : {}),
          };
          const points =
            t.condition.kind === 'anomaly'
              ? (result.anomalyPoints?.(t.entityKey, t.value) ?? [])
              : (result.trend?.get(t.entityKey) ?? []);
          const chart = await drawChart(
            `${id}--${entitySlug(t.entityKey)}.png`,
            ctx,
            t,
            points,
            deps,
            out,
            result.trendShape,
            result.pacingPath,
          );
          out.entries.push(threadEntry(id, t, ctx, chart));
        }
      } catch (error) {
        const reason = toError(error).message;
        deps.logger.warn({ report: report.id, rule: rule.id, err: error }, 'demo alert evaluation failed');
        out.failed.push({ id, reason });
      }
    }
  }
  if (out.evaluated + out.failed.length > 0) {
    // The same summary as /pivot alerts, over this one evaluation of every rule.
    const message = alertsOverview({
      reports: { reports: [...reports] },
      incidents: { listEvaluations: () => evaluations, listOpen: () => open },
      now: deps.now,
      timezone: 'UTC',
    });
    await writeFile(join(deps.outDir, 'alerts.message.json'), `${JSON.stringify(message, null, 2)}\n`);
    out.files.push('alerts.message.json');
    out.entries.push({ id: 'alerts--summary', title: '/pivot alerts', kind: 'alerts summary', ok: true, message });
  }
  return out;
}

function entitySlug(key: string): string {
  return key.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'total';
}

async function drawChart(
  name: string,
  ctx: MessageContext,
  t: AlertTransition,
  points: ReadonlyArray<{ at: string; value: number }>,
  deps: { outDir: string; renderer: ChartRenderer; logger: Logger },
  out: DemoAlertsResult,
  shape?: TrendShape,
  pacingPath?: readonly PacingChartDay[],
): Promise<ChartImage | undefined> {
  const input = alertMessageInput(t.incident, ctx, t);
  if (input.metric.unit === 'text' || input.metric.unit === 'time') return undefined;
  // As the bot draws them: a pacing incident's chart is the month it judged.
  const spec =
    input.condition.kind === 'pacing'
      ? pacingPath &&
        pacingChartSpec({
          title: input.ruleName,
          label: input.metric.label,
          days: pacingPath,
          condition: input.condition,
          timezone: ctx.timezone,
        })
      : alertChartSpec({
          title: input.ruleName,
          metric: { ...input.metric, unit: input.metric.unit },
          points,
          ...(input.condition.kind === 'anomaly' ? chartLimits(input.condition) : trendLimits(input.condition, shape)),
          entity: input.entity ?? 'Total',
          timezone: ctx.timezone,
        });
  if (!spec) return undefined;
  try {
    await writeFile(join(deps.outDir, name), await deps.renderer.render(spec));
    out.files.push(name);
    return { url: name, alt: spec.alt };
  } catch (error) {
    deps.logger.warn({ err: error }, 'demo alert chart not drawn');
    return undefined;
  }
}

/** The thread of one opened incident: the real parent, then a simulated reminder and resolution. */
function threadEntry(id: string, t: AlertTransition, ctx: MessageContext, chart: ChartImage | undefined): PreviewEntry {
  const opened = alertMessageInput(t.incident, { ...ctx, ...(chart ? { chart } : {}) }, t);
  const parent = alertParentMessage(opened);
  const remindAt = new Date(ctx.now.getTime() + (ctx.rule.renotify ? durationMs(ctx.rule.renotify) : 6 * 3_600_000));
  const reminder = alertReplyMessage({ ...opened, now: remindAt.toISOString(), previousValue: t.value }, 'reminder');
  const resolvedAt = new Date(ctx.now.getTime() + 86_400_000).toISOString();
  const back = recoveredValue(opened.condition, opened.value);
  // A pacing resolution states the forecast it recovered to: the plan itself; a compound one the
  // condition that stopped holding.
  const condition =
    opened.condition.kind === 'pacing'
      ? { ...opened.condition, forecast: back, share: 1 }
      : opened.condition.kind === 'compound'
        ? recoveredParts(opened.condition)
        : opened.condition;
  const resolved = alertReplyMessage({ ...opened, value: back, condition, resolvedAt, now: resolvedAt }, 'resolved');
  return {
    id: `${id}--${entitySlug(t.entityKey)}`,
    title: `${ctx.reportTitle}: ${opened.ruleName} (${opened.entity ?? 'Total'})`,
    kind: 'alert thread (reminder and resolution simulated)',
    ok: true,
    message: parent,
    thread: [simulated(reminder), simulated(resolved)],
  };
}

/**
 * A value back on the safe side, for the simulated resolution: the usual value, the recovery
 * threshold, one past an `equals` target.
 */
function recoveredValue(c: AlertCondition, value: number | null | undefined): number {
  if (c.kind === 'anomaly') return c.median;
  if (c.kind === 'above') return (c.recovery ?? c.threshold) * 0.9;
  if (c.kind === 'below') return (c.recovery ?? c.threshold) * 1.1;
  if (c.kind === 'equals') return c.target + 1;
  if (c.kind === 'change') return c.comparisonValue ?? value ?? 0;
  if (c.kind === 'pacing') return c.plan;
  return value ?? 0;
}

/**
 * A compound condition that stopped holding, for the simulated resolution: its last condition back
 * on the safe side (`all` resolves when one stops), or every condition (`any` needs them all to).
 */
function recoveredParts(c: Extract<AlertCondition, { kind: 'compound' }>): AlertCondition {
  const last = c.parts.length - 1;
  return {
    ...c,
    parts: c.parts.map((p, i) =>
      c.mode === 'any' || i === last ? { ...p, value: recoveredValue(p.condition, p.value), breach: false } : p,
    ),
  };
}

function simulated(message: SlackMessage): SlackMessage {
  return {
    ...message,
    blocks: [...message.blocks, { type: 'context', elements: [{ type: 'mrkdwn', text: SIMULATED }] }],
  };
}
