/**
 * bench/render: chart rendering in process against the browser-screenshot method.
 * - median and p95 of a 1200×600 time-series chart (3 series × 90 points) on a warm renderer,
 *   at 2× pixel density (a 2400×1200 PNG), and at the digest's own size (one chart again and
 *   again, and two different charts in turn: the renderer keeps and updates a chart per size);
 * - at the digest size, Chart.js and Skia's drawing alone (no pixel copy, no PNG), in turn with
 *   whole renders: what no encoder can remove, so the browser's time over it bounds the ratio;
 * - memory growth over 5,000 renders (RSS and heap after GC, sampled every 1,000);
 * - the same chart encoded by Skia's own PNG encoder instead of ours (zlib level 1, no filter);
 * - the same Chart.js configuration rendered by headless Chromium (new page per chart in a warm
 *   browser, then a screenshot of the canvas: how the screenshot-based tools work), and the ratio;
 * - `pivotbot demo` wall time for every example report.
 *
 * Run: npx tsc -p tsconfig.build.json && node --expose-gc dist/bench/run.js render [--quick]
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { createCanvas } from '@napi-rs/canvas';
import { Chart } from 'chart.js';
import { runDemo } from '../../src/cli/runDemo.js';
import { type AnyChartConfig, buildChartConfig, ChartRenderer, type ChartSpec } from '../../src/render/index.js';
import type { PivotRow } from '../../src/reporting/index.js';
import type { ReportView, ViewColumn } from '../../src/reports/index.js';
import { launchChromium } from '../../test/support/chromium.js';
import { fmt, median, quantile, rssMiB } from '../support/stats.js';
import { isolation } from './isolation.js';

/** A 90-day view with spend, installs and CPI: three series, two units, so two axes. */
export function ninetyDayView(): ReportView {
  const metric = (
    key: string,
    label: string,
    unit: ViewColumn['unit'],
    polarity: ViewColumn['polarity'],
  ): ViewColumn => ({
    key,
    kind: 'metric',
    name: key,
    args: {},
    label,
    unit,
    polarity,
  });
  const rows: PivotRow[] = Array.from({ length: 90 }, (_, i) => {
    const spend = 4000 + 900 * Math.sin(i / 6) + 300 * Math.cos(i * 1.7);
    const installs = Math.round(1800 + 400 * Math.sin(i / 9 + 1) + 120 * Math.cos(i * 2.3));
    const date = new Date(Date.UTC(2026, 7, 22) + i * 86_400_000).toISOString().slice(0, 10);
    return { date: `${date}T00:00:00+00:00`, spend, installs, installsCpi: spend / installs };
  });
  return {
    reportId: 'bench',
    title: 'Spend, installs and CPI, last 90 days',
    range: {
      from: '2026-08-22T00:00:00Z',
      to: '2026-11-20T00:00:00Z',
      label: 'Last 90 days (22 Aug – 19 Nov 2026)',
      timezone: 'UTC',
    },
    columns: [
      { key: 'date', kind: 'dimension', name: 'date', args: {}, label: 'Date', unit: 'time', polarity: 'neutral' },
      metric('spend', 'Spend', 'currency', 'neutral'),
      metric('installs', 'Installs', 'count', 'higher_is_better'),
      metric('installsCpi', 'CPI', 'currency', 'lower_is_better'),
    ],
    rows,
    totalRowCount: rows.length,
    headline: ['spend', 'installs', 'installsCpi'],
    chart: { kind: 'line', x: 'date', series: ['spend', 'installs', 'installsCpi'] },
    mode: 'sync',
    warnings: [],
    generatedAt: '2026-11-20T09:00:00Z',
  };
}

/** Another digest chart of the same size: 60 days, other values, so other scales, ticks and labels. */
function otherDigestView(): ReportView {
  const view = ninetyDayView();
  const rows = view.rows.slice(30).map((row, i) => ({
    ...row,
    spend: Number(row.spend) * 2.3 + 500 * Math.sin(i / 3),
    installs: Math.round(Number(row.installs) * 0.4),
  }));
  return { ...view, title: 'Spend and installs, last 60 days', rows, totalRowCount: rows.length };
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

async function timeRenders(render: () => Promise<unknown>, n: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await render();
    samples.push(performance.now() - t);
  }
  return samples;
}

/** The config as JSON (tick callbacks are functions and do not cross into the page; Chart.js then uses its default labels). */
function pageHtml(chartJs: string, config: AnyChartConfig, width: number, height: number): string {
  const json = JSON.stringify({ ...config, options: { ...config.options, responsive: false, animation: false } });
  return `<!doctype html><html><body style="margin:0;background:#fff"><canvas id="c" width="${width}" height="${height}" style="width:${width}px;height:${height}px"></canvas>
<script>${chartJs}</script><script>Chart.defaults.font.family="'DejaVu Sans', sans-serif";new Chart(document.getElementById('c'),${json});window.done=true;</script></body></html>`;
}

async function chromiumMedian(
  config: AnyChartConfig,
  width: number,
  height: number,
  n: number,
): Promise<{ warm: number[]; cold: number[] }> {
  const require = createRequire(import.meta.url);
  // The UMD build is not in chart.js's exports map; it sits next to the CJS entry.
  const chartJs = await readFile(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
  const html = pageHtml(chartJs, config, width, height);
  const once = async (browser: import('playwright-core').Browser): Promise<Buffer> => {
    const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 2 });
    try {
      await page.setContent(html, { waitUntil: 'load' });
      await page.waitForFunction('window.done === true');
      return await page.locator('#c').screenshot({ type: 'png' });
    } finally {
      await page.close();
    }
  };
  const browser = await launchChromium();
  let warm: number[];
  try {
    await once(browser);
    warm = await timeRenders(() => once(browser), n);
  } finally {
    await browser.close();
  }
  const cold: number[] = [];
  for (let i = 0; i < Math.max(3, Math.floor(n / 4)); i++) {
    const t = performance.now();
    const b = await launchChromium();
    try {
      await once(b);
    } finally {
      await b.close();
    }
    cold.push(performance.now() - t);
  }
  return { warm, cold };
}

interface SizeResult {
  label: string;
  width: number;
  height: number;
  samples: number[];
}

async function timeSize(
  renderer: ChartRenderer,
  config: AnyChartConfig,
  width: number,
  height: number,
  n: number,
  label: string,
): Promise<SizeResult> {
  for (let i = 0; i < 10; i++) await renderer.renderConfig(config, width, height);
  const samples = await timeRenders(() => renderer.renderConfig(config, width, height), n);
  const png = await renderer.renderConfig(config, width, height);
  console.log(
    `${label}: ${png.readUInt32BE(16)}×${png.readUInt32BE(20)} px PNG, ${Math.round(png.length / 1024)} KiB, n=${n}`,
  );
  console.log(
    `  median ${fmt(median(samples))} ms  p95 ${fmt(quantile(samples, 0.95))} ms  (target for the digest size: median ≤ 10 ms)`,
  );
  return { label, width, height, samples };
}

/**
 * The part of a render no PNG encoder can remove: Chart.js updating a kept chart (layout, then its
 * draw calls) and Skia rasterising them, flushed by reading one pixel. Nothing is copied or encoded,
 * so the browser's time divided by this is the most any encoder could make the in-process ratio.
 * Timed in turn with whole renders of the same spec, so both see the same machine.
 */
async function drawOnlySamples(
  renderer: ChartRenderer,
  spec: ChartSpec,
  n: number,
): Promise<{ whole: number[]; drawOnly: number[] }> {
  const canvas = createCanvas(spec.width, spec.height);
  const options = () => ({ ...spec.config.options, responsive: false, animation: false, devicePixelRatio: 2 });
  const chart = new Chart(
    canvas as unknown as ConstructorParameters<typeof Chart>[0],
    {
      ...spec.config,
      options: options(),
    } as ConstructorParameters<typeof Chart>[1],
  );
  const draw = async () => {
    chart.options = options() as Chart['options'];
    chart.data = spec.config.data as Chart['data'];
    chart.update('none');
    canvas.getContext('2d').getImageData(0, 0, 1, 1);
    await setImmediate();
  };
  const whole: number[] = [];
  const drawOnly: number[] = [];
  try {
    for (let i = 0; i < 10; i++) await draw();
    for (let i = 0; i < n; i++) {
      whole.push(...(await timeRenders(() => renderer.render(spec), 1)));
      drawOnly.push(...(await timeRenders(draw, 1)));
    }
    return { whole, drawOnly };
  } finally {
    chart.destroy();
  }
}

export async function run(args: readonly string[]): Promise<void> {
  const quick = args.includes('--quick');
  const renders = quick ? 500 : 5000;
  const timed = quick ? 50 : 200;
  const spec = buildChartConfig(ninetyDayView());
  if (!spec) throw new Error('bench view has no chart');
  // First, while this process has drawn nothing: a worker's memory is not hidden by pages it shares.
  await isolation(ninetyDayView());
  const renderer = new ChartRenderer();
  console.log('time-series chart, 3 series × 90 points, two axes, warm renderer, 2× pixel density:');
  const sizes = [
    await timeSize(renderer, spec.config, 600, 300, timed, 'a 1200×600 px image (600×300 canvas at 2×)'),
    await timeSize(renderer, spec.config, 1200, 600, timed, 'a 1200×600 canvas at 2× (2400×1200 px)'),
    await timeSize(
      renderer,
      spec.config,
      spec.width,
      spec.height,
      timed,
      `the digest size (${spec.width}×${spec.height} canvas at 2×)`,
    ),
  ];

  // The renderer keeps one chart per size and updates it with the next config: the line above
  // draws one config again and again, this one two different charts in turn (other data, scales
  // and labels each time), so the kept chart is never handed what it drew last.
  const other = buildChartConfig(otherDigestView());
  if (!other) throw new Error('bench view has no chart');
  for (let i = 0; i < 10; i++) await renderer.render(i % 2 ? other : spec);
  let turn = 0;
  const alternating = await timeRenders(() => renderer.render(turn++ % 2 ? other : spec), timed);
  console.log(
    `  two different digest charts in turn: median ${fmt(median(alternating))} ms  p95 ${fmt(quantile(alternating, 0.95))} ms`,
  );

  const { whole, drawOnly } = await drawOnlySamples(renderer, spec, timed);
  console.log(
    `  Chart.js and Skia's drawing alone (no pixel copy, no PNG), in turn with whole renders: median ${fmt(median(drawOnly))} ms of ${fmt(median(whole))} ms`,
  );

  // The same drawing with Skia's own PNG encoder (no compression level: its default), for comparison.
  const skiaRender = async () => {
    const canvas = createCanvas(600, 300);
    const chart = new Chart(
      canvas as unknown as ConstructorParameters<typeof Chart>[0],
      {
        ...spec.config,
        options: { ...spec.config.options, responsive: false, animation: false, devicePixelRatio: 2 },
        plugins: [
          ...(spec.config.plugins ?? []),
          {
            id: 'bench-background',
            beforeDraw: (c: Chart) => {
              c.ctx.save();
              c.ctx.globalCompositeOperation = 'destination-over';
              c.ctx.fillStyle = '#FFFFFF';
              c.ctx.fillRect(0, 0, c.width, c.height);
              c.ctx.restore();
            },
          },
        ],
      } as ConstructorParameters<typeof Chart>[1],
    );
    try {
      return await canvas.encode('png');
    } finally {
      chart.destroy();
    }
  };
  for (let i = 0; i < 5; i++) await skiaRender();
  const skia = await timeRenders(skiaRender, timed);
  console.log(
    `the same 1200×600 px chart with Skia's own PNG encoder: median ${fmt(median(skia))} ms (${Math.round((await skiaRender()).length / 1024)} KiB) → ours is ${fmt(median(skia) / median((sizes[0] as SizeResult).samples))}× faster`,
  );

  const [W, H] = [600, 300];
  gc();
  const start = { rss: rssMiB(), heap: process.memoryUsage().heapUsed / 2 ** 20 };
  const samples: string[] = [];
  const t0 = performance.now();
  for (let i = 1; i <= renders; i++) {
    await renderer.renderConfig(spec.config, W, H);
    if (i % 1000 === 0 || i === renders) {
      gc();
      samples.push(`${i}: rss ${fmt(rssMiB(), 0)} MiB heap ${fmt(process.memoryUsage().heapUsed / 2 ** 20, 0)} MiB`);
    }
  }
  gc();
  const end = { rss: rssMiB(), heap: process.memoryUsage().heapUsed / 2 ** 20 };
  console.log(
    `memory over ${renders} renders of the 1200×600 px chart (${fmt((performance.now() - t0) / 1000)} s, after GC${(globalThis as { gc?: unknown }).gc ? '' : ' — run with --expose-gc'}):`,
  );
  console.log(
    `  rss ${fmt(start.rss, 0)} → ${fmt(end.rss, 0)} MiB (growth ${fmt(end.rss - start.rss)} MiB, target ≤ 50 MB); heap ${fmt(start.heap)} → ${fmt(end.heap)} MiB`,
  );
  console.log(`  ${samples.join(' · ')}`);

  console.log(
    'the same Chart.js configuration in headless Chromium (page with Chart.js, screenshot of the canvas at 2×):',
  );
  for (const size of [sizes[0], sizes[2]] as SizeResult[]) {
    const browser = await chromiumMedian(spec.config, size.width, size.height, quick ? 8 : 20);
    const ours = median(size.samples);
    console.log(`  ${size.label}:`);
    console.log(
      `    warm browser, new page per chart: median ${fmt(median(browser.warm))} ms  p95 ${fmt(quantile(browser.warm, 0.95))} ms → in process is ${fmt(median(browser.warm) / ours)}× faster (target ≥ 50×)`,
    );
    if (size === sizes[2]) {
      console.log(
        `    the drawing alone (a PNG encoder that cost nothing) would be ${fmt(median(browser.warm) / median(drawOnly))}× faster: the most any encoder could give`,
      );
    }
    console.log(
      `    browser launched per chart:       median ${fmt(median(browser.cold))} ms → in process is ${fmt(median(browser.cold) / ours)}× faster`,
    );
  }

  const out = await mkdtemp(join(tmpdir(), 'pivotbot-bench-demo-'));
  try {
    const t = performance.now();
    const demo = await runDemo({ reportsDir: 'reports', outDir: out, renderer });
    const ok = demo.reports.filter((r) => r.ok).length;
    console.log(
      `pivotbot demo (sandbox start + ${demo.reports.length} reports + charts + index.html): ${fmt((performance.now() - t) / 1000, 2)} s, ${ok}/${demo.reports.length} ok`,
    );
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
