/**
 * Posts an explanation in a thread: the ranking of each explained KPI and, when it can be drawn,
 * the first KPI's contribution chart. Used under digests, alert parents, and for `/pivot why` and
 * the Explain button.
 */
import type { Logger } from '../core/index.js';
import type { ExplainedReport } from '../insights/index.js';
import {
  becauseLine,
  type ChartImage,
  type ExplainedMetric,
  explanationChartView,
  explanationMessage,
  type ViewChartRenderer,
} from '../render/index.js';
import type { MessageMetadata, SlackGateway } from '../slackapi/index.js';
import { postWithImage } from './postWithImage.js';

export interface PostExplanationDeps {
  slack: SlackGateway;
  charts: ViewChartRenderer;
  logger: Logger;
}

/** The digest's "because" lines: one per explained KPI, plus the ones that could not be explained. */
export function becauseLines(explained: ExplainedReport): string[] {
  return [
    ...explained.metrics.map((m) => becauseLine(m)),
    ...explained.skipped.map((s) => `${s.label}: not explained (${s.reason})`),
  ];
}

/**
 * Posts the explanation in `thread` (or as a new message when `threadTs` is absent). A chart that
 * cannot be drawn or uploaded is left out; the ranking always goes.
 *
 * @example await postExplanation(explained, { title: 'Daily KPIs', channel: 'C1', threadTs: ts }, deps);
 */
export async function postExplanation(
  explained: ExplainedReport,
  place: { title: string; channel: string; threadTs?: string; reportId?: string; metadata?: MessageMetadata },
  deps: PostExplanationDeps,
): Promise<{ ts: string; channel: string }> {
  const metrics = explained.metrics;
  const chart =
    metrics[0] && !metrics[0].explanation.diffuse ? await drawChart(metrics[0], explained, place, deps) : undefined;
  const build = (image?: ChartImage) => {
    const message = explanationMessage({
      title: place.title,
      periods: explained.periods,
      metrics,
      ...(image ? { chart: image } : {}),
    });
    if (explained.skipped.length > 0) {
      message.blocks.push({
        type: 'context',
        elements: explained.skipped.map((s) => ({ type: 'mrkdwn', text: `${s.label}: not explained (${s.reason})` })),
      });
    }
    return message;
  };
  const options = {
    ...(place.threadTs ? { threadTs: place.threadTs } : {}),
    ...(place.metadata ? { metadata: place.metadata } : {}),
  };
  if (!chart) return deps.slack.post(place.channel, build(), options);
  // Slack may still be processing the chart it was just given: postWithImage waits for it.
  const sent = await postWithImage(
    deps.slack,
    place.channel,
    { withImage: build(chart), withoutImage: build() },
    options,
  );
  return sent.posted;
}

async function drawChart(
  metric: ExplainedMetric,
  explained: ExplainedReport,
  place: { title: string; reportId?: string },
  deps: PostExplanationDeps,
): Promise<ChartImage | undefined> {
  if (metric.explanation.drivers.length === 0) return undefined;
  try {
    const view = explanationChartView(metric, {
      title: place.title,
      timezone: explained.timezone,
      ...(place.reportId ? { reportId: place.reportId } : {}),
    });
    const png = await deps.charts.renderView(view);
    if (!png) return undefined;
    const fileId = await deps.slack.uploadPrivate({
      filename: `${view.reportId}.png`,
      data: png.data,
      title: png.alt,
      altText: png.alt,
    });
    return fileId === undefined ? undefined : { slackFileId: fileId, alt: png.alt };
  } catch (error) {
    deps.logger.warn({ err: error }, 'explanation chart unavailable; posting the ranking without it');
    return undefined;
  }
}
