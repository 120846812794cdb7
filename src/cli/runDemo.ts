/**
 * `pivotbot demo`: starts the sandbox in process, runs every report in the reports folder, and
 * writes to the out folder each message's Block Kit JSON, chart PNGs, CSV files and an
 * `index.html` that shows every message the way Slack would, with a summary.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ErrorCode, type Logger, silentLogger, suggest, toError } from '../core/index.js';
import { becauseLines } from '../delivery/index.js';
import { type ExplainedReport, explainMoved, reportPacing } from '../insights/index.js';
import {
  type ChartRenderer,
  errorMessage,
  explanationChartView,
  explanationMessage,
  jobProgressMessage,
  type PreviewEntry,
  type PreviewFile,
  renderHtmlPreview,
  type SlackMessage,
  sharedChartRenderer,
} from '../render/index.js';
import type { ReportingClient } from '../reporting/index.js';
import { formatReportProblem, type LoadedReport, loadReports, type ReportView, runReport } from '../reports/index.js';
import type { PlantInput } from '../sandbox/index.js';
import { demoAlerts } from './demoAlerts.js';
import { clientFor } from './openReporting.js';
import { writeDigestFiles } from './writeDigestFiles.js';

export interface DemoOptions {
  reportsDir: string;
  outDir: string;
  /** The clock: ranges resolve and the sandbox's data ends at this instant (default: now). */
  now?: Date;
  logger?: Logger;
  renderer?: ChartRenderer;
  /** Progress lines for the terminal. */
  progress?: (line: string) => void;
}

export interface DemoReportResult {
  id: string;
  ok: boolean;
  durationMs: number;
  /** Files written for this report, relative to the out folder. */
  files: string[];
  error?: string;
}

export interface DemoResult {
  reports: DemoReportResult[];
  /** The example reports' alert rules, evaluated once at the demo's instant. */
  alerts: { evaluated: number; opened: number; failed: Array<{ id: string; reason: string }> };
  /** Definitions that did not load, with their file:line problems. */
  broken: Array<{ id: string; reason: string }>;
  durationMs: number;
  indexPath: string;
}

const file = (name: string): PreviewFile => ({ name, href: encodeURI(name) });

/**
 * The causes the demo plants in its sandbox, besides the generated data's three anomalies: the top
 * publisher app (by spend) brings no install yesterday while its spend goes on, so the shipped
 * compound rule `bundle-spend-without-installs` (site-bundle-quality) opens its incident.
 */
export const DEMO_PLANTS: readonly PlantInput[] = [
  { where: { siteBundle: 'com.pub0.app' }, metric: 'installs', factor: 0, days: 'yesterday' },
];

/** Runs one report and renders its digest; writes `<id>.png`, `<id>.message.json` (and the CSV). */
async function runOne(
  report: LoadedReport,
  deps: { client: ReportingClient; now: Date; outDir: string; logger: Logger; renderer: ChartRenderer },
): Promise<{ result: DemoReportResult; entries: PreviewEntry[] }> {
  const started = performance.now();
  const files: string[] = [];
  const title = report.definition.title ?? report.id;
  try {
    const view = await runReport(report, {
      client: deps.client,
      now: () => deps.now,
      outDir: deps.outDir,
      logger: deps.logger,
    });
    // As the scheduler's digest: the headline KPIs that moved get a because line, the ranking goes in the thread.
    const explained = await explainMoved(
      view,
      { report, asOf: deps.now },
      { client: deps.client, logger: deps.logger, defaultTimeZone: 'UTC' },
    );
    // As the scheduler's digest: a report with a plan for this month gets its pacing line.
    const pacing = await reportPacing(report, deps.now, {
      client: deps.client,
      logger: deps.logger,
      defaultTimeZone: 'UTC',
    });
    const written = await writeDigestFiles(view, deps.outDir, deps.renderer, {
      ...(explained ? { because: becauseLines(explained) } : {}),
      ...(pacing ? { pacing } : {}),
    });
    files.push(...written.files);
    const message = written.message;
    const thread = explained && explained.metrics.length > 0 ? [await whyMessage(explained, view, deps, files)] : [];
    const durationMs = performance.now() - started;
    const entries: PreviewEntry[] = [
      {
        id: report.id,
        title: view.title,
        kind: 'digest',
        ok: true,
        message,
        ...(thread.length > 0 ? { thread } : {}),
        files: files.map(file),
        durationMs,
      },
    ];
    if (view.mode === 'async') {
      // An async report first shows a progress message, updated in place when the job is done.
      const job = jobProgressMessage({
        jobId: `${report.id}-job`,
        title: view.title,
        status: 'READY',
        startedAt: new Date(deps.now.getTime() - durationMs).toISOString(),
        now: deps.now.toISOString(),
        ...(view.csvPath ? { resultName: basename(view.csvPath) } : {}),
      });
      entries.unshift({
        id: `${report.id}--job`,
        title: `${view.title}: async job`,
        kind: 'async job',
        ok: true,
        message: job,
      });
    }
    return { result: { id: report.id, ok: true, durationMs, files }, entries };
  } catch (error) {
    const err = toError(error);
    const userMessage = (err as { userMessage?: string }).userMessage ?? err.message;
    deps.logger.warn({ report: report.id, err }, 'demo report failed');
    const message = errorMessage({
      userMessage,
      action: `Running ${title}`,
      hint: 'Check the report with `pivotbot validate`, then run it alone with `pivotbot run`.',
    });
    const json = `${report.id}.message.json`;
    await writeFile(join(deps.outDir, json), `${JSON.stringify(message, null, 2)}\n`);
    const durationMs = performance.now() - started;
    return {
      result: { id: report.id, ok: false, durationMs, files: [json], error: err.message },
      entries: [{ id: report.id, title, kind: 'failed', ok: false, message, files: [file(json)], durationMs }],
    };
  }
}

/** The explanation in a digest's thread, its contribution chart written as `<id>-why.png`. */
async function whyMessage(
  explained: ExplainedReport,
  view: ReportView,
  deps: { outDir: string; renderer: ChartRenderer },
  files: string[],
): Promise<SlackMessage> {
  const first = explained.metrics[0];
  let chart: { url: string; alt: string } | undefined;
  if (first && !first.explanation.diffuse && first.explanation.drivers.length > 0) {
    const png = await deps.renderer.renderView(
      explanationChartView(first, { title: view.title, timezone: explained.timezone, reportId: view.reportId }),
    );
    if (png) {
      const name = `${view.reportId}-why.png`;
      await writeFile(join(deps.outDir, name), png.data);
      files.push(name);
      chart = { url: name, alt: png.alt };
    }
  }
  return explanationMessage({
    title: view.title,
    periods: explained.periods,
    metrics: explained.metrics,
    ...(chart ? { chart } : {}),
  });
}

/** An example of the error message a mistyped report name gets, with real suggestions. */
function typoExample(ids: readonly string[]): SlackMessage | undefined {
  const first = ids[0];
  if (!first) return undefined;
  const typo = `${first.slice(0, -1)}`;
  return errorMessage({
    userMessage: `No report named "${typo}".`,
    suggestions: suggest(typo, ids).length > 0 ? suggest(typo, ids) : [first],
    hint: '`/pivot list` shows every report.',
    code: ErrorCode.ReportNotFound,
    action: `/pivot run ${typo}`,
  });
}

/**
 * Runs the demo and writes `index.html`; resolves with what ran and what failed.
 *
 * @example const result = await runDemo({ reportsDir: 'reports', outDir: 'out' });
 */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const started = performance.now();
  const now = options.now ?? new Date();
  const logger = options.logger ?? silentLogger();
  const renderer = options.renderer ?? sharedChartRenderer();
  const progress = options.progress ?? (() => {});
  await mkdir(options.outDir, { recursive: true });
  const loaded = await loadReports(options.reportsDir, { now });
  const broken = loaded.broken.map((id) => ({
    id,
    reason: loaded.problems
      .filter((p) => basename(p.file).replace(/\.ya?ml$/i, '') === id)
      .map(formatReportProblem)
      .join('; '),
  }));
  const { startSandbox } = await import('../sandbox/index.js');
  progress('starting the sandbox…');
  const sandbox = await startSandbox({ port: 0, scale: 'small', now, logger, plants: DEMO_PLANTS });
  const results: DemoReportResult[] = [];
  const entries: PreviewEntry[] = [];
  let alerts: Awaited<ReturnType<typeof demoAlerts>> = { entries: [], evaluated: 0, opened: 0, failed: [], files: [] };
  try {
    const client = clientFor(sandbox, logger);
    for (const report of loaded.reports) {
      const one = await runOne(report, { client, now, outDir: options.outDir, logger, renderer });
      results.push(one.result);
      entries.push(...one.entries);
      progress(
        `${one.result.ok ? 'ok  ' : 'FAIL'} ${report.id} (${Math.round(one.result.durationMs)} ms)${one.result.error ? `: ${one.result.error}` : ''}`,
      );
    }
    // Alerts after digests, as the scheduler evaluates them when a report's schedule fires.
    alerts = await demoAlerts(loaded.reports, { client, now, outDir: options.outDir, logger, renderer });
    entries.push(...alerts.entries);
    progress(
      `alerts: ${alerts.evaluated} rule(s) evaluated, ${alerts.opened} incident(s) opened${alerts.failed.length ? `, ${alerts.failed.length} failed` : ''}`,
    );
  } finally {
    await sandbox.stop();
  }
  const typo = typoExample(loaded.reports.map((r) => r.id));
  if (typo)
    entries.push({
      id: 'example--error',
      title: 'Example: a mistyped report name',
      kind: 'error',
      ok: true,
      message: typo,
    });
  const durationMs = performance.now() - started;
  const indexPath = join(options.outDir, 'index.html');
  const html = renderHtmlPreview({
    title: 'pivotbot demo',
    generatedAt: now.toISOString(),
    durationMs,
    reportCount: results.length + broken.length,
    entries,
    failures: [
      ...broken,
      ...results.filter((r) => !r.ok).map((r) => ({ id: r.id, reason: r.error ?? 'failed' })),
      ...alerts.failed,
    ],
  });
  await writeFile(indexPath, html);
  const { evaluated, opened, failed } = alerts;
  return { reports: results, alerts: { evaluated, opened, failed }, broken, durationMs, indexPath };
}

/** For a caught error: the message without a stack, for the terminal. */
export function describeFailure(error: unknown): string {
  return toError(error).message;
}
