import { writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
  digestMessage,
  type PacingFigures,
  type SlackMessage,
  type ViewChartKind,
  type ViewChartRenderer,
} from '../render/index.js';
import type { ReportView } from '../reports/index.js';

/**
 * Writes a run's digest next to its CSV: the chart (`<id>.png`), the postback share chart when
 * the report has postbacks (`<id>-postbacks.png`), and the Slack message (`<id>.message.json`,
 * with the charts referenced by file name). `pivotbot run` and `pivotbot demo` both use it.
 *
 * @example const { message, files } = await writeDigestFiles(view, 'out', sharedChartRenderer());
 */
export async function writeDigestFiles(
  view: ReportView,
  outDir: string,
  renderer: ViewChartRenderer,
  options: { because?: readonly string[]; pacing?: PacingFigures } = {},
): Promise<{ message: SlackMessage; files: string[] }> {
  const files: string[] = [];
  const render = async (kind: ViewChartKind, name: string) => {
    const chart = await renderer.renderView(view, kind);
    if (!chart) return undefined;
    await writeFile(join(outDir, name), chart.data);
    files.push(name);
    return { url: name, alt: chart.alt };
  };
  const chart = await render('main', `${view.reportId}.png`);
  const shareChart = view.chart?.kind === 'share' ? undefined : await render('share', `${view.reportId}-postbacks.png`);
  const csvName = view.csvPath ? basename(view.csvPath) : undefined;
  if (csvName) files.push(csvName);
  const message = digestMessage(view, {
    ...(chart ? { chart } : {}),
    ...(shareChart ? { shareChart } : {}),
    ...(csvName ? { csvName } : {}),
    ...(options.because && options.because.length > 0 ? { because: options.because } : {}),
    ...(options.pacing ? { pacing: options.pacing } : {}),
  });
  const json = `${view.reportId}.message.json`;
  await writeFile(join(outDir, json), `${JSON.stringify(message, null, 2)}\n`);
  files.push(json);
  return { message, files };
}
