import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SlackTestServer } from './slackTestServer.js';

/**
 * A report definition that posts a digest every `everySeconds` seconds (a seconds field in cron,
 * so scheduler tests run in seconds of real time), with a chart and its CSV.
 */
export function secondsReport(options: {
  title: string;
  channels: string[];
  everySeconds: number;
  catchUp?: string;
  /**
   * Give the report a chart of its own (default true). Without one (`false`) the digest still has the
   * default chart (a bar of the first headline metric by the first dimension), so a chart is drawn.
   * `'none'`: no chart at all (the query has no dimension, so there is no default chart either; the
   * digest is the headline KPIs and a one-row CSV), for tests about claims, where drawing only costs time.
   */
  chart?: boolean | 'none';
  /** `async` runs each digest as a Reporting Service job (default `sync`). */
  mode?: 'sync' | 'async';
  /**
   * Explain the headline KPIs that moved (default false: these digests fire every few seconds to
   * test the scheduler, and an explanation's queries would make each slot slower than its period).
   */
  explain?: boolean;
}) {
  return `title: ${options.title}
description: Spend and installs by platform, for scheduler tests.
query:
  dimensions: [${options.chart === 'none' ? '' : 'appPlatform'}]
  metrics: [impressions, spend, installs, installsCpi]
  range: yesterday
present:
  headline: [spend, installs, installsCpi]
  compare: previous_period${options.explain ? '' : '\n  explain: false'}${options.chart === false || options.chart === 'none' ? '' : '\n  chart: { type: bar, x: appPlatform, series: [spend] }'}
mode: ${options.mode ?? 'sync'}
schedule:
  cron: "*/${options.everySeconds} * * * * *"
  timezone: UTC
  retry: { attempts: 2, backoff: 1s }${options.catchUp ? `\n  catchUp: ${options.catchUp}` : ''}
deliver:
  channels: [${options.channels.map((c) => `"${c}"`).join(', ')}]
  csv: true
`;
}

/** Writes report files (`{ id: yaml }`) into `dir/reports` and returns that folder. */
export async function writeReports(dir: string, reports: Record<string, string>): Promise<string> {
  const folder = join(dir, 'reports');
  await mkdir(folder, { recursive: true });
  for (const [id, yaml] of Object.entries(reports)) await writeFile(join(folder, `${id}.yaml`), yaml);
  return folder;
}

/**
 * Spend by platform (two entities in the sandbox), watched by the rule `spend-high` every two
 * seconds: with `above: 0` every platform breaches at the first evaluation.
 */
export function spendWatchReport(options: { channel: string; above: number; explain?: boolean }): string {
  return `title: Spend watch
description: Spend by platform, watched every two seconds.
query:
  dimensions: [appPlatform]
  metrics: [spend]
  range: yesterday
  timezone: UTC${
    // Explanations of new incidents (default off here): their queries would make a two-second rule's evaluations overlap.
    options.explain ? '' : '\npresent:\n  explain: false'
  }
mode: sync
deliver:
  channels: ["${options.channel}"]
alerts:
  - id: spend-high
    metric: spend
    above: ${options.above}
    check: { cron: "*/2 * * * * *", timezone: UTC }
`;
}

/**
 * Fails the next file share into a digest's thread in `channelId` (a transient Slack error), as if
 * its process had died there: the attempt fails after its post. Resolves to that thread's ts and a
 * count of the shares made into it since.
 */
export async function failNextThreadUpload(
  slack: SlackTestServer,
  channelId: string,
): Promise<{ threadTs: string; uploadsIntoThread: () => number }> {
  let failed: string | undefined;
  slack.fail('files.completeUploadExternal', {
    error: 'internal_error',
    where: (args) => {
      if (args.channel_id !== channelId || typeof args.thread_ts !== 'string') return false;
      failed = args.thread_ts;
      return true;
    },
  });
  await slack.waitFor(() => failed !== undefined, 15_000, 'the failed upload');
  const threadTs = failed as string;
  return {
    threadTs,
    uploadsIntoThread: () =>
      slack.callsTo('files.completeUploadExternal').filter((c) => c.args.thread_ts === threadTs).length,
  };
}
