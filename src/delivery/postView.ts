/**
 * Posting a run's result: the message (a digest, or an ad-hoc answer) with its chart in it when
 * Slack shows it, and in its thread the chart it would not show, the postback share chart and the
 * CSV. It runs nothing: the run is `runAndDeliver`'s (`deliverRun.ts`).
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { failpoint } from '../core/index.js';
import {
  adhocMessage,
  type ChartImage,
  digestMessage,
  type PacingFigures,
  type RenderedChart,
  type SlackMessage,
  type ViewChartKind,
} from '../render/index.js';
import type { ReportView } from '../reports/index.js';
import { type MessageMetadata, SlackDeliveryError } from '../slackapi/index.js';
import type { DeliveryDeps, RunPlace } from './DeliveryDeps.js';
import { IMAGE_ERRORS, postWithImage } from './postWithImage.js';

/** Rows shown in a message's table; a longer result gets its CSV in the thread. */
export const TABLE_ROWS = 10;

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
