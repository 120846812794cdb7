import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A report definition that posts a digest every `everySeconds` seconds (a seconds field in cron,
 * so scheduler tests run in seconds of real time), with a chart and its CSV.
 */
export function secondsReport(options: {
  title: string;
  channels: string[];
  everySeconds: number;
  catchUp?: string;
  /** Draw a chart (default true); without one, no chart process starts. */
  chart?: boolean;
}) {
  return `title: ${options.title}
description: Spend and installs by platform, for scheduler tests.
query:
  dimensions: [appPlatform]
  metrics: [impressions, spend, installs, installsCpi]
  range: yesterday
present:
  headline: [spend, installs, installsCpi]
  compare: previous_period${options.chart === false ? '' : '\n  chart: { type: bar, x: appPlatform, series: [spend] }'}
mode: sync
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
export function spendWatchReport(options: { channel: string; above: number }): string {
  return `title: Spend watch
description: Spend by platform, watched every two seconds.
query:
  dimensions: [appPlatform]
  metrics: [spend]
  range: yesterday
  timezone: UTC
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
