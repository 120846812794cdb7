import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { failpoint, type Logger, storedError } from '../core/index.js';
import {
  adhocMessage,
  type ChartImage,
  digestMessage,
  jobProgressMessage,
  type PacingFigures,
  type RenderedChart,
  type SlackMessage,
  type ViewChartKind,
  type ViewChartRenderer,
} from '../render/index.js';
import type { AsyncPivot, ReportingClient } from '../reporting/index.js';
import { type RangeSpec, type ReportDefinition, type ReportView, runReport } from '../reports/index.js';
import { type MessageMetadata, SlackDeliveryError, type SlackGateway } from '../slack/api/index.js';
import type { Store } from '../store/index.js';
import { becauseLines, explainMoved, postExplanation, reportPacing } from './index.js';
import { IMAGE_ERRORS, postWithImage } from './postWithImage.js';

/** Rows shown in a message's table; a longer result gets its CSV in the thread. */
export const TABLE_ROWS = 10;

export interface DeliveryDeps {
  slack: SlackGateway;
  client: ReportingClient;
  store: Store;
  /** Draws the charts: in a child process in the bot (`ChartProcessRenderer`). */
  charts: ViewChartRenderer;
  logger: Logger;
  clock: () => Date;
  /** Where runs write their CSV before it is uploaded (one folder per run, removed after). */
  workDir: string;
  defaultTimeZone: string;
  /** Aborted on shutdown: in-flight polling stops and its job stays active for the next start. */
  signal: AbortSignal;
  /** Waits before showing a just-uploaded chart again when Slack refuses it (default `IMAGE_RETRY_DELAYS_MS`). */
  imageRetryDelaysMs?: readonly number[];
}

/** What to run: a named report, or a compiled ad-hoc / postbacks query. */
export interface RunTarget {
  report: { id: string; definition: ReportDefinition };
  /** The query text for ad-hoc runs (echoed in the message, kept for re-runs). */
  query?: string;
  range?: RangeSpec;
  mode?: 'sync' | 'async' | 'auto';
  /** The asker wants the CSV whatever the size. */
  csv?: boolean;
  /** The instant the report's ranges are relative to (a scheduled slot); default now. */
  asOf?: Date;
  /**
   * What the first message carries: metadata (on the progress message of an async run too, so a
   * restart sees that the slot was started), and a digest's late note and notices.
   */
  post?: Pick<PostHow, 'metadata' | 'lateNote' | 'notices'>;
  /**
   * Explain the headline KPIs that moved past the report's `present.explain` threshold: a
   * "because" line each in the message, the full ranking in its thread (digests).
   */
  explain?: boolean;
  /** The answer to a reply in a thread: its first line states the refined query (`adhocMessage`). */
  followUp?: PostHow['followUp'];
  /**
   * Decides from the run's view whether to post it (quiet digests): `post: false` posts nothing,
   * or only `note` (the weekly all-quiet note), and the result says why it was skipped. A run that
   * went async posts regardless: its progress message is already in the channel.
   */
  gate?: (view: ReportView) => GateAnswer;
}

export type GateAnswer = { post: true } | { post: false; reason: string; note?: SlackMessage };

/** A gated run that did not post its result: why, and the ts of the note posted instead, if any. */
export interface NotPosted {
  view: ReportView;
  skipped: string;
  messageTs?: string;
}

export interface RunPlace {
  channel: string;
  user: string;
  /** Post into this thread instead of the channel (the CSV button). */
  threadTs?: string;
  /** Called once when the run becomes an async job (it will mostly wait from then on). */
  onAsync?: () => void;
  /** The store's run of a manual command: linked to its job, so a restart can finish it. */
  runId?: string;
}

export interface Delivered {
  view: ReportView;
  messageTs: string;
  jobId?: string;
}

/**
 * Runs a report or query and posts its result: a digest-style message with headline numbers,
 * table and chart in the channel, and the CSV in its thread when asked for or when the table was
 * cut. An async run first posts a progress message, stores the job (before polling starts),
 * updates the message in place, and delivers the result in its thread.
 */
export async function runAndDeliver(
  target: RunTarget,
  place: RunPlace,
  deps: DeliveryDeps,
): Promise<Delivered | NotPosted> {
  const runDir = join(deps.workDir, 'runs', randomUUID());
  await mkdir(runDir, { recursive: true });
  const title = target.report.definition.title;
  let progress: { jobId: string; ts: string; startedAt: string } | undefined;
  const onStatus = async (job: AsyncPivot) => {
    if (!progress) {
      place.onAsync?.();
      progress = await startJob(job, target, place, deps, target.post?.metadata);
      return;
    }
    await updateProgress(deps, place.channel, progress, { status: job.status, title });
  };
  try {
    const view = await runReport(
      target.report,
      { ...runDeps(target, runDir, deps), asyncWait: { onStatus, signal: deps.signal } },
      { ...(target.range !== undefined ? { range: target.range } : {}), ...(target.mode ? { mode: target.mode } : {}) },
    );
    const gated = progress ? undefined : target.gate?.(view);
    if (gated && !gated.post) {
      const note = gated.note
        ? await deps.slack.post(place.channel, gated.note, {
            ...(target.post?.metadata ? { metadata: target.post.metadata } : {}),
            signal: deps.signal,
          })
        : undefined;
      return { view, skipped: gated.reason, ...(note ? { messageTs: note.ts } : {}) };
    }
    const threadTs = progress?.ts ?? place.threadTs;
    const explained = target.explain
      ? await explainMoved(
          view,
          { report: target.report, asOf: target.asOf ?? deps.clock(), range: target.range },
          deps,
        )
      : undefined;
    const because = explained ? becauseLines(explained) : [];
    // A named report with a plan for this month says how its spend paces (ad-hoc queries have none).
    const pacing =
      target.query === undefined
        ? await reportPacing(target.report, target.asOf ?? deps.clock(), { ...deps, signal: deps.signal })
        : undefined;
    const { ts: messageTs, channel } = await postView(
      view,
      {
        ...target.post,
        ...(target.query !== undefined ? { query: target.query } : {}),
        ...(target.csv ? { csv: true } : {}),
        ...(because.length > 0 ? { because } : {}),
        ...(target.followUp ? { followUp: target.followUp } : {}),
        ...(pacing ? { pacing } : {}),
      },
      { ...place, ...(threadTs ? { threadTs } : {}) },
      deps,
    );
    if (explained && explained.metrics.length > 0) {
      await postExplanation(
        explained,
        { title: view.title, channel, threadTs: threadTs ?? messageTs, reportId: view.reportId },
        deps,
      ).catch((error: unknown) => {
        deps.logger.warn(
          { err: error, report: view.reportId },
          "could not post the explanation in the digest's thread",
        );
      });
    }
    if (progress) {
      await updateProgress(deps, place.channel, progress, {
        status: 'READY',
        title,
        ...(view.csvPath ? { resultName: basename(view.csvPath) } : {}),
      });
      await deps.store.jobs.update(progress.jobId, {
        status: 'succeeded',
        ...(view.csvPath ? { resultFile: basename(view.csvPath) } : {}),
      });
    }
    return { view, messageTs, ...(progress ? { jobId: progress.jobId } : {}) };
  } catch (error) {
    if (progress && !deps.signal.aborted) {
      // `/pivot status` shows this to users: their text and our code; the internal ones are in the log.
      const failure = storedError(error);
      await updateProgress(deps, place.channel, progress, { status: 'FAILED', title, error: failure.message });
      await deps.store.jobs.update(progress.jobId, { status: 'failed', error: failure }).catch(() => undefined);
    }
    throw error;
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }
}

/**
 * Runs a report again (as of `target.asOf`) and posts only what goes into its result's thread:
 * for a digest whose message went out but whose files died with the process that posted it.
 * Resolves to how many files were uploaded.
 */
export async function redeliverThreadFiles(
  target: RunTarget,
  thread: { channel: string; threadTs: string },
  deps: DeliveryDeps,
): Promise<number> {
  const runDir = join(deps.workDir, 'runs', randomUUID());
  await mkdir(runDir, { recursive: true });
  try {
    const view = await runReport(
      target.report,
      runDeps(target, runDir, deps),
      target.range !== undefined ? { range: target.range } : {},
    );
    return await postThreadFiles(view, target.csv ? { csv: true } : {}, thread, deps);
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }
}

/** What `runReport` needs for one run of `target`, its CSV written into `runDir`. */
function runDeps(target: RunTarget, runDir: string, deps: DeliveryDeps) {
  return {
    client: deps.client,
    now: target.asOf ? () => target.asOf as Date : deps.clock,
    outDir: runDir,
    viewJson: false,
    logger: deps.logger,
    defaultTimeZone: deps.defaultTimeZone,
    signal: deps.signal,
  };
}

/** Stores the job first (so a restart can resume it), then posts its progress message. */
async function startJob(
  job: AsyncPivot,
  target: RunTarget,
  place: RunPlace,
  deps: DeliveryDeps,
  metadata: MessageMetadata | undefined,
) {
  const startedAt = deps.clock().toISOString();
  await deps.store.jobs.create({
    id: job.id,
    request: {
      reportId: target.report.id,
      title: target.report.definition.title,
      ...(target.query ? { query: target.query } : {}),
      ...(target.range !== undefined ? { range: target.range } : {}),
      // Written with the job, so a run whose link below never landed still finds its job.
      ...(place.runId ? { runId: place.runId } : {}),
    },
    requester: place.user,
    channel: place.channel,
  });
  if (place.runId) await deps.store.runs.linkJob(place.runId, job.id);
  const message = jobProgressMessage({
    jobId: job.id,
    title: target.report.definition.title,
    status: job.status,
    startedAt,
    now: startedAt,
  });
  const { ts } = await deps.slack.post(place.channel, message, {
    ...(place.threadTs ? { threadTs: place.threadTs } : {}),
    ...(metadata ? { metadata } : {}),
  });
  await deps.store.jobs.update(job.id, { threadTs: ts, status: 'running' });
  return { jobId: job.id, ts, startedAt };
}

/** Redraws a job's progress message in place; a failed update is logged, never thrown. */
export async function updateProgress(
  deps: DeliveryDeps,
  channel: string,
  progress: { jobId: string; ts: string; startedAt: string },
  state: { status: string; title: string; resultName?: string; error?: string },
): Promise<void> {
  const message = jobProgressMessage({
    jobId: progress.jobId,
    startedAt: progress.startedAt,
    now: deps.clock().toISOString(),
    ...state,
  });
  try {
    await deps.slack.update(channel, progress.ts, message);
  } catch (error) {
    deps.logger.warn({ err: error, jobId: progress.jobId }, 'could not update the progress message');
  }
}

/** What `postView` needs: the gateway, the chart renderer and a logger. */
export type PostDeps = Pick<DeliveryDeps, 'slack' | 'charts' | 'logger' | 'imageRetryDelaysMs'> &
  Partial<Pick<DeliveryDeps, 'signal'>>;

/** How a result is posted: as an ad-hoc answer (with its query) or a digest, and what it carries. */
export interface PostHow {
  /** The query text of an ad-hoc answer; absent for a digest. */
  query?: string;
  /** Upload the CSV whatever the size. */
  csv?: boolean;
  /** Slack message metadata: how a restart finds this post in the channel's history. */
  metadata?: MessageMetadata;
  /** A digest posted after its time says so (see `digestMessage`). */
  lateNote?: string;
  /** Lines the reader must see, such as "data may be incomplete". */
  notices?: readonly string[];
  /** One "because" line per headline KPI that moved (digests). */
  because?: readonly string[];
  /** An ad-hoc answer to a reply in a thread: the refined query, the reply, what changed. */
  followUp?: { understood: string; reply: string; changed: string };
  /** The month's budget pacing (a named report with a plan for it): one line under the KPIs. */
  pacing?: PacingFigures;
}

/** Shown when a report's chart could not be drawn: the digest goes out without it, and says so. */
export const CHART_UNAVAILABLE = 'Chart unavailable: it could not be drawn this time. The numbers above are complete.';

/**
 * Posts a run's result: the message (digest, or the ad-hoc answer when `how.query` is set) with
 * its chart, and in its thread the postback share chart and, when asked for or when the table
 * was cut, the CSV. Resolves to the message's ts and the channel's id.
 *
 * @example const { ts } = await postView(view, {}, { channel: 'C123', user: 'U123' }, { slack, charts, logger });
 */
export async function postView(
  view: ReportView,
  how: PostHow,
  place: RunPlace,
  deps: PostDeps,
): Promise<{ ts: string; channel: string }> {
  const csvName = view.csvPath ? basename(view.csvPath) : undefined;
  const chartPng = await renderChart(view, deps);
  const notices = [...(how.notices ?? []), ...(chartPng === 'failed' ? [CHART_UNAVAILABLE] : [])];
  const build = (chart?: ChartImage): SlackMessage => {
    const options = {
      tableRows: TABLE_ROWS,
      ...(csvName ? { csvName } : {}),
      ...(chart ? { chart } : {}),
      ...(notices.length > 0 ? { notices } : {}),
      ...(how.because && how.because.length > 0 ? { because: how.because } : {}),
    };
    return how.query !== undefined
      ? adhocMessage(view, {
          ...options,
          query: how.query,
          userId: place.user,
          ...(how.followUp ? { followUp: how.followUp } : {}),
        })
      : digestMessage(view, {
          ...options,
          ...(how.lateNote ? { lateNote: how.lateNote } : {}),
          ...(how.pacing ? { pacing: how.pacing } : {}),
        });
  };
  // Each call checks the signal before it goes out (one already sent is let finish): a step stopped
  // after its post (shutdown, or the job queue's fence when another replica may have taken the slot
  // over) uploads nothing more; the next attempt finds the post and completes its thread.
  const call = deps.signal ? { signal: deps.signal } : {};
  const postOptions = {
    ...call,
    ...(place.threadTs ? { threadTs: place.threadTs } : {}),
    ...(how.metadata ? { metadata: how.metadata } : {}),
  };
  const chart = chartPng === 'failed' ? undefined : chartPng;
  let posted: { ts: string; channel: string };
  let chartPosted = false;
  const fileId = chart
    ? await deps.slack
        .uploadPrivate(
          { filename: `${view.reportId}.png`, data: chart.data, title: chart.alt, altText: chart.alt },
          call,
        )
        .catch((error: unknown) => {
          if (!(error instanceof SlackDeliveryError) || !IMAGE_ERRORS.has(error.slackError)) throw error;
          deps.logger.warn({ err: error }, 'chart upload refused; posting it in the thread instead');
          return undefined;
        })
    : undefined;
  if (chart && fileId !== undefined) {
    const sent = await postWithImage(
      deps.slack,
      place.channel,
      { withImage: build({ slackFileId: fileId, alt: chart.alt }), withoutImage: build() },
      postOptions,
      deps.imageRetryDelaysMs,
    );
    posted = sent.posted;
    chartPosted = sent.imageShown;
    if (sent.refused)
      deps.logger.warn({ err: sent.refused }, 'chart in the message refused; posting it in the thread instead');
  } else {
    posted = await deps.slack.post(place.channel, build(), postOptions);
  }
  deps.logger.debug({ channel: posted.channel, ts: posted.ts, report: view.reportId }, 'result message posted');
  // The crash test stops the bot here: the message is out, its thread's files are not.
  failpoint('result-after-post');
  // Uploads need the channel's id; a channel given as #name was resolved by the post.
  await postThreadFiles(
    view,
    how,
    { channel: posted.channel, threadTs: place.threadTs ?? posted.ts },
    deps,
    chart && !chartPosted ? chart : undefined,
  );
  return posted;
}

/**
 * What goes into a result's thread, in one upload: the chart when it could not be shown in the
 * message (`chartInThread`), the postback share chart, and the CSV when asked for or when the
 * table was cut. Resolves to how many files were uploaded.
 */
export async function postThreadFiles(
  view: ReportView,
  how: Pick<PostHow, 'csv'>,
  thread: { channel: string; threadTs: string },
  deps: PostDeps,
  chartInThread?: RenderedChart,
): Promise<number> {
  const files = [];
  if (chartInThread)
    files.push({ filename: `${view.reportId}.png`, data: chartInThread.data, title: chartInThread.alt });
  const sharePng = view.chart?.kind === 'share' ? undefined : await renderChart(view, deps, 'share');
  if (sharePng && sharePng !== 'failed')
    files.push({ filename: `${view.reportId}-postbacks.png`, data: sharePng.data, title: sharePng.alt });
  const cut = view.rows.length > TABLE_ROWS || view.totalRowCount > view.rows.length;
  if (view.csvPath && (how.csv || cut)) {
    files.push({
      filename: basename(view.csvPath),
      data: await readFile(view.csvPath),
      title: `${view.title}: ${view.range.label}`,
    });
  }
  if (files.length > 0)
    await deps.slack.upload(thread.channel, files, {
      threadTs: thread.threadTs,
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
  return files.length;
}

/**
 * The report's chart, or (`share`) the postback distribution chart; undefined when there is none,
 * `failed` when there is one that could not be drawn (logged; the message says so).
 */
async function renderChart(
  view: ReportView,
  deps: PostDeps,
  kind: ViewChartKind = 'main',
): Promise<RenderedChart | undefined | 'failed'> {
  try {
    return (await deps.charts.renderView(view, kind)) ?? undefined;
  } catch (error) {
    deps.logger.error({ err: error, report: view.reportId }, 'chart rendering failed; posting without it');
    return 'failed';
  }
}
